"""A sitting out of the app and back in: CSV and JSON downloads, the print page, the import;
and a group's archive, downloaded by its owner and imported as a new group.

What the files hold is decided in ``scoring.ledger.sessionfile`` (the session file, written and
read) and ``scoring.ledger.sheets`` (the CSV exports); these views only check access, name
the file and hand the bytes over.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from scoring.access import get_group_for_owner, get_sitting_for_user
from scoring.forms.pages import GroupImportForm, ImportForm
from scoring.ledger import MIN, Ledger, archive, sessionfile, sheets, verify
from scoring.ledger.board import game_counts
from scoring.models import MAX_GAMES, Seat, Sitting
from scoring.services import bulk_import as importer
from scoring.services import group_archive
from scoring.text.filenames import file_name
from tienlen_site.plumbing.http import login_required

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
def session_import(request: HttpRequest) -> HttpResponse:
    """Upload a session file: a new sitting with all its games, or nothing and every reason."""
    form = ImportForm(request.POST, request.FILES) if request.method == "POST" else ImportForm()
    problems: list[sessionfile.FileProblem] = []
    more = 0
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        assert request.user.is_authenticated  # login_required
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
def group_archive_download(request: HttpRequest, pk: int) -> HttpResponse:
    """Everything of the group, gzipped, for its owner to keep or take to another server."""
    group = get_group_for_owner(request.user, pk)
    response = HttpResponse(archive.archive_bytes(group, compress=True), content_type=GZIP)
    response["Content-Disposition"] = content_disposition_header(
        True, archive.archive_file_name(group, compress=True)
    )
    return response


@login_required
@require_http_methods(["GET", "POST"])
def group_import(request: HttpRequest) -> HttpResponse:
    """Upload a group's archive: a new group of the user's, the same books and fingerprints,
    or nothing and what was wrong (which book, which entry)."""
    if request.method == "POST":
        form = GroupImportForm(request.POST, request.FILES)
    else:
        form = GroupImportForm()
    problems: list[sessionfile.FileProblem] = []
    if request.method == "POST" and form.is_valid():
        assert request.user.is_authenticated  # login_required
        try:
            data = group_archive.archive_read(form.cleaned_data["file"].read())
            imported = group_archive.group_import(owner=request.user, data=data)
        except sessionfile.SessionFileError as error:
            problems = error.problems
        else:
            group = imported.group
            if imported.renamed_from:
                messages.info(
                    request,
                    _("Bạn đã có nhóm tên “%(old)s” nên nhóm mới lấy tên “%(new)s”.")
                    % {"old": imported.renamed_from, "new": group.name},
                )
            messages.success(
                request,
                _("Đã nhập nhóm “%(name)s”: %(s)s, %(g)s; mã sổ vẫn là %(f)s.")
                % {
                    "name": group.name,
                    "s": ngettext("%(n)d bàn", "%(n)d bàn", imported.sittings)
                    % {"n": imported.sittings},
                    "g": ngettext("%(n)d ván", "%(n)d ván", imported.games) % {"n": imported.games},
                    "f": verify.fingerprint_of(group),
                },
            )
            return redirect(group)
    status = 422 if request.method == "POST" else 200
    return render(
        request,
        "groups/import.html",
        {"form": form, "problems": problems, "max_mb": group_archive.MAX_ARCHIVE_BYTES // 1048576},
        status=status,
    )
