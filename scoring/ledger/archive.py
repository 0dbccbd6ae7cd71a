"""A group's archive: everything of a group in one JSON document, to take to another server.

``export_group ID --format archive`` and the owner's "Tải bản lưu trữ nhóm" write it;
``import_group`` and "Nhập nhóm" read it back (``scoring.ledger.archive_file``, then
``scoring.services.group_archive``), and the moved group and each of its sittings keep their
fingerprints. The archive, version 2::

    {"format": "so-tien-len/group-archive", "version": 1,
     "exported_at": "2026-12-03T18:00:00.000000+00:00",
     "group": {"name", "owner", "created_at", "live_leaderboard"},
     "players": [{"n": 1, "name", "merged_into": <n> | null, "bank_bin", "bank_account",
                  "bank_holder", "created_at"}, …],
     "periods": [{"n": 1, "closes_through", "through_sitting", "created_at", "created_by",
                  "undone_at", "undone_by"}, …],
     "settlements": [<the group-wide settlements, with "date">, …],
     "history": [{<the entry's fields, as the chain covers them>, "sitting": <n> | null,
                  "hash"}, …],
     "covers": {"history": <the group's head>, "sittings": [[name, date, head], …],
                "players": [[name, merged into <n> | null, bank_bin, bank_account,
                             bank_holder], …]},
     "fingerprint": "7F3K-9QX2",                               # the seal of "covers"
     "sittings": [{"n": 1, "name", "date", "rules", "rules_label", "stake", "created_at",
                   "members": [<player n>, …],                  # seating order
                   "games": [{"number", "revision", "record", "void", "void_reason",
                              "led_by", "next_leader", "created_by", "created_at",
                              "updated_at"}, …],
                   "settlements": [{"n", "from", "to", "amount", "void", "void_reason",
                                    "created_at", "created_by", "confirmed_at",
                                    "confirmed_by", "confirmed_by_payee"}, …],
                   "history": [{<fields>, "hash"}, …],
                   "fingerprint": …}, …]}

Rows are named by their number within the archive (``n``, from 1, in the order they were
made), players by that number, people by username; no row id of this server appears. Lists
are in a fixed order (the order things were made, games by number), so the same group gives
the same document. A group entry's ``"sitting"`` is the number of the sitting it links to
when that sitting is in the archive; it is not part of the hash (the entry names the sitting
in its ``after``). Access (scorekeepers, invitations, live and player links) belongs to a
server and is not in the archive; each game's payments and seats are the engine's, worked out
again from its record on import, as ``verify_ledger`` checks them; earlier revisions of a
game are in its history.

``"covers"`` is what the group's fingerprint covers (``scoring.engine.chain.group_covers``,
``docs/ledger-check.md``): the import recomputes it from what it wrote, and names the first
part that differs (a sitting missing or moved to another date, a player's bank account).
"""

from __future__ import annotations

import gzip
import json
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from scoring.engine import chain, limits
from scoring.ledger import verify
from scoring.models import (
    Game,
    Group,
    GroupHistoryEntry,
    HistoryEntry,
    Membership,
    PeriodClose,
    Player,
    Settlement,
    Sitting,
)
from scoring.text.filenames import file_name

FORMAT = "so-tien-len/group-archive"
VERSION = 2
#: The versions the import reads: 1 (before ``covers``: its group fingerprint is the group's
#: own head) and this one.
READS = (1, 2)


def _when(at: datetime | None) -> str | None:
    return None if at is None else chain.when(at)


class _Writer:
    """Numbers and names for the rows of one group, read once."""

    def __init__(self, group: Group) -> None:
        self.group = group
        self.sittings = list(Sitting.objects.filter(group=group).order_by("id"))
        sitting_ids = [s.pk for s in self.sittings]
        used: set[int] = set(Player.objects.filter(group=group).values_list("pk", flat=True))
        # A sitting's player is its group's; any other (a row left by hand) still goes along.
        used |= set(
            Membership.objects.filter(sitting__in=sitting_ids).values_list("player_id", flat=True)
        )
        self.players = list(Player.objects.filter(pk__in=used).order_by("id"))
        self.player_n = {p.pk: n for n, p in enumerate(self.players, 1)}
        self.sitting_n = {s.pk: n for n, s in enumerate(self.sittings, 1)}
        self.users: dict[int, str] = {}

    def user(self, pk: int | None) -> str | None:
        if pk is None:
            return None
        if pk not in self.users:
            model = get_user_model()
            found = model._default_manager.filter(pk=pk).first()
            self.users[pk] = found.get_username() if found is not None else ""
        return self.users[pk] or None

    def player(self, pk: int | None) -> int | None:
        return None if pk is None else self.player_n[pk]

    def settlement(self, s: Settlement, n: int, *, dated: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"n": n}
        if dated:
            out["date"] = s.date.isoformat() if s.date else None
        out.update(
            {
                "from": self.player(s.payer_id),
                "to": self.player(s.payee_id),
                "amount": s.amount,
                "void": s.is_void,
                "void_reason": s.void_reason,
                "created_at": _when(s.created_at),
                "created_by": self.user(s.created_by_id),
                "confirmed_at": _when(s.confirmed_at),
                "confirmed_by": self.user(s.confirmed_by_id),
                "confirmed_by_payee": s.confirmed_by_payee,
            }
        )
        return out

    def sitting(self, sitting: Sitting, n: int) -> dict[str, Any]:
        games = [
            {
                "number": g.number,
                "revision": g.revision,
                "record": g.record,
                "void": g.is_void,
                "void_reason": g.void_reason,
                "led_by": self.player(g.led_by_id),
                "next_leader": self.player(g.next_leader_id),
                "created_by": self.user(g.created_by_id),
                "created_at": _when(g.created_at),
                "updated_at": _when(g.updated_at),
            }
            for g in Game.objects.filter(sitting=sitting).order_by("number")
        ]
        settlements = Settlement.objects.filter(sitting=sitting).order_by("id")
        history = [
            {**chain.fields(e), "hash": e.hash} for e in chain.entries(HistoryEntry, sitting.pk)
        ]
        members = sitting.memberships.order_by("position", "id").values_list("player_id", flat=True)
        return {
            "n": n,
            "name": sitting.name,
            "date": sitting.date.isoformat(),
            "rules": sitting.rules,
            "rules_label": sitting.rules_label,
            "stake": sitting.stake,
            "created_at": _when(sitting.created_at),
            "members": [self.player_n[pk] for pk in members],
            "games": games,
            "settlements": [
                self.settlement(s, k, dated=False) for k, s in enumerate(settlements, 1)
            ],
            "history": history,
            "fingerprint": chain.fingerprint(history[-1]["hash"] if history else ""),
        }


def archive_build(group: Group) -> dict[str, Any]:
    """The archive of a group, as a JSON-ready dict."""
    w = _Writer(group)
    players = [
        {
            "n": n,
            "name": p.name,
            "merged_into": w.player(p.merged_into_id),
            "bank_bin": p.bank_bin,
            "bank_account": p.bank_account,
            "bank_holder": p.bank_holder,
            "created_at": _when(p.created_at),
        }
        for n, p in enumerate(w.players, 1)
    ]
    periods = [
        {
            "n": n,
            "closes_through": c.closes_through.isoformat(),
            # On its last day a close covers the sittings up to this one (by number here).
            "through_sitting": (
                w.sitting_n.get(c.through_sitting_id) if c.through_sitting_id is not None else None
            ),
            "created_at": _when(c.created_at),
            "created_by": w.user(c.created_by_id),
            "undone_at": _when(c.undone_at),
            "undone_by": w.user(c.undone_by_id),
        }
        for n, c in enumerate(PeriodClose.objects.filter(group=group).order_by("id"), 1)
    ]
    settlements = Settlement.objects.filter(group=group).order_by("id")
    history = [
        {
            **chain.fields(e),
            "sitting": w.sitting_n.get(e.sitting_id) if e.sitting_id is not None else None,
            "hash": e.hash,
        }
        for e in chain.entries(GroupHistoryEntry, group.pk)
    ]
    covers = verify.group_covers(group)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": chain.when(timezone.now()),
        "group": {
            "name": group.name,
            "owner": group.owner.get_username(),
            "created_at": _when(group.created_at),
            "live_leaderboard": group.live_leaderboard,
        },
        "players": players,
        "periods": periods,
        "settlements": [w.settlement(s, n, dated=True) for n, s in enumerate(settlements, 1)],
        "history": history,
        "covers": covers,
        "fingerprint": verify.group_fingerprint(covers),
        "sittings": [w.sitting(s, n) for n, s in enumerate(w.sittings, 1)],
    }


class ArchiveTooLarge(Exception):
    """The archive would be larger than the import reads (:data:`limits.MAX_ARCHIVE_BYTES`):
    refused rather than written, since no server would take it back."""

    def __init__(self, size: int) -> None:
        super().__init__(f"{size} bytes, more than {limits.MAX_ARCHIVE_BYTES}")
        self.size = size


def archive_bytes(group: Group, *, compress: bool = False) -> bytes:
    """The archive as UTF-8 JSON, one sitting a line; gzipped (``.json.gz``) if asked, with
    no time or name in the gzip header: the same group gives the same bytes but for
    ``exported_at``. :class:`ArchiveTooLarge` when its JSON is above the import's cap."""
    data = archive_build(group)
    sittings = data.pop("sittings")
    head = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    lines = ",\n".join(json.dumps(s, ensure_ascii=False, separators=(",", ":")) for s in sittings)
    text = f'{head[:-1]},"sittings":[\n{lines}\n]}}\n'.encode()
    if len(text) > limits.MAX_ARCHIVE_BYTES:
        raise ArchiveTooLarge(len(text))
    return gzip.compress(text, mtime=0) if compress else text


def archive_file_name(group: Group, *, compress: bool) -> str:
    """An ASCII file name: "Nhóm Thứ Bảy" on 2026-12-03 -> "nhom-thu-bay-2026-12-03.json.gz"."""
    day = timezone.localdate().isoformat()
    return file_name(group.name, day, suffix=".json.gz" if compress else ".json", fallback="nhom")
