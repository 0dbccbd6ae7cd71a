"""Đồng the Vietnamese way: ``{{ x|vnd }}`` → 245.000 ₫, ``{{ x|vnd_short }}`` → 245k."""

from django import template

from scoring.charts import format_vnd, format_vnd_short

register = template.Library()


@register.filter
def vnd(value: int | None) -> str:
    return "" if value is None else format_vnd(int(value))


@register.filter
def vnd_short(value: int | None) -> str:
    return "" if value is None else format_vnd_short(int(value))


@register.filter
def signed_class(value: int | None) -> str:
    """A CSS class for a balance: pos, neg or zero."""
    if not value:
        return "zero"
    return "pos" if value > 0 else "neg"
