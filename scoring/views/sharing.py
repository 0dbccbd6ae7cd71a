"""Co-scorekeepers by consent: the owner invites, the invitee accepts or declines.

The owner's page answers an invitation the same way whether or not the username exists (same
message, same page, the same pending entry), so it cannot be used to find out who has an
account. Until an invitation is accepted the invitee has no access at all (404, like anyone).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from scoring import services_sharing
from scoring.access import get_sitting_for_owner, get_sitting_for_user
from scoring.forms import InviteForm
from scoring.models import Invitation, Sitting
from scoring.services import LedgerError
from scoring.views.groups import group_invitation_answer, group_invitation_page


def _share_context(request: HttpRequest, sitting: Sitting, form: InviteForm) -> dict[str, Any]:
    pending = sitting.invitations.filter(status=Invitation.Status.PENDING).order_by("created_at")
    return {
        "sitting": sitting,
        "form": form,
        "scorekeepers": sitting.scorekeepers.order_by("username"),
        "pending": [
            (invitation, request.build_absolute_uri(invitation.get_absolute_url()))
            for invitation in pending
        ],
    }


def _share_answer(
    request: HttpRequest, sitting: Sitting, notice: str, form: InviteForm | None = None
) -> HttpResponse:
    """After a change: the refreshed part for htmx, else a message and the page again."""
    if request.htmx:
        context = _share_context(request, sitting, form or InviteForm())
        context["notice"] = notice
        return render(request, "scoring/share.html#sharing", context)
    messages.success(request, notice)
    return redirect("sitting_share", pk=sitting.pk)


@login_required
@require_http_methods(["GET", "POST"])
def sitting_share(request: HttpRequest, pk: int) -> HttpResponse:
    sitting = get_sitting_for_owner(request.user, pk)
    form = InviteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        username = form.cleaned_data["username"].strip()
        try:
            services_sharing.invitation_send(sitting=sitting, user=request.user, username=username)
        except LedgerError as error:
            form.add_error("username", error.message)
        else:
            notice = _(
                "Đã gửi lời mời tới “%(u)s”. Nếu có tài khoản này, người đó sẽ thấy lời mời "
                "trên trang chủ của mình; bàn chỉ được chia sẻ khi người đó nhận lời."
            ) % {"u": username}
            return _share_answer(request, sitting, notice)
    template = "scoring/share.html#sharing" if request.htmx else "scoring/share.html"
    status = 422 if form.errors and not request.htmx else 200
    return render(request, template, _share_context(request, sitting, form), status=status)


@login_required
@require_POST
def invitation_withdraw(request: HttpRequest, pk: int, invitation_id: int) -> HttpResponse:
    sitting = get_sitting_for_owner(request.user, pk)
    invitation = sitting.invitations.filter(pk=invitation_id).first()
    if invitation is None:
        raise Http404
    if services_sharing.invitation_withdraw(invitation=invitation, user=request.user):
        notice = _("Đã rút lời mời “%(u)s”.") % {"u": invitation.username}
    else:
        notice = _("Lời mời này đã được trả lời hoặc rút lại trước đó.")
    return _share_answer(request, sitting, notice)


@login_required
@require_POST
def scorekeeper_remove(request: HttpRequest, pk: int, user_id: int) -> HttpResponse:
    sitting = get_sitting_for_owner(request.user, pk)
    keeper = sitting.scorekeepers.filter(pk=user_id).first()
    if keeper is None:  # not of this sitting (or already gone): nothing here by that id
        raise Http404
    services_sharing.scorekeeper_remove(sitting=sitting, user=request.user, keeper=keeper)
    notice = _("%(u)s không còn ghi sổ bàn này.") % {"u": keeper.get_username()}
    return _share_answer(request, sitting, notice)


@login_required
@require_http_methods(["GET", "POST"])
def sitting_leave(request: HttpRequest, pk: int) -> HttpResponse:
    """A co-scorekeeper takes themselves off. The owner cannot leave their own sitting."""
    sitting = get_sitting_for_user(request.user, pk)
    is_owner = sitting.owner_id == request.user.pk
    if request.method == "GET" or is_owner:
        context = {"sitting": sitting, "is_owner": is_owner}
        status = 403 if request.method == "POST" else 200
        return render(request, "scoring/leave.html", context, status=status)
    services_sharing.scorekeeper_leave(sitting=sitting, user=request.user)
    messages.success(request, _("Bạn đã rời bàn “%(s)s”.") % {"s": sitting.name})
    if request.htmx:
        return HttpResponseClientRedirect(reverse("home"))
    return redirect("home")


# --- The invitee's side -------------------------------------------------------------------


def _invitation_for_invitee(request: HttpRequest, invitation_id: int) -> Invitation:
    """Only the invited account sees an invitation; for anyone else it does not exist."""
    invitation = (
        Invitation.objects.filter(pk=invitation_id, invitee=request.user)
        .select_related("sitting", "group", "invited_by")
        .first()
    )
    if invitation is None:
        raise Http404
    return invitation


@login_required
@require_http_methods(["GET"])
def invitation_page(request: HttpRequest, invitation_id: int) -> HttpResponse:
    invitation = _invitation_for_invitee(request, invitation_id)
    if invitation.group is not None:
        return group_invitation_page(request, invitation)
    if not invitation.is_pending:
        if invitation.sitting.scorekeepers.filter(pk=request.user.pk).exists():
            return redirect(invitation.sitting)
        raise Http404
    return render(request, "scoring/invitation.html", {"invitation": invitation})


@login_required
@require_POST
def invitation_answer(request: HttpRequest, invitation_id: int, answer: str) -> HttpResponse:
    invitation = _invitation_for_invitee(request, invitation_id)
    if invitation.group is not None:
        return group_invitation_answer(request, invitation, answer)
    name = invitation.sitting.name
    if answer == "accept":
        if services_sharing.invitation_accept(invitation=invitation, user=request.user):
            messages.success(request, _("Bạn giờ cùng ghi sổ bàn “%(s)s”.") % {"s": name})
            url = invitation.sitting.get_absolute_url()
            return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
        notice = _("Lời mời này không còn hiệu lực.")
    elif services_sharing.invitation_decline(invitation=invitation, user=request.user):
        notice = _("Đã từ chối lời mời ghi sổ bàn “%(s)s”.") % {"s": name}
    else:
        notice = _("Lời mời này không còn hiệu lực.")
    if request.htmx:
        context = {"invitations": services_sharing.pending_for(request.user), "notice": notice}
        return render(request, "scoring/home.html#invitations", context)
    messages.info(request, notice)
    return redirect("home")
