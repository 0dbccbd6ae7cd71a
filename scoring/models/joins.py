"""What "Mời cả bàn" keeps: a sitting's join codes, the names taken and refused through them,
and the player links that no longer open."""

import hashlib

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.models.groups import Player, new_token
from scoring.models.sittings import Sitting


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

    new_token = staticmethod(new_token)


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
