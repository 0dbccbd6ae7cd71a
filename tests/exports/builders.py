"""Session files to import: random valid games per preset, and a small hand-written one."""

from __future__ import annotations

import random
from typing import Any

from scoring import engine
from scoring.engine.samples import NAMES, random_record

STAKE = 1000  # even, so the ½ values of "cuoc" are whole đồng


def session(
    preset: str = "dem-la", games: int = 10, seed: int = 1, **fields: Any
) -> dict[str, Any]:
    """A valid session file: random games for ``preset``, one of them voided, two payments."""
    rng = random.Random(f"{preset}-{seed}")
    records: list[dict[str, Any]] = [
        random_record(engine.PRESETS[preset], rng) for _ in range(games)
    ]
    if games > 2:
        records[1] = {**records[1], "void": True, "void_reason": "chia bài sai"}
    data: dict[str, Any] = {
        "name": f"Bàn {preset}",
        "date": "2026-05-16",
        "rules": preset,
        "stake": STAKE,
        "players": list(NAMES),
        "games": records,
        "settlements": [
            {"from": "An", "to": "Bình", "amount": 3000},
            {"from": "Chi", "to": "Dũng", "amount": 1000, "void": True, "void_reason": "nhầm"},
        ],
    }
    data.update(fields)
    return data


def plain(**fields: Any) -> dict[str, Any]:
    """Two hand-written dem-la games between Ánh and Đức, names with Vietnamese letters."""
    data: dict[str, Any] = {
        "name": "Tối thứ Bảy",
        "rules": "dem-la",
        "stake": 1000,
        "players": ["Ánh", "Đức", "Hương"],
        "games": [
            {"players": ["Ánh", "Đức"], "finish": ["Ánh"], "hands": {"Đức": {"cards": 5}}},
            {
                "players": ["Ánh", "Đức", "Hương"],
                "finish": ["Hương"],
                "hands": {"Ánh": {"cards": 2}, "Đức": {"cards": 4}},
            },
        ],
        "settlements": [],
    }
    data.update(fields)
    return data
