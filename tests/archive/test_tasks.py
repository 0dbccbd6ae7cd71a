"""The archive's background tasks on the site: an import or a large group's download answered
at once and followed on the task's page (htmx polls its status fragment), one unfinished task
per person and a bounded number per site, a task whose worker fell silent reported failed
(never left running, and a late worker writes nothing), a built archive kept until the book
changes, and an export that refuses what no import would take.

The tasks run here without a worker: the dummy backend queues them and the test runs one by
hand (``Task.call``), or the immediate backend runs them in the request; django-tasks-db's
own queue is used where what it stores matters. tests/archive/test_worker.py starts a real
worker.
"""

from __future__ import annotations

import gzip
import json
import re
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.tasks import TaskResultStatus
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from scoring.engine import limits
from scoring.ledger import archive, verify
from scoring.models import ArchiveTask, Group, KeptArchive, Sitting
from scoring.services import archive_tasks
from tests.factories import FIRST, record

pytestmark = pytest.mark.django_db

IMPORT = reverse("group_import")
DUMMY = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
DATABASE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
HTMX = {"HTTP_HX_REQUEST": "true"}


def _upload(raw: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile("nhom.json.gz", raw, content_type="application/gzip")


def _step(html: str) -> str:
    match = re.search(r'id="task-status"[^>]*data-step="(\w+)"', html)
    assert match, html
    return match.group(1)


def test_an_import_is_answered_at_once_and_its_page_follows_the_task(
    settings, stranger_client, rich_group
):
    settings.TASKS = DUMMY
    raw = archive.archive_bytes(rich_group, compress=True)
    response = stranger_client.post(IMPORT, {"file": _upload(raw)})
    job = ArchiveTask.objects.get(owner__username="nguoi_la")
    assert response.status_code == 302 and response["Location"] == job.get_absolute_url()
    assert not Group.objects.filter(owner__username="nguoi_la").exists()  # nothing done yet

    page = stranger_client.get(job.get_absolute_url()).content.decode()
    assert _step(page) == "queued" and "<html" in page
    assert f'hx-get="{job.get_absolute_url()}"' in page and 'hx-trigger="every 1s"' in page
    fragment = stranger_client.get(job.get_absolute_url(), **HTMX).content.decode()
    assert fragment.lstrip().startswith('<section id="task-status"') and "<html" not in fragment

    archive_tasks.archive_import.call(job.pk)  # what the worker does

    fragment = stranger_client.get(job.get_absolute_url(), **HTMX).content.decode()
    new = Group.objects.get(owner__username="nguoi_la")
    assert _step(fragment) == "done" and "hx-trigger" not in fragment
    assert verify.fingerprint_of(new) == verify.fingerprint_of(rich_group)
    assert f'<code id="task-fingerprint">{verify.fingerprint_of(rich_group)}</code>' in fragment
    assert f'href="{new.get_absolute_url()}"' in fragment
    job.refresh_from_db()
    assert job.finished and bytes(job.upload) == b""  # the upload is not kept


def test_a_refused_archive_shows_its_problems_on_the_task_page(settings, stranger_client):
    settings.TASKS = DUMMY
    stranger_client.post(IMPORT, {"file": _upload(b'{"format": "khac"}')})
    job = ArchiveTask.objects.get()
    archive_tasks.archive_import.call(job.pk)
    page = stranger_client.get(job.get_absolute_url()).content.decode()
    assert _step(page) == "failed" and 'id="import-problems"' in page
    assert "Tệp không phải bản lưu trữ nhóm" in page
    assert not Group.objects.filter(owner__username="nguoi_la").exists()


def test_a_person_has_one_unfinished_task(settings, owner_client, rich_group):
    settings.TASKS = DUMMY
    settings.ARCHIVE_INLINE_GAMES = 0  # every download is built by the worker
    raw = archive.archive_bytes(rich_group, compress=True)
    first = owner_client.post(IMPORT, {"file": _upload(raw)})
    running = ArchiveTask.objects.get()
    assert first["Location"] == running.get_absolute_url()

    second = owner_client.post(IMPORT, {"file": _upload(raw)})
    assert second.status_code == 409
    assert "Bạn đang có một việc chạy nền chưa xong" in second.content.decode()
    download = owner_client.get(reverse("group_archive", args=[rich_group.pk]), follow=True)
    assert download.redirect_chain[-1][0] == running.get_absolute_url()
    assert "Bạn đang có một việc chạy nền chưa xong" in download.content.decode()
    assert ArchiveTask.objects.count() == 1

    archive_tasks.archive_import.call(running.pk)
    # Finished: the next one starts, and asking for the same download again joins it.
    url = reverse("group_archive", args=[rich_group.pk])
    export = owner_client.get(url)
    job = ArchiveTask.objects.get(kind="export")
    assert export["Location"] == job.get_absolute_url()
    assert owner_client.get(url)["Location"] == job.get_absolute_url()
    assert ArchiveTask.objects.count() == 2


def test_the_database_holds_one_unfinished_task_per_person(owner):
    ArchiveTask.objects.create(owner=owner, kind="import")
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        ArchiveTask.objects.create(owner=owner, kind="export")
    ArchiveTask.objects.update(finished_at=timezone.now())
    ArchiveTask.objects.create(owner=owner, kind="export")


def test_the_site_runs_a_bounded_number(settings, owner_client, stranger_client, rich_group):
    settings.TASKS = DUMMY
    settings.ARCHIVE_TASKS_MAX = 1
    raw = archive.archive_bytes(rich_group, compress=True)
    assert owner_client.post(IMPORT, {"file": _upload(raw)}).status_code == 302
    busy = stranger_client.post(IMPORT, {"file": _upload(raw)})
    assert busy.status_code == 503
    assert "Máy chủ đang bận với các bản lưu trữ khác" in busy.content.decode()
    assert ArchiveTask.objects.count() == 1


def test_a_task_whose_worker_died_is_reported_failed_not_left_running(
    settings, stranger_client, rich_group
):
    settings.TASKS = DATABASE
    raw = archive.archive_bytes(rich_group, compress=True)
    stranger_client.post(IMPORT, {"file": _upload(raw)})
    job = ArchiveTask.objects.get()
    queued = DBTaskResult.objects.get(id=job.task_id)
    assert queued.status == TaskResultStatus.READY
    # A worker takes it, says it started, and dies (nothing of it is left but the rows).
    queued.claim("a-worker-that-died")
    ArchiveTask.objects.filter(pk=job.pk).update(step="writing")
    page = stranger_client.get(job.get_absolute_url()).content.decode()
    assert _step(page) == "writing"  # not yet stale: it may still be working

    silent = timezone.now() - timedelta(seconds=settings.ARCHIVE_TASK_STALE_SECONDS + 1)
    ArchiveTask.objects.filter(pk=job.pk).update(heartbeat_at=silent)
    page = stranger_client.get(job.get_absolute_url()).content.decode()
    assert _step(page) == "failed" and "Máy chạy nền đã dừng" in page
    assert DBTaskResult.objects.get(id=job.task_id).status == TaskResultStatus.FAILED

    # A worker that was only slow, finishing now, writes nothing.
    archive_tasks.archive_import.call(job.pk)
    assert not Group.objects.filter(owner__username="nguoi_la").exists()
    job.refresh_from_db()
    assert job.failure == "stopped"
    # And the person can start again.
    assert stranger_client.post(IMPORT, {"file": _upload(raw)}).status_code == 302
    assert ArchiveTask.objects.filter(finished_at__isnull=True).count() == 1


def test_a_task_no_worker_took_is_reported_failed_too(settings, stranger_client, rich_group):
    settings.TASKS = DATABASE
    raw = archive.archive_bytes(rich_group, compress=True)
    stranger_client.post(IMPORT, {"file": _upload(raw)})
    job = ArchiveTask.objects.get()
    silent = timezone.now() - timedelta(seconds=settings.ARCHIVE_TASK_STALE_SECONDS + 1)
    ArchiveTask.objects.filter(pk=job.pk).update(heartbeat_at=silent)
    assert archive_tasks.archive_tasks_expire() == 1
    # django-tasks-db's row too, so a worker started later does not run it after all.
    assert DBTaskResult.objects.get(id=job.task_id).status == TaskResultStatus.FAILED
    assert not DBTaskResult.objects.ready().exists()


def test_the_archive_is_kept_until_the_book_changes(owner, owner_client, rich_group):
    url = reverse("group_archive", args=[rich_group.pk])
    first = owner_client.get(url)
    assert first.status_code == 200 and first["Content-Type"] == "application/gzip"
    kept = KeptArchive.objects.get(group=rich_group)
    again = owner_client.get(url)
    # The archive holds the moment it was written: the same bytes are the same file, not
    # rebuilt.
    assert again.content == first.content
    assert KeptArchive.objects.get(group=rich_group).built_at == kept.built_at

    sitting = Sitting.objects.filter(group=rich_group).order_by("-date").first()  # open period
    assert sitting is not None
    record(sitting, owner, FIRST)
    changed = owner_client.get(url)
    assert changed.content != first.content
    data = json.loads(gzip.decompress(changed.content))
    rich_group.refresh_from_db()
    assert data["fingerprint"] == verify.fingerprint_of(rich_group)
    assert KeptArchive.objects.get(group=rich_group).version != kept.version


def test_a_bank_account_change_is_a_new_archive(owner, owner_client, rich_group):
    from scoring import services
    from tests.factories import group_player

    url = reverse("group_archive", args=[rich_group.pk])
    first = owner_client.get(url).content
    player = group_player(rich_group, "An")
    services.player_set_bank(player=player, bank_bin="970436", account="0123456789", holder="AN")
    data = json.loads(gzip.decompress(owner_client.get(url).content))
    assert data != json.loads(gzip.decompress(first))
    assert {p["bank_account"] for p in data["players"]} >= {"0123456789"}


def test_a_large_groups_archive_is_built_by_the_worker(settings, owner_client, rich_group):
    settings.ARCHIVE_INLINE_GAMES = 0
    url = reverse("group_archive", args=[rich_group.pk])
    response = owner_client.get(url)
    job = ArchiveTask.objects.get(kind="export")
    assert response.status_code == 302 and response["Location"] == job.get_absolute_url()
    page = owner_client.get(job.get_absolute_url()).content.decode()
    assert _step(page) == "done" and f'id="task-download" href="{url}"' in page
    download = owner_client.get(url)
    assert download["Content-Type"] == "application/gzip"
    assert json.loads(gzip.decompress(download.content))["fingerprint"] == (
        verify.fingerprint_of(rich_group)
    )


def test_the_task_page_is_its_owners_only(settings, owner_client, stranger_client, rich_group):
    settings.TASKS = DUMMY
    raw = archive.archive_bytes(rich_group, compress=True)
    owner_client.post(IMPORT, {"file": _upload(raw)})
    url = ArchiveTask.objects.get().get_absolute_url()
    assert owner_client.get(url).status_code == 200
    assert stranger_client.get(url).status_code == 404
    assert Client().get(url).status_code == 302  # to the log-in page
    assert owner_client.post(url).status_code == 405
    assert owner_client.get(reverse("archive_task", args=[999_999])).status_code == 404


def test_the_import_form_goes_through_csrf(settings, owner, rich_group):
    settings.TASKS = DUMMY
    checked = Client(enforce_csrf_checks=True)
    checked.force_login(owner)
    raw = archive.archive_bytes(rich_group, compress=True)
    assert checked.post(IMPORT, {"file": _upload(raw)}).status_code == 403
    page = checked.get(IMPORT).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token
    response = checked.post(IMPORT, {"file": _upload(raw), "csrfmiddlewaretoken": token[1]})
    assert response.status_code == 302


def test_export_refuses_what_import_would_refuse(monkeypatch, owner_client, rich_group, tmp_path):
    size = len(archive.archive_bytes(rich_group))
    monkeypatch.setattr(limits, "MAX_ARCHIVE_BYTES", size - 1)
    out = tmp_path / "nhom.json.gz"
    with pytest.raises(CommandError, match="too large to archive"):
        call_command(
            "export_group", str(rich_group.pk), "--format", "archive", "--output", str(out)
        )
    assert not out.exists()
    with pytest.raises(archive.ArchiveTooLarge):
        archive.archive_bytes(rich_group, compress=True)
    # On the site: the worker's task says so, in words.
    response = owner_client.get(reverse("group_archive", args=[rich_group.pk]), follow=True)
    body = response.content.decode()
    assert "Nhóm quá lớn để lưu trữ" in body
    monkeypatch.setattr(limits, "MAX_ARCHIVE_BYTES", size)
    assert len(archive.archive_bytes(rich_group)) <= size


def test_the_task_page_speaks_english_too(settings, stranger_client, rich_group):
    settings.TASKS = DUMMY
    stranger_client.cookies["django_language"] = "en"
    raw = archive.archive_bytes(rich_group, compress=True)
    stranger_client.post(IMPORT, {"file": _upload(raw)}, HTTP_ACCEPT_LANGUAGE="en")
    job = ArchiveTask.objects.get()
    waiting = stranger_client.get(job.get_absolute_url()).content.decode()
    assert "Waiting for the background worker" in waiting and "→ Waiting</li>" in waiting
    assert "seconds so far" in waiting or "second so far" in waiting
    archive_tasks.archive_import.call(job.pk)
    done = stranger_client.get(job.get_absolute_url(), **HTMX).content.decode()
    assert "The new group's fingerprint" in done and "Open the new group" in done
    assert "mã sổ" not in done.lower()
