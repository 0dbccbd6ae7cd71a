"""Forms for everything but the game record (see ``recordform``)."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring import engine
from scoring.engine import limits
from scoring.engine.numbers import read_int
from scoring.engine.text import normalise
from scoring.models import MAX_MEMBERS, SavedRuleSet
from scoring.numbers import BIGINT, IntegerField
from scoring.text import TextField, names_problems


def names_from_text(text: str) -> list[str]:
    """One name per line (commas work too); blank lines and repeats are dropped."""
    names: list[str] = []
    for part in text.replace(",", "\n").splitlines():
        name = normalise(part)
        if name and name.casefold() not in {n.casefold() for n in names}:
            names.append(name)
    return names


class PlayersField(forms.CharField):
    widget = forms.Textarea(attrs={"rows": 5, "autocapitalize": "words"})

    def clean(self, value: Any) -> list[str]:  # type: ignore[override]
        text = super().clean(value)
        names = names_from_text(text or "")
        if len(names) < 2:
            raise forms.ValidationError(_("Cần ít nhất 2 người chơi, mỗi người một dòng."))
        if len(names) > MAX_MEMBERS:
            raise forms.ValidationError(
                _("Tối đa %(n)d người một bàn (mỗi ván 2–4 người chơi).") % {"n": MAX_MEMBERS}
            )
        too_long = [n for n in names if len(n) > 40]
        if too_long:
            raise forms.ValidationError(
                _("Tên quá dài (tối đa 40 ký tự): %(name)s") % {"name": too_long[0]}
            )
        problems = names_problems(names)
        if problems:
            raise forms.ValidationError(problems)
        return names


def rule_choices(user: Any) -> list[tuple[str, str]]:
    from scoring.templatetags.money import preset_word

    choices = [(f"preset:{pid}", preset_word(rs.name)) for pid, rs in engine.PRESETS.items()]
    for saved in SavedRuleSet.objects.filter(owner=user):
        choices.append((f"saved:{saved.pk}", f"★ {saved.name}"))
    return choices


def resolve_rules(user: Any, choice: str) -> engine.RuleSet | None:
    kind, _sep, key = choice.partition(":")
    if kind == "preset":
        return engine.PRESETS.get(key)
    pk = read_int(key, low=1, high=BIGINT) if kind == "saved" else None
    if pk is not None:
        saved = SavedRuleSet.objects.filter(owner=user, pk=pk).first()
        if saved is not None:
            return engine.ruleset_from_dict(saved.data)
    return None


class SittingForm(forms.Form):
    name = TextField(label=_("Tên bàn"), max_length=80)
    date = forms.DateField(label=_("Ngày"), widget=forms.DateInput(attrs={"type": "date"}))
    rules = forms.ChoiceField(label=_("Luật tính tiền"))
    stake = IntegerField(
        label=_("Tiền mỗi đơn vị (đồng)"),
        min_value=1,
        max_value=limits.MAX_STAKE,
        help_text=_("Ví dụ 5000: mỗi lá (hay phần, cược, điểm) là 5.000 ₫."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 500}),
    )
    players = PlayersField(
        label=_("Người chơi"),
        help_text=_("Mỗi dòng một người, theo thứ tự ngồi (2–8 người; mỗi ván 2–4 người chơi)."),
    )
    # One per form shown: sent twice (back button, double tap), it opens one sitting.
    token = forms.UUIDField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["rules"].choices = rule_choices(user)
        self.fields["date"].initial = timezone.localdate()
        self.fields["token"].initial = uuid.uuid4()

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        rules = resolve_rules(self.user, data.get("rules", ""))
        if rules is None:
            self.add_error("rules", _("Hãy chọn một luật."))
        elif data.get("stake"):
            from scoring.services import _lang

            for problem in engine.check_stake(rules, data["stake"]):
                self.add_error("stake", problem.message(_lang()))
        data["ruleset"] = rules
        if not data.get("token"):
            data["token"] = uuid.uuid4()  # a form from before tokens, or one tampered with
        return data


class MembersForm(forms.Form):
    players = PlayersField(label=_("Người chơi"))


VOID_REASON_ERRORS = {
    "required": _("Hãy ghi lý do huỷ ván."),
    "max_length": _("Lý do huỷ dài quá: tối đa %(limit_value)d ký tự (đang có %(show_value)d)."),
}


class VoidForm(forms.Form):
    reason = TextField(label=_("Lý do huỷ"), max_length=200, error_messages=VOID_REASON_ERRORS)

    def first_error(self) -> str:
        return next(iter(self.errors.get("reason", [])), str(VOID_REASON_ERRORS["required"]))


class InviteForm(forms.Form):
    # Only the text: whether such an account exists is never looked up here (see
    # services_sharing.invitation_send), so the answer is the same for every username.
    username = forms.CharField(label=_("Tên đăng nhập của người ghi cùng"), max_length=150)
