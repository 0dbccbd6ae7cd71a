""" "Kiểm tra sổ", a sitting's and a group's: the page says when the book was last checked and
what was found; the owner's tap runs ``verify_ledger``'s check. Running it writes (the verdict
is kept, and a changed one moves the book's version on so its pages show it), so it is a POST:
a link, a preview or a crawler opening the page reads, and checks nothing."""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.http import HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.http import require_http_methods

from scoring import services
from scoring.access import get_group_for_owner, get_sitting_for_owner
from scoring.ledger import verify
from scoring.models import BookCheck, Group, Sitting
from tienlen_site.plumbing.http import AuthenticatedHttpRequest, login_required
from tienlen_site.plumbing.oneatatime import heavy_page, take_turn


@login_required
@require_http_methods(["GET", "POST"])
@heavy_page
def sitting_check(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A sitting's chain, then each game, payment and settlement against it."""
    sitting = get_sitting_for_owner(request.user, pk)
    return _check_page(request, sitting, functools.partial(verify.verify_sitting, sitting))


@login_required
@require_http_methods(["GET", "POST"])
@heavy_page
def group_check(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A group's chain and group-wide settlements, then its sittings: only what came after the
    last check that found them agreeing (``verify_ledger --since``), or every sitting whole
    when the owner asks for it (``full``)."""
    group = get_group_for_owner(request.user, pk)
    full = request.POST.get("full") == "1"
    return _check_page(
        request, group, functools.partial(verify.verify_group, group, since=not full)
    )


def _check_page(
    request: AuthenticatedHttpRequest, book: Sitting | Group, run: Callable[[], verify.Verdict]
) -> HttpResponse:
    is_group = isinstance(book, Group)
    context: dict[str, object] = {"book": book, "is_group": is_group}
    if request.method == "POST":
        take_turn()  # the check's work grows with the games
        verdict = run()
        lang = translation.get_language()
        services.book_check_record(book=book, verdict=verdict, lang=lang, again=run)
        context |= {"verdict": verdict, "fingerprint": verdict.fingerprint}
    else:
        kind = "group" if is_group else "sitting"
        context["last"] = BookCheck.objects.filter(**{kind: book}).first()
        context["fingerprint"] = verify.fingerprint_of(book)
    return render(request, "scoring/check.html", context)
