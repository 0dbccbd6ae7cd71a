"""A group's archive imported, or built for download, outside the request: Django's Tasks
framework (``django.tasks``), queued in the database and run by ``manage.py db_worker``
(django-tasks-db).

A request calls :func:`archive_task_start`, which writes an ``ArchiveTask`` row and enqueues
:func:`archive_import` or :func:`archive_export` in the same transaction (a task is never
queued for a row that was rolled back, nor a row left without its task), and answers at
once; the page then polls the row. The worker writes each step and a heartbeat on the row;
the import itself is the archive's own all-or-nothing transaction
(``scoring.services.group_archive``), and the row is marked done inside it, so a group and a
"done" come together or not at all.

Bounds: a person has one unfinished task (a database constraint); the site has at most
``settings.ARCHIVE_TASKS_MAX`` queued or running (each worker process runs one at a time).

A worker killed in the middle of a task (a deploy, the out-of-memory killer) leaves its task
"running" in django-tasks-db, which has no recovery of its own: :func:`archive_tasks_expire`
reports every unfinished task whose heartbeat is older than
``settings.ARCHIVE_TASK_STALE_SECONDS`` as failed (and its django-tasks-db row too), whenever
a task is read or started. A worker that was only slow and finishes after that finds its task
finished already and writes nothing: an import then rolls back, so a group never appears
behind a "failed".

An archive built for download is kept (``KeptArchive``) under the book's version
(``scoring.ledger.archive_store``) and served again until the book changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.tasks import TaskResultStatus, task, task_backends
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django_tasks_db.backend import DatabaseBackend
from django_tasks_db.models import DBTaskResult

from scoring.ledger import archive, archive_file, verify
from scoring.ledger.archive_store import archive_version, kept_archive
from scoring.ledger.sessionfile import SessionFileError
from scoring.models import ArchiveTask, Group, KeptArchive
from scoring.services import group_archive

Kind, Step, Failure = ArchiveTask.Kind, ArchiveTask.Step, ArchiveTask.Failure


class TaskRefused(Exception):
    """No task was started: the person has one unfinished (``running`` is it), or the site
    has as many as it runs. ``message`` says which, in the reader's language."""

    def __init__(self, message: str, *, running: ArchiveTask | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.running = running


class _Abandoned(Exception):
    """The task was reported failed (its heartbeat went stale) before the worker finished."""


def archive_task_start(
    *, owner: User, kind: str, group: Group | None = None, upload: bytes = b""
) -> ArchiveTask:
    """Queue an import of ``upload`` as a new group of ``owner``, or the build of ``group``'s
    archive; the messages of an import are worded in the language active now."""
    archive_tasks_expire()
    with transaction.atomic(durable=True):
        running = ArchiveTask.objects.filter(owner=owner, finished_at__isnull=True).first()
        if running is not None:
            raise _one_each(running)
        if ArchiveTask.objects.filter(finished_at__isnull=True).count() >= (
            settings.ARCHIVE_TASKS_MAX
        ):
            raise TaskRefused(
                _("Máy chủ đang bận với các bản lưu trữ khác; hãy thử lại sau ít phút.")
            )
        try:
            with transaction.atomic():
                job = ArchiveTask.objects.create(
                    owner=owner,
                    kind=kind,
                    group=group,
                    upload=upload,
                    language=translation.get_language() or settings.LANGUAGE_CODE,
                )
        except IntegrityError:
            # Another request of the same person started one between the check and here.
            other = ArchiveTask.objects.filter(owner=owner, finished_at__isnull=True).first()
            raise _one_each(other) from None
        runner = archive_import if kind == Kind.IMPORT else archive_export
        result = runner.enqueue(job.pk)
        ArchiveTask.objects.filter(pk=job.pk).update(task_id=str(result.id))
    job.refresh_from_db()
    return job


def _one_each(running: ArchiveTask | None) -> TaskRefused:
    return TaskRefused(
        _("Bạn đang có một việc chạy nền chưa xong; hãy đợi nó xong rồi làm tiếp."),
        running=running,
    )


def archive_tasks_expire() -> int:
    """Report as failed every unfinished task whose worker has said nothing for
    ``ARCHIVE_TASK_STALE_SECONDS`` (queued with no worker to take it, or taken by a worker that
    died); returns how many."""
    now = timezone.now()
    stale = ArchiveTask.objects.filter(
        finished_at__isnull=True,
        heartbeat_at__lt=now - timedelta(seconds=settings.ARCHIVE_TASK_STALE_SECONDS),
    )
    # Read first: on SQLite an UPDATE takes the write lock even when nothing matches, and the
    # page that polls a task must not queue behind the import it is watching.
    ids = list(stale.values_list("task_id", flat=True))
    if not ids:
        return 0
    count = stale.update(step=Step.FAILED, failure=Failure.STOPPED, finished_at=now, upload=b"")
    if isinstance(task_backends["default"], DatabaseBackend):
        # django-tasks-db would otherwise show them "running" (or run them late) forever.
        DBTaskResult.objects.filter(id__in=[i for i in ids if i]).exclude(
            status__in=[TaskResultStatus.SUCCESSFUL, TaskResultStatus.FAILED]
        ).update(status=TaskResultStatus.FAILED, finished_at=now)
    return count


@dataclass(frozen=True)
class Built:
    version: str
    data: bytes  # gzipped


def archive_kept_or_built(group: Group) -> Built:
    """The group's gzipped archive for its current version: the kept one, or built and kept.
    :class:`archive.ArchiveTooLarge` when it is larger than any server imports."""
    version = archive_version(group)
    data = kept_archive(group, version)
    if data is None:
        data = archive.archive_bytes(group, compress=True)
        try:
            # A savepoint where the task runs inside the start's write (the immediate backend).
            with transaction.atomic():
                KeptArchive.objects.update_or_create(
                    group=group,
                    defaults={"version": version, "data": data, "built_at": timezone.now()},
                )
        except IntegrityError:
            pass  # kept by another build of the same group at the same moment
    return Built(version, data)


# --- What the worker runs ---------------------------------------------------------------


def _step(pk: int, step: str) -> ArchiveTask | None:
    """Move an unfinished task to ``step`` with a fresh heartbeat; None if it is finished
    (reported failed in the meantime) or gone."""
    if not ArchiveTask.objects.filter(pk=pk, finished_at__isnull=True).update(
        step=step, heartbeat_at=timezone.now()
    ):
        return None
    return ArchiveTask.objects.select_related("owner", "group").get(pk=pk)


def _finish(pk: int, **fields: Any) -> None:
    done = ArchiveTask.objects.filter(pk=pk, finished_at__isnull=True).update(
        finished_at=timezone.now(), heartbeat_at=timezone.now(), upload=b"", **fields
    )
    if not done:
        raise _Abandoned


@task()
def archive_import(task_pk: int) -> None:
    job = _step(task_pk, Step.READING)
    if job is None:
        return
    with translation.override(job.language):
        try:
            data = archive_file.archive_read(bytes(job.upload))
            if _step(task_pk, Step.WRITING) is None:
                return  # reported failed while it was read: not imported after all
            # Not durable: run at once (the immediate backend), it is inside the start's write.
            with transaction.atomic():
                imported = group_archive.group_import(owner=job.owner, data=data)
                del data
                _finish(
                    task_pk,
                    step=Step.DONE,
                    group=imported.group,
                    result={
                        "sittings": imported.sittings,
                        "games": imported.games,
                        "renamed_from": imported.renamed_from,
                        "fingerprint": verify.fingerprint_of(imported.group),
                    },
                )
        except SessionFileError as error:
            problems = [{"path": p.path, "message": p.message} for p in error.problems]
            _finish_quietly(task_pk, step=Step.FAILED, failure=Failure.REFUSED, problems=problems)
        except _Abandoned:
            return
        except Exception:
            _finish_quietly(task_pk, step=Step.FAILED, failure=Failure.CRASHED)
            raise


@task()
def archive_export(task_pk: int) -> None:
    job = _step(task_pk, Step.BUILDING)
    if job is None:
        return
    if job.group is None:  # deleted since
        _finish_quietly(task_pk, step=Step.FAILED, failure=Failure.CRASHED)
        return
    try:
        built = archive_kept_or_built(job.group)
    except archive.ArchiveTooLarge as error:
        _finish_quietly(
            task_pk, step=Step.FAILED, failure=Failure.TOO_LARGE, result={"bytes": error.size}
        )
        return
    except Exception:
        _finish_quietly(task_pk, step=Step.FAILED, failure=Failure.CRASHED)
        raise
    _finish_quietly(
        task_pk, step=Step.DONE, result={"version": built.version, "bytes": len(built.data)}
    )


def _finish_quietly(pk: int, **fields: Any) -> None:
    try:
        _finish(pk, **fields)
    except _Abandoned:
        pass
