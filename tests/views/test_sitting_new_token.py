"""The new-sitting form carries a token: sending it twice opens one sitting."""

import re
import uuid

import pytest

from scoring.models import HistoryEntry, Sitting

pytestmark = pytest.mark.django_db


def _form(token, **changes):
    data = {
        "name": "Tối thứ Bảy",
        "date": "2026-11-28",
        "rules": "preset:dem-la",
        "stake": "5000",
        "players": "An\nBình\nChi\nDũng",
        "token": str(token),
    }
    data.update(changes)
    return data


def test_the_form_carries_a_fresh_token_each_time(owner_client):
    tokens = [
        re.search(r'name="token" value="([0-9a-f-]{36})"', owner_client.get("/s/new/").text)[1]
        for _ in range(2)
    ]
    assert tokens[0] != tokens[1]


def test_it_opens_one_sitting_when_the_same_form_is_sent_twice(owner_client):
    token = uuid.uuid4()
    first = owner_client.post("/s/new/", _form(token))
    again = owner_client.post("/s/new/", _form(token), follow=True)
    sitting = Sitting.objects.get()
    assert first["Location"] == again.redirect_chain[-1][0] == f"/s/{sitting.pk}/"
    assert "Bàn này đã được mở rồi" in again.text
    assert HistoryEntry.objects.filter(action="opened").count() == 1


def test_it_refuses_a_different_form_under_a_used_token(owner_client):
    token = uuid.uuid4()
    owner_client.post("/s/new/", _form(token))
    response = owner_client.post("/s/new/", _form(token, stake="10000"))
    assert response.status_code == 200
    assert "với nội dung khác" in response.text and "Tối thứ Bảy" in response.text
    assert Sitting.objects.count() == 1
    # The form comes back with a new token: sending it again on purpose opens a second one.
    fresh = re.search(r'name="token" value="([0-9a-f-]{36})"', response.text)[1]
    assert fresh != str(token)
    owner_client.post("/s/new/", _form(fresh, stake="10000"))
    assert sorted(Sitting.objects.values_list("stake", flat=True)) == [5000, 10000]


def test_it_refuses_another_users_token_without_naming_their_sitting(owner_client, stranger_client):
    token = uuid.uuid4()
    owner_client.post("/s/new/", _form(token))
    response = stranger_client.post("/s/new/", _form(token))
    assert response.status_code == 200
    assert "“Tối thứ Bảy”" not in response.text
    assert "Trang này đã được gửi rồi" in response.text
    assert Sitting.objects.count() == 1


def test_a_form_without_a_token_still_opens_a_sitting(owner_client):
    data = _form("")
    del data["token"]
    assert owner_client.post("/s/new/", data).status_code == 302
    assert Sitting.objects.get().submission_token is not None


def test_a_refused_form_keeps_its_token(owner_client):
    token = uuid.uuid4()
    response = owner_client.post("/s/new/", _form(token, stake="0"))
    assert f'value="{token}"' in response.text
    owner_client.post("/s/new/", _form(token))
    owner_client.post("/s/new/", _form(token))
    assert Sitting.objects.count() == 1
