"""Sittings (bàn) and what they hold: members, games and their revisions, seats, payments,
settlements, the stored totals and flows; and the rule sets a scorekeeper saved."""

import uuid
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoring.engine import RuleSet, ruleset_from_dict
from scoring.models.groups import Group, Player, new_token

MAX_MEMBERS = 8
# The most one sitting holds. A long night is under a hundred games and a handful of
# payments; the import accepts exactly these caps, so every sitting's own export re-imports.
MAX_GAMES = 2000
MAX_SETTLEMENTS = 1000


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
        if self.group_id is None and self.owner_id is not None:
            # Rows created without a group (older callers, tests) go to their owner's default.
            self.group = Group.objects.default_for(self.owner)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("sitting", args=[self.pk])

    def ruleset(self) -> RuleSet:
        """The sitting's frozen rules, as the engine reads them."""
        return ruleset_from_dict(self.rules)

    def players_by_name(self) -> dict[str, "Player"]:
        """The sitting's players by name, in their seats' order (one query)."""
        return {m.player.name: m.player for m in self.memberships.select_related("player")}

    new_live_token = staticmethod(new_token)


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


class GameQuerySet(models.QuerySet["Game"]):
    def active(self) -> "GameQuerySet":
        """Games that count: recorded and not void."""
        return self.filter(status=Game.Status.ACTIVE)

    def void(self) -> "GameQuerySet":
        return self.filter(status=Game.Status.VOID)


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


class SeatQuerySet(models.QuerySet["Seat"]):
    def counted(self) -> "SeatQuerySet":
        """Seats whose net counts: a seat always belongs to its game's current revision, so
        only the game's status decides."""
        return self.filter(game__status=Game.Status.ACTIVE)


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


class PaymentQuerySet(models.QuerySet["Payment"]):
    def current(self) -> "PaymentQuerySet":
        """Payments of each game's current revision (void games included)."""
        return self.filter(revision=F("game__revision"))

    def counted(self) -> "PaymentQuerySet":
        """Payments that move money: current revision of an active game."""
        return self.current().filter(game__status=Game.Status.ACTIVE)


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


class SettlementQuerySet(models.QuerySet["Settlement"]):
    def standing(self) -> "SettlementQuerySet":
        """Settlements not voided: the money that really changed hands."""
        return self.filter(is_void=False)

    def awaiting(self) -> "SettlementQuerySet":
        """Standing settlements the payee's side has not confirmed ("chờ xác nhận")."""
        return self.standing().filter(confirmed_at__isnull=True)


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


#: The columns of a sitting's rows that name a player, each with the lookup from its row to
#: the sitting: the rows that put a player in a sitting.
PLAYER_ROWS: tuple[tuple[type[models.Model], str, str], ...] = (
    (Membership, "player", "sitting"),
    (Seat, "player", "game__sitting"),
    (Payment, "payer", "game__sitting"),
    (Payment, "payee", "game__sitting"),
    (Settlement, "payer", "sitting"),
    (Settlement, "payee", "sitting"),
)
#: Every column that names a player, a game's leaders too: what follows a player whose rows
#: become another's (a merge, a sitting moved between groups).
PLAYER_COLUMNS: tuple[tuple[type[models.Model], str, str], ...] = (
    *PLAYER_ROWS,
    (Game, "led_by", "sitting"),
    (Game, "next_leader", "sitting"),
)
