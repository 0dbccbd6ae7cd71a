"""A sitting out of the app and back in: CSV and JSON downloads, the print page, the import;
and a group's archive, downloaded by its owner and imported as a new group.

What the files hold is decided in ``scoring.ledger.sessionfile`` (the session file, written and
read) and ``scoring.ledger.sheets`` (the CSV exports); these views only check access, name
the file and hand the bytes over.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from scoring.access import get_group_for_owner, get_sitting_for_user
from scoring.engine import limits
from scoring.forms.pages import GroupImportForm, ImportForm
from scoring.ledger import MIN, Ledger, archive, sessionfile, sheets, verify
from scoring.ledger.archive_store import archive_version, kept_archive
from scoring.ledger.board import game_counts
from scoring.models import MAX_GAMES, ArchiveTask, Game, Seat, Sitting
from scoring.services import archive_tasks
from scoring.services import bulk_import as importer
from scoring.text.filenames import file_name
from tienlen_site.plumbing.http import AuthenticatedHttpRequest, login_required, wants_fragment

CSV = "text/csv; charset=utf-8"
JSON = "application/json; charset=utf-8"
GZIP = "application/gzip"


def _download(
    request: HttpRequest, pk: int, write: Callable[[Sitting], str], content_type: str, suffix: str
) -> HttpResponse:
    """A sitting the user may see, as the file ``write`` makes of it, to save as a download."""
    sitting = get_sitting_for_user(request.user, pk)
    response = HttpResponse(write(sitting).encode("utf-8"), content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(
        True, file_name(sitting.name, sitting.date.isoformat(), suffix=suffix, fallback="ban")
    )
    return response


@login_required
@require_http_methods(["GET"])
def sitting_export_csv(request: HttpRequest, pk: int) -> HttpResponse:
    return _download(request, pk, sheets.payments_csv, CSV, "-payments.csv")


@login_required
@require_http_methods(["GET"])
def sitting_export_totals_csv(request: HttpRequest, pk: int) -> HttpResponse:
    return _download(request, pk, sheets.totals_csv, CSV, "-totals.csv")


@login_required
@require_http_methods(["GET"])
def sitting_export_json(request: HttpRequest, pk: int) -> HttpResponse:
    return _download(request, pk, sessionfile.session_json, JSON, ".json")


@login_required
@require_http_methods(["GET"])
def sitting_print(request: HttpRequest, pk: int) -> HttpResponse:
    """One page to print or save as PDF: totals, the fewest payments left, every game."""
    sitting = get_sitting_for_user(request.user, pk)
    ledger = Ledger.load(sitting)
    games = sitting.games.order_by("number").prefetch_related(
        Prefetch(
            "seats", queryset=Seat.objects.only("game_id", "player_id", "net"), to_attr="seat_list"
        )
    )
    table = []
    for game in games:
        seats: list[Seat] = game.seat_list  # type: ignore[attr-defined]  # Prefetch's to_attr
        nets = {seat.player_id: seat.net for seat in seats}
        table.append({"game": game, "cells": [nets.get(p.pk) for p in ledger.players]})
    context: dict[str, Any] = {
        "sitting": sitting,
        "rows": ledger.rows(),
        "players": ledger.players,
        "suggestions": ledger.plan(MIN, None),
        "settlements": sitting.settlements.select_related("payer", "payee").order_by(
            "created_at", "id"
        ),
        "games": table,
        **game_counts(sitting),
        "games_row": [ledger.games.get(p.pk, 0) for p in ledger.players],
        "fingerprint": verify.fingerprint_of(sitting),
    }
    return render(request, "scoring/print.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def session_import(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Upload a session file: a new sitting with all its games, or nothing and every reason."""
    form = ImportForm(request.POST, request.FILES) if request.method == "POST" else ImportForm()
    problems: list[sessionfile.FileProblem] = []
    more = 0
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            data = sessionfile.session_read(upload.read())
            imported = importer.session_import(
                owner=request.user, data=data, source=upload.name or ""
            )
        except sessionfile.SessionFileError as error:
            problems, more = error.problems, error.more
        else:
            sitting = imported.sitting
            for warning in imported.warnings:
                messages.warning(request, warning)
            count = sitting.games.count()
            messages.success(
                request,
                ngettext(
                    "Đã nhập bàn “%(name)s” với %(n)d ván.",
                    "Đã nhập bàn “%(name)s” với %(n)d ván.",
                    count,
                )
                % {"name": sitting.name, "n": count},
            )
            return redirect(sitting)
    status = 422 if request.method == "POST" else 200
    return render(
        request,
        "scoring/import.html",
        {
            "form": form,
            "problems": problems,
            "more": more,
            "total": len(problems) + more,
            "max_games": MAX_GAMES,
        },
        status=status,
    )


@login_required
@require_http_methods(["GET"])
def group_archive_download(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Everything of the group, gzipped, for its owner to keep or take to another server: the
    file kept for the book as it is now, or built at once for a small group; a large group's is
    built by the worker while its task's page shows how far it got."""
    group = get_group_for_owner(request.user, pk)
    data = kept_archive(group, archive_version(group))
    if data is None and Game.objects.filter(sitting__group=group).count() <= (
        settings.ARCHIVE_INLINE_GAMES
    ):
        try:
            data = archive_tasks.archive_kept_or_built(group).data
        except archive.ArchiveTooLarge:
            data = None  # the task says so, in words
    if data is not None:
        response = HttpResponse(data, content_type=GZIP)
        response["Content-Disposition"] = content_disposition_header(
            True, archive.archive_file_name(group, compress=True)
        )
        return response
    try:
        job = archive_tasks.archive_task_start(owner=request.user, kind="export", group=group)
    except archive_tasks.TaskRefused as refused:
        running = refused.running
        if running is not None and running.kind == "export" and running.group_id == group.pk:
            return redirect(running)  # the same archive, asked again: its page
        messages.error(request, refused.message)
        return redirect(running or group)
    return redirect(job)


@login_required
@require_http_methods(["GET", "POST"])
def group_import(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Upload a group's archive: read, checked and written by the worker (a large group takes
    minutes) while the task's page shows how far it got; then a new group of the user's, the
    same books and fingerprints, or nothing and what was wrong (which book, which entry)."""
    if request.method == "POST":
        form = GroupImportForm(request.POST, request.FILES)
    else:
        form = GroupImportForm()
    status = 422 if request.method == "POST" else 200
    if request.method == "POST" and form.is_valid():
        try:
            job = archive_tasks.archive_task_start(
                owner=request.user, kind="import", upload=form.cleaned_data["file"].read()
            )
        except archive_tasks.TaskRefused as refused:
            form.add_error(None, refused.message)
            status = 409 if refused.running is not None else 503
        else:
            if not job.finished:
                return redirect(job)
            # Run in the request (TASKS_BACKEND=immediate): its result, as the task page says it.
            if job.step == job.Step.DONE and job.group is not None:
                _imported_messages(request, job)
                return redirect(job.group)
            if not job.problems:
                form.add_error(None, unexpected_message())
            return render(request, "groups/import.html", _import_context(form, job), status=422)
    return render(request, "groups/import.html", _import_context(form, None), status=status)


def unexpected_message() -> str:
    return _("Có lỗi bất ngờ; chưa có gì được lưu. Hãy thử lại, hoặc báo người quản trị máy chủ.")


def _import_context(form: GroupImportForm, job: ArchiveTask | None) -> dict[str, Any]:
    return {
        "form": form,
        "problems": job.problems if job is not None else [],
        "job": job,
        "max_mb": limits.MAX_ARCHIVE_BYTES // 1048576,
    }


def _imported_messages(request: HttpRequest, job: ArchiveTask) -> None:
    """What an import that went through says on the new group's page."""
    assert job.group is not None
    result = job.result
    if result.get("renamed_from"):
        messages.info(
            request,
            _("Bạn đã có nhóm tên “%(old)s” nên nhóm mới lấy tên “%(new)s”.")
            % {"old": result["renamed_from"], "new": job.group.name},
        )
    messages.success(request, imported_sentence(job))


def _steps(job: ArchiveTask) -> list[tuple[str, str]]:
    """Each step of the task's kind, with "done", "current" or "todo"."""
    Step = ArchiveTask.Step
    kinds = {
        "import": [Step.QUEUED, Step.READING, Step.WRITING],
        "export": [Step.QUEUED, Step.BUILDING],
    }
    steps = [*kinds[job.kind], Step.DONE]
    at = len(steps) if job.finished else steps.index(Step(job.step))
    return [
        (str(step.label), "done" if n < at else "current" if n == at else "todo")
        for n, step in enumerate(steps)
    ]


def imported_sentence(job: ArchiveTask) -> str:
    assert job.group is not None
    result = job.result
    return _("Đã nhập nhóm “%(name)s”: %(s)s, %(g)s; mã sổ vẫn là %(f)s.") % {
        "name": job.group.name,
        "s": ngettext("%(n)d bàn", "%(n)d bàn", result["sittings"]) % {"n": result["sittings"]},
        "g": ngettext("%(n)d ván", "%(n)d ván", result["games"]) % {"n": result["games"]},
        "f": result["fingerprint"],
    }


@login_required
@require_http_methods(["GET"])
def archive_task(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A background task of the user's: how far it got, then what came of it. The page polls
    its status fragment (htmx) until the task is finished."""
    archive_tasks.archive_tasks_expire()
    job = get_object_or_404(
        ArchiveTask.objects.select_related("group"), pk=pk, owner_id=request.user.pk
    )
    context = {
        "job": job,
        "steps": _steps(job),
        "elapsed": int(((job.finished_at or timezone.now()) - job.created_at).total_seconds()),
        "imported": imported_sentence(job) if job.kind == "import" and job.group else "",
        "too_large_mb": -(-job.result.get("bytes", 0) // 1048576),
        "max_mb": limits.MAX_ARCHIVE_BYTES // 1048576,
    }
    template = "scoring/task.html#status" if wants_fragment(request) else "scoring/task.html"
    return render(request, template, context)
