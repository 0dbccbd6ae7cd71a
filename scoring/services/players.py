"""Writes of the players' side: a player's record, merging two of them, bank accounts.

Same rules as every service: keyword-only functions, each one transaction that locks the
sitting rows it changes and bumps their ``version`` (so live pages see the change on their next
poll), and appends a ``HistoryEntry`` rather than overwriting anything.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from scoring import engine
from scoring.engine import readtext as engine_text
from scoring.models import (
    PLAYER_COLUMNS,
    PLAYER_ROWS,
    Game,
    Group,
    HistoryEntry,
    Membership,
    Payment,
    Player,
    Settlement,
)
from scoring.services.common import (
    InvalidInput,
    lock_sittings,
    safe_text,
)
from scoring.services.totals import refresh_totals
from scoring.text import vietqr

# --- A player's record ------------------------------------------------------------------


def player_get_or_create(*, owner: User, name: str, group: Group | None = None) -> Player:
    """The group's player of this name (``owner``'s default group when none is given).

    A new name that looks like one of the group's players (the same ``skeleton``,
    docs/names.md) is refused, naming that player; one that differs from it only in case is
    that player, as it is within a sitting.
    """
    name = safe_text(name, "name")
    if not name:
        raise InvalidInput(_("Tên người chơi không được để trống."), "name")
    if group is None:
        group = Group.objects.default_for(owner)
    found = _group_player_named(group, name)
    if found is not None:
        return found
    try:
        # A savepoint: another phone adding the same or a look-alike name at this instant
        # makes the insert fail on the group's constraints, and the transaction goes on.
        with transaction.atomic():
            return Player.objects.create(owner_id=group.owner_id, group=group, name=name)
    except IntegrityError:
        found = _group_player_named(group, name)
        if found is None:
            raise
        return found


def _group_player_named(group: Group, name: str) -> Player | None:
    """The group's player of this name (or of this name in another case), None when it has
    none; ``InvalidInput`` naming the player when the name only looks like theirs."""
    players = Player.objects.unmerged().filter(group=group)
    player = players.filter(name=name).first()
    if player is not None:
        return player
    key = engine_text.skeleton(name)
    twins = [p for p in players.only("id", "name") if engine_text.skeleton(p.name) == key]
    for twin in twins:
        if twin.name.casefold() == name.casefold():
            return players.get(pk=twin.pk)
    if twins:
        raise InvalidInput(
            _(
                "Tên “%(name)s” trùng hoặc trông giống “%(other)s” đã có trong nhóm; nếu là cùng "
                "một người, hãy ghi đúng “%(other)s”, nếu là người khác, hãy đặt tên khác hẳn."
            )
            % {"name": name, "other": twins[0].name},
            "players",
        )
    return None


# --- Merging two records of one person --------------------------------------------------


def _refuse_if_they_met(keep: Player, duplicate: Player) -> None:
    """Two records that sat at one game (or paid each other) are two different people."""
    met = (
        Game.objects.filter(seats__player=keep)
        .filter(seats__player=duplicate)
        .select_related("sitting")
        .order_by("sitting__date", "number")
        .first()
    )
    between = Q(payer=keep, payee=duplicate) | Q(payer=duplicate, payee=keep)
    if met is None:
        # An earlier revision of a game may have had both of them even if the current one
        # does not; its payments are kept for the audit and would become self-payments.
        paid = Payment.objects.filter(between).select_related("game__sitting").first()
        met = paid.game if paid else None
    if met is not None:
        raise InvalidInput(
            _(
                "%(a)s và %(b)s cùng chơi ván %(n)d của bàn “%(s)s”: đó là hai người khác "
                "nhau nên không gộp được."
            )
            % {"a": keep.name, "b": duplicate.name, "n": met.number, "s": met.sitting.name}
        )
    settled = Settlement.objects.filter(between).select_related("sitting").first()
    if settled is None:
        return
    if settled.sitting is None:  # a group-wide settlement
        raise InvalidInput(
            _("%(a)s và %(b)s đã trả tiền cho nhau: đó là hai người khác nhau nên không gộp được.")
            % {"a": keep.name, "b": duplicate.name}
        )
    raise InvalidInput(
        _(
            "%(a)s và %(b)s đã trả tiền cho nhau ở bàn “%(s)s”: đó là hai người khác nhau "
            "nên không gộp được."
        )
        % {"a": keep.name, "b": duplicate.name, "s": settled.sitting.name}
    )


def _member_names(sitting_ids: Iterable[int]) -> dict[int, list[str]]:
    names: dict[int, list[str]] = {}
    rows = Membership.objects.filter(sitting_id__in=list(sitting_ids)).order_by(
        "sitting_id", "position", "id"
    )
    for sitting_id, name in rows.values_list("sitting_id", "player__name"):
        names.setdefault(sitting_id, []).append(name)
    return names


def _sittings_of(player: Player) -> set[int]:
    """The sittings where ``player`` has a membership, a seat, a payment or a settlement."""
    return {
        pk
        for model, column, via in PLAYER_ROWS
        for pk in model._default_manager.filter(**{column: player}).values_list(
            f"{via}_id", flat=True
        )
        if pk is not None  # a group-wide settlement has no sitting to lock
    }


# Not durable: a group's merge (group_player_merge) runs it inside its own write.
@transaction.atomic
def player_merge(*, keep: Player, duplicate: Player, user: User) -> Player:
    """Fold ``duplicate`` into ``keep``: every game, payment and settlement follows.

    The duplicate record stays (``merged_into`` points at ``keep``) so old links still lead
    somewhere; its seats, payments of every revision, settlements, memberships and "leads
    next" marks move to ``keep``, and the current record of each of its games names ``keep``
    (the history keeps the records as they were). In a sitting where both were members but
    never in the same game, ``keep`` keeps its seat and the duplicate's membership goes.
    Two records that played one game together are refused: they are two people.
    """
    if keep.pk == duplicate.pk:
        raise InvalidInput(_("Hãy chọn hai người khác nhau."))
    # FOR NO KEY UPDATE: a merge changes no key of the two rows, so a save that writes a seat
    # or payment for either player (whose foreign-key check takes FOR KEY SHARE) is not held
    # behind it. With a plain FOR UPDATE, a save holding its sitting and a merge holding the
    # players each waited for the other: a deadlock.
    rows = Player.objects.select_for_update(no_key=True).filter(pk__in=[keep.pk, duplicate.pk])
    locked = {p.pk: p for p in rows.order_by("pk")}
    keep, duplicate = locked[keep.pk], locked[duplicate.pk]
    if keep.group_id != duplicate.group_id:
        raise InvalidInput(_("Chỉ gộp được người chơi của cùng một nhóm."))
    if keep.merged_into_id or duplicate.merged_into_id:
        raise InvalidInput(_("Người chơi này đã được gộp vào người khác rồi."))
    _refuse_if_they_met(keep, duplicate)

    sitting_ids = _sittings_of(duplicate)
    sittings = lock_sittings(sitting_ids)
    # A save that held one of the duplicate's other sittings may have committed a seat for it
    # while this merge waited: those sittings are locked too, so every one it moves is.
    while extra := _sittings_of(duplicate) - sitting_ids:
        sittings += lock_sittings(extra)
        sitting_ids |= extra
    before = _member_names(sitting_ids)

    both = set(
        Membership.objects.filter(player=keep, sitting_id__in=sitting_ids).values_list(
            "sitting_id", flat=True
        )
    )
    Membership.objects.filter(player=duplicate, sitting_id__in=both).delete()

    if keep.name != duplicate.name:
        games = list(Game.objects.filter(seats__player=duplicate).only("id", "record"))
        for game in games:
            game.record = engine.rename_players(game.record, {duplicate.name: keep.name})
        Game.objects.bulk_update(games, ["record"], batch_size=500)
    for model, column, _via in PLAYER_COLUMNS:
        model._default_manager.filter(**{column: duplicate}).update(**{column: keep})
    Player.objects.filter(merged_into=duplicate).update(merged_into=keep)
    refresh_totals(sitting_ids)

    if not keep.bank_account and duplicate.bank_account:
        keep.bank_bin = duplicate.bank_bin
        keep.bank_account = duplicate.bank_account
        keep.bank_holder = duplicate.bank_holder
        keep.save(update_fields=["bank_bin", "bank_account", "bank_holder"])
    duplicate.merged_into = keep
    duplicate.save(update_fields=["merged_into"])

    after = _member_names(sitting_ids)
    # Stored as a code and the two names; shown in the reader's language.
    merged = {"dup": duplicate.name, "keep": keep.name}
    renamed = {"renamed": {duplicate.name: keep.name}} if keep.name != duplicate.name else {}
    HistoryEntry.objects.bulk_create(
        HistoryEntry(
            sitting=sitting,
            user=user,
            action=HistoryEntry.Action.MEMBERS,
            before={"players": before.get(sitting.pk, [])},
            # The records renamed: replaying the history (``scoring.ledger.replay``) renames
            # them too, so the current records still follow from it.
            after={"players": after.get(sitting.pk, []), **renamed},
            note_code="merged",
            note_params=merged,
        )
        for sitting in sittings
    )
    return keep


# --- Bank account -----------------------------------------------------------------------

_HOLDER_RE = re.compile(r"[A-Z ]{1,50}")


def clean_holder(holder: str) -> str:
    """Account holders are written the way banks print them: "NGUYEN VAN AN"."""
    return " ".join(vietqr.strip_diacritics(holder).upper().split())


def clean_account(account: str) -> str:
    """The account number without the spaces people type to group digits."""
    return "".join(account.split())


@transaction.atomic(durable=True)
def player_set_bank(*, player: Player, bank_bin: str, account: str, holder: str) -> Player:
    """Store (or, with all three empty, remove) the account others pay this player into."""
    account = clean_account(account)
    holder = clean_holder(holder)
    if not (bank_bin or account or holder):
        bank_bin = ""
    else:
        if vietqr.bank_by_bin(bank_bin) is None:
            raise InvalidInput(_("Hãy chọn ngân hàng trong danh sách."), "bank_bin")
        try:
            vietqr.vietqr_payload(bank_bin, account, None, "")
        except ValueError as error:
            raise InvalidInput(
                _("Số tài khoản chỉ gồm 1 đến 19 chữ số hoặc chữ cái không dấu."), "account"
            ) from error
        if not _HOLDER_RE.fullmatch(holder):
            raise InvalidInput(
                _("Tên chủ tài khoản chỉ gồm chữ cái và dấu cách, như in trên thẻ."), "holder"
            )
    locked = Player.objects.select_for_update().get(pk=player.pk)
    if locked.merged_into_id:
        raise InvalidInput(_("Người chơi này đã được gộp vào người khác rồi."))
    locked.bank_bin, locked.bank_account, locked.bank_holder = bank_bin, account, holder
    locked.save(update_fields=["bank_bin", "bank_account", "bank_holder"])
    # Live pages show a pay-by-QR code for this account: tell them something changed.
    lock_sittings(Membership.objects.filter(player=locked).values_list("sitting_id", flat=True))
    player.bank_bin, player.bank_account, player.bank_holder = bank_bin, account, holder
    return locked
