"""Groups, their players, the invitations to keep their books (or a sitting's) and the
period closes, with the one rule of which sittings and settlements a period holds."""

import secrets
from datetime import date, datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoring.engine import readtext


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


def new_token() -> str:
    """A live link's, a player's own link's or a join code's token: 43 URL-safe characters."""
    return secrets.token_urlsafe(32)


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

    new_live_token = staticmethod(new_token)


class PlayerQuerySet(models.QuerySet["Player"]):
    def unmerged(self) -> "PlayerQuerySet":
        """Players still in use: a merged name's rows are the kept player's (``merged_into``)."""
        return self.filter(merged_into=None)

    def merged(self) -> "PlayerQuerySet":
        """Names merged into another player, whose links and rows are the kept player's."""
        return self.exclude(merged_into=None)


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
        if self.group_id is None and self.owner_id is not None:
            # Rows created without a group (older callers, tests) go to their owner's default.
            self.group = Group.objects.default_for(self.owner)
        if self._state.adding and self.skeleton is None:
            self.skeleton = readtext.skeleton(self.name)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("player", args=[self.pk])

    new_link_token = staticmethod(new_token)


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
        "Sitting",
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


class PeriodCloseQuerySet(models.QuerySet["PeriodClose"]):
    def standing(self) -> "PeriodCloseQuerySet":
        """The closes not undone, newest first: the first is where the open period starts."""
        return self.filter(undone_at__isnull=True).order_by("-closes_through", "-id")


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
        "Sitting",
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
    return _dated(None if cut is None else cut.sittings_after(via), start, end, via)


def settlements_in_period(
    start: date | None, end: date | None, cut: PeriodClose | None = None
) -> Q:
    """Which settlements a period holds, by the same rule: a sitting's own as its sitting
    (``sittings_in_period``), a group-wide one by its date (on a close's last day, by whether
    it was recorded after the close)."""
    wide = _dated(None if cut is None else cut.wide_settlements_after(), start, end)
    own = sittings_in_period(start, end, cut, via="sitting__")
    return (Q(sitting__isnull=False) & own) | (Q(sitting__isnull=True) & wide)


def _dated(after: Q | None, start: date | None, end: date | None, via: str = "") -> Q:
    """The rows after a close (``after``), else from ``start``; up to ``end``."""
    q = Q()
    if after is not None:
        q &= after
    elif start is not None and start != date.min:
        q &= Q(**{f"{via}date__gte": start})
    if end is not None:
        q &= Q(**{f"{via}date__lte": end})
    return q
