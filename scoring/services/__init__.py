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
- ``group_archive``: a group's archive (``scoring.ledger.archive_file`` reads it) written as
  a new group and checked book by book;
- ``checks``: the last check of a book against its chain (``verify_ledger``, "Kiểm tra sổ");
- ``totals``: each sitting's stored totals, recomputed by every write that changes them;
- ``groups``: groups, their scorekeepers, the live link's leaderboard, group-wide
  settlements, closing a period, moving a sitting between groups, merging a group's
  duplicate players.

Each service, its result types and its errors are importable from here
(``services.game_record(...)``); what the services share among themselves (the locks, the
checks of an amount or a text, ``write_once``) stays in its module.
"""

from scoring.services.bulk_import import Imported, session_import
from scoring.services.checks import book_check_record, routine_record
from scoring.services.common import (
    Conflict,
    InvalidInput,
)
from scoring.services.games import (
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
from scoring.services.links import group_live_link, player_link, sitting_live_link
from scoring.services.players import (
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

__all__ = [
    "Change",
    "Conflict",
    "Imported",
    "InvalidInput",
    "NameTaken",
    "Receipt",
    "Scored",
    "Written",
    "book_check_record",
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
    "routine_record",
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
]
