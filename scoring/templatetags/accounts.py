from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def password_reset_enabled() -> bool:
    """Whether the "forgot password" pages are offered (mail configured, or development)."""
    return bool(settings.PASSWORD_RESET_ENABLED)
