"""parse_record reads a valid record however its values are spelt, as the checker allows."""

from __future__ import annotations

import pytest

from scoring.engine import PRESETS, parse_record


@pytest.mark.parametrize(
    ("data", "read"),
    [
        ({"players": ["A", "B"], "finish": ["A"], "hands": {"B": {"cards": 2, "heo": [" 2H"]}}},
         lambda r: r.hand("B").heo == ("2H",)),
        ({"version": 1.0, "players": ["A", "B"], "finish": ["A"], "hands": {"B": {"cards": 1}}},
         lambda r: r.hand("B").cards == 1),
        ({"players": ["A", "B"], "finish": ["A"], "hands": {"B": {"cards": 3}},
          "chat": [{"steps": [{"player": "A", "play": "3dt", "top": " 9h"},
                              {"player": "B", "play": "tq"}]}]},
         lambda r: r.chat[0].steps[0].top == "9H"),
    ],
)  # fmt: skip
def test_it_reads_valid_records_not_written_the_plain_way(data, read):
    assert read(parse_record(data, PRESETS["dem-la"]))
