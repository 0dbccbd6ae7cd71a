"""Every write to the ledger, one function each, each inside one transaction.

Views and forms call these; they never compute money, and these never read for a page (that
is ``scoring.ledger``). Each write locks the sitting row first, so game numbers stay unique and
``Sitting.version`` moves once per change (and not at all for a write that changes nothing),
appends a ``HistoryEntry`` instead of overwriting anything, and leaves the sitting's totals
equal to the sum of its active games' current payments.

One module per thing written:

- ``common``: the errors (``InvalidInput``, ``Conflict``), the sitting locks, the text check;
- ``sittings``: opening a sitting and changing its players;
- ``games``: recording, editing, voiding and restoring games, undo and redo;
- ``settlements``: money handed over at settle-up;
- ``players``: a player's record, merging two of them, bank accounts;
- ``links``: the read-only links, one shape: a sitting's live link, a group's, a player's own;
- ``joins``: "Mời cả bàn", the whole table taking their own links from one QR code;
- ``receipts``: the payee's "đã nhận" and its undo;
- ``sharing``: invitations and co-scorekeepers;
- ``bulk_import``: a checked session file written as a new sitting, in bulk;
- ``group_archive``: a group's archive (``scoring.ledger.archive``) read, written as a new
  group and checked book by book;
- ``checks``: the last check of a book against its chain (``verify_ledger``, "Kiểm tra sổ");
- ``totals``: each sitting's stored totals, recomputed by every write that changes them;
- ``groups``: groups, their scorekeepers, the live link's leaderboard, group-wide
  settlements, closing a period, moving a sitting between groups, merging a group's
  duplicate players.

Every public function is importable from here too (``services.game_record(...)``).
"""

from scoring.services.bulk_import import Imported, session_import, write_session
from scoring.services.checks import book_check_record, routine_record
from scoring.services.common import (
    Conflict,
    InvalidInput,
    account_named,
    bump,
    check_amount,
    lock_sitting,
    lock_sitting_row,
    lock_sittings,
    refuse_if_frozen,
    safe_text,
    write_once,
)
from scoring.services.games import (
    UNDOABLE,
    Change,
    Scored,
    game_edit,
    game_record,
    game_restore,
    game_score,
    game_void,
    sitting_redo,
    sitting_undo,
    undo_entry_redoable,
)
from scoring.services.groups import (
    Written,
    group_accept,
    group_create,
    group_decline,
    group_invite,
    group_keeper_leave,
    group_keeper_remove,
    group_live_leaderboard,
    group_player_merge,
    group_rename,
    group_settlement_record,
    group_settlement_void,
    group_share,
    group_withdraw,
    lock_group,
    period_close,
    period_close_undo,
    sitting_move,
)
from scoring.services.joins import (
    NameTaken,
    join_claim,
    join_code,
    join_refused,
    join_reset,
    night_end,
    open_code,
)
from scoring.services.links import LINK_ACTIONS, group_live_link, player_link, sitting_live_link
from scoring.services.players import (
    clean_account,
    clean_holder,
    player_get_or_create,
    player_merge,
    player_set_bank,
)
from scoring.services.receipts import (
    Receipt,
    settlement_confirm,
    settlement_unconfirm,
)
from scoring.services.settlements import settlement_record, settlement_void
from scoring.services.sharing import (
    invitation_accept,
    invitation_decline,
    invitation_send,
    invitation_withdraw,
    pending_for,
    scorekeeper_leave,
    scorekeeper_remove,
    sitting_share,
)
from scoring.services.sittings import sitting_open, sitting_open_once, sitting_set_members
from scoring.services.totals import refresh_totals
from scoring.text.wording import (
    REDO_NOTE,
    SETTLEMENT_VOID_NOTE,
    UNDO_RECORD_NOTE,
    UNDO_RESTORE_NOTE,
)

__all__ = [
    "LINK_ACTIONS",
    "REDO_NOTE",
    "SETTLEMENT_VOID_NOTE",
    "UNDOABLE",
    "UNDO_RECORD_NOTE",
    "UNDO_RESTORE_NOTE",
    "Change",
    "Conflict",
    "Imported",
    "InvalidInput",
    "NameTaken",
    "Receipt",
    "Scored",
    "Written",
    "account_named",
    "book_check_record",
    "bump",
    "check_amount",
    "clean_account",
    "clean_holder",
    "game_edit",
    "game_record",
    "game_restore",
    "game_score",
    "game_void",
    "group_accept",
    "group_create",
    "group_decline",
    "group_invite",
    "group_keeper_leave",
    "group_keeper_remove",
    "group_live_leaderboard",
    "group_live_link",
    "group_player_merge",
    "group_rename",
    "group_settlement_record",
    "group_settlement_void",
    "group_share",
    "group_withdraw",
    "invitation_accept",
    "invitation_decline",
    "invitation_send",
    "invitation_withdraw",
    "join_claim",
    "join_code",
    "join_refused",
    "join_reset",
    "lock_group",
    "lock_sitting",
    "lock_sitting_row",
    "lock_sittings",
    "night_end",
    "open_code",
    "pending_for",
    "period_close",
    "period_close_undo",
    "player_get_or_create",
    "player_link",
    "player_merge",
    "player_set_bank",
    "refresh_totals",
    "refuse_if_frozen",
    "routine_record",
    "safe_text",
    "scorekeeper_leave",
    "scorekeeper_remove",
    "session_import",
    "settlement_confirm",
    "settlement_record",
    "settlement_unconfirm",
    "settlement_void",
    "sitting_live_link",
    "sitting_move",
    "sitting_open",
    "sitting_open_once",
    "sitting_redo",
    "sitting_set_members",
    "sitting_share",
    "sitting_undo",
    "undo_entry_redoable",
    "write_once",
    "write_session",
]
