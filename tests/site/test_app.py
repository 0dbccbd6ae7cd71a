"""The installable app's pieces served by Django: the manifest, the service worker at the
site's root with versioned cache names, and the icons (what make_icons draws)."""

from __future__ import annotations

import json
import struct

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command

from scoring.management.commands import make_icons
from scoring.views import app

pytestmark = pytest.mark.django_db


def _png_size(name: str) -> tuple[int, int]:
    path = finders.find(name)
    assert isinstance(path, str), name
    with open(path, "rb") as file:
        head = file.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_the_manifest_names_the_app_its_start_and_its_icons(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/manifest+json")
    data = json.loads(response.content)
    assert data["name"] == "Sổ Tiến Lên" and data["lang"] == "vi"
    assert data["start_url"] == "/" and data["scope"] == "/" and data["display"] == "standalone"
    sizes = {(icon["sizes"], icon["purpose"]) for icon in data["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in data["icons"]:
        name = icon["src"].removeprefix("/static/")
        assert _png_size(name) == tuple(int(n) for n in icon["sizes"].split("x"))
    client.cookies["django_language"] = "en"
    english = json.loads(client.get("/manifest.webmanifest").content)
    assert english["lang"] == "en" and english["description"].startswith("Scores")


def test_every_page_links_the_manifest_and_loads_the_worker_script(client):
    html = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert "/static/js/app.js" in html and "/static/icons/apple-touch-icon.png" in html


def test_the_worker_is_served_at_the_root_never_cached_with_versioned_caches(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    version = app.shell_version()
    assert f'var VERSION = "{version}";' in body
    assert '"tienlen-shell-" + VERSION' in body and '"tienlen-pages-" + VERSION' in body
    # Saves are never the worker's business: anything but GET goes to the network untouched.
    assert 'if (request.method !== "GET") return;' in body
    shell = json.loads(body.split("var SHELL = ", 1)[1].split(";\n", 1)[0])
    assert "/static/css/site.css" in shell and "/static/js/pending.js" in shell


def test_a_changed_shell_file_changes_the_version(tmp_path, monkeypatch):
    app.shell_version.cache_clear()
    before = app.shell_version()
    changed = tmp_path / "site.css"
    changed.write_text("body { color: red }")
    real = finders.find

    def find(name, *args, **kwargs):
        return str(changed) if name == "css/site.css" else real(name, *args, **kwargs)

    monkeypatch.setattr(finders, "find", find)
    app.shell_version.cache_clear()
    try:
        assert app.shell_version() != before
    finally:
        monkeypatch.undo()
        app.shell_version.cache_clear()
    assert app.shell_version() == before


@pytest.mark.long
def test_the_committed_icons_are_what_make_icons_draws():
    call_command("make_icons", "--check")
    for name, size, _full in make_icons.ICONS:
        assert _png_size(f"icons/{name}") == (size, size)
