"""Writes of a sitting itself: opening it (once per form) and changing its players."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import date as date_type
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from scoring import engine
from scoring.engine import readtext as engine_text
from scoring.models import MAX_MEMBERS, Group, HistoryEntry, Membership, Seat, Sitting
from scoring.services.common import (
    Conflict,
    InvalidInput,
    lock_group_shared,
    lock_sitting,
    refuse_if_frozen,
    safe_text,
    write_once,
)
from scoring.services.players import player_get_or_create
from scoring.text.typed import engine_language


# Not durable: sitting_open_once and the session import open a sitting inside their own write.
@transaction.atomic
def sitting_open(
    *,
    owner: User,
    name: str,
    date: date_type,
    rules: engine.RuleSet,
    stake: int,
    player_names: Sequence[str],
    token: uuid.UUID | None = None,
    group: Group | None = None,
) -> Sitting:
    """Open a sitting in ``group`` (``owner``'s default group when none is given); its
    players are the group's players of those names."""
    problems = engine.check_stake(rules, stake)
    if problems:
        raise InvalidInput(problems[0].message(engine_language()), "stake")
    if group is None:
        group = Group.objects.default_for(owner)
    elif not Group.objects.for_user(owner).filter(pk=group.pk).exists():
        raise InvalidInput(_("Bạn không ghi sổ cho nhóm này."), "group")
    lock_group_shared(group=group.pk)  # a close waits for this sitting, or this for a close
    try:
        refuse_if_frozen(Sitting(group=group, date=date))
    except Conflict as error:
        raise InvalidInput(error.message, "date") from None
    sitting = Sitting.objects.create(
        owner=owner,
        group=group,
        name=safe_text(name, "name"),
        date=date,
        rules=engine.ruleset_to_dict(rules),
        rules_label=rules.name,
        stake=stake,
        submission_token=token,
    )
    _set_members(sitting, owner, player_names)
    HistoryEntry.objects.create(
        sitting=sitting,
        user=owner,
        action=HistoryEntry.Action.OPENED,
        after={
            "rules": sitting.rules,
            "stake": stake,
            "players": [m.player.name for m in sitting.memberships.select_related("player")],
        },
    )
    return sitting


def sitting_open_once(
    *,
    token: uuid.UUID,
    owner: User,
    name: str,
    date: date_type,
    rules: engine.RuleSet,
    stake: int,
    player_names: Sequence[str],
    group: Group | None = None,
) -> tuple[Sitting, bool]:
    """Open a sitting (in ``group``, as ``sitting_open``) from a form carrying ``token``.
    Returns ``(sitting, created)``.

    The same form sent again (the back button, a double tap, a retry) returns the sitting it
    already opened; another form under the same token raises ``Conflict`` and opens nothing.
    """
    wanted = {
        "name": name,
        "date": date,
        "rules": rules,
        "stake": stake,
        "players": player_names,
        "group": group,
    }

    def find() -> Sitting | None:
        return Sitting.objects.filter(submission_token=token).first()

    def write() -> tuple[Sitting, bool]:
        existing = find()
        if existing is not None:
            return existing, False
        fields: dict[str, Any] = {"name": name, "date": date, "rules": rules, "stake": stake}
        opened = sitting_open(
            owner=owner, token=token, group=group, player_names=player_names, **fields
        )
        return opened, True

    sitting, created = write_once(write, find)
    return (sitting, True) if created else (_sitting_replayed(sitting, owner, wanted), False)


def _sitting_replayed(existing: Sitting, owner: User, wanted: dict[str, Any]) -> Sitting:
    if existing.owner_id != owner.pk:
        raise Conflict(
            _(
                "Trang này đã được gửi rồi (có lẽ do bấm hai lần). "
                "Hãy tải lại trang rồi mở bàn lần nữa."
            )
        )
    opened = existing.history.filter(action=HistoryEntry.Action.OPENED).order_by("id").first()
    after = (opened.after if opened else None) or {}
    same = (
        (wanted["group"] is None or existing.group_id == wanted["group"].pk)
        and existing.name == wanted["name"]
        and existing.date == wanted["date"]
        and existing.stake == wanted["stake"]
        and after.get("rules") == engine.ruleset_to_dict(wanted["rules"])
        and [n.casefold() for n in after.get("players", [])]
        == [" ".join(n.split()).casefold() for n in wanted["players"] if n.strip()]
    )
    if not same:
        raise Conflict(
            _(
                "Biểu mẫu này đã mở bàn “%(name)s” với nội dung khác. Bàn đó vẫn còn; "
                "nếu muốn mở thêm một bàn mới, hãy bấm “Mở bàn” lần nữa."
            )
            % {"name": existing.name}
        )
    return existing


def _set_members(sitting: Sitting, owner: User, names: Sequence[str]) -> None:
    cleaned: list[str] = []
    for raw in names:
        clean = safe_text(raw, "players")
        if clean and clean.casefold() not in {n.casefold() for n in cleaned}:
            cleaned.append(clean)
    for name, other in engine_text.confusable_pairs(cleaned):
        raise InvalidInput(
            engine_text.confusable_problem(name, other).message(engine_language()), "players"
        )
    if len(cleaned) < 2:
        raise InvalidInput(_("Một bàn cần ít nhất 2 người chơi."), "players")
    if len(cleaned) > MAX_MEMBERS:
        raise InvalidInput(_("Một bàn có tối đa %(n)d người.") % {"n": MAX_MEMBERS}, "players")
    existing = {m.player.name.casefold(): m for m in sitting.memberships.select_related("player")}
    played = set(Seat.objects.filter(game__sitting=sitting).values_list("player_id", flat=True))
    keep = {name.casefold() for name in cleaned}
    for key, membership in existing.items():
        if key not in keep:
            if membership.player_id in played:
                raise InvalidInput(
                    _("%(name)s đã chơi trong bàn này nên không thể bỏ ra.")
                    % {"name": membership.player.name},
                    "players",
                )
            membership.delete()
    for position, clean in enumerate(cleaned):
        seat = existing.get(clean.casefold())
        if seat is None:
            player = player_get_or_create(owner=sitting.owner, name=clean, group=sitting.group)
            Membership.objects.create(sitting=sitting, player=player, position=position)
        elif seat.position != position:
            seat.position = position
            seat.save(update_fields=["position"])


@transaction.atomic(durable=True)
def sitting_set_members(
    *, sitting: Sitting, user: User, player_names: Sequence[str]
) -> HistoryEntry:
    refuse_if_frozen(lock_sitting(sitting))
    before = [m.player.name for m in sitting.memberships.select_related("player")]
    _set_members(sitting, sitting.owner, player_names)
    after = [m.player.name for m in sitting.memberships.select_related("player")]
    return HistoryEntry.objects.create(
        sitting=sitting,
        user=user,
        action=HistoryEntry.Action.MEMBERS,
        before={"players": before},
        after={"players": after},
    )
