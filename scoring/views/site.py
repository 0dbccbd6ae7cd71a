"""Home, health check and account pages."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from scoring import services
from scoring.access import sittings_for
from scoring.forms.pages import EmailForm, SignUpForm
from scoring.ledger import health
from scoring.ledger import home as needs
from scoring.views.links import my_player, private
from tienlen_site.plumbing.cache_backend import cache_status
from tienlen_site.plumbing.http import AuthenticatedHttpRequest, HtmxHttpRequest, login_required


def home(request: HtmxHttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        # A phone that joined a table through its code (the installed app starts here) opens
        # that player's own page.
        mine = my_player(request)
        if mine is not None and mine.link_token:
            return private(redirect("player_link", mine.link_token))
        return render(request, "scoring/welcome.html")
    sittings = sittings_for(request.user).select_related("owner")[:50]
    invitations = services.pending_for(request.user)
    context = {
        "sittings": sittings,
        "invitations": invitations,
        # What needs me: tonight's sittings, open balances, payments waiting for "đã nhận".
        "tonight": needs.tonight(request.user),
        "open_balances": needs.open_balances(request.user),
        "waiting": needs.waiting_for(request.user),
    }
    return render(request, "scoring/home.html", context)


@require_GET
@never_cache
def healthz(request: HtmxHttpRequest) -> HttpResponse:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:  # any database failure means "not healthy", never a 500 page
        return JsonResponse({"status": "unavailable", "database": "unreachable"}, status=503)
    # Without Redis every page still works, uncached (tienlen_site.plumbing.cache_backend): still a
    # 200, so a load balancer keeps sending traffic, with "degraded" in the body for the monitoring.
    cache = cache_status()
    # A backup or a whole check of the books older than its limit is still a 200 (the site
    # serves), with "stale" in the body for an uptime monitor that looks for "ok".
    try:
        routines = health.routines()
    except DatabaseError:  # not migrated yet: nothing to tell
        routines = {}
    late = any(r.status in ("stale", "never") for r in routines.values())
    books = routines.get("books")
    disagree = books is not None and books.status != "unwatched" and books.problems > 0
    status = "degraded" if cache == "degraded" else "stale" if late or disagree else "ok"
    body: dict[str, object] = {"status": status, "database": connection.vendor, "cache": cache}
    body.update({name: routine.as_json() for name, routine in routines.items()})
    return JsonResponse(body)


def signup(request: HtmxHttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Chào mừng! Hãy mở bàn đầu tiên."))
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def account(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = EmailForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Đã lưu e-mail."))
        return redirect("account")
    return render(request, "registration/account.html", {"form": form})


def locked_out(request: HttpRequest, credentials: object = None, *args: object) -> HttpResponse:
    """django-axes calls this when a log-in is refused for too many failures."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    context = {"cooloff_minutes": minutes, "reset": settings.PASSWORD_RESET_ENABLED}
    return render(request, "registration/locked_out.html", context, status=429)
