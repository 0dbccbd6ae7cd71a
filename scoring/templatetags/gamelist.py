"""A statement's games, each a link to the game and to the revision that counts, written in
one pass: a month of long nights names some hundreds of them, and the template language
takes a dozen look-ups for each (``{% game_items games sitting_url game_word revision_word %}``
writes what ``groups/statement.html`` wrote item by item)."""

from collections.abc import Iterable

from django import template
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from scoring import moneytext as money
from scoring.ledger.groups import StatementGame
from scoring.templatetags.money import signed_class

register = template.Library()

ITEM = (
    '<li><a href="{0}g/{1}/">{2} {1}</a><span class="why"><a href="{0}g/{1}/#revision-{3}">'
    '{4} {3}</a></span><span class="num {5}">{6}</span></li>'
)


@register.simple_tag
def game_items(
    games: Iterable[StatementGame], sitting_url: str, game_word: str, revision_word: str
) -> SafeString:
    """One ``<li>`` per game (number, the revision that counts, net), every part escaped."""
    return format_html_join(
        "",
        ITEM,
        (
            (
                sitting_url,
                g.number,
                game_word,
                g.revision,
                revision_word,
                signed_class(g.net),
                money.vnd(g.net),
            )
            for g in games
        ),
    )
