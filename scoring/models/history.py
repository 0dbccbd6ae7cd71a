"""The two books' append-only histories, a sitting's and a group's, on one abstract base
that links each entry into its book's hash chain."""

from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.models.groups import Group, PeriodClose
from scoring.models.sittings import Game, Settlement, Sitting


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
