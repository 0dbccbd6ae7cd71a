import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db


def test_it_signs_up_and_logs_in(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "thu_ky",
            "password1": "mot-mat-khau-dai-9",
            "password2": "mot-mat-khau-dai-9",
        },
    )
    assert response.status_code == 302
    assert get_user_model().objects.filter(username="thu_ky").exists()
    assert "Các bàn của tôi" in client.get("/").content.decode()


def test_it_explains_a_bad_sign_up_in_vietnamese(client):
    response = client.post(
        "/accounts/signup/", {"username": "x", "password1": "abc", "password2": "abd"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Hai trường mật khẩu không giống nhau." in html  # Django's Vietnamese message
    assert not get_user_model().objects.exists()


@pytest.mark.parametrize("twin", ["аlice", "ALİCE", "Alice", "álice"])
def test_it_refuses_a_username_that_looks_like_a_taken_one(client, twin):
    get_user_model().objects.create_user("alice", password="mat-khau-dai-123")
    data = {"username": twin, "password1": "mot-mat-khau-dai-9", "password2": "mot-mat-khau-dai-9"}
    response = client.post("/accounts/signup/", data)
    assert response.status_code == 200
    assert get_user_model().objects.count() == 1
    html = response.content.decode()
    if twin.casefold() == "alice":
        assert "Tên đăng nhập đã được sử dụng" in html  # Django's own check, before ours
    else:
        assert "trông giống “alice” đã có" in html


def test_a_username_longer_than_any_is_refused_before_the_log_in_limit_records_it(client, owner):
    response = client.post("/accounts/login/", {"username": "9" * 5000, "password": "x"})
    assert response.status_code == 200 and 'class="alert error"' in response.content.decode()
    # The attempt record holds 255 characters: a longer name was a 500 on PostgreSQL.
    assert not AccessAttempt.objects.exists()


def test_it_logs_in_and_out(client, owner):
    response = client.post(
        "/accounts/login/", {"username": "chu_ban", "password": "mat-khau-dai-123"}
    )
    assert response.status_code == 302
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/s/new/").status_code == 302


def test_it_changes_the_password(owner_client, owner):
    response = owner_client.post(
        "/accounts/password_change/",
        {
            "old_password": "mat-khau-dai-123",
            "new_password1": "mat-khau-moi-dai-456",
            "new_password2": "mat-khau-moi-dai-456",
        },
    )
    assert response.status_code == 302
    owner.refresh_from_db()
    assert owner.check_password("mat-khau-moi-dai-456")


def test_failed_log_ins_are_rate_limited_with_a_cool_off(client, owner, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = client.post("/accounts/login/", {"username": "chu_ban", "password": "sai"})
        assert response.status_code == 200
    response = client.post("/accounts/login/", {"username": "chu_ban", "password": "sai"})
    assert response.status_code == 429
    assert "15 phút" in response.content.decode()
    # Even the right password is refused during the cool-off...
    response = client.post(
        "/accounts/login/", {"username": "chu_ban", "password": "mat-khau-dai-123"}
    )
    assert response.status_code == 429


def test_the_cool_off_lifts_by_itself(client, owner, settings):
    from datetime import timedelta

    from axes.models import AccessAttempt
    from django.utils import timezone

    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": "chu_ban", "password": "sai"})
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    response = client.post(
        "/accounts/login/", {"username": "chu_ban", "password": "mat-khau-dai-123"}
    )
    assert response.status_code == 302


def test_the_language_switch_turns_the_interface_english_and_back(client):
    assert 'lang="vi"' in client.get("/").content.decode()
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert 'lang="en"' in client.get("/").content.decode()
    client.post("/i18n/setlang/", {"language": "vi", "next": "/"})
    assert 'lang="vi"' in client.get("/").content.decode()


def test_a_browser_set_to_english_still_gets_vietnamese(client):
    html = client.get("/", headers={"Accept-Language": "en-US,en;q=0.9"}).content.decode()
    assert 'lang="vi"' in html
