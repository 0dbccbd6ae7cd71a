"""The archive's tasks with the real pieces: gunicorn at its production 30 s timeout and a
``manage.py db_worker`` process beside it (tests/reliability/realserver.py), on the test's
database.

- A 30 000-game group's archive (150 sittings × 200 games, 2 MB gzipped), which the request
  used to import until gunicorn killed it at 30 s (a 500, nothing saved): the upload is
  answered at once with the task's page, which says "queued" while no worker runs; a worker
  started then imports it, every fingerprint kept. Its download (a group that large is built by
  the worker) goes the same way, and the second download is the kept file.
- A worker killed in the middle of an import: its task is reported failed, not left running,
  nothing is saved, a worker started afterwards does not run it again, and the person can
  start another.
"""

from __future__ import annotations

import gzip
import json
import re
import time
from typing import Any

import pytest

from scoring.ledger import archive, verify
from tests.reliability.realserver import (
    PASSWORD,
    Phone,
    Server,
    Worker,
    database_url_for_test,
    dbtool,
)

pytestmark = pytest.mark.slow

SITTINGS, GAMES = 150, 200
STEP = re.compile(rb'id="task-status"[^>]*data-step="(\w+)"')
FINGERPRINT = re.compile(rb'<code id="task-fingerprint">([^<]+)</code>')
_built: dict[str, Any] = {}


def big_archive(django_user_model) -> dict[str, Any]:
    """The archive of a 30 000-game group, with its fingerprints (built once per process)."""
    if not _built:
        from bench import grow
        from scoring import services

        owner = django_user_model.objects.create_user("ban_cu", password=PASSWORD)
        group = services.group_create(owner=owner, name="Năm năm").value
        grow.add_sittings(group, owner, 0, SITTINGS, GAMES)
        group.refresh_from_db()
        _built.update(
            raw=archive.archive_bytes(group, compress=True),
            group=verify.fingerprint_of(group),
            sittings=sorted(verify.fingerprint_of(s) for s in group.sittings.all()),
        )
    return _built


def upload(phone: Phone, raw: bytes) -> tuple[int, str]:
    status, headers, _body = phone.upload(
        "/groups/import/", {}, {"file": ("nam-nam.json.gz", raw, "application/gzip")}
    )
    return status, headers.get("Location", "")


def step_of(phone: Phone, url: str) -> tuple[str, bytes]:
    status, _headers, body = phone.get(url, headers={"HX-Request": "true"})
    assert status == 200, body[-2000:]
    match = STEP.search(body)
    assert match, body[-2000:]
    return match.group(1).decode(), body


def wait_for(phone: Phone, url: str, steps: set[str], worker: Worker | None = None) -> bytes:
    """Poll the task's fragment, as the page does, until it reaches one of ``steps`` (a guard
    against a hang, not a speed test: the limit is far above what the work takes)."""
    deadline = time.monotonic() + 900
    while time.monotonic() < deadline:
        step, body = step_of(phone, url)
        if step in steps:
            return body
        time.sleep(0.5)
    raise AssertionError(f"never reached {steps}\n{worker.log_tail() if worker else ''}")


def test_a_large_import_and_download_are_answered_at_once_and_done_by_the_worker(
    transactional_db, django_user_model, tmp_path
):
    big = big_archive(django_user_model)
    url = database_url_for_test(tmp_path)
    dbtool(url, "seed", "--username", "thu_ky", "--password", PASSWORD)
    with Server(url, workers=2, timeout=30, log_dir=tmp_path) as server:
        phone = Phone(server.url, timeout=60).login()
        status, task = upload(phone, big["raw"])
        assert status == 302 and re.fullmatch(r"/tasks/\d+/", task), server.log_tail()
        # No worker yet: the request did not do the work, the task waits for one.
        assert step_of(phone, task)[0] == "queued"
        with Worker(url, log_dir=tmp_path) as worker:
            body = wait_for(phone, task, {"done", "failed"}, worker)
            match = FINGERPRINT.search(body)
            assert match, body[-3000:]
            assert match.group(1).decode() == big["group"]
            new = re.search(rb'id="task-open" href="(/groups/(\d+)/)"', body)
            assert new, body[-3000:]
            status, _h, page = phone.get(new.group(1).decode())
            assert status == 200 and "Năm năm".encode() in page

            archive_url = f"{new.group(1).decode()}archive/"
            status, headers, _body = phone.get(archive_url)
            assert status == 302, server.log_tail()
            export = headers["Location"]
            assert re.fullmatch(r"/tasks/\d+/", export) and export != task
            body = wait_for(phone, export, {"done", "failed"}, worker)
            assert b'id="task-download"' in body, body[-3000:]
        # The worker is gone: the kept file is served without it.
        status, headers, raw = phone.get(archive_url)
        assert status == 200 and headers["Content-Type"] == "application/gzip"
        data = json.loads(gzip.decompress(raw))
        assert data["fingerprint"] == big["group"]
        assert sorted(s["fingerprint"] for s in data["sittings"]) == big["sittings"]
        assert phone.get(archive_url)[2] == raw  # the same file, not built again


def test_a_task_whose_worker_died_is_reported_failed(transactional_db, django_user_model, tmp_path):
    big = big_archive(django_user_model)
    url = database_url_for_test(tmp_path)
    dbtool(url, "seed", "--username", "thu_ky", "--password", PASSWORD)
    # A short silence counts as a dead worker here, so the test need not wait half an hour
    # (longer than reading the file takes on a busy machine, the step before the kill).
    quiet = {"ARCHIVE_TASK_STALE_SECONDS": "40"}
    with Server(url, workers=2, timeout=30, log_dir=tmp_path, env=quiet) as server:
        phone = Phone(server.url, timeout=60).login()
        status, task = upload(phone, big["raw"])
        assert status == 302, server.log_tail()
        worker = Worker(url, log_dir=tmp_path).start()
        try:
            body = wait_for(phone, task, {"writing", "failed", "done"}, worker)
            assert b'data-step="writing"' in body, worker.log_tail()
        finally:
            worker.kill()  # in the middle of the import's transaction
        body = wait_for(phone, task, {"failed", "done"})
        assert b"M\xc3\xa1y ch\xe1\xba\xa1y n\xe1\xbb\x81n \xc4\x91\xc3\xa3 d\xe1\xbb\xabng" in body
        status, _h, groups = phone.get("/groups/")
        assert "Năm năm".encode() not in groups  # nothing saved
        with Worker(url, log_dir=tmp_path) as again:
            time.sleep(2)  # a worker that would pick it up again has had ten polls to do it
            assert step_of(phone, task)[0] == "failed", again.log_tail()
        status, second = upload(phone, b"{}")
        assert status == 302 and second != task  # the person may start another
