"""Every Django form of the site but the rule-set editor (``scoring.forms.rules``); the game
record is read by ``scoring.forms.record``, which is not a Django form."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any, cast

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.forms.renderers import TemplatesSetting
from django.http import QueryDict
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from scoring import engine, services
from scoring.engine import limits
from scoring.engine.readnumbers import read_int
from scoring.engine.readtext import normalise, skeleton
from scoring.ledger import archive_file, sessionfile
from scoring.ledger.periods import period_key, period_range
from scoring.ledger.settleup import MAX_DONE_ROWS, PlanAsked
from scoring.models import MAX_MEMBERS, Group, Player, SavedRuleSet, Sitting
from scoring.text import vietqr
from scoring.text.numbers import BIGINT, IntegerField, MoneyField, int_param, parse_id
from scoring.text.typed import TextField, engine_language, names_problems
from scoring.text.wording import preset_word


class FormRenderer(TemplatesSetting):
    """How every form of the site is drawn (settings.FORM_RENDERER): ``{{ form }}`` and
    ``{{ form.x.as_field_group }}`` use the site's two templates, so each field is one
    ``.field`` block whose help text and errors carry the ids Django's ``aria-describedby``
    points at."""

    form_template_name = "forms/form.html"
    field_template_name = "forms/field.html"


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

    def clean(self, value: Any) -> list[str]:
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


def _choices(form: forms.Form, names: list[str], choices: list[tuple[Any, Any]]) -> None:
    for name in names:
        field = form.fields[name]
        assert isinstance(field, forms.ChoiceField)
        field.choices = choices


def rule_choices(user: Any) -> list[tuple[str, str]]:
    choices = [(f"preset:{pid}", preset_word(rs.name)) for pid, rs in engine.PRESETS.items()]
    for saved in SavedRuleSet.objects.filter(owner=user):
        choices.append((f"saved:{saved.pk}", f"★ {saved.name}"))
    return choices


def resolve_rules(user: Any, choice: str) -> engine.RuleSet | None:
    kind, _sep, key = choice.partition(":")
    if kind == "preset":
        return engine.PRESETS.get(key)
    pk = read_int(key, low=1, high=BIGINT)
    if pk is None:
        return None
    if kind == "sitting":  # the rules a table of the user's groups was opened with
        last = Sitting.objects.filter(pk=pk, group__in=Group.objects.for_user(user)).first()
        return engine.ruleset_from_dict(last.rules) if last is not None else None
    saved = SavedRuleSet.objects.filter(owner=user, pk=pk).first() if kind == "saved" else None
    return engine.ruleset_from_dict(saved.data) if saved is not None else None


def clean_rules_and_stake(form: forms.Form, user: Any, data: dict[str, Any]) -> None:
    """The rule set a form's ``rules`` chooses, as ``data["ruleset"]`` (None when it names
    none of the user's), and the form's ``stake`` checked against it: an error on the field
    for each problem."""
    rules = resolve_rules(user, data.get("rules", ""))
    if rules is None:
        form.add_error("rules", _("Hãy chọn một luật."))
    elif data.get("stake"):
        for problem in engine.check_stake(rules, data["stake"]):
            form.add_error("stake", problem.message(engine_language()))
    data["ruleset"] = rules


class DateField(forms.DateField):
    """A date picked with the browser's own date picker."""

    widget = forms.DateInput(attrs={"type": "date"})


def stake_field(**kwargs: Any) -> IntegerField:
    return IntegerField(
        label=_("Mức tiền: một lá, phần, cược hay điểm bao nhiêu đồng"),
        min_value=1,
        max_value=limits.MAX_STAKE,
        # No step: any whole number of đồng is a stake (a step of 500 from min 1 made 5000
        # invalid in the browser and the arrows go 1 → 501).
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        **kwargs,
    )


PLAYERS_HELP = _("Mỗi dòng một người, theo thứ tự ngồi (2–8 người; mỗi ván 2–4 người chơi).")


class SittingForm(forms.Form):
    name = TextField(label=_("Tên bàn"), max_length=80)
    date = DateField(label=_("Ngày"))
    rules = forms.ChoiceField(label=_("Luật tính tiền"))
    stake = stake_field(
        help_text=_("Ví dụ 5000: 5k, tức 5.000 ₫ một lá (hay một phần, một cược, một điểm).")
    )
    players = PlayersField(label=_("Người chơi"), help_text=PLAYERS_HELP)
    # One per form shown: sent twice (back button, double tap), it opens one sitting.
    token = forms.UUIDField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.note = ""
        _choices(self, ["rules"], rule_choices(user))
        self.fields["date"].initial = timezone.localdate()
        self.fields["token"].initial = uuid.uuid4()

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        clean_rules_and_stake(self, self.user, data)
        if not data.get("token"):
            data["token"] = uuid.uuid4()  # a form from before tokens, or one tampered with
        return data

    def open(self, group: Group | None = None) -> Sitting | None:
        """Open the sitting this valid form asks for (in ``group``, the user's default group
        without), or None with the problem on the form. The form's token makes sending it
        again (back button, double tap) open nothing new: ``self.note`` then says so."""
        data = self.cleaned_data
        try:
            sitting, created = services.sitting_open_once(
                token=data["token"],
                owner=self.user,
                name=data["name"],
                date=data["date"],
                rules=data["ruleset"],
                stake=data["stake"],
                player_names=data["players"],
                group=group,
            )
        except services.InvalidInput as error:
            self.add_error(error.field if error.field in self.fields else None, error.message)
        except services.Conflict as error:
            self.add_error(None, error.message)
            # A fresh token: sending this form again on purpose opens a new sitting.
            fresh = cast(QueryDict, self.data).copy()
            fresh["token"] = str(uuid.uuid4())
            self.data = fresh
            return None
        self.note = "" if created else str(_("Bàn này đã được mở rồi; đây là bàn đó."))
        return sitting


class GroupSittingForm(SittingForm):
    """A new table in a group, offered as last night's: the group's players ticked in last
    night's seating order (untick who is absent), a box for newcomers, the last table's rule
    set and stake, today's date. Sent as offered with only a name, it opens the table."""

    seated = forms.MultipleChoiceField(
        label=_("Ai chơi"),
        required=False,
        widget=forms.CheckboxSelectMultiple(attrs={"class": "seated"}),
        help_text=_("Theo thứ tự ngồi của bàn trước. Bỏ chọn người vắng mặt."),
    )
    newcomers = forms.CharField(  # one name a line, read as ``PlayersField`` reads them
        label=_("Thêm người mới"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2, "autocapitalize": "words"}),
        help_text=_("Mỗi dòng một người, ngồi sau những người đã chọn."),
    )
    field_order = ["name", "date", "seated", "newcomers", "rules", "stake"]

    def __init__(
        self,
        *args: Any,
        user: Any,
        names: Iterable[str],
        last: Sitting | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, user=user, **kwargs)
        del self.fields["players"]
        self.names = list(names)
        _choices(self, ["seated"], [(n, n) for n in self.names])
        if not self.names:
            del self.fields["seated"]
            self.fields["newcomers"].label = _("Người chơi")
            self.fields["newcomers"].help_text = PLAYERS_HELP
        if last is not None:
            choice = rules_choice_of(user, last)
            if choice is None:  # the last table's rules are no preset or saved set any more
                choice = f"sitting:{last.pk}"
                label = _("Luật của bàn trước (%(name)s)") % {"name": preset_word(last.rules_label)}
                _choices(self, ["rules"], [(choice, label), *rule_choices(user)])
            self.fields["rules"].initial = choice
            self.fields["stake"].initial = last.stake
            self.fields["seated"].initial = [
                m.player.name
                for m in last.memberships.select_related("player").order_by("position")
                if m.player.name in self.names
            ]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        chosen = set(data.get("seated") or [])
        names = [n for n in self.names if n in chosen]
        # A page opened before this form had one box of names, "players": still read.
        typed = data.get("newcomers") or str(self.data.get("players", ""))
        names += names_from_text(typed)
        try:
            data["players"] = PlayersField().clean("\n".join(names))
        except forms.ValidationError as error:
            self.add_error("seated" if "seated" in self.fields else "newcomers", error)
        return data


def rules_choice_of(user: Any, sitting: Sitting) -> str | None:
    """The rule choice (a preset or one of ``user``'s saved sets) that is exactly the rules
    ``sitting`` was opened with, or None."""
    for pid, rs in engine.PRESETS.items():
        if engine.ruleset_to_dict(rs) == sitting.rules:
            return f"preset:{pid}"
    for saved in SavedRuleSet.objects.filter(owner=user):
        if engine.ruleset_to_dict(engine.ruleset_from_dict(saved.data)) == sitting.rules:
            return f"saved:{saved.pk}"
    return None


class MembersForm(forms.Form):
    players = PlayersField(label=_("Người chơi"))


VOID_REASON_ERRORS = {
    "required": _("Hãy ghi lý do huỷ ván."),
    "max_length": _("Lý do huỷ dài quá: tối đa %(limit_value)d ký tự (đang có %(show_value)d)."),
}


class VoidForm(forms.Form):
    reason = TextField(label=_("Lý do huỷ"), max_length=200, error_messages=VOID_REASON_ERRORS)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")  # a one-field form under its own heading
        super().__init__(*args, **kwargs)

    def first_error(self) -> str:
        return str(next(iter(self.errors.get("reason", [])), VOID_REASON_ERRORS["required"]))


class InviteForm(forms.Form):
    # Only the text: whether such an account exists is never looked up here (see
    # services_sharing.invitation_send), so the answer is the same for every username.
    username = forms.CharField(label=_("Tên đăng nhập của người ghi cùng"), max_length=150)


# --- Ledger -----------------------------------------------------------------------------


class PaymentForm(forms.Form):
    """Who paid whom how much: the part of a sitting's and a group's payment form they share."""

    payer = forms.TypedChoiceField(label=_("Ai trả"), coerce=parse_id)
    payee = forms.TypedChoiceField(label=_("Trả cho ai"), coerce=parse_id)
    amount = MoneyField(
        label=_("Số tiền (đồng)"),
        help_text=_("Ví dụ 200000, 200.000 hoặc 200k."),
    )

    def __init__(self, *args: Any, players: Iterable[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = {p.pk: p for p in players}
        choices = [(p.pk, p.name) for p in self.players.values()]
        _choices(self, ["payer", "payee"], [("", "—"), *choices])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("payer") is not None and data.get("payer") == data.get("payee"):
            self.add_error("payee", _("Người trả và người nhận phải khác nhau."))
        return data

    def pair(self) -> tuple[Player, Player]:
        """The payer and the payee of a valid form: two of the players it offered."""
        return self.players[self.cleaned_data["payer"]], self.players[self.cleaned_data["payee"]]

    def token(self) -> uuid.UUID | None:
        """The token a pay tap or a typed payment was sent with (None: an older page had
        none, or sent something else)."""
        try:
            return uuid.UUID(str(self.data.get("token") or ""))
        except ValueError:
            return None


class SettlementForm(PaymentForm):
    """A payment between two players of a sitting."""

    # The ledger version the page was computed from (see _record_if_unchanged).
    version = IntegerField(min_value=0, widget=forms.HiddenInput)


class SettlementVoidForm(forms.Form):
    """Read from a payment's "Huỷ" button, never drawn: only its errors are shown."""

    reason = TextField(max_length=200, required=False, error_messages=VOID_REASON_ERRORS)


class RangeForm(forms.Form):
    start = DateField(label=_("Từ ngày"), required=False)
    end = DateField(label=_("Đến ngày"), required=False)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("start") and data.get("end") and data["start"] > data["end"]:
            self.add_error("end", _("Ngày cuối không được trước ngày đầu."))
        return data


def period_asked(
    params: Mapping[str, str], today: date
) -> tuple[str, date | None, date | None, RangeForm]:
    """The period a page asks for (``?period=``, as ``_periods.html`` links it): its key and
    range (``ledger.periods.period_range``), and the form of a range of the page's own
    (``?period=custom``; its range counts only when valid, every day is shown otherwise)."""
    key = period_key(params.get("period"))
    form = RangeForm(params if params.get("period") == "custom" else None)
    custom = None
    if form.is_bound and form.is_valid():
        custom = form.cleaned_data["start"], form.cleaned_data["end"]
    start, end = period_range(key, today, custom)
    return key, start, end, form


# --- Players ----------------------------------------------------------------------------


class MergeForm(forms.Form):
    duplicate = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        label=_("Tên trùng cần gộp"),
        empty_label=_("— Chọn người chơi —"),
    )
    confirm = forms.BooleanField(
        label=_("Tôi hiểu: hai tên là một người, và việc gộp không hoàn tác được."),
    )

    def __init__(self, *args: Any, keep: Player, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        duplicate = cast("forms.ModelChoiceField[Player]", self.fields["duplicate"])
        others = Player.objects.unmerged().filter(group_id=keep.group_id)
        duplicate.queryset = others.exclude(pk=keep.pk)


class BankForm(forms.Form):
    bank_bin = forms.ChoiceField(
        label=_("Ngân hàng"),
        choices=[("", _("— Không có tài khoản —"))]
        + [(b.bin, f"{b.short_name} — {b.name}") for b in vietqr.BANKS],
        required=False,
    )
    account = forms.CharField(
        label=_("Số tài khoản"),
        max_length=30,
        required=False,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    holder = forms.CharField(
        label=_("Chủ tài khoản"),
        max_length=50,
        required=False,
        help_text=_("Như in trên thẻ, ví dụ NGUYEN VAN AN."),
        widget=forms.TextInput(attrs={"autocapitalize": "characters", "autocomplete": "off"}),
    )


# --- Import -----------------------------------------------------------------------------


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("Tệp bàn (.json)"),
        help_text=_("Tệp đã xuất từ Sổ Tiến Lên, tối đa 5 MB."),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > sessionfile.MAX_FILE_BYTES:
            raise forms.ValidationError(sessionfile.too_large_message(upload.size))
        return upload


class GroupImportForm(forms.Form):
    file = forms.FileField(
        label=_("Bản lưu trữ nhóm (.json hoặc .json.gz)"),
        help_text=_(
            "Tệp “Tải bản lưu trữ nhóm” từ trang của một nhóm, ở máy chủ này hay máy khác."
        ),
        widget=forms.ClearableFileInput(
            attrs={"accept": ".json,.gz,application/json,application/gzip"}
        ),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > archive_file.MAX_ARCHIVE_BYTES:
            raise forms.ValidationError(archive_file.too_large_message(upload.size))
        return upload


# --- Groups ---------------------------------------------------------------------------


class GroupForm(forms.Form):
    name = forms.CharField(label=_("Tên nhóm"), max_length=80)


class GroupSettlementForm(PaymentForm):
    """A payment between two players of a group: on a day, against the group's ledger stamp."""

    day = DateField(label=_("Ngày trả"), required=False, help_text=_("Để trống là hôm nay."))
    # The ledger stamp the page was computed from: two taps, or two phones, must not pay
    # one suggestion twice.
    version = forms.CharField(max_length=100, widget=forms.HiddenInput)


class CloseForm(forms.Form):
    """Close the period through a sitting (tonight's, by default) or through a whole day.
    The page shows what the close locks and carries; the close itself can be undone."""

    sitting = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    closes_through = DateField(label=_("Chốt sổ đến hết ngày"), required=False)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if not self.errors and not data.get("sitting") and not data.get("closes_through"):
            self.add_error("closes_through", _("Hãy chọn ngày chốt sổ."))
        return data


class MoveForm(forms.Form):
    target = forms.TypedChoiceField(label=_("Chuyển sang nhóm"), coerce=parse_id)

    def __init__(self, *args: Any, groups: Iterable[Group], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choices(self, ["target"], [(g.pk, g.label) for g in groups])


class GroupMergeForm(forms.Form):
    keep = forms.TypedChoiceField(label=_("Giữ tên"), coerce=parse_id)
    duplicate = forms.TypedChoiceField(label=_("Tên trùng cần gộp"), coerce=parse_id)
    confirm = forms.BooleanField(
        label=_("Tôi hiểu: hai tên là một người, và việc gộp không hoàn tác được."),
    )

    def __init__(self, *args: Any, players: Iterable[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(p.pk, p.name) for p in players]
        _choices(self, ["keep", "duplicate"], choices)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("keep") is not None and data.get("keep") == data.get("duplicate"):
            self.add_error("duplicate", _("Hãy chọn hai tên khác nhau."))
        return data


# --- Accounts: an optional e-mail address, used only to reset a password ------------------

# The sign-up's and the account page's, one field: each form copies it.
EMAIL = forms.EmailField(
    label=_("E-mail"),
    required=False,
    help_text=_(
        "Không bắt buộc. Chỉ dùng để gửi liên kết đặt lại mật khẩu khi bạn quên; "
        "không có e-mail thì không lấy lại được mật khẩu."
    ),
    error_messages={
        "invalid": _("E-mail này không đúng dạng (ví dụ: ten@example.com); sửa lại hoặc để trống.")
    },
)


class LoginForm(AuthenticationForm):
    """Django's log-in form, with the username's length checked: Django sets it on the widget
    only, so a name of thousands of characters reached ``authenticate()`` and django-axes,
    whose record of a failed attempt holds 255 (a 500 on PostgreSQL). A name longer than any
    username gets the usual "wrong username or password", without being tried."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        longest = self.username_field.max_length or 150
        if isinstance(username, str) and len(username) > longest:
            raise self.get_invalid_login_error()
        return super().clean()


class SignUpForm(UserCreationForm):  # type: ignore[type-arg]
    email = EMAIL

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_username(self) -> str:
        """Django refuses a username taken in another case; this also refuses one that only
        looks like a taken one (``аlice`` with a Cyrillic а beside ``alice``: the same
        skeleton as player names, docs/names.md), naming it. Sign-ups are rare, so every
        username is compared here rather than kept in an indexed column."""
        # Django's own check adds its error and returns None for a name taken in another case.
        username: str | None = super().clean_username()
        if not username:
            return username  # type: ignore[return-value]
        key = skeleton(username)
        users = get_user_model().objects.values_list("username", flat=True)
        for taken in users.iterator():
            if skeleton(taken) == key:
                raise forms.ValidationError(
                    _("Tên đăng nhập “%(name)s” trông giống “%(other)s” đã có; hãy chọn tên khác."),
                    code="confusable",
                    params={"name": username, "other": taken},
                )
        return username


class EmailForm(forms.ModelForm):  # type: ignore[type-arg]
    email = EMAIL

    class Meta:
        model = get_user_model()
        fields = ("email",)


class WhatIfForm(forms.Form):
    """ "What if": a sitting of the period (or the whole period) priced again under another
    rule set and stake (``scoring.views.story``, nothing written)."""

    sitting = forms.TypedChoiceField(
        label=_("Tính lại"), coerce=parse_id, required=False, empty_value=None
    )
    rules = forms.ChoiceField(label=_("Theo luật"))
    stake = stake_field()

    def __init__(self, *args: Any, user: Any, sittings: list[Sitting], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        shown = [(s.pk, f"{s.name} · {date_format(s.date, 'SHORT_DATE_FORMAT')}") for s in sittings]
        _choices(self, ["sitting"], [("", _("Cả kỳ đang xem")), *shown])
        _choices(self, ["rules"], rule_choices(user))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        clean_rules_and_stake(self, self.user, data)
        return data


def plan_asked(params: Mapping[str, Any]) -> PlanAsked:
    """What ``params`` (a query string or a posted form) ask of a settle-up page."""
    getlist = getattr(params, "getlist", None)
    raw = list(getlist("done")) if getlist is not None else []
    done: dict[int, int] = {}
    for value in raw[:MAX_DONE_ROWS]:
        row_text, _sep, pk = str(value).partition(":")
        row_n = read_int(row_text, low=1, high=MAX_DONE_ROWS + 1000)
        pk_n = read_int(pk, low=1, high=2**62)
        if row_n is not None and pk_n is not None:
            done[pk_n] = row_n
    tapped = params.get("kind") == "suggestion"
    row = read_int(str(params.get("row") or ""), low=1, high=MAX_DONE_ROWS + 1000)
    method = params.get("method")
    return PlanAsked(
        method=method if isinstance(method, str) else "",
        banker_id=int_param(params, "banker"),
        done=tuple((r, pk) for pk, r in done.items()),
        row=row if tapped else None,
        in_place=(tapped and row is not None) or params.get("undo") == "1",
    )
