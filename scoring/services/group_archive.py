"""A group's archive (``scoring.ledger.archive``) read back as a new group, whole or not at all.

:func:`group_import` takes what ``scoring.ledger.archive_file.archive_read`` gives and writes
the group in one transaction, checking it book by book as it goes: each sitting's history is
written with the hashes the archive holds and checked at once with ``verify_ledger``'s own
check (``scoring.ledger.verify``), so every entry's hash must recompute from what was
written, and the games, payments and settlements must follow from the history; the book's
fingerprint must be the archive's. Then the group's own book, its periods and every "đã
nhận". The first thing that disagrees is named (which book, which entry) and nothing is saved.

The importer owns the new group and its sittings; the rows the old owner made are theirs,
and other people's accounts (who confirmed, who recorded) stay as names in the history only.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from django.contrib.auth.models import User
from django.db import DataError, IntegrityError, transaction
from django.utils.translation import gettext as _

from scoring import engine
from scoring.engine import chain, limits
from scoring.engine import readtext as engine_text
from scoring.ledger import archive, archive_file, verify
from scoring.ledger.archive_file import Refused, field, item_list, ref, text, wrong
from scoring.ledger.replay import Mismatch
from scoring.ledger.sessionfile import refused
from scoring.models import (
    MAX_GAMES,
    MAX_MEMBERS,
    MAX_SETTLEMENTS,
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
from scoring.services.bulk_import import GAME_COLUMNS, insert_rows, insert_seats_and_payments
from scoring.services.totals import refresh_totals
from scoring.text.typed import engine_language

#: The columns of the players and settlements written (``insert``), in the order of their rows.
_PLAYER_COLUMNS = (
    "owner group name merged_into bank_bin bank_account bank_holder created_at skeleton"
)
_SETTLEMENT_COLUMNS = (
    "sitting group date payer payee amount is_void void_reason created_by created_at"
    " confirmed_at confirmed_by confirmed_by_payee"
)
#: What a value of the wrong shape raises in the engine.
_UNREADABLE = (TypeError, ValueError, KeyError, AttributeError)


@dataclass(frozen=True)
class ImportedGroup:
    group: Group
    sittings: int
    games: int
    renamed_from: str | None  # the archive's name, when the owner had a group of that name


def group_import(*, owner: User, data: object) -> ImportedGroup:
    """A new group of ``owner`` from an archive: all of it, checked, or nothing. ``data``: what
    ``archive_file.archive_read`` gives (the sittings read as they are imported), or the
    archive as a dict (``archive.archive_build``)."""
    try:
        # Not durable: the archive task's import marks the task done in the same write.
        with transaction.atomic():
            return _Importer(owner).run(data)
    except Refused as problem:
        raise refused(problem.path, problem.message) from None
    except (IntegrityError, DataError):
        # A value the checks above let through and the database does not (a belt for them).
        raise refused("", _("Tệp có dữ liệu không lưu được; không có gì được nhập.")) from None


class _Importer:
    def __init__(self, owner: User) -> None:
        self.owner = owner
        self.old_owner = ""

    def player(self, value: Any, path: str) -> Any:
        """The new row of the player numbered ``value`` in the archive."""
        return ref(value, self.players, path, _("người chơi"))

    def user(self, name: Any) -> int | None:
        """The account a row names: the importer for what the archive's owner did, else
        nobody (the name stays in the history)."""
        return self.owner.pk if name is not None and name == self.old_owner else None

    def run(self, read: object) -> ImportedGroup:
        data = self._head(read.head if isinstance(read, archive_file.Archive) else read)
        info = cast(dict[str, Any], field(data, "group", "dict", ""))
        name = text(info, "name", "group", longest=80, empty=False)
        self.old_owner = cast(str, field(info, "owner", "str", "group", null=True) or "")
        group = self._new_group(name, bool(field(info, "live_leaderboard", "bool", "group")))
        Group.objects.filter(pk=group.pk).update(
            created_at=field(info, "created_at", "time", "group")
        )
        self.group = group
        self.players = self._insert_players(*self._read_players(data))
        periods = self._periods(item_list(data, "periods", "", MAX_SETTLEMENTS))
        group_settlements = self._settlements(data, "", sitting=None)
        if isinstance(read, archive_file.Archive):
            listed: Iterable[Any] = read.sittings or ()
        else:
            listed = item_list(data, "sittings", "", archive_file.MAX_SITTINGS)
        sittings: dict[int, int] = {}
        games = 0
        for index, item in enumerate(listed):
            if not isinstance(item, dict):
                raise wrong(f"sittings[{index}]", "dict")
            _numbered(item, index, f"sittings[{index}]")
            sitting, count = self._sitting(item, f"sittings[{index}]")
            games += count
            sittings[index + 1] = sitting.pk
        # Each sitting's stored totals, counted from the games and settlements just written.
        refresh_totals(sittings.values())
        self._periods_through(periods, sittings)
        self._group_book(data, name, periods, group_settlements, sittings)
        return ImportedGroup(group, len(sittings), games, name if group.name != name else None)

    def _head(self, data: object) -> dict[str, Any]:
        """The archive's top object, once its format and version are ones this site reads."""
        if not isinstance(data, dict) or data.get("format") != archive.FORMAT:
            raise Refused(
                "",
                _('Tệp không phải bản lưu trữ nhóm (thiếu "format": "%(f)s").')
                % {"f": archive.FORMAT},
            )
        self.version = version = data.get("version")
        if type(version) is not int or version not in archive.READS:
            raise Refused(
                "version",
                _("Bản lưu trữ phiên bản %(v)s; trang này đọc được phiên bản %(max)d.")
                % {"v": json.dumps(version), "max": archive.VERSION},
            )
        return data

    def _periods_through(self, periods: Mapping[int, int], sittings: Mapping[int, int]) -> None:
        """Each close's last sitting, now the sittings are written."""
        for n, pk in periods.items():
            through = self.through.get(n)
            if through is not None:
                if through not in sittings:
                    raise Refused(
                        f"periods[{n - 1}].through_sitting",
                        _("Chốt sổ số %(n)d nhắc tới một bàn không có trong bản lưu trữ.")
                        % {"n": n},
                    )
                PeriodClose.objects.filter(pk=pk).update(through_sitting_id=sittings[through])

    def _group_book(
        self,
        data: Mapping[str, Any],
        name: str,
        periods: Mapping[int, int],
        settlements: Mapping[int, int],
        sittings: Mapping[int, int],
    ) -> None:
        """The group's own book written, and checked against its closes, covers and name."""
        label = _("Nhóm “%(name)s”") % {"name": name}
        entries = self._history(
            GroupHistoryEntry,
            data,
            "",
            self.group.pk,
            label,
            numbers={"settlement": settlements, "period": periods, "sitting": sittings},
        )
        _periods_agree(periods, entries)
        if self.version != 1:
            self._covers_agree(data, label)
        self._verdict(verify.verify_group(self.group, sittings=False), data, "", label)
        _receipts(settlements, entries, label)
        _name_agrees(name, entries)

    def _new_group(self, name: str, live_leaderboard: bool) -> Group:
        """The new group, under the first of the owner's free names. Two imports of one
        archive at once both find the name free; the second one's insert waits for the first
        to commit, fails on the unique name, and takes the next: "Tên (2)", as one after the
        other would."""
        for _attempt in range(100):
            try:
                # A savepoint: a name taken meanwhile rolls back only this insert.
                with transaction.atomic():
                    return Group.objects.create(
                        owner=self.owner,
                        name=self._free_name(name),
                        live_leaderboard=live_leaderboard,
                    )
            except IntegrityError:
                continue
        raise Refused("group.name", _("Không tìm được tên trống cho nhóm mới; hãy thử lại."))

    def _free_name(self, name: str) -> str:
        taken = {
            n.lower() for n in Group.objects.filter(owner=self.owner).values_list("name", flat=True)
        }
        candidate, n = name, 1
        while candidate.lower() in taken:
            n += 1
            suffix = f" ({n})"
            candidate = name[: 80 - len(suffix)] + suffix
        return candidate

    def _read_players(
        self, data: Mapping[str, Any]
    ) -> tuple[dict[int, tuple[Any, ...]], dict[int, int | None]]:
        """Each player's row and whom it is merged into, by their number in the archive."""
        items = item_list(data, "players", "", archive_file.MAX_PLAYERS)
        rows: dict[int, tuple[Any, ...]] = {}
        merged: dict[int, int | None] = {}
        active: set[str] = set()
        looks: dict[str, str] = {}  # skeleton -> the first active name that looks so
        for index, item in enumerate(items):
            path = f"players[{index}]"
            n = cast(int, field(item, "n", "int", path))
            if n in rows:
                raise Refused(f"{path}.n", _("Số %(n)d bị trùng.") % {"n": n})
            name = text(item, "name", path, longest=40, empty=False)
            merged[n] = field(item, "merged_into", "int", path, null=True)
            skeleton = engine_text.skeleton(name)
            if merged[n] is None:
                if name in active:
                    raise Refused(
                        f"{path}.name", _("Hai người chơi cùng tên “%(name)s”.") % {"name": name}
                    )
                if skeleton in looks:
                    raise Refused(
                        f"{path}.name",
                        _("Người chơi “%(name)s” trông giống “%(other)s”: hai tên khó phân biệt.")
                        % {"name": name, "other": looks[skeleton]},
                    )
                active.add(name)
                looks[skeleton] = name
            rows[n] = (
                name,
                text(item, "bank_bin", path, longest=6, empty=True),
                text(item, "bank_account", path, longest=19, empty=True),
                text(item, "bank_holder", path, longest=50, empty=True),
                field(item, "created_at", "time", path),
                skeleton,
            )
        for n, target in merged.items():
            if target is not None and (target not in rows or target == n):
                raise Refused(
                    "players", _("Người chơi số %(n)d gộp vào người không có trong tệp.") % {"n": n}
                )
        return rows, merged

    def _insert_players(
        self, rows: Mapping[int, tuple[Any, ...]], merged: Mapping[int, int | None]
    ) -> dict[int, int]:
        """The rows written, those merged into someone after them: one insert per round."""
        ids: dict[int, int] = {}
        left = list(rows)
        while left:
            ready = [n for n in left if merged[n] is None or merged[n] in ids]
            if not ready:
                raise Refused("players", _("Các người chơi gộp vào nhau thành vòng."))
            insert_rows(
                Player,
                _PLAYER_COLUMNS.split(),
                [
                    (
                        self.owner.pk,
                        self.group.pk,
                        rows[n][0],
                        None if (target := merged[n]) is None else ids[target],
                        *rows[n][1:],
                    )
                    for n in ready
                ],
            )
            new = (
                Player.objects.filter(group=self.group).order_by("-id").values_list("pk", flat=True)
            )
            for n, pk in zip(ready, reversed(list(new[: len(ready)])), strict=True):
                ids[n] = pk
            left = [n for n in left if n not in ids]
        return ids

    def _periods(self, items: list[dict[str, Any]]) -> dict[int, int]:
        rows = []
        for index, item in enumerate(items):
            path = f"periods[{index}]"
            _numbered(item, index, path)
            rows.append(
                (
                    self.group.pk,
                    field(item, "closes_through", "date", path),
                    self.user(item.get("created_by")),
                    field(item, "created_at", "time", path),
                    field(item, "undone_at", "time", path, null=True),
                    self.user(item.get("undone_by")),
                )
            )
        columns = ["group", "closes_through", "created_by", "created_at", "undone_at", "undone_by"]
        insert_rows(PeriodClose, columns, rows)
        self.through = {
            index + 1: field(item, "through_sitting", "int", f"periods[{index}]", null=True)
            for index, item in enumerate(items)
        }
        ids = (
            PeriodClose.objects.filter(group=self.group).order_by("id").values_list("pk", flat=True)
        )
        return dict(enumerate(ids, 1))

    def _settlements(
        self, data: Mapping[str, Any], where: str, *, sitting: Sitting | None
    ) -> dict[int, int]:
        rows = []
        for index, item in enumerate(item_list(data, "settlements", where, MAX_SETTLEMENTS)):
            path = f"{where}.settlements[{index}]" if where else f"settlements[{index}]"
            _numbered(item, index, path)
            payer = self.player(field(item, "from", "int", path), f"{path}.from")
            payee = self.player(field(item, "to", "int", path), f"{path}.to")
            amount = cast(int, field(item, "amount", "int", path))
            if not 0 < amount <= limits.MAX_AMOUNT or payer == payee:
                raise Refused(f"{path}.amount", _("Khoản thanh toán không hợp lệ."))
            day = None if sitting is not None else field(item, "date", "date", path)
            rows.append(
                (
                    sitting.pk if sitting is not None else None,
                    None if sitting is not None else self.group.pk,
                    day,
                    payer,
                    payee,
                    amount,
                    field(item, "void", "bool", path),
                    text(item, "void_reason", path, longest=200, empty=True),
                    self.user(item.get("created_by")),
                    field(item, "created_at", "time", path),
                    field(item, "confirmed_at", "time", path, null=True),
                    self.user(item.get("confirmed_by")),
                    field(item, "confirmed_by_payee", "bool", path),
                )
            )
        insert_rows(Settlement, _SETTLEMENT_COLUMNS.split(), rows)
        found = Settlement.objects.filter(
            **({"sitting": sitting} if sitting is not None else {"group": self.group})
        ).order_by("id")
        return dict(enumerate(found.values_list("pk", flat=True), 1))

    def _sitting(self, item: dict[str, Any], path: str) -> tuple[Sitting, int]:
        """One sitting and its book, written and checked; the games it holds."""
        name = text(item, "name", path, longest=80, empty=False)
        day = field(item, "date", "date", path)
        label = _("Bàn “%(name)s” (%(date)s)") % {"name": name, "date": day.isoformat()}
        rules_data, prices = _prices(item, path, label)
        sitting = Sitting.objects.create(
            owner=self.owner,
            group=self.group,
            name=name,
            date=day,
            rules=rules_data,
            rules_label=text(item, "rules_label", path, longest=80, empty=True),
            stake=prices.stake,
        )
        Sitting.objects.filter(pk=sitting.pk).update(
            created_at=field(item, "created_at", "time", path)
        )
        names = self._seat(sitting, item, path)
        games = self._games(sitting, prices, item, path, names, label)
        settlements = self._settlements(item, path, sitting=sitting)
        entries = self._history(
            HistoryEntry,
            item,
            path,
            sitting.pk,
            label,
            numbers={"settlement": settlements, "game": games},
        )
        self._verdict(verify.verify_sitting(sitting), item, path, label)
        _receipts(settlements, entries, label)
        opened = next((e for e in entries if e["action"] == HistoryEntry.Action.OPENED), None)
        after = opened.get("after") if opened else None
        if isinstance(after, dict) and (after.get("rules"), after.get("stake")) != (
            rules_data,
            prices.stake,
        ):
            raise Refused(
                path,
                _("%(book)s: luật hoặc mức tiền khác với lịch sử (mục mở bàn).") % {"book": label},
            )
        return sitting, len(games)

    def _seat(self, sitting: Sitting, item: Mapping[str, Any], path: str) -> dict[str, int]:
        """The members seated; the names its games may use (the active and seated players)."""
        seated = [
            self.player(n, f"{path}.members[{i}]")
            for i, n in enumerate(archive_file.field_list(item, "members", path, MAX_MEMBERS))
        ]
        if len(set(seated)) != len(seated):
            raise Refused(f"{path}.members", _("Một người chơi ngồi hai chỗ."))
        Membership.objects.bulk_create(
            Membership(sitting=sitting, player_id=pk, position=position)
            for position, pk in enumerate(seated)
        )
        names = dict(
            Player.objects.unmerged().filter(pk__in=self.players.values()).values_list("name", "pk")
        )
        names.update(dict(Player.objects.filter(pk__in=seated).values_list("name", "pk")))
        return names

    def _games(
        self,
        sitting: Sitting,
        prices: engine.Prices,
        data: Mapping[str, Any],
        where: str,
        names: Mapping[str, int],
        label: str,
    ) -> dict[int, int]:
        rows, scored = [], []
        for index, item in enumerate(item_list(data, "games", where, MAX_GAMES)):
            path = f"{where}.games[{index}]"
            _numbered(item, index, path, "number")
            number = index + 1
            record = cast(dict[str, Any], field(item, "record", "dict", path))
            scored.append(_scored(record, prices, names, path, label, number))
            void = field(item, "void", "bool", path)
            rows.append(
                (
                    sitting.pk,
                    number,
                    archive_file.revision(item, path),
                    record,
                    (Game.Status.VOID if void else Game.Status.ACTIVE).value,
                    text(item, "void_reason", path, longest=200, empty=True),
                    self.player(item.get("led_by"), f"{path}.led_by"),
                    self.player(item.get("next_leader"), f"{path}.next_leader"),
                    uuid.uuid4(),
                    self.user(item.get("created_by")),
                    field(item, "created_at", "time", path),
                    field(item, "updated_at", "time", path),
                )
            )
        insert_rows(Game, GAME_COLUMNS, rows)
        ids: dict[int, int] = dict(Game.objects.filter(sitting=sitting).values_list("number", "pk"))
        insert_seats_and_payments(
            (ids[row[1]], row[2], canonical, result, names)
            for row, (canonical, result) in zip(rows, scored, strict=True)
        )
        return ids

    def _history(
        self,
        model: type[HistoryEntry] | type[GroupHistoryEntry],
        data: Mapping[str, Any],
        path: str,
        book: int,
        label: str,
        *,
        numbers: Mapping[str, Mapping[int, Any]],
    ) -> list[dict[str, Any]]:
        """The book's entries as the archive holds them, written with the archive's hashes
        (the check that follows recomputes every one)."""
        items = item_list(data, "history", path, archive_file.MAX_HISTORY)
        where = f"{path}.history" if path else "history"
        actions = {a.value for a in model.Action}
        undoes: list[tuple[int, int]] | None = [] if model is HistoryEntry else None
        rows = []
        for index, item in enumerate(items):
            at = f"{where}[{index}]"
            action = field(item, "action", "str", at)
            if action not in actions:
                raise Refused(
                    f"{at}.action",
                    _("%(book)s, mục lịch sử #%(n)d: việc “%(a)s” không có.")
                    % {"book": label, "n": index + 1, "a": action[:40]},
                )
            username = field(item, "user", "str", at, null=True) or ""
            if len(username) > 150:
                raise Refused(f"{at}.user", _("Dài quá %(n)d ký tự.") % {"n": 150})
            rows.append(
                [
                    book,
                    self.user(item.get("user")),
                    username,
                    *_links(item, at, index, numbers, undoes),
                    action,
                    item.get("before"),
                    item.get("after"),
                    text(item, "note", at, longest=200, empty=True),
                    text(item, "note_code", at, longest=20, empty=True),
                    field(item, "note_params", "dict", at),
                    field(item, "at", "time", at),
                    field(item, "hash", "str", at)[:64],
                ]
            )
        columns = (
            ["sitting", "user", "username", "game", "settlement", "revision"]
            if undoes is not None
            else ["group", "user", "username", "sitting", "settlement", "period"]
        ) + ["action", "before", "after", "note", "note_code", "note_params", "at", "hash"]
        insert_rows(model, columns, rows)
        if undoes:
            ids = list(
                model.objects.filter(**{model.chain_of: book})
                .order_by("id")
                .values_list("pk", flat=True)
            )
            for index, undone in undoes:
                HistoryEntry.objects.filter(pk=ids[index]).update(undoes_id=ids[undone - 1])
        return items

    def _verdict(
        self, verdict: verify.Verdict, data: Mapping[str, Any], path: str, label: str
    ) -> None:
        if verdict.mismatch is not None:
            raise Refused(_where(path, verdict.mismatch), f"{label}: {verdict.mismatch.message}")
        stated = data.get("fingerprint")
        got = verdict.fingerprint
        if not path and self.version == 1:
            # A version 1 archive's group fingerprint was its own book's head alone.
            got = verify.fingerprint_of_head(self.group)
        if stated != got:
            raise Refused(
                f"{path}.fingerprint" if path else "fingerprint",
                _(
                    "%(book)s: mã sổ tính lại là %(got)s, tệp ghi %(want)s "
                    "(thiếu hoặc thừa mục lịch sử ở cuối)."
                )
                % {"book": label, "got": got, "want": json.dumps(stated, ensure_ascii=False)},
            )

    def _covers_agree(self, data: Mapping[str, Any], label: str) -> None:
        """What the group's fingerprint covers, as the archive states it (``covers``), is
        what was written: the first part that differs is named (a sitting missing, added or
        moved to another day; a player added, missing, or with another bank account). Then
        the stated covers must make the stated fingerprint (``_verdict``)."""
        stated = cast(dict[str, Any], field(data, "covers", "dict", ""))
        got = verify.group_covers(self.group)
        try:
            want = chain.group_covers(
                cast(str, stated["history"]),
                [(str(a), str(b), str(c)) for a, b, c in stated["sittings"]],
                [(str(a), b, str(c), str(d), str(e)) for a, b, c, d, e in stated["players"]],
            )
        except (KeyError, TypeError, ValueError):
            raise wrong("covers", "dict") from None
        if verify.group_fingerprint(want) != data.get("fingerprint"):
            raise Refused(
                "covers",
                _("%(book)s: phần “covers” không cho ra mã sổ nhóm tệp ghi (%(f)s).")
                % {"book": label, "f": json.dumps(data.get("fingerprint"), ensure_ascii=False)},
            )
        _sittings_agree(want["sittings"], got["sittings"], label)
        _players_agree(want["players"], got["players"], label)


def _numbered(item: Mapping[str, Any], index: int, path: str, key: str = "n") -> None:
    if field(item, key, "int", path) != index + 1:
        raise Refused(f"{path}.{key}", _("Số thứ tự phải là %(n)d.") % {"n": index + 1})


def _prices(item: Mapping[str, Any], path: str, label: str) -> tuple[dict[str, Any], engine.Prices]:
    """The sitting's rules as the archive holds them, and its prices under them."""
    rules_data = cast(dict[str, Any], field(item, "rules", "dict", path))
    stake = cast(int, field(item, "stake", "int", path))
    unreadable = _("%(book)s: luật hoặc mức tiền không đọc được.") % {"book": label}
    try:
        prices = engine.Prices(engine.ruleset_from_dict(rules_data), stake)
    except (engine.InvalidRuleSet, engine.InvalidRecord, *_UNREADABLE):
        raise Refused(f"{path}.rules", unreadable) from None
    if not 0 < stake <= limits.MAX_STAKE:
        raise Refused(f"{path}.stake", unreadable)
    return rules_data, prices


def _scored(
    record: dict[str, Any],
    prices: engine.Prices,
    names: Mapping[str, int],
    path: str,
    label: str,
    number: int,
) -> tuple[dict[str, Any], engine.GameResult]:
    """A game's record as the engine writes it, and its payments at the sitting's prices."""

    def game_refused(where: str, message: str) -> Refused:
        return Refused(
            where,
            _("%(book)s, ván %(n)d: %(msg)s") % {"book": label, "n": number, "msg": message},
        )

    try:
        parsed = engine.parse_record(record, prices.rules)
        result = engine.score_game(prices.rules, parsed, prices.stake, prices=prices)
    except engine.InvalidRecord as error:
        problem = error.problems[0]
        raise game_refused(
            f"{path}.record.{problem.path}", problem.message(engine_language())
        ) from None
    except _UNREADABLE:
        raise game_refused(f"{path}.record", _("Chi tiết ván không đọc được.")) from None
    missing = [p for p in parsed.players if p not in names]
    if missing:
        raise Refused(
            f"{path}.record",
            _("%(book)s, ván %(n)d: “%(name)s” không phải người chơi của nhóm.")
            % {"book": label, "n": number, "name": missing[0]},
        )
    return engine.record_to_dict(parsed), result


def _links(
    item: Mapping[str, Any],
    at: str,
    index: int,
    numbers: Mapping[str, Mapping[int, Any]],
    undoes: list[tuple[int, int]] | None,
) -> list[Any]:
    """The rows an entry names: a sitting's entry (``undoes`` not None) its game,
    settlement and revision (an undo noted in ``undoes``); a group's its sitting,
    settlement and period."""
    settlement = ref(
        item.get("settlement"), numbers["settlement"], f"{at}.settlement", _("khoản thanh toán")
    )
    if undoes is None:
        return [
            ref(item.get("sitting"), numbers["sitting"], f"{at}.sitting", _("bàn")),
            settlement,
            ref(item.get("period"), numbers["period"], f"{at}.period", _("kỳ chốt sổ")),
        ]
    game = ref(item.get("game"), numbers["game"], f"{at}.game", _("ván"))
    links = [game, settlement, archive_file.revision(item, at, null=True)]
    undone = field(item, "undoes", "int", at, null=True)
    if undone is not None:
        if not 0 < undone <= index:
            raise Refused(
                f"{at}.undoes",
                _("Không có %(what)s số %(n)s trong tệp.")
                % {"what": _("mục lịch sử"), "n": undone},
            )
        undoes.append((index, undone))
    return links


def _sittings_agree(want: list[list[Any]], got: list[list[Any]], label: str) -> None:
    def spelled(s: list[Any]) -> dict[str, Any]:
        return {"name": s[0], "date": s[1], "f": chain.fingerprint(s[2])}

    heads = {(s[0], s[2]): s for s in got}
    for sitting in want:
        found = heads.get((sitting[0], sitting[2]))
        if found is None:
            raise Refused(
                "sittings",
                _(
                    "%(book)s: bàn “%(name)s” (%(date)s, mã sổ %(f)s) có trong mã sổ nhóm "
                    "nhưng không có trong bản lưu trữ."
                )
                % {"book": label, **spelled(sitting)},
            )
        if found[1] != sitting[1]:
            raise Refused(
                f"sittings[{got.index(found)}].date",
                _("%(book)s: bàn “%(name)s” đề ngày %(date)s; mã sổ nhóm ghi ngày %(was)s.")
                % {"book": label, **spelled(found), "was": sitting[1]},
            )
    known = {(s[0], s[2]) for s in want}
    for index, sitting in enumerate(got):
        if (sitting[0], sitting[2]) not in known:
            raise Refused(
                f"sittings[{index}]",
                _("%(book)s: bàn “%(name)s” (%(date)s) không có trong mã sổ nhóm.")
                % {"book": label, **spelled(sitting)},
            )
    if want != got:
        raise Refused(
            "sittings", _("%(book)s: thứ tự các bàn khác với mã sổ nhóm.") % {"book": label}
        )


def _players_agree(want: list[list[Any]], got: list[list[Any]], label: str) -> None:
    stated = {p[0]: p for p in want}
    written = {p[0]: p for p in got}
    for name in written:
        if name not in stated:
            raise Refused(
                "players",
                _(
                    "%(book)s: người chơi “%(name)s” không có trong mã sổ nhóm "
                    "(người thêm vào tệp bằng tay)."
                )
                % {"book": label, "name": name},
            )
    for name in stated:
        if name not in written:
            raise Refused(
                "players",
                _("%(book)s: người chơi “%(name)s” có trong mã sổ nhóm nhưng không có trong tệp.")
                % {"book": label, "name": name},
            )
    for name, player in written.items():
        if player[2:] != stated[name][2:]:
            raise Refused(
                "players",
                _(
                    "%(book)s: tài khoản ngân hàng của người chơi “%(name)s” khác với mã sổ "
                    "nhóm: tiền trả cho người này sẽ vào tài khoản khác."
                )
                % {"book": label, "name": name},
            )
    if want != got:
        raise Refused(
            "players",
            _("%(book)s: người chơi khác với mã sổ nhóm (gộp người chơi).") % {"book": label},
        )


def _receipts(settlements: Mapping[int, int], entries: list[dict[str, Any]], label: str) -> None:
    """Each settlement's "đã nhận" is what its last confirmation entry says."""
    said: dict[Any, bool] = {}
    for e in entries:
        if e.get("action") in ("confirmed", "unconfirmed"):
            said[e.get("settlement")] = e["action"] == "confirmed"
    stored = dict(
        Settlement.objects.filter(pk__in=settlements.values()).values_list("pk", "confirmed_at")
    )
    for n, pk in settlements.items():
        if said.get(n, False) != (stored[pk] is not None):
            raise Refused(
                "",
                _("%(book)s: khoản thanh toán thứ %(n)d: “đã nhận” khác với lịch sử.")
                % {"book": label, "n": n},
            )


def _periods_agree(periods: Mapping[int, int], entries: list[dict[str, Any]]) -> None:
    """Each close's day and whether it was undone are what the group's history says."""
    said: dict[Any, tuple[Any, bool]] = {}
    for e in entries:
        said_after = e.get("after")
        after = said_after if isinstance(said_after, dict) else {}
        if e.get("action") == "period_closed":
            said[e.get("period")] = (archive_file.close_through(after), False)
        elif e.get("action") == "period_reopened" and e.get("period") in said:
            said[e.get("period")] = (said[e.get("period")][0], True)
    stored = PeriodClose.objects.in_bulk(list(periods.values()))
    for n, pk in periods.items():
        close = stored[pk]
        if said.get(n) != (close.closes_through.isoformat(), close.undone_at is not None):
            raise Refused("periods", _("Chốt sổ số %(n)d khác với lịch sử nhóm.") % {"n": n})


def _name_agrees(name: str, entries: list[dict[str, Any]]) -> None:
    named = [
        e["after"]["name"]
        for e in entries
        if e.get("action") in ("created", "renamed")
        and isinstance(e.get("after"), dict)
        and "name" in e["after"]
    ]
    if named and named[-1] != name:
        raise Refused(
            "group.name",
            _("Tên nhóm (“%(name)s”) khác với lịch sử nhóm (“%(said)s”).")
            % {"name": name, "said": named[-1]},
        )


def _where(path: str, mismatch: Mismatch) -> str:
    if mismatch.entry is not None:
        return f"{path}.history[{mismatch.entry - 1}]" if path else f"history[{mismatch.entry - 1}]"
    if mismatch.game is not None:
        return f"{path}.games[{mismatch.game - 1}]"
    return path
