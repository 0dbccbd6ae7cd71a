"""Co-scorekeepers by consent: invite, accept, decline, withdraw, remove, leave."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from scoring.models import HistoryEntry, Invitation
from tests.factories import open_sitting

pytestmark = pytest.mark.django_db


@pytest.fixture
def sitting(owner):
    return open_sitting(owner)


@pytest.fixture
def friend(db):
    return get_user_model().objects.create_user("ban_than", password="mat-khau-dai-123")


@pytest.fixture
def friend_client(friend):
    client = Client()
    client.force_login(friend)
    return client


def _invite(client, sitting, username, **kwargs):
    return client.post(f"/s/{sitting.pk}/share/", {"username": username}, **kwargs)


def _invited(owner_client, sitting, username):
    _invite(owner_client, sitting, username)
    return Invitation.objects.get(sitting=sitting, username=username)


def _actions(sitting):
    return list(sitting.history.order_by("id").values_list("action", "after__scorekeeper"))


# --- Inviting ---------------------------------------------------------------------------


def test_an_invitation_gives_no_access_until_it_is_accepted(
    owner_client, sitting, friend, friend_client
):
    response = _invite(owner_client, sitting, "ban_than")
    assert response.status_code == 302 and response["Location"] == f"/s/{sitting.pk}/share/"
    invitation = Invitation.objects.get()
    assert invitation.invitee == friend and invitation.status == Invitation.Status.PENDING
    assert not sitting.scorekeepers.exists()
    assert friend_client.get(f"/s/{sitting.pk}/").status_code == 404
    assert friend_client.get(f"/s/{sitting.pk}/history/").status_code == 404
    home = friend_client.get("/").content.decode()
    assert "Lời mời ghi sổ" in home and "Tối thứ Bảy" in home
    assert f'href="/s/{sitting.pk}/"' not in home  # offered, not listed among their sittings
    assert (HistoryEntry.Action.SHARED, "ban_than") in _actions(sitting)


def _normalised(html: str, username: str) -> str:
    html = html.replace(username, "USERNAME")
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    html = re.sub(r'"X-CSRFToken": "[^"]+"', "", html)
    html = re.sub(r'nonce="[^"]+"', "", html)
    html = re.sub(r'Nonce": "[^"]+"', "", html)
    html = re.sub(r"/invitations/\d+/", "/invitations/N/", html)
    html = re.sub(r"/withdraw/\d+/", "/withdraw/N/", html)
    return html


@pytest.mark.parametrize("headers", [{}, {"HX-Request": "true"}])
def test_it_answers_the_same_whether_or_not_the_username_exists(owner, friend, headers):
    """Two identical sittings; one invites a real account, the other a name nobody has."""
    answers = {}
    for username in ("ban_than", "khong_ai_ca"):
        client = Client()
        client.force_login(owner)
        sitting = open_sitting(owner, name="Bàn")
        response = _invite(client, sitting, username, headers=headers, follow=not headers)
        assert response.status_code == 200
        html = _normalised(response.content.decode(), username)
        answers[username] = html.replace(f"/s/{sitting.pk}/", "/s/PK/")
    assert "Đã gửi lời mời tới “USERNAME”" in answers["ban_than"]
    assert answers["ban_than"] == answers["khong_ai_ca"]
    assert Invitation.objects.filter(status=Invitation.Status.PENDING).count() == 2
    assert Invitation.objects.get(username="khong_ai_ca").invitee is None


def test_a_username_typed_in_another_case_still_reaches_the_account(owner_client, sitting, friend):
    _invite(owner_client, sitting, "Ban_Than")
    assert Invitation.objects.get().invitee == friend


def test_a_second_invitation_to_the_same_name_is_refused_the_same_way(
    owner_client, sitting, friend
):
    for username in ("ban_than", "khong_ai_ca"):
        _invite(owner_client, sitting, username)
        response = _invite(owner_client, sitting, username)
        assert response.status_code == 422
        assert f"Đã mời {username} rồi, đang chờ trả lời." in response.content.decode()
    assert Invitation.objects.count() == 2


@pytest.mark.parametrize("typed", ["bаn_than", "bán_than", "BAN_THAN​"])
def test_a_username_that_only_looks_like_an_account_is_refused_naming_it(
    owner_client, sitting, friend, typed
):
    # A Cyrillic а, a tone mark: no one can ever sign up with such a name beside ban_than,
    # so the invitation could only mislead the owner. A zero-width space is refused as such.
    response = _invite(owner_client, sitting, typed)
    assert response.status_code == 422
    body = response.content.decode()
    assert "trông giống tên đăng nhập “ban_than”" in body or "U+200B" in body
    assert not Invitation.objects.exists()
    # The same name in another case is that account, as before.
    assert _invite(owner_client, sitting, "Ban_Than").status_code in (200, 302)
    assert Invitation.objects.get().invitee == friend


def test_the_owner_cannot_invite_themselves(owner_client, sitting):
    response = _invite(owner_client, sitting, "chu_ban")
    assert response.status_code == 422
    assert "Bạn là chủ bàn này rồi." in response.content.decode()
    assert not Invitation.objects.exists()


def test_the_share_page_lists_keepers_and_pending_invitations(owner_client, sitting, friend):
    _invite(owner_client, sitting, "khong_ai_ca")
    html = owner_client.get(f"/s/{sitting.pk}/share/").content.decode()
    assert "Đang chờ trả lời" in html and "khong_ai_ca" in html
    invitation = Invitation.objects.get()
    assert f"http://testserver/invitations/{invitation.pk}/" in html
    fragment = owner_client.get(f"/s/{sitting.pk}/share/", headers={"HX-Request": "true"})
    body = fragment.content.decode()
    assert body.lstrip().startswith('<div id="sharing">') and "<html" not in body


def test_an_invalid_invitation_comes_back_as_a_fragment_for_htmx(owner_client, sitting):
    response = _invite(owner_client, sitting, "", headers={"HX-Request": "true"})
    assert response.status_code == 200  # htmx swaps only 2xx answers
    body = response.content.decode()
    assert "<html" not in body and 'class="field-error"' in body


# --- The invitee answers ------------------------------------------------------------------


def test_accepting_opens_the_sitting_and_writes_the_history(
    owner_client, sitting, friend, friend_client
):
    invitation = _invited(owner_client, sitting, "ban_than")
    page = friend_client.get(f"/invitations/{invitation.pk}/")
    assert page.status_code == 200 and "Nhận lời" in page.content.decode()
    response = friend_client.post(f"/invitations/{invitation.pk}/accept/")
    assert response.status_code == 302 and response["Location"] == f"/s/{sitting.pk}/"
    assert friend_client.get(f"/s/{sitting.pk}/").status_code == 200
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.ACCEPTED and invitation.answered_at
    assert _actions(sitting)[-1] == (HistoryEntry.Action.INVITE_ACCEPTED, "ban_than")
    # The link, opened again, leads to the sitting.
    again = friend_client.get(f"/invitations/{invitation.pk}/")
    assert again.status_code == 302 and again["Location"] == f"/s/{sitting.pk}/"


def test_accepting_with_htmx_redirects_the_page(owner_client, sitting, friend, friend_client):
    invitation = _invited(owner_client, sitting, "ban_than")
    response = friend_client.post(
        f"/invitations/{invitation.pk}/accept/", headers={"HX-Request": "true"}
    )
    assert response.status_code == 200 and response["HX-Redirect"] == f"/s/{sitting.pk}/"


@pytest.mark.parametrize("headers", [{}, {"HX-Request": "true"}])
def test_declining_keeps_the_sitting_closed(owner_client, sitting, friend, friend_client, headers):
    invitation = _invited(owner_client, sitting, "ban_than")
    response = friend_client.post(f"/invitations/{invitation.pk}/decline/", headers=headers)
    if headers:
        body = response.content.decode()
        assert response.status_code == 200 and "<html" not in body
        assert "Đã từ chối lời mời" in body and "Nhận lời" not in body
    else:
        assert response.status_code == 302 and response["Location"] == "/"
    assert friend_client.get(f"/s/{sitting.pk}/").status_code == 404
    assert not sitting.scorekeepers.exists()
    assert _actions(sitting)[-1] == (HistoryEntry.Action.INVITE_DECLINED, "ban_than")
    assert friend_client.get(f"/invitations/{invitation.pk}/").status_code == 404


def test_an_invitation_is_404_to_everyone_but_the_invitee(
    owner_client, sitting, friend, stranger_client
):
    invitation = _invited(owner_client, sitting, "ban_than")
    for client in (owner_client, stranger_client):
        assert client.get(f"/invitations/{invitation.pk}/").status_code == 404
        assert client.post(f"/invitations/{invitation.pk}/accept/").status_code == 404
        assert client.post(f"/invitations/{invitation.pk}/decline/").status_code == 404
    assert not sitting.scorekeepers.exists()
    invitation.refresh_from_db()
    assert invitation.is_pending


def test_signing_up_later_with_the_invited_name_gives_nothing(owner_client, sitting):
    invitation = _invited(owner_client, sitting, "ten_sau_nay")
    latecomer = get_user_model().objects.create_user("ten_sau_nay", password="x-long-pass-1")
    client = Client()
    client.force_login(latecomer)
    assert client.post(f"/invitations/{invitation.pk}/accept/").status_code == 404
    assert "Lời mời ghi sổ" not in client.get("/").content.decode()
    assert not sitting.scorekeepers.exists()


def test_the_answer_needs_a_post(owner_client, sitting, friend, friend_client):
    invitation = _invited(owner_client, sitting, "ban_than")
    assert friend_client.get(f"/invitations/{invitation.pk}/accept/").status_code == 405


def test_answering_needs_the_csrf_token(owner_client, sitting, friend):
    invitation = _invited(owner_client, sitting, "ban_than")
    client = Client(enforce_csrf_checks=True)
    client.force_login(friend)
    assert client.post(f"/invitations/{invitation.pk}/accept/").status_code == 403
    assert not sitting.scorekeepers.exists()
    owner = Client(enforce_csrf_checks=True)
    owner.force_login(sitting.owner)
    assert _invite(owner, sitting, "ai_khac").status_code == 403
    assert Invitation.objects.count() == 1


# --- Withdraw, remove, leave --------------------------------------------------------------


@pytest.mark.parametrize("headers", [{}, {"HX-Request": "true"}])
def test_the_owner_withdraws_an_invitation(owner_client, sitting, friend, friend_client, headers):
    invitation = _invited(owner_client, sitting, "ban_than")
    url = f"/s/{sitting.pk}/share/withdraw/{invitation.pk}/"
    response = owner_client.post(url, headers=headers)
    if headers:
        body = response.content.decode()
        assert "<html" not in body and "Đã rút lời mời “ban_than”." in body
    else:
        assert response.status_code == 302
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.WITHDRAWN
    assert _actions(sitting)[-1] == (HistoryEntry.Action.INVITE_WITHDRAWN, "ban_than")
    # Too late to accept now.
    assert friend_client.post(f"/invitations/{invitation.pk}/accept/").status_code == 302
    assert not sitting.scorekeepers.exists()
    assert "Lời mời ghi sổ" not in friend_client.get("/").content.decode()


def _keeper(owner_client, sitting, friend_client):
    invitation = _invited(owner_client, sitting, "ban_than")
    friend_client.post(f"/invitations/{invitation.pk}/accept/")
    assert sitting.scorekeepers.exists()


@pytest.mark.parametrize("headers", [{}, {"HX-Request": "true"}])
def test_the_owner_removes_a_co_scorekeeper(owner_client, sitting, friend, friend_client, headers):
    _keeper(owner_client, sitting, friend_client)
    assert "ban_than" in owner_client.get(f"/s/{sitting.pk}/share/").content.decode()
    response = owner_client.post(f"/s/{sitting.pk}/share/remove/{friend.pk}/", headers=headers)
    if headers:
        assert "ban_than không còn ghi sổ bàn này." in response.content.decode()
    assert friend_client.get(f"/s/{sitting.pk}/").status_code == 404
    assert _actions(sitting)[-1] == (HistoryEntry.Action.KEEPER_REMOVED, "ban_than")
    # A second tap finds nobody to remove.
    again = owner_client.post(f"/s/{sitting.pk}/share/remove/{friend.pk}/")
    assert again.status_code == 404


def test_a_co_scorekeeper_leaves(owner_client, sitting, friend, friend_client):
    _keeper(owner_client, sitting, friend_client)
    assert f"/s/{sitting.pk}/leave/" in friend_client.get(f"/s/{sitting.pk}/").content.decode()
    assert "Rời bàn này" in friend_client.get(f"/s/{sitting.pk}/leave/").content.decode()
    response = friend_client.post(f"/s/{sitting.pk}/leave/")
    assert response.status_code == 302 and response["Location"] == "/"
    assert friend_client.get(f"/s/{sitting.pk}/").status_code == 404
    assert _actions(sitting)[-1] == (HistoryEntry.Action.KEEPER_LEFT, "ban_than")
    history = owner_client.get(f"/s/{sitting.pk}/history/").content.decode()
    assert "người ghi cùng rời bàn" in history and "ban_than" in history


def test_a_co_scorekeeper_can_be_invited_again_after_leaving(
    owner_client, sitting, friend, friend_client
):
    _keeper(owner_client, sitting, friend_client)
    friend_client.post(f"/s/{sitting.pk}/leave/")
    assert _invite(owner_client, sitting, "ban_than").status_code == 302
    response = _invite(owner_client, sitting, "ban_than")
    assert "đang chờ trả lời" in response.content.decode()


def test_a_co_scorekeeper_cannot_invite_remove_or_withdraw(
    owner_client, sitting, friend, friend_client, stranger
):
    _keeper(owner_client, sitting, friend_client)
    pending = _invited(owner_client, sitting, "nguoi_la")
    assert friend_client.get(f"/s/{sitting.pk}/share/").status_code == 404
    assert _invite(friend_client, sitting, "ai_do").status_code == 404
    assert friend_client.post(f"/s/{sitting.pk}/share/withdraw/{pending.pk}/").status_code == 404
    assert friend_client.post(f"/s/{sitting.pk}/share/remove/{friend.pk}/").status_code == 404
    pending.refresh_from_db()
    assert pending.is_pending and sitting.scorekeepers.filter(pk=friend.pk).exists()


def test_the_owner_cannot_leave_their_own_sitting(owner_client, sitting):
    page = owner_client.get(f"/s/{sitting.pk}/leave/")
    assert page.status_code == 200 and "không thể rời bàn" in page.content.decode()
    assert "Rời bàn này" not in page.content.decode()
    assert owner_client.post(f"/s/{sitting.pk}/leave/").status_code == 403
    assert owner_client.get(f"/s/{sitting.pk}/").status_code == 200
    assert not sitting.history.filter(action=HistoryEntry.Action.KEEPER_LEFT).exists()


@pytest.mark.parametrize(
    ("method", "suffix"),
    [
        ("get", "share/"),
        ("post", "share/"),
        ("post", "share/withdraw/1/"),
        ("post", "share/remove/1/"),
        ("get", "leave/"),
        ("post", "leave/"),
    ],
)
def test_sharing_pages_are_404_for_strangers(stranger_client, sitting, method, suffix):
    assert getattr(stranger_client, method)(f"/s/{sitting.pk}/{suffix}").status_code == 404


def test_the_history_names_each_step_in_english_too(owner_client, sitting, friend, friend_client):
    _keeper(owner_client, sitting, friend_client)
    owner_client.post(f"/s/{sitting.pk}/share/remove/{friend.pk}/")
    owner_client.cookies["django_language"] = "en"
    html = owner_client.get(f"/s/{sitting.pk}/history/").content.decode()
    assert "accepted the invitation" in html and "removed a co-scorekeeper" in html
