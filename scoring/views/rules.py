"""Rule sets: the presets, and custom ones cloned from a preset and edited."""

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring import engine
from scoring.forms.rules import RuleSetForm
from scoring.ledger import rulesummary
from scoring.models import SavedRuleSet
from scoring.text import rulesbook
from tienlen_site.plumbing.http import AuthenticatedHttpRequest, HtmxHttpRequest, login_required


@login_required
@require_http_methods(["GET"])
def rules_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    presets = [(pid, rs, rulesummary.penalty_summary(rs)) for pid, rs in engine.PRESETS.items()]
    saved = SavedRuleSet.objects.filter(owner=request.user)
    return render(request, "scoring/rules.html", {"presets": presets, "saved": saved})


@require_http_methods(["GET"])
def rules_book(request: HtmxHttpRequest) -> HttpResponse:
    """The rules book (docs/rules.md) in the current language: open to everyone, so the players
    at a table can read how their money is worked out."""
    lang = (get_language() or "vi").split("-")[0]
    return render(request, "scoring/rules_book.html", {"book": rulesbook.render(lang)})


@login_required
@require_http_methods(["GET", "POST"])
def rules_edit(request: AuthenticatedHttpRequest, pk: int | None = None) -> HttpResponse:
    saved = get_object_or_404(SavedRuleSet, owner=request.user, pk=pk) if pk is not None else None
    if saved is not None:
        initial = RuleSetForm.initial_from(engine.ruleset_from_dict(saved.data), saved.name)
    else:
        base = engine.PRESETS.get(request.GET.get("from", ""), engine.PRESETS["dem-la"])
        initial = RuleSetForm.initial_from(base, _("%(name)s (riêng)") % {"name": base.name})
    form = RuleSetForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        assert form.rules is not None
        data = engine.ruleset_to_dict(form.rules)
        if saved is None:
            saved = SavedRuleSet.objects.create(
                owner=request.user, name=form.cleaned_data["name"], data=data
            )
        else:
            saved.name = form.cleaned_data["name"]
            saved.data = data
            saved.save(update_fields=["name", "data"])
        messages.success(request, _("Đã lưu luật “%(name)s”.") % {"name": saved.name})
        return redirect("rules")
    return render(request, "scoring/rules_edit.html", {"form": form, "saved": saved})
