"""Co-scorekeepers by consent: the owner invites, the invitee accepts or declines.

A group is shared the same way, by the same views (``sharing_views``, ``leave_view``). The owner's
page answers an invitation the same way whether or not the username exists (same
message, same page, the same pending entry), so it cannot be used to find out who has an
account. Until an invitation is accepted the invitee has no access at all (404, like anyone).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scoring import services
from scoring.access import (
    get_group_for_owner,
    get_group_for_user,
    get_invitation_for_invitee,
    get_sitting_for_owner,
    get_sitting_for_user,
)
from scoring.forms.pages import InviteForm
from scoring.models import Group, Invitation, Sitting
from scoring.services import InvalidInput
from tienlen_site.plumbing.http import (
    AuthenticatedHttpRequest,
    HtmxHttpRequest,
    login_required,
    page_redirect,
    wants_fragment,
)


@dataclass(frozen=True)
class Shared:
    """A sitting or a group, shared by invitation, and where its share page is: the same
    flow (invite, withdraw, remove, leave) answers for both. The callables write through the
    target's own services; the messages take the username as ``%(u)s``."""

    name: str  # what the page's template calls it: "sitting" or "group"
    target: Sitting | Group
    label: str
    page: str  # the URL names of the share page, withdrawing an invitation, removing a keeper
    withdraw_page: str
    remove_page: str
    invite: Callable[[str], object]
    sent: str
    withdraw: Callable[[Invitation], bool]
    remove: Callable[[User], object]
    removed: str


SHARE_TEMPLATE = "scoring/share.html"  # one page for a sitting and for a group


def _sitting(request: AuthenticatedHttpRequest, pk: int) -> Shared:
    user, sitting = request.user, get_sitting_for_owner(request.user, pk)
    return Shared(
        "sitting",
        sitting,
        sitting.name,
        "sitting_share",
        "invitation_withdraw",
        "scorekeeper_remove",
        invite=lambda username: services.invitation_send(
            sitting=sitting, user=user, username=username
        ),
        sent=_(
            "Đã gửi lời mời tới “%(u)s”. Nếu có tài khoản này, người đó sẽ thấy lời mời "
            "trên trang chủ của mình; bàn chỉ được chia sẻ khi người đó nhận lời."
        ),
        withdraw=lambda invitation: services.invitation_withdraw(invitation=invitation, user=user),
        remove=lambda keeper: services.scorekeeper_remove(
            sitting=sitting, user=user, keeper=keeper
        ),
        removed=_("%(u)s không còn ghi sổ bàn này."),
    )


def share_context(request: HtmxHttpRequest, shared: Shared, form: InviteForm) -> dict[str, Any]:
    target = shared.target
    pending = target.invitations.filter(status=Invitation.Status.PENDING).order_by("created_at")
    return {
        shared.name: target,
        "shared": shared,
        "form": form,
        "scorekeepers": target.scorekeepers.order_by("username"),
        "pending": [
            (invitation, request.build_absolute_uri(invitation.get_absolute_url()))
            for invitation in pending
        ],
    }


def share_answer(request: HtmxHttpRequest, shared: Shared, notice: str) -> HttpResponse:
    """After a change: the refreshed part for htmx, else a message and the page again."""
    if wants_fragment(request):
        context = share_context(request, shared, InviteForm())
        context["notice"] = notice
        return render(request, f"{SHARE_TEMPLATE}#sharing", context)
    messages.success(request, notice)
    return redirect(shared.page, pk=shared.target.pk)


def sharing_views(
    find: Callable[[AuthenticatedHttpRequest, int], Shared],
) -> tuple[Callable[..., HttpResponse], Callable[..., HttpResponse], Callable[..., HttpResponse]]:
    """The owner's three sharing views for one kind of target (its page and invitation form,
    withdrawing an invitation, removing a scorekeeper); ``find`` gives the request user's own
    target by primary key, or raises Http404."""

    @login_required
    @require_http_methods(["GET", "POST"])
    def share(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
        shared = find(request, pk)
        form = InviteForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            username = form.cleaned_data["username"].strip()
            try:
                shared.invite(username)
            except InvalidInput as error:
                form.add_error("username", error.message)
            else:
                return share_answer(request, shared, shared.sent % {"u": username})
        fragment = wants_fragment(request)
        template = f"{SHARE_TEMPLATE}#sharing" if fragment else SHARE_TEMPLATE
        status = 422 if form.errors and not fragment else 200
        return render(request, template, share_context(request, shared, form), status=status)

    @login_required
    @require_POST
    def withdraw(request: AuthenticatedHttpRequest, pk: int, invitation_id: int) -> HttpResponse:
        """The owner takes back one of the target's invitations (already answered: said so)."""
        shared = find(request, pk)
        invitation = get_object_or_404(shared.target.invitations, pk=invitation_id)
        if shared.withdraw(invitation):
            notice = _("Đã rút lời mời “%(u)s”.") % {"u": invitation.username}
        else:
            notice = _("Lời mời này đã được trả lời hoặc rút lại trước đó.")
        return share_answer(request, shared, notice)

    @login_required
    @require_POST
    def remove(request: AuthenticatedHttpRequest, pk: int, user_id: int) -> HttpResponse:
        """The owner takes a scorekeeper off; one not of this target (or already gone): 404."""
        shared = find(request, pk)
        keeper = get_object_or_404(shared.target.scorekeepers, pk=user_id)
        shared.remove(keeper)
        return share_answer(request, shared, shared.removed % {"u": keeper.get_username()})

    return share, withdraw, remove


sitting_share, invitation_withdraw, scorekeeper_remove = sharing_views(_sitting)


def leave_view[T: (Sitting, Group)](
    find: Callable[[User, int], T],
    leave: Callable[[T, User], object],
    left: Callable[[T], str],
    home: str,
) -> Callable[..., HttpResponse]:
    """The leave page of one kind of target: ``find`` gives the target the user keeps score
    for (or raises Http404), ``leave`` takes them off, ``left`` says so, then the page named
    ``home`` opens. The owner cannot leave their own."""

    @login_required
    @require_http_methods(["GET", "POST"])
    def view(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
        target = find(request.user, pk)
        is_owner = target.owner_id == request.user.pk
        if request.method == "GET" or is_owner:
            name = "group" if isinstance(target, Group) else "sitting"
            template = "groups/leave.html" if name == "group" else "scoring/leave.html"
            status = 403 if request.method == "POST" else 200
            return render(request, template, {name: target, "is_owner": is_owner}, status=status)
        leave(target, request.user)
        messages.success(request, left(target))
        return page_redirect(request, reverse(home))

    return view


sitting_leave = leave_view(
    get_sitting_for_user,
    lambda sitting, user: services.scorekeeper_leave(sitting=sitting, user=user),
    lambda sitting: _("Bạn đã rời bàn “%(s)s”.") % {"s": sitting.name},
    "home",
)


# --- The invitee's side -------------------------------------------------------------------


def _invited_to(invitation: Invitation) -> Sitting | Group:
    target = invitation.group or invitation.sitting
    if target is None:
        raise Http404
    return target


@login_required
@require_http_methods(["GET"])
def invitation_page(request: AuthenticatedHttpRequest, invitation_id: int) -> HttpResponse:
    """An invitation to a sitting or to a group; once answered, the place it led to."""
    invitation = get_invitation_for_invitee(request.user, invitation_id)
    target = _invited_to(invitation)
    if not invitation.is_pending:
        if target.scorekeepers.filter(pk=request.user.pk).exists():
            return redirect(target)
        raise Http404
    return render(request, "scoring/invitation.html", {"invitation": invitation})


@login_required
@require_POST
def invitation_answer(
    request: AuthenticatedHttpRequest, invitation_id: int, answer: str
) -> HttpResponse:
    invitation = get_invitation_for_invitee(request.user, invitation_id)
    target = _invited_to(invitation)
    if isinstance(target, Group):
        accepted = _("Bạn giờ cùng ghi sổ nhóm “%(g)s”.") % {"g": target.label}
        declined = _("Đã từ chối lời mời ghi sổ nhóm “%(g)s”.") % {"g": target.label}
    else:
        accepted = _("Bạn giờ cùng ghi sổ bàn “%(s)s”.") % {"s": target.name}
        declined = _("Đã từ chối lời mời ghi sổ bàn “%(s)s”.") % {"s": target.name}
    # The services answer an invitation to a group through the group's own.
    accepting = answer == "accept"
    if accepting and services.invitation_accept(invitation=invitation, user=request.user):
        messages.success(request, accepted)
        return page_redirect(request, target.get_absolute_url())
    if not accepting and services.invitation_decline(invitation=invitation, user=request.user):
        notice = declined
    else:
        notice = _("Lời mời này không còn hiệu lực.")
    if wants_fragment(request):
        context = {"invitations": services.pending_for(request.user), "notice": notice}
        return render(request, "scoring/home.html#invitations", context)
    messages.info(request, notice)
    return redirect("home")


# --- A group's sharing ------------------------------------------------------------------------


def _group(request: AuthenticatedHttpRequest, pk: int) -> Shared:
    user, group = request.user, get_group_for_owner(request.user, pk)
    return Shared(
        "group",
        group,
        group.label,
        "group_share",
        "group_invitation_withdraw",
        "group_keeper_remove",
        invite=lambda username: services.group_invite(group=group, user=user, username=username),
        sent=_(
            "Đã gửi lời mời tới “%(u)s”. Nếu có tài khoản này, người đó sẽ thấy lời mời "
            "trên trang chủ của mình; nhóm chỉ được chia sẻ khi người đó nhận lời."
        ),
        withdraw=lambda invitation: (
            services.group_withdraw(invitation=invitation, user=user) is not None
        ),
        remove=lambda keeper: services.group_keeper_remove(group=group, user=user, keeper=keeper),
        removed=_("%(u)s không còn ghi sổ nhóm này."),
    )


group_share, group_invitation_withdraw, group_keeper_remove = sharing_views(_group)


group_leave = leave_view(
    get_group_for_user,
    lambda group, user: services.group_keeper_leave(group=group, user=user),
    lambda group: _("Bạn đã rời nhóm “%(g)s”.") % {"g": group.label},
    "groups",
)
