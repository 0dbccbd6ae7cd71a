"""Draw the app's home-screen icons (static/icons/*.png) from the favicon's design: "TL" in
white on the site's red. Pure Python (zlib and struct), so anyone can redraw them; the test
suite checks the committed files are what this command draws.

``python manage.py make_icons`` writes them; ``--check`` only says whether they are current.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

RED = (0xB9, 0x1C, 0x1C)
WHITE = (0xFF, 0xFF, 0xFF)
#: (file name, size in pixels, whether the red fills the square): a maskable icon is cropped
#: to a circle or a squircle by the launcher, so it has no corners of its own and keeps the
#: letters inside the middle 80 %.
ICONS: tuple[tuple[str, int, bool], ...] = (
    ("icon-192.png", 192, False),
    ("icon-512.png", 512, False),
    ("icon-maskable-512.png", 512, True),
    ("apple-touch-icon.png", 180, True),
)
# The letters on a 32-unit grid (the favicon's), as rectangles (x0, y0, x1, y1).
_LETTERS = (
    (5, 9, 15, 12),  # T: the bar
    (8.5, 12, 11.5, 24),  # T: the stem
    (18, 9, 21, 24),  # L: the stem
    (21, 21, 27.5, 24),  # L: the foot
)


def _coverage(x: float, y: float, size: int, full: bool) -> tuple[float, float]:
    """(background, letters) coverage of the point (x, y) of a ``size`` icon, 0 or 1."""
    unit = size / 32
    if full:
        inside = True
        scale, offset = unit * 0.8, size * 0.1  # letters in the maskable safe zone
    else:
        radius = 6 * unit
        cx = min(max(x, radius), size - radius)
        cy = min(max(y, radius), size - radius)
        inside = (x - cx) ** 2 + (y - cy) ** 2 <= radius**2
        scale, offset = unit, 0.0
    if not inside:
        return 0.0, 0.0
    gx, gy = (x - offset) / scale, (y - offset) / scale
    letter = any(x0 <= gx < x1 and y0 <= gy < y1 for x0, y0, x1, y1 in _LETTERS)
    return 1.0, 1.0 if letter else 0.0


def draw(size: int, full: bool) -> bytes:
    """The icon as PNG bytes (RGBA). A pixel whose four corners agree is flat; one on an
    edge is sampled 4×4 times, so edges are smooth."""
    corners = [[_coverage(x, y, size, full) for x in range(size + 1)] for y in range(size + 1)]
    samples = [(i + 0.5) / 4 for i in range(4)]
    rows = bytearray()
    for py in range(size):
        rows.append(0)  # filter: none
        for px in range(size):
            around = {corners[py][px], corners[py][px + 1], corners[py + 1][px]}
            around.add(corners[py + 1][px + 1])
            if len(around) == 1:
                bg, fg = _coverage(px + 0.5, py + 0.5, size, full)
            else:
                bg = fg = 0.0
                for sy in samples:
                    for sx in samples:
                        b, f = _coverage(px + sx, py + sy, size, full)
                        bg += b / 16
                        fg += f / 16
            colour = [
                round(r + (w - r) * (fg / bg)) if bg else 0 for r, w in zip(RED, WHITE, strict=True)
            ]
            rows.extend((*colour, round(255 * bg)))
    return _png(size, bytes(rows))


def _png(size: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def icon_dir() -> Path:
    return Path(settings.BASE_DIR) / "static" / "icons"


class Command(BaseCommand):
    help = "Draw the home-screen icons into static/icons/."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="only check they are current")

    def handle(self, *args: Any, **options: Any) -> None:
        folder = icon_dir()
        folder.mkdir(parents=True, exist_ok=True)
        stale = []
        for name, size, full in ICONS:
            data = draw(size, full)
            path = folder / name
            if options["check"]:
                if not path.exists() or path.read_bytes() != data:
                    stale.append(name)
                continue
            path.write_bytes(data)
            self.stdout.write(f"{path.relative_to(settings.BASE_DIR)} ({size}×{size})")
        if stale:
            raise CommandError(f"not what make_icons draws: {', '.join(stale)}")
