"""The installable app: its web app manifest and its service worker.

Both are served by Django rather than as static files: the service worker must live at
``/sw.js`` for its scope to be the whole site, and both name files by their static URLs
(hashed in production, so a deploy changes them). The worker's cache names carry
``shell_version()``, a hash of the app shell's files and of the worker itself: a deploy that
changes any of them makes a new worker, which deletes the old caches when it takes over, so
no page or file from before the deploy is ever served again.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.template.loader import get_template, render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

#: What the installed app needs to draw any page without the network: the stylesheet, the
#: scripts every page loads (htmx included), the scripts of the sitting page, the icons.
SHELL = (
    "css/site.css",
    "js/site.js",
    "js/app.js",
    "js/pending.js",
    "js/board.js",
    "js/record.js",
    "django_htmx/htmx-2.min.js",
    "django_htmx/django-htmx.js",
    "favicon.svg",
    "icons/icon-192.png",
    "icons/icon-512.png",
)
#: The manifest's icons: (file, size, purpose).
ICONS = (
    ("icons/icon-192.png", 192, "any"),
    ("icons/icon-512.png", 512, "any"),
    ("icons/icon-maskable-512.png", 512, "maskable"),
)
THEME_COLOUR = "#b91c1c"
BACKGROUND_COLOUR = "#f6f4ef"


@lru_cache(maxsize=1)
def shell_version() -> str:
    """A hash of the shell's files and the worker's template: it changes with any deploy
    that changes what the worker would cache or do."""
    digest = hashlib.sha256()
    for name in SHELL:
        path = finders.find(name)
        digest.update(name.encode())
        if isinstance(path, str):
            with open(path, "rb") as file:
                digest.update(file.read())
    template = get_template("app/sw.js")
    origin = getattr(getattr(template, "template", None), "origin", None)
    if origin is not None:
        with open(origin.name, "rb") as file:
            digest.update(file.read())
    return digest.hexdigest()[:16]


@require_GET
@cache_control(max_age=3600, public=True)
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest, in the reader's language."""
    data = {
        "name": _("Sổ Tiến Lên"),
        "short_name": _("Sổ Tiến Lên"),
        "description": _("Ghi điểm và sổ tiền cho bàn Tiến Lên Miền Nam"),
        "lang": translation.get_language(),
        "id": "/",
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": static(name), "sizes": f"{size}x{size}", "type": "image/png", "purpose": use}
            for name, size, use in ICONS
        ],
    }
    body = json.dumps(data, ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/manifest+json; charset=utf-8")
    response["Vary"] = "Cookie, Accept-Language"
    return response


@require_GET
@cache_control(no_cache=True, max_age=0)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, at the site's root so that its scope is every page. Browsers
    check it for changes on each visit (never cached), so a deploy reaches them at once."""
    context = {
        "version": shell_version(),
        "shell": json.dumps([static(name) for name in SHELL]),
        "static_prefix": json.dumps(settings.STATIC_URL),
    }
    response = HttpResponse(
        render_to_string("app/sw.js", context), content_type="text/javascript; charset=utf-8"
    )
    response["Service-Worker-Allowed"] = "/"
    return response
