"""The archive on the site: the owner downloads it from the group page (nobody else can), and
anyone signed in imports one as a new group of theirs, or sees what does not check out."""

from __future__ import annotations

import gzip
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.ledger import archive, verify
from scoring.models import Group, Sitting

pytestmark = pytest.mark.django_db

IMPORT = reverse("group_import")


def _upload(raw: bytes, name: str = "nhom.json.gz") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, raw, content_type="application/gzip")


def test_the_owner_downloads_the_archive_from_the_group_page(owner_client, rich_group):
    page = owner_client.get(rich_group.get_absolute_url()).content.decode()
    url = reverse("group_archive", args=[rich_group.pk])
    assert f'href="{url}"' in page and "Tải bản lưu trữ nhóm" in page
    response = owner_client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/gzip"
    assert response["Content-Disposition"].startswith('attachment; filename="hoi-thu-bay-')
    assert response["Content-Disposition"].endswith('.json.gz"')
    data = json.loads(gzip.decompress(response.content))
    assert data["format"] == archive.FORMAT
    assert data["fingerprint"] == verify.fingerprint_of(rich_group)


def test_nobody_else_downloads_it(client, stranger_client, partner, rich_group, owner):
    url = reverse("group_archive", args=[rich_group.pk])
    assert stranger_client.get(url).status_code == 404
    # A scorekeeper of the group reads its pages, but the archive is the owner's.
    services.group_share(group=rich_group, user=owner, invitee=partner)
    keeper = Client()
    keeper.force_login(partner)
    assert keeper.get(rich_group.get_absolute_url()).status_code == 200
    assert "Tải bản lưu trữ nhóm" not in keeper.get(rich_group.get_absolute_url()).content.decode()
    assert keeper.get(url).status_code == 404
    assert client.get(url).status_code == 302  # to the log-in page
    assert client.get(IMPORT).status_code == 302


def test_an_archive_imports_as_a_new_group_of_whoever_uploads_it(
    stranger_client, stranger, rich_group
):
    groups = stranger_client.get(reverse("groups")).content.decode()
    assert f'href="{IMPORT}"' in groups and "Nhập nhóm" in groups
    form = stranger_client.get(IMPORT)
    assert form.status_code == 200 and 'enctype="multipart/form-data"' in form.content.decode()
    raw = archive.archive_bytes(rich_group, compress=True)
    response = stranger_client.post(IMPORT, {"file": _upload(raw)})
    new = Group.objects.get(owner=stranger)
    assert response.status_code == 302 and response["Location"] == new.get_absolute_url()
    page = stranger_client.get(response["Location"]).content.decode()
    fingerprint = verify.fingerprint_of(rich_group)
    assert verify.fingerprint_of(new) == fingerprint
    assert "Đã nhập nhóm" in page and fingerprint in page
    # Plain JSON imports too (here into the same owner's groups again: a new name).
    response = stranger_client.post(
        IMPORT, {"file": _upload(archive.archive_bytes(rich_group), "nhom.json")}
    )
    assert response.status_code == 302
    assert Group.objects.filter(owner=stranger).count() == 2


def test_a_hand_edited_archive_shows_what_changed_and_saves_nothing(stranger_client, rich_group):
    data = archive.archive_build(rich_group)
    data["sittings"][0]["games"][1]["record"]["hands"]["An"]["cards"] = 3
    before = (Group.objects.count(), Sitting.objects.count())
    response = stranger_client.post(
        IMPORT, {"file": _upload(json.dumps(data).encode(), "nhom.json")}
    )
    assert response.status_code == 422
    body = response.content.decode()
    assert 'id="import-problems"' in body
    assert "Bàn “Tối thứ Bảy” (2026-11-28): Ván 2: chi tiết ván khác với lịch sử." in body
    assert (Group.objects.count(), Sitting.objects.count()) == before


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        (b"not json", "Tệp không phải JSON hợp lệ"),
        (b"{}", "Tệp không phải bản lưu trữ nhóm"),
        (b"\x1f\x8b\x08\x00 broken", "Tệp nén (gzip) bị hỏng."),
    ],
)
def test_what_is_not_an_archive_gets_a_clear_message(stranger_client, raw, said):
    response = stranger_client.post(IMPORT, {"file": _upload(raw)})
    assert response.status_code == 422
    assert said in response.content.decode()
    assert not Group.objects.filter(owner__username="nguoi_la").exists()


def test_the_page_speaks_english_too(stranger_client):
    stranger_client.cookies["django_language"] = "en"
    response = stranger_client.post(IMPORT, {"file": _upload(b"{}")}, HTTP_ACCEPT_LANGUAGE="en")
    body = response.content.decode()
    assert "Import a group" in body and "not a group archive" in body
