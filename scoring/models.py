"""The ledger: players, sittings (bàn), games (ván), their payments and an append-only history.

Money is whole đồng in integer columns. The engine (``scoring.engine``) computes every amount;
these models only store what it produced, and ``scoring.services`` is the one place that writes.
"""

import hashlib
import secrets
import uuid
from datetime import date, datetime
from typing import Any, ClassVar

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.engine import RuleSet, readtext, ruleset_from_dict

MAX_MEMBERS = 8
# The most one sitting holds. A long night is under a hundred games and a handful of
# payments; the import accepts exactly these caps, so every sitting's own export re-imports.
MAX_GAMES = 2000
MAX_SETTLEMENTS = 1000


class PlayerQuerySet(models.QuerySet["Player"]):
    def unmerged(self) -> "PlayerQuerySet":
        """Players still in use: a merged name's rows are the kept player's (``merged_into``)."""
        return self.filter(merged_into=None)

    def merged(self) -> "PlayerQuerySet":
        """Names merged into another player, whose links and rows are the kept player's."""
        return self.exclude(merged_into=None)


class GameQuerySet(models.QuerySet["Game"]):
    def active(self) -> "GameQuerySet":
        """Games that count: recorded and not void."""
        return self.filter(status=Game.Status.ACTIVE)

    def void(self) -> "GameQuerySet":
        return self.filter(status=Game.Status.VOID)


class SeatQuerySet(models.QuerySet["Seat"]):
    def counted(self) -> "SeatQuerySet":
        """Seats whose net counts: a seat always belongs to its game's current revision, so
        only the game's status decides."""
        return self.filter(game__status=Game.Status.ACTIVE)


class PaymentQuerySet(models.QuerySet["Payment"]):
    def current(self) -> "PaymentQuerySet":
        """Payments of each game's current revision (void games included)."""
        return self.filter(revision=F("game__revision"))

    def counted(self) -> "PaymentQuerySet":
        """Payments that move money: current revision of an active game."""
        return self.current().filter(game__status=Game.Status.ACTIVE)


class SettlementQuerySet(models.QuerySet["Settlement"]):
    def standing(self) -> "SettlementQuerySet":
        """Settlements not voided: the money that really changed hands."""
        return self.filter(is_void=False)

    def awaiting(self) -> "SettlementQuerySet":
        """Standing settlements the payee's side has not confirmed ("chờ xác nhận")."""
        return self.standing().filter(confirmed_at__isnull=True)


class PeriodCloseQuerySet(models.QuerySet["PeriodClose"]):
    def standing(self) -> "PeriodCloseQuerySet":
        """The closes not undone, newest first: the first is where the open period starts."""
        return self.filter(undone_at__isnull=True).order_by("-closes_through", "-id")


class GroupQuerySet(models.QuerySet["Group"]):
    def for_user(self, user: Any) -> "GroupQuerySet":
        """Groups the user owns or keeps score for (by an accepted invitation)."""
        if not getattr(user, "is_authenticated", False):
            return self.none()
        return self.filter(Q(owner=user) | Q(scorekeepers=user)).distinct()

    def default_for(self, owner: Any) -> "Group":
        """The owner's default group, created on first use ("Nhóm của <username>")."""
        group = self.filter(owner=owner, is_default=True).first()
        if group is not None:
            return group
        name = default_group_name(owner.get_username())
        try:
            with transaction.atomic():
                return self.create(owner=owner, name=name, is_default=True)
        except IntegrityError:
            # Another request created it first, or a group already has that name.
            group = self.filter(owner=owner, is_default=True).first()
            if group is not None:
                return group
            with transaction.atomic():
                return self.create(owner=owner, name=f"{name} ({owner.pk})", is_default=True)


def default_group_name(username: str) -> str:
    """Stored in Vietnamese (the source language), like every name the ledger writes;
    ``Group.label`` shows it in the reader's language."""
    return f"Nhóm của {username}"[:80]


class Group(models.Model):
    """A group (nhóm) of people who play together: its players, sittings and one standing
    ledger across them. Its owner and the scorekeepers who accepted an invitation see all of
    it; every change moves ``version`` on (as ``Sitting.version``) and writes a
    ``GroupHistoryEntry``."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="owned_groups",
        verbose_name=_("chủ nhóm"),
    )
    name = models.CharField(_("tên nhóm"), max_length=80)
    scorekeepers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="shared_groups",
        verbose_name=_("người ghi cùng"),
    )
    is_default = models.BooleanField(_("nhóm mặc định"), default=False)
    version = models.PositiveBigIntegerField(default=0)
    live_token = models.CharField(max_length=43, null=True, blank=True, unique=True)
    # The owner's choice: the live link also shows the open period's leaderboard (games, wins,
    # net from the games), not only who owes whom.
    live_leaderboard = models.BooleanField(_("bảng xếp hạng trên liên kết xem"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = GroupQuerySet.as_manager()

    class Meta:
        verbose_name = _("nhóm")
        verbose_name_plural = _("nhóm")
        ordering = ["-is_default", "name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="group_name_unique_per_owner"),
            models.UniqueConstraint(
                fields=["owner"], condition=Q(is_default=True), name="group_one_default_per_owner"
            ),
        ]

    def __str__(self) -> str:
        return self.label

    def get_absolute_url(self) -> str:
        return reverse("group", args=[self.pk])

    @property
    def label(self) -> str:
        """The name to show: a default group's generated name ("Nhóm của <username>", stored
        in Vietnamese like every text the ledger writes) in the reader's language."""
        if self.is_default:
            username = self.owner.get_username()
            if self.name == default_group_name(username):
                return str(_("Nhóm của %(username)s") % {"username": username})
        return self.name

    @staticmethod
    def new_live_token() -> str:
        return secrets.token_urlsafe(32)


def _fill_group(row: "Player | Sitting") -> None:
    """Rows created without a group (older callers, tests) go to their owner's default group."""
    if row.group_id is None and row.owner_id is not None:
        row.group = Group.objects.default_for(row.owner)


class Player(models.Model):
    """A person who plays; persists across sittings so their history follows them."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="players",
        verbose_name=_("người ghi sổ"),
    )
    # Always the owner's group: ``owner`` is the group's owner.
    group = models.ForeignKey(
        Group, on_delete=models.CASCADE, related_name="players", verbose_name=_("nhóm")
    )
    name = models.CharField(_("tên"), max_length=40)
    # What the name looks like (``engine.readtext.skeleton``), set when the player is created:
    # one group cannot gain two players that look alike, even when two phones add them at the
    # same instant (the constraint below; docs/names.md). None for the few players a group
    # already had beside a look-alike before the check existed: they keep their names.
    # NULL, not "": a player without a skeleton is outside the constraint.
    skeleton = models.TextField(null=True, blank=True, editable=False)  # noqa: DJ001
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="merged_from",
        verbose_name=_("đã gộp vào"),
    )
    bank_bin = models.CharField(_("ngân hàng"), max_length=6, blank=True)
    bank_account = models.CharField(_("số tài khoản"), max_length=19, blank=True)
    bank_holder = models.CharField(_("chủ tài khoản"), max_length=50, blank=True)
    # The player's own link (no account needed): their balance, statement, what they owe and
    # the payments to them waiting for "đã nhận". Made like a live link (43 URL-safe
    # characters); revoking or regenerating it makes the old address 404 at once.
    link_token = models.CharField(max_length=43, null=True, blank=True, unique=True)
    created_at = models.DateTimeField(_("tạo lúc"), auto_now_add=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        verbose_name = _("người chơi")
        verbose_name_plural = _("người chơi")
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["group", "name"],
                condition=Q(merged_into__isnull=True),
                name="player_name_unique_per_group",
            ),
            models.UniqueConstraint(
                fields=["group", "skeleton"],
                condition=Q(merged_into__isnull=True, skeleton__isnull=False),
                name="player_skeleton_unique_per_group",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        _fill_group(self)
        if self._state.adding and self.skeleton is None:
            self.skeleton = readtext.skeleton(self.name)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("player", args=[self.pk])

    @staticmethod
    def new_link_token() -> str:
        return secrets.token_urlsafe(32)


class SavedRuleSet(models.Model):
    """A custom rule set a scorekeeper cloned from a preset and edited."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rule_sets"
    )
    name = models.CharField(_("tên"), max_length=80)
    data = models.JSONField(_("luật (JSON)"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("luật riêng")
        verbose_name_plural = _("luật riêng")
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Sitting(models.Model):
    """A sitting (bàn, sòng): one evening's table with its frozen rules and stake."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="sittings",
        verbose_name=_("chủ bàn"),
    )
    group = models.ForeignKey(
        Group, on_delete=models.PROTECT, related_name="sittings", verbose_name=_("nhóm")
    )
    name = models.CharField(_("tên bàn"), max_length=80)
    date = models.DateField(_("ngày"))
    rules = models.JSONField(_("luật"), help_text=_("Bản sao cố định của luật lúc mở bàn"))
    rules_label = models.CharField(_("tên luật"), max_length=80)
    stake = models.BigIntegerField(_("mức tiền (đồng)"))
    members = models.ManyToManyField(
        Player, through="Membership", related_name="sittings", verbose_name=_("thành viên")
    )
    scorekeepers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="shared_sittings",
        verbose_name=_("người ghi cùng"),
    )
    # Bumped in the same transaction as every change; watchers compare it (ETag) to know
    # whether anything is new without touching games.
    version = models.PositiveBigIntegerField(default=0)
    live_token = models.CharField(max_length=43, null=True, blank=True, unique=True)
    # The new-sitting form carries a token: going back and sending it again must not open the
    # table twice. Sittings opened another way (import, older rows) have none.
    submission_token = models.UUIDField(null=True, blank=True, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("bàn")
        verbose_name_plural = _("bàn")
        ordering = ["-date", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(stake__gt=0), name="sitting_stake_positive"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        _fill_group(self)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("sitting", args=[self.pk])

    def ruleset(self) -> RuleSet:
        """The sitting's frozen rules, as the engine reads them."""
        return ruleset_from_dict(self.rules)

    def players_by_name(self) -> dict[str, "Player"]:
        """The sitting's players by name, in their seats' order (one query)."""
        return {m.player.name: m.player for m in self.memberships.select_related("player")}

    @staticmethod
    def new_live_token() -> str:
        return secrets.token_urlsafe(32)


class Membership(models.Model):
    sitting = models.ForeignKey(Sitting, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="memberships")
    position = models.PositiveSmallIntegerField(_("chỗ ngồi"))

    class Meta:
        verbose_name = _("thành viên")
        verbose_name_plural = _("thành viên")
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["sitting", "player"], name="membership_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.sitting}"


class Game(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("tính tiền")
        VOID = "void", _("đã huỷ")

    sitting = models.ForeignKey(Sitting, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField(_("ván số"))
    revision = models.PositiveIntegerField(_("lần sửa"), default=1)
    record = models.JSONField(_("chi tiết ván"))
    status = models.CharField(
        _("trạng thái"), max_length=8, choices=Status.choices, default=Status.ACTIVE
    )
    void_reason = models.CharField(_("lý do huỷ"), max_length=200, blank=True)
    # Who led this game (informational: the engine does not need it) and who leads the next.
    led_by = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("người đi trước"),
    )
    next_leader = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # A phone that retries a save sends the same token again: the unique constraint is what
    # makes the retry record nothing new, even when two requests race.
    submission_token = models.UUIDField(unique=True, default=uuid.uuid4, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        verbose_name = _("ván")
        verbose_name_plural = _("ván")
        ordering = ["-number"]
        constraints = [
            models.UniqueConstraint(fields=["sitting", "number"], name="game_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.sitting} #{self.number}"

    def get_absolute_url(self) -> str:
        return reverse("game", args=[self.sitting_id, self.number])

    @property
    def is_void(self) -> bool:
        return self.status == self.Status.VOID


class Seat(models.Model):
    """One player's part in the current revision of a game: where they sat and their net."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    is_cong = models.BooleanField(default=False)
    net = models.BigIntegerField()
    # What this player's hand was charged for thối, as the engine computed it (already inside
    # ``net``; kept apart so statistics need not re-derive money from the record).
    thoi = models.BigIntegerField(default=0)

    objects = SeatQuerySet.as_manager()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="seat_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.net:+d}"


class Payment(models.Model):
    """One payment the engine produced for one revision of a game. Never updated."""

    class Reason(models.TextChoices):
        """The engine's reason codes (``scoring.engine.REASONS``), labelled once for every page
        and export."""

        CARDS = "cards", _("lá còn lại")
        CONG = "cong", _("cóng")
        PLACEMENT = "placement", _("xếp hạng")
        THOI = "thoi", _("thối")
        CHAT = "chat", _("chặt")
        TOI_TRANG = "toi_trang", _("tới trắng")
        DEN = "den", _("đền")
        KET_3_BICH = "ket_3_bich", _("kết 3 bích")
        CHAN_KET_3_BICH = "chan_ket_3_bich", _("chặn kết 3 bích")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="payments")
    revision = models.PositiveIntegerField()
    payer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="payments_out")
    payee = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="payments_in")
    amount = models.BigIntegerField(_("số tiền"))
    reason = models.CharField(_("lý do"), max_length=20, choices=Reason.choices)
    # The engine's explanation as a code and its parameters (scoring.engine.words), worded in
    # the reader's language when shown.
    detail_code = models.CharField(_("giải thích"), max_length=20)
    detail_params = models.JSONField(default=dict, blank=True)

    objects = PaymentQuerySet.as_manager()

    class Meta:
        verbose_name = _("khoản trả")
        verbose_name_plural = _("khoản trả")
        ordering = ["game", "revision", "id"]
        indexes = [models.Index(fields=["game", "revision"])]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="payment_amount_positive"),
            models.CheckConstraint(
                condition=~Q(payer=F("payee")), name="payment_payer_is_not_payee"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.payer} → {self.payee}: {self.amount}"


class SittingTotal(models.Model):
    """One player's totals in one sitting, as its games and settlements add up now: what the
    group's pages sum instead of every seat of every game.

    Never written by hand: ``services.refresh_totals`` recomputes a sitting's rows from its
    games, payments and settlements in the same transaction as every write that changes them,
    and ``ledger.totals.stored_totals_problems`` proves them against those rows. A player with
    nothing in the sitting has no row."""

    sitting = models.ForeignKey(Sitting, on_delete=models.CASCADE, related_name="totals")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    # From the sitting's counted games (active, current revision).
    net = models.BigIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    first = models.PositiveIntegerField(default=0)  # games finished first (a place of 1)
    cong = models.PositiveIntegerField(default=0)
    thoi_games = models.PositiveIntegerField(default=0)
    thoi = models.BigIntegerField(default=0)
    toi_trang = models.PositiveIntegerField(default=0)  # games won by tới trắng
    chat_made = models.PositiveIntegerField(default=0)  # chặt payments received, and amount
    chat_made_amount = models.BigIntegerField(default=0)
    chat_suffered = models.PositiveIntegerField(default=0)
    chat_suffered_amount = models.BigIntegerField(default=0)
    # The sitting's own settlements not voided: handed over and received, never netted.
    paid = models.BigIntegerField(default=0)
    received = models.BigIntegerField(default=0)

    class Meta:
        verbose_name = _("tổng của bàn")
        verbose_name_plural = _("tổng của bàn")
        ordering = ["sitting", "player"]
        constraints = [
            models.UniqueConstraint(fields=["sitting", "player"], name="sitting_total_unique"),
        ]
        indexes = [models.Index(fields=["player", "sitting"], name="sitting_total_player")]

    def __str__(self) -> str:
        return f"{self.sitting_id}/{self.player_id} {self.net:+d}"


class SittingFlow(models.Model):
    """What ``payer`` paid ``payee`` through one sitting's counted games, all reasons
    together (> 0): the head-to-head flows and the "as played" plan add these up. Kept with
    ``SittingTotal``, by the same function."""

    sitting = models.ForeignKey(Sitting, on_delete=models.CASCADE, related_name="flows")
    payer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    payee = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    amount = models.BigIntegerField()

    class Meta:
        verbose_name = _("dòng tiền của bàn")
        verbose_name_plural = _("dòng tiền của bàn")
        ordering = ["sitting", "payer", "payee"]
        constraints = [
            models.UniqueConstraint(
                fields=["sitting", "payer", "payee"], name="sitting_flow_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.sitting_id}: {self.payer_id} → {self.payee_id} {self.amount}"


class Settlement(models.Model):
    """Money actually handed over at the end of the night ("A paid B 200 000 ₫").

    Either for one sitting (``sitting``, as always; it counts in the sitting's group too) or
    for a group as a whole (``group``, spanning sittings, dated ``date``): exactly one is set.
    """

    sitting = models.ForeignKey(
        Sitting, null=True, blank=True, on_delete=models.CASCADE, related_name="settlements"
    )
    group = models.ForeignKey(
        Group,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="settlements",
        verbose_name=_("nhóm"),
    )
    # The day a group-wide settlement counts on (periods, statements); a sitting's
    # settlements count on the sitting's date.
    date = models.DateField(_("ngày trả"), null=True, blank=True)
    payer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    payee = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    amount = models.BigIntegerField(_("số tiền"))
    is_void = models.BooleanField(default=False)
    void_reason = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # A pay tap sent again (a retry after a lost answer, a queue resent on reconnect) carries
    # the same token: the unique constraint makes it record nothing new, even in a race.
    submission_token = models.UUIDField(null=True, blank=True, unique=True, editable=False)
    # The payee's side says "đã nhận": the payment counts from the moment it is recorded,
    # this only tells the payer it arrived. ``confirmed_by`` is the scorekeeper who confirmed
    # it, None when the payee did through their own link (``confirmed_by_payee``).
    confirmed_at = models.DateTimeField(_("xác nhận lúc"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_by_payee = models.BooleanField(default=False)

    objects = SettlementQuerySet.as_manager()

    class Meta:
        verbose_name = _("thanh toán")
        verbose_name_plural = _("thanh toán")
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="settlement_amount_positive"),
            models.CheckConstraint(
                condition=~Q(payer=F("payee")), name="settlement_payer_is_not_payee"
            ),
            models.CheckConstraint(
                condition=(Q(sitting__isnull=False) & Q(group__isnull=True))
                | (Q(sitting__isnull=True) & Q(group__isnull=False) & Q(date__isnull=False)),
                name="settlement_sitting_or_group",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.payer} → {self.payee}: {self.amount}"


class HistoryManager[M: "ChainedHistory"](models.Manager[M]):
    def bulk_create(self, objs: Any, *args: Any, **kwargs: Any) -> list[M]:
        """Entries written in bulk are chained one after the other, in the list's order."""
        objs = list(objs)
        from scoring.engine import chain

        chain.link_all(objs)
        return super().bulk_create(objs, *args, **kwargs)


class ChainedHistory(models.Model):
    """What a sitting's and a group's history entries share: who, when, what was before and
    after, and the entry's link in its book's hash chain (``scoring.engine.chain``).

    ``hash`` is the SHA-256 of the previous entry's hash and this entry's canonical JSON,
    computed as the entry is inserted (here, or in ``HistoryManager.bulk_create``, or by the
    import's bulk writer): in the same transaction, under the lock its service holds on the
    sitting or group row, so the chain has one head."""

    # The book the entry belongs to: "sitting" or "group" (a field name).
    chain_of: ClassVar[str]

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Who, by name, as the account was called when the entry was written: what the chain
    # covers (not the account's id, which another server numbers otherwise), and what stays
    # when the account is deleted or the book moves to a server that has no such account.
    username = models.CharField(_("người ghi"), max_length=150, blank=True, editable=False)
    # Set before the entry is hashed (not ``auto_now_add``, which would set it afterwards).
    at = models.DateTimeField(default=timezone.now, editable=False)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    hash = models.CharField(max_length=64, blank=True, default="", editable=False)

    class Meta:
        abstract = True

    def save(self, *args: Any, head: str | None = None, **kwargs: Any) -> None:
        """``head``: the book's head, when the write has just read it under its lock (a new
        entry is linked after it instead of reading it again)."""
        if self._state.adding:
            from scoring.engine import chain

            chain.link_all([self], head)
        super().save(*args, **kwargs)


class HistoryEntry(ChainedHistory):
    """Append-only audit trail: who changed what in a sitting, with before and after."""

    class Action(models.TextChoices):
        OPENED = "opened", _("mở bàn")
        RECORDED = "recorded", _("ghi ván")
        EDITED = "edited", _("sửa ván")
        VOIDED = "voided", _("huỷ ván")
        RESTORED = "restored", _("khôi phục ván")
        SETTLED = "settled", _("ghi thanh toán")
        SETTLEMENT_VOIDED = "settlement_voided", _("huỷ thanh toán")
        CONFIRMED = "confirmed", _("xác nhận đã nhận")
        UNCONFIRMED = "unconfirmed", _("bỏ xác nhận đã nhận")
        MEMBERS = "members", _("đổi thành viên")
        SHARED = "shared", _("mời người ghi cùng")
        INVITE_ACCEPTED = "invite_accepted", _("nhận lời ghi cùng")
        INVITE_DECLINED = "invite_declined", _("từ chối ghi cùng")
        INVITE_WITHDRAWN = "invite_withdrawn", _("rút lời mời")
        KEEPER_REMOVED = "keeper_removed", _("bỏ người ghi cùng")
        KEEPER_LEFT = "keeper_left", _("người ghi cùng rời bàn")
        LIVE = "live", _("đổi liên kết xem")
        IMPORTED = "imported", _("nhập từ tệp")
        MOVED = "moved", _("chuyển nhóm")

    chain_of = "sitting"

    sitting = models.ForeignKey(Sitting, on_delete=models.CASCADE, related_name="history")
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="history"
    )
    settlement = models.ForeignKey(
        Settlement, null=True, blank=True, on_delete=models.CASCADE, related_name="history"
    )
    action = models.CharField(max_length=20, choices=Action.choices)
    revision = models.PositiveIntegerField(null=True, blank=True)
    # What a person typed; a note the ledger writes itself is a code and its parameters
    # (scoring.text.wording.NOTES), worded in the reader's language when shown.
    note = models.CharField(max_length=200, blank=True)
    note_code = models.CharField(max_length=20, blank=True)
    note_params = models.JSONField(default=dict, blank=True)
    # Set on the entry an "undo" wrote, pointing at the change it took back.
    undoes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="undone_by"
    )

    objects = HistoryManager["HistoryEntry"]()

    class Meta:
        verbose_name = _("lịch sử")
        verbose_name_plural = _("lịch sử")
        ordering = ["-at", "-id"]
        # The head of a sitting's chain: its newest entry.
        indexes = [models.Index(fields=["sitting", "id"], name="history_chain_head")]

    def __str__(self) -> str:
        return f"{self.get_action_display()} {self.at:%Y-%m-%d %H:%M}"


class Invitation(models.Model):
    """An offer to share something, which the invitee accepts or declines.

    The thing shared is a sitting or a group (as co-scorekeeper): exactly one of ``sitting``
    and ``group`` is set. The invitation keeps
    the username as typed, and ``invitee`` only when such an account existed then: the owner
    sees the same pending invitation either way, so inviting never tells whether an account
    exists. An invitation to no one simply stays pending until it is withdrawn.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("đang chờ")
        ACCEPTED = "accepted", _("đã nhận lời")
        DECLINED = "declined", _("đã từ chối")
        WITHDRAWN = "withdrawn", _("đã rút lại")

    sitting = models.ForeignKey(
        Sitting,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="invitations",
        verbose_name=_("bàn"),
    )
    group = models.ForeignKey(
        Group,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="invitations",
        verbose_name=_("nhóm"),
    )
    username = models.CharField(_("tên đăng nhập được mời"), max_length=150)
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="invitations",
        verbose_name=_("người được mời"),
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("người mời"),
    )
    status = models.CharField(
        _("trạng thái"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("mời lúc"), auto_now_add=True)
    answered_at = models.DateTimeField(_("trả lời lúc"), null=True, blank=True)

    class Meta:
        verbose_name = _("lời mời")
        verbose_name_plural = _("lời mời")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["sitting", "username"],
                condition=Q(status="pending"),
                name="invitation_one_pending_per_username",
            ),
            models.UniqueConstraint(
                fields=["group", "username"],
                condition=Q(status="pending"),
                name="invitation_one_pending_per_group_username",
            ),
            models.CheckConstraint(
                condition=Q(sitting__isnull=False, group__isnull=True)
                | Q(sitting__isnull=True, group__isnull=False),
                name="invitation_sitting_or_group",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.username} → {self.sitting or self.group}"

    def get_absolute_url(self) -> str:
        return reverse("invitation", args=[self.pk])

    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.PENDING


class PeriodClose(models.Model):
    """Closing the period: everything in the group dated up to and including
    ``closes_through`` is settled and frozen, and the next period opens with the balances
    carried. On that last day only the sittings up to ``through_sitting`` are closed (those
    there were when the book was closed), so a table opened the same night after the close
    opens in the new period, as does a group-wide settlement recorded after it. Nothing is
    deleted; an undo sets ``undone_at`` (the row and its history stay)."""

    group = models.ForeignKey(
        Group, on_delete=models.CASCADE, related_name="period_closes", verbose_name=_("nhóm")
    )
    closes_through = models.DateField(_("chốt sổ đến hết ngày"))
    # The last sitting dated ``closes_through`` the close covers (None: it covers none of
    # that day's); a sitting of that day with a larger id was opened after the close.
    through_sitting = models.ForeignKey(
        Sitting,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("đến hết bàn"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    objects = PeriodCloseQuerySet.as_manager()

    class Meta:
        verbose_name = _("chốt sổ")
        verbose_name_plural = _("chốt sổ")
        ordering = ["-closes_through", "-id"]

    def __str__(self) -> str:
        return f"{self.group} ≤ {self.closes_through}"

    def covers_sitting(self, day: date, sitting_id: int | None) -> bool:
        """Whether a sitting dated ``day`` is inside this closed period (``sitting_id`` None:
        one not opened yet, which would open after the close)."""
        if day < self.closes_through:
            return True
        return (
            day == self.closes_through
            and sitting_id is not None
            and self.through_sitting_id is not None
            and sitting_id <= self.through_sitting_id
        )

    def covers_settlement(self, day: date, created_at: datetime | None) -> bool:
        """Whether a group-wide settlement dated ``day`` is inside this closed period
        (``created_at`` None: one not recorded yet, which would come after the close)."""
        if day < self.closes_through:
            return True
        return (
            day == self.closes_through
            and created_at is not None
            and self.created_at is not None
            and created_at <= self.created_at
        )

    def sittings_covered(self, via: str = "") -> Q:
        """``covers_sitting`` in SQL: the sittings inside this closed period, reached from the
        rows filtered through ``via`` (a lookup prefix: "" for sittings, "sitting__" for a
        sitting's rows, "game__sitting__" for a game's)."""
        covered = Q(**{f"{via}date__lt": self.closes_through})
        if self.through_sitting_id is not None:
            covered |= Q(
                **{f"{via}date": self.closes_through, f"{via}pk__lte": self.through_sitting_id}
            )
        return covered

    def sittings_after(self, via: str = "") -> Q:
        """The sittings after this close (every one ``sittings_covered`` leaves out): dated
        after its last day, or on it and opened after the close."""
        return Q(**{f"{via}date__gt": self.closes_through}) | Q(
            **{f"{via}date": self.closes_through, f"{via}pk__gt": self.through_sitting_id or 0}
        )

    def wide_settlements_after(self) -> Q:
        """The group-wide settlements after this close (``covers_settlement`` false), in SQL:
        dated after its last day, or on it and recorded after the close."""
        on_the_day = Q(date=self.closes_through)
        if self.created_at is not None:
            on_the_day &= Q(created_at__gt=self.created_at)
        return Q(date__gt=self.closes_through) | on_the_day


def sittings_in_period(
    start: date | None, end: date | None, cut: PeriodClose | None = None, *, via: str = ""
) -> Q:
    """Which sittings a period holds: the one rule every page reading a period asks (``via``
    as in ``PeriodClose.sittings_covered``). Those dated from ``start`` to ``end`` (both
    inclusive, None or ``date.min`` open-ended); with ``cut``, the open period after that
    close: the sittings the close does not cover (``start`` is then not read), so a table
    opened on the close's last day after the close is in the open period, not the closed."""
    q = Q()
    if cut is not None:
        q &= cut.sittings_after(via)
    elif start is not None and start != date.min:
        q &= Q(**{f"{via}date__gte": start})
    if end is not None:
        q &= Q(**{f"{via}date__lte": end})
    return q


def settlements_in_period(
    start: date | None, end: date | None, cut: PeriodClose | None = None
) -> Q:
    """Which settlements a period holds, by the same rule: a sitting's own as its sitting
    (``sittings_in_period``), a group-wide one by its date (on a close's last day, by whether
    it was recorded after the close)."""
    wide = Q()
    if cut is not None:
        wide &= cut.wide_settlements_after()
    elif start is not None and start != date.min:
        wide &= Q(date__gte=start)
    if end is not None:
        wide &= Q(date__lte=end)
    own = sittings_in_period(start, end, cut, via="sitting__")
    return (Q(sitting__isnull=False) & own) | (Q(sitting__isnull=True) & wide)


class GroupHistoryEntry(ChainedHistory):
    """Append-only audit trail of a group: who changed what, with before and after (the
    sittings keep their own ``HistoryEntry``)."""

    class Action(models.TextChoices):
        CREATED = "created", _("tạo nhóm")
        RENAMED = "renamed", _("đổi tên nhóm")
        SHARED = "shared", _("mời người ghi cùng")
        INVITE_ACCEPTED = "invite_accepted", _("nhận lời ghi cùng")
        INVITE_DECLINED = "invite_declined", _("từ chối ghi cùng")
        INVITE_WITHDRAWN = "invite_withdrawn", _("rút lời mời")
        KEEPER_REMOVED = "keeper_removed", _("bỏ người ghi cùng")
        KEEPER_LEFT = "keeper_left", _("người ghi cùng rời nhóm")
        SETTLED = "settled", _("ghi thanh toán")
        SETTLEMENT_VOIDED = "settlement_voided", _("huỷ thanh toán")
        CONFIRMED = "confirmed", _("xác nhận đã nhận")
        UNCONFIRMED = "unconfirmed", _("bỏ xác nhận đã nhận")
        PLAYER_LINK = "player_link", _("đổi liên kết của người chơi")
        PERIOD_CLOSED = "period_closed", _("chốt sổ")
        PERIOD_REOPENED = "period_reopened", _("huỷ chốt sổ")
        SITTING_IN = "sitting_in", _("chuyển bàn vào")
        SITTING_OUT = "sitting_out", _("chuyển bàn đi")
        PLAYERS_MERGED = "players_merged", _("gộp người chơi")
        LIVE = "live", _("đổi liên kết xem")

    chain_of = "group"

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="history")
    sitting = models.ForeignKey(
        Sitting, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    settlement = models.ForeignKey(
        Settlement, null=True, blank=True, on_delete=models.CASCADE, related_name="group_history"
    )
    period = models.ForeignKey(
        PeriodClose, null=True, blank=True, on_delete=models.CASCADE, related_name="history"
    )
    action = models.CharField(max_length=20, choices=Action.choices)
    # What a person typed; a note the ledger writes itself is a code and its parameters
    # (scoring.text.wording.NOTES), worded in the reader's language when shown.
    note = models.CharField(max_length=200, blank=True)
    note_code = models.CharField(max_length=20, blank=True)
    note_params = models.JSONField(default=dict, blank=True)

    objects = HistoryManager["GroupHistoryEntry"]()

    class Meta:
        verbose_name = _("lịch sử nhóm")
        verbose_name_plural = _("lịch sử nhóm")
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["group", "id"], name="group_history_chain_head")]

    def __str__(self) -> str:
        return f"{self.get_action_display()} {self.at:%Y-%m-%d %H:%M}"


class BookCheck(models.Model):
    """The last check of one book (a sitting's or a group's) against its hash chain, as
    ``verify_ledger`` or a "Kiểm tra sổ" page ran it: whether it agreed and, if not, the
    first mismatch in both languages. While it says the book disagrees, the sitting's page,
    its live link and the group's page show so; a check that passes clears it."""

    sitting = models.OneToOneField(
        Sitting, null=True, blank=True, on_delete=models.CASCADE, related_name="book_check"
    )
    group = models.OneToOneField(
        Group, null=True, blank=True, on_delete=models.CASCADE, related_name="book_check"
    )
    ok = models.BooleanField(default=True)
    message_vi = models.CharField(max_length=500, blank=True)
    message_en = models.CharField(max_length=500, blank=True)
    game = models.PositiveIntegerField(null=True, blank=True)
    checked_at = models.DateTimeField()

    class Meta:
        verbose_name = _("lần kiểm tra sổ")
        verbose_name_plural = _("lần kiểm tra sổ")
        constraints = [
            models.CheckConstraint(
                condition=Q(sitting__isnull=False, group__isnull=True)
                | Q(sitting__isnull=True, group__isnull=False),
                name="book_check_one_book",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.sitting or self.group}: {'ok' if self.ok else 'mismatch'}"

    def message(self, lang: str) -> str:
        """The first mismatch in ``lang`` (the other language's when that one is missing)."""
        if lang.startswith("en"):
            return self.message_en or self.message_vi
        return self.message_vi or self.message_en


class Routine(models.Model):
    """When an operator's routine last finished: the nightly backup (``manage.py backup``) and
    the whole check of the books (``verify_ledger --all``, not ``--since``). ``/healthz`` tells
    their age, so an uptime monitor notices a timer that stopped. One row per routine,
    written only by those commands."""

    class Name(models.TextChoices):
        BACKUP = "backup", _("sao lưu")
        BOOKS = "books", _("kiểm tra toàn bộ sổ")

    name = models.CharField(max_length=20, choices=Name.choices, unique=True)
    finished_at = models.DateTimeField()
    # The backup's file; the count of books found disagreeing by the check.
    detail = models.CharField(max_length=500, blank=True)
    problems = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("việc định kỳ")
        verbose_name_plural = _("việc định kỳ")
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} {self.finished_at:%Y-%m-%d %H:%M}"


class JoinCode(models.Model):
    """ "Mời cả bàn": one QR code the scorekeeper shows; each player who scans it taps their
    own name and gets their own player link (``Player.link_token``) on that phone. It opens
    for one night (``expires_at``, the morning after the sitting's day in the site's zone)
    and stops working when the scorekeeper turns it off (``revoked_at``) or the sitting is
    closed into a period. Made like a live link (43 URL-safe characters)."""

    sitting = models.ForeignKey(Sitting, on_delete=models.CASCADE, related_name="join_codes")
    token = models.CharField(max_length=43, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("mã mời cả bàn")
        verbose_name_plural = _("mã mời cả bàn")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.sitting} · {self.created_at:%Y-%m-%d %H:%M}"

    @staticmethod
    def new_token() -> str:
        return secrets.token_urlsafe(32)


class JoinClaim(models.Model):
    """A name of the sitting taken through its join code: that player's link went to one
    phone. A name has one claim per sitting; only the scorekeeper frees it again (which
    turns the link it handed out off)."""

    sitting = models.ForeignKey(Sitting, on_delete=models.CASCADE, related_name="join_claims")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="join_claims")
    code = models.ForeignKey(
        JoinCode, null=True, blank=True, on_delete=models.SET_NULL, related_name="claims"
    )
    claimed_at = models.DateTimeField(auto_now_add=True)
    # Which phone took it: the SHA-256 of that phone's ``tl_phone`` cookie (never the cookie
    # itself). One phone takes one name per sitting, and a name whose link a phone holds is
    # refused to every other phone (``services.join_claim``). "" for a claim made before phones
    # were told apart: it matches no phone.
    phone = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        verbose_name = _("người đã vào bàn")
        verbose_name_plural = _("người đã vào bàn")
        ordering = ["claimed_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["sitting", "player"], name="join_claim_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.sitting}"


class LedgerCheck(models.Model):
    """Where ``verify_ledger`` last found a book agreeing with its history: the newest entry
    it checked, by id and by hash. ``verify_ledger --since`` (and the group's "Kiểm tra sổ"
    page) checks only what came after it; a checkpoint whose entry is gone or whose hash has
    changed is not trusted (the whole book is checked again). One row per book, a sitting's
    or a group's; written by the check itself, never by a write of the ledger."""

    sitting = models.OneToOneField(
        Sitting, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    group = models.OneToOneField(
        Group, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    # The newest history entry found agreeing (0: the book was empty), and its hash.
    entry_id = models.PositiveBigIntegerField(default=0)
    hash = models.CharField(max_length=64, blank=True, default="")
    checked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(sitting__isnull=True) ^ models.Q(group__isnull=True),
                name="ledger_check_one_book",
            )
        ]

    def __str__(self) -> str:
        return f"{self.sitting_id or self.group_id}: {self.entry_id}"


class JoinRefusal(models.Model):
    """A phone asked, through a sitting's join code, for a name whose link another phone
    holds, and was refused. The scorekeeper's "Mời cả bàn" page shows it beside the name, so
    the right person can be let in ("Gỡ tên", then scan again). One row per name and sitting,
    however many phones ask: the latest phone (its hash), when, and how many times."""

    sitting = models.ForeignKey(Sitting, on_delete=models.CASCADE, related_name="join_refusals")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    phone = models.CharField(max_length=64, blank=True, default="")
    asked_at = models.DateTimeField(default=timezone.now)
    times = models.PositiveIntegerField(default=1)

    class Meta:
        verbose_name = _("máy xin tên đã có người chọn")
        verbose_name_plural = _("máy xin tên đã có người chọn")
        ordering = ["-asked_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["sitting", "player"], name="join_refusal_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.sitting} × {self.times}"


class RetiredLink(models.Model):
    """A player's own link that no longer opens, kept by the SHA-256 of its token (never the
    token), so that its address can say what happened and what to do (``link_gone``) instead
    of a bare 404. A join code needs no such row: its own row stays, with ``revoked_at`` and
    ``expires_at``; a merged player's link stays on the merged record."""

    class Reason(models.TextChoices):
        FREED = "freed", _("tên đã được gỡ")
        REVOKED = "revoked", _("đã tắt")
        REPLACED = "replaced", _("đã thay bằng liên kết mới")

    token_hash = models.CharField(max_length=64, unique=True)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    # The sitting whose "Mời cả bàn" freed the name, for a freed link.
    sitting = models.ForeignKey(
        Sitting, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.CharField(max_length=12, choices=Reason.choices)
    retired_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("liên kết đã tắt")
        verbose_name_plural = _("liên kết đã tắt")
        ordering = ["-retired_at", "-id"]

    def __str__(self) -> str:
        return f"{self.player} · {self.reason}"

    @staticmethod
    def hash_of(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()


class ArchiveTask(models.Model):
    """A group's archive imported, or built for download, by the background worker
    (``scoring.services.archive_tasks``): what a person asked for, how far it got, and what
    came of it. A person has at most one unfinished (a constraint); a worker writes
    ``heartbeat_at`` at each step, and an unfinished task whose heartbeat is older than
    ``settings.ARCHIVE_TASK_STALE_SECONDS`` is reported failed when it is read."""

    class Kind(models.TextChoices):
        IMPORT = "import", pgettext_lazy("task", "nhập nhóm")
        EXPORT = "export", pgettext_lazy("task", "bản lưu trữ nhóm")

    class Step(models.TextChoices):
        QUEUED = "queued", pgettext_lazy("task", "đang chờ")
        READING = "reading", pgettext_lazy("task", "đang đọc tệp")
        WRITING = "writing", pgettext_lazy("task", "đang kiểm tra và ghi")
        BUILDING = "building", pgettext_lazy("task", "đang tạo bản lưu trữ")
        DONE = "done", pgettext_lazy("task", "xong")
        FAILED = "failed", pgettext_lazy("task", "không xong")

    class Failure(models.TextChoices):
        NONE = "", ""
        REFUSED = "refused", pgettext_lazy("task", "bản lưu trữ bị từ chối")
        TOO_LARGE = "too_large", pgettext_lazy("task", "nhóm quá lớn")
        STOPPED = "stopped", pgettext_lazy("task", "máy chạy nền đã dừng")
        CRASHED = "crashed", pgettext_lazy("task", "lỗi bất ngờ")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="archive_tasks"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    step = models.CharField(max_length=10, choices=Step.choices, default=Step.QUEUED)
    failure = models.CharField(max_length=10, choices=Failure.choices, blank=True, default="")
    # The group exported, or the group an import made (once it is done).
    group = models.ForeignKey(
        Group, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # An import's uploaded file, until the task finishes (within the request limit: megabytes).
    upload = models.BinaryField(default=b"")
    # The language the person asked in: the importer words its refusals in it.
    language = models.CharField(max_length=8, default="vi")
    # What came of it: an import's counts and the name it took; an export's version and size.
    result = models.JSONField(default=dict, blank=True)
    # A refused archive's problems, [{"path", "message"}], worded by the importer in ``language``.
    problems = models.JSONField(default=list, blank=True)
    # The django.tasks result this task runs as (its id in the task backend).
    task_id = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    heartbeat_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("việc chạy nền")
        verbose_name_plural = _("việc chạy nền")
        ordering = ["-created_at", "-id"]
        constraints = [
            # One unfinished task per person: a second is refused by the database too, even
            # when two requests start one at the same moment.
            models.UniqueConstraint(
                fields=["owner"],
                condition=Q(finished_at__isnull=True),
                name="archive_task_one_unfinished_per_owner",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.step})"

    def get_absolute_url(self) -> str:
        return reverse("archive_task", args=[self.pk])

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


class KeptArchive(models.Model):
    """A group's archive as built for ``version`` (``scoring.ledger.archive_store``), served
    again without rebuilding until the book changes; one per group, replaced by a newer one."""

    group = models.OneToOneField(Group, on_delete=models.CASCADE, related_name="+")
    version = models.CharField(max_length=200)
    data = models.BinaryField()  # gzipped, as downloaded
    built_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("bản lưu trữ đã tạo")
        verbose_name_plural = _("bản lưu trữ đã tạo")

    def __str__(self) -> str:
        return f"{self.group_id} @ {self.version}"
