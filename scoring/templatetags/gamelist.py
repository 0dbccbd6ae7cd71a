"""A statement's games, each a link to the game and to the revision that counts, written in
one pass: a month of long nights names some hundreds of them, and the template language
takes a dozen look-ups for each (``{% game_items games sitting_url game_word revision_word %}``
writes what ``groups/statement.html`` wrote item by item)."""

from collections.abc import Iterable

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from scoring import moneytext as money
from scoring.ledger.groups import StatementGame
from scoring.templatetags.money import signed_class

register = template.Library()


@register.simple_tag
def game_items(
    games: Iterable[StatementGame], sitting_url: str, game_word: str, revision_word: str
) -> SafeString:
    """One ``<li>`` per game (number, the revision that counts, net). The text is escaped
    once for all the items; numbers are written as digits, and need none."""
    url, game, revision = escape(sitting_url), escape(game_word), escape(revision_word)
    return mark_safe(  # every part is escaped above or below, or is digits
        "".join(
            f'<li><a href="{url}g/{g.number:d}/">{game} {g.number:d}</a><span class="why">'
            f'<a href="{url}g/{g.number:d}/#revision-{g.revision:d}">{revision} {g.revision:d}'
            f'</a></span><span class="num {signed_class(g.net)}">{escape(money.vnd(g.net))}'
            "</span></li>"
            for g in games
        )
    )
