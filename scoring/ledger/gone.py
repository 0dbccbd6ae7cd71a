"""What became of a player's link or a join code that no longer opens (the page ``link_gone``).

A phone keeps its player's link for months (a cookie, a bookmark, the installed app), so the
day its link stops it must say why and what to do, not answer a bare 404. A player's link that
was freed, turned off or replaced left a ``RetiredLink`` (by the hash of its token); a merged
player's link stays on the merged record; a join code keeps its own row, with ``revoked_at``
and ``expires_at``. An address that matches none of them was never handed out (or was
mistyped): a 404 that still says what to do.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from scoring.ledger.standing import close_covering
from scoring.models import JoinCode, Player, RetiredLink


@dataclass(frozen=True)
class Gone:
    """A link that does not open: a player's (``kind`` "player") or a join code ("join"),
    why (``reason``: a player's "freed", "revoked", "replaced" or "merged", a join code's
    "expired", "revoked", "replaced" or "closed", "unknown" when nothing is known of it; the
    template words each one in the reader's language), whose name or which table it was
    (``name``, "" when unknown) and since when (``at``). ``status``: 410 for a link that was
    handed out and stopped, 404 for one never seen."""

    kind: str
    reason: str
    name: str = ""
    at: datetime | None = None

    @property
    def status(self) -> int:
        return 404 if self.reason == "unknown" else 410


def player_link_gone(token: str) -> Gone:
    """Why ``token`` opens no player's page (the caller found no player holding it)."""
    merged = Player.objects.merged().filter(link_token=token).first()
    if merged is not None:
        return Gone("player", "merged", merged.name)
    retired = (
        RetiredLink.objects.filter(token_hash=RetiredLink.hash_of(token))
        .select_related("player")
        .first()
    )
    if retired is None:
        return Gone("player", "unknown")
    return Gone("player", retired.reason, retired.player.name, retired.retired_at)


def join_code_gone(token: str) -> Gone | None:
    """Why the join code ``token`` no longer works; None while it still does."""
    code = JoinCode.objects.filter(token=token).select_related("sitting").first()
    if code is None:
        return Gone("join", "unknown")
    name = code.sitting.name
    if code.revoked_at is not None:
        replaced = JoinCode.objects.filter(
            sitting_id=code.sitting_id, created_at__gte=code.revoked_at
        ).exclude(pk=code.pk)
        reason = "replaced" if replaced.exists() else "revoked"
        return Gone("join", reason, name, code.revoked_at)
    if code.expires_at <= timezone.now():
        return Gone("join", "expired", name, code.expires_at)
    close = close_covering(code.sitting)
    if close is not None:
        return Gone("join", "closed", name, close.created_at)
    return None
