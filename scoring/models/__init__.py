"""The ledger: players, sittings (bàn), games (ván), their payments and an append-only history.

Money is whole đồng in integer columns. The engine (``scoring.engine``) computes every amount;
these models only store what it produced, and ``scoring.services`` is the one place that writes.

One module per concern, each importing only those before it (a later model is named by a
string where an earlier one points at it): ``groups`` (groups, players, invitations, period
closes), ``sittings`` (sittings and everything a game writes), ``history`` (both books'
hash-chained histories), ``checks`` (the checks' own rows), ``joins`` ("Mời cả bàn") and
``archives`` (a group's archive tasks). Every name is imported from here.
"""

from scoring.models.archives import ArchiveTask, KeptArchive
from scoring.models.checks import BookCheck, Routine
from scoring.models.groups import (
    Group,
    GroupQuerySet,
    Invitation,
    PeriodClose,
    PeriodCloseQuerySet,
    Player,
    PlayerQuerySet,
    default_group_name,
    settlements_in_period,
    sittings_in_period,
)
from scoring.models.history import ChainedHistory, GroupHistoryEntry, HistoryEntry, HistoryManager
from scoring.models.joins import JoinClaim, JoinCode, JoinRefusal, RetiredLink
from scoring.models.sittings import (
    MAX_GAMES,
    MAX_MEMBERS,
    MAX_SETTLEMENTS,
    PLAYER_COLUMNS,
    PLAYER_ROWS,
    Game,
    GameQuerySet,
    Membership,
    Payment,
    PaymentQuerySet,
    SavedRuleSet,
    Seat,
    SeatQuerySet,
    Settlement,
    SettlementQuerySet,
    Sitting,
    SittingFlow,
    SittingTotal,
)

__all__ = [
    "MAX_GAMES",
    "MAX_MEMBERS",
    "MAX_SETTLEMENTS",
    "PLAYER_COLUMNS",
    "PLAYER_ROWS",
    "ArchiveTask",
    "BookCheck",
    "ChainedHistory",
    "Game",
    "GameQuerySet",
    "Group",
    "GroupHistoryEntry",
    "GroupQuerySet",
    "HistoryEntry",
    "HistoryManager",
    "Invitation",
    "JoinClaim",
    "JoinCode",
    "JoinRefusal",
    "KeptArchive",
    "Membership",
    "Payment",
    "PaymentQuerySet",
    "PeriodClose",
    "PeriodCloseQuerySet",
    "Player",
    "PlayerQuerySet",
    "RetiredLink",
    "Routine",
    "SavedRuleSet",
    "Seat",
    "SeatQuerySet",
    "Settlement",
    "SettlementQuerySet",
    "Sitting",
    "SittingFlow",
    "SittingTotal",
    "default_group_name",
    "settlements_in_period",
    "sittings_in_period",
]
