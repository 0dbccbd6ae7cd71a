"""Fuzzing the record form and the edit form: any body at all is answered without a 500, and
the ledger changes only by whole games (or whole revisions) the answer says were saved."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from scoring.models import Game, Payment
from tests.hostile.conftest import Table
from tests.hostile.fuzzing import (
    FUZZ,
    as_data,
    counts,
    ledger_problems,
    mutate,
    mutations,
    note,
    posts,
)
from tests.reliability.realserver import first_out_fields

pytestmark = pytest.mark.django_db

SCALARS = ["played", "opening", "winner", "chains", "toi_trang_player", "toi_trang_hand", "den"]
SCALARS += ["ket_3_bich", "chan_player", "chan_round", "two_out", "action", "token", "revision"]
SCALARS += [f"place_{k}" for k in range(0, 6)]
PER_PLAYER = [
    f"{kind}_{i}" for kind in ("cards", "heo", "3dt", "tq", "4dt", "5dt", "cong") for i in range(7)
]
PER_CHAIN = [f"chat_{c}_{k}" for c in range(3) for k in ("out", "steps")]
PER_STEP = [
    f"chat_{c}_{s}_{k}"
    for c in range(3)
    for s in range(4)
    for k in ("player", "play", "cards", "top")
]
DOCUMENTED = SCALARS + PER_PLAYER + PER_CHAIN + PER_STEP
TOKENS = [
    "6f1d7c1e-0000-4000-8000-000000000001",
    "6f1d7c1e-0000-4000-8000-000000000002",
]


def valid_game(table: Table, seed: int, token: str) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    names = [p.name for p in table.players]
    played = rng.sample(names, 4)
    winner, losers = played[0], played[1:]
    body = first_out_fields(
        names,
        winner=winner,
        cards={n: rng.randint(1, 13) for n in losers},
        heo={losers[0]: ["2H"]} if rng.random() < 0.5 else {},
        token=token,
    )
    if rng.random() < 0.3:  # a chặt: heo chopped by 3 đôi thông
        body += [
            ("chains", "1"),
            ("chat_0_steps", "2"),
            ("chat_0_0_player", losers[1]),
            ("chat_0_0_play", "heo"),
            ("chat_0_0_cards", "2S"),
            ("chat_0_1_player", winner),
            ("chat_0_1_play", "3dt"),
        ]
        body = [(k, v) for k, v in body if (k, v) != ("chains", "0")]
    return body


def _said_saved(response, htmx: bool) -> bool:
    if htmx:
        return response.status_code == 200 and b'role="status"' in response.content
    return response.status_code == 302


def _check(table: Table, before: dict[str, int], response, htmx: bool) -> None:
    assert response.status_code < 500
    after = counts()
    new_games = after["Game"] - before["Game"]
    assert new_games in (0, 1)
    note("saved" if new_games else f"not saved ({response.status_code})")
    if new_games:
        assert _said_saved(response, htmx), "a game was written but the answer did not say so"
        assert ledger_problems(table.sitting.pk) == []
    else:
        assert after == before, "nothing saved, yet rows were written"


@given(
    body=posts(DOCUMENTED, extra=TOKENS),
    htmx=st.booleans(),
)
@FUZZ
def test_any_record_body_is_answered_and_writes_nothing_half_done(table, owner_client, body, htmx):
    before = counts()
    headers = {"HX-Request": "true"} if htmx else {}
    url = reverse("game_new", args=[table.sitting.pk])
    response = owner_client.post(url, as_data(body), headers=headers)
    _check(table, before, response, htmx)


@given(
    seed=st.integers(0, 10**6),
    token=st.sampled_from([*TOKENS, None]),
    changes=mutations(DOCUMENTED, extra=TOKENS),
    htmx=st.booleans(),
)
@FUZZ
def test_a_valid_record_with_hostile_changes_saves_whole_or_not_at_all(
    table, owner_client, seed, token, changes, htmx
):
    import uuid

    body = mutate(valid_game(table, seed, token or str(uuid.uuid4())), changes)
    before = counts()
    headers = {"HX-Request": "true"} if htmx else {}
    response = owner_client.post(
        reverse("game_new", args=[table.sitting.pk]), as_data(body), headers=headers
    )
    _check(table, before, response, htmx)


@given(
    seed=st.integers(0, 10**6),
    changes=mutations(DOCUMENTED),
    revision=st.one_of(
        st.sampled_from(["current", "previous", "", "x", "-1", "9" * 40]), st.text(max_size=8)
    ),
    htmx=st.booleans(),
)
@FUZZ
def test_any_edit_body_adds_one_whole_revision_or_nothing(
    table, owner_client, seed, changes, revision, htmx
):
    game = Game.objects.get(sitting=table.sitting, number=1)
    if revision == "current":
        revision = str(game.revision)
    elif revision == "previous":
        revision = str(game.revision - 1)
    body = [(k, v) for k, v in valid_game(table, seed, "") if k not in ("token", "action")]
    body = mutate([*body, ("action", "save"), ("revision", revision)], changes)
    before = counts()
    headers = {"HX-Request": "true"} if htmx else {}
    url = reverse("game_edit", args=[table.sitting.pk, 1])
    response = owner_client.post(url, as_data(body), headers=headers)
    assert response.status_code < 500
    after = Game.objects.get(pk=game.pk)
    assert after.revision in (game.revision, game.revision + 1)
    note("edited" if after.revision != game.revision else f"not edited ({response.status_code})")
    if after.revision == game.revision:
        assert Payment.objects.count() == before["Payment"]
        assert after.record == game.record
    else:
        assert response.status_code == (200 if htmx else 302)  # htmx: HX-Redirect
        assert Payment.objects.filter(game=after, revision=game.revision).count() > 0
    assert ledger_problems(table.sitting.pk) == []
