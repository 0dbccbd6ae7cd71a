"""The rule-set editor: every field of a rule set as a form field, validated by the engine."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring import engine
from scoring.engine.limits import check_rule_limits
from scoring.text.typed import TextField, engine_language
from scoring.text.wording import CHOPPER_LABELS, PENALTY_LABELS

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

PLAY_LABELS = {
    "heo": _("Heo"),
    "doi_heo": _("Đôi heo"),
    "3dt": _("3 đôi thông"),
    "tq": _("Tứ quý"),
    "4dt": _("4 đôi thông"),
}
#: The fields the form holds as the rule set's JSON form has them, and its amounts (as typed).
_AS_IS = (
    "mode", "unit", "count_special_cards", "thoi_to", "toi_trang_hands", "toi_trang_opening_only",
    "den_when", "cong_thoi_to", "ket_3_bich_mode", "chan_ket_keeps_cards", "two_out",
    "two_out_cards", "toi_trang_outside_opening",
)  # fmt: skip
_AMOUNTS = (
    "card_value", "cong_multiplier", "cong_score", "toi_trang_value", "ket_3_bich", "cong_ca_lang",
)  # fmt: skip
CHOPS_HELP = _(
    "Hàng cùng loại thì phải lớn hơn mới chặt được; sám cô heo thì không hàng nào chặt được. "
    "Bỏ một ô thì lần chặt đó bị từ chối khi ghi ván."
)


def _amount(
    label: StrOrPromise, required: bool = True, help_text: StrOrPromise = ""
) -> forms.CharField:
    return forms.CharField(
        label=label,
        required=required,
        max_length=20,
        help_text=help_text,
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
    )


def _json(value: Any) -> str:
    return "" if value is None else str(value)


def _hand_choices() -> list[tuple[str, str]]:
    """Tới trắng hands in the reader's language (called per form, not once at import)."""
    lang = engine_language()
    return [(hand, engine.hand_label(hand, lang)) for hand in engine.HANDS]


def _hands(label: StrOrPromise, help_text: StrOrPromise = "") -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        label=label,
        choices=_hand_choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=help_text,
    )


class RuleSetForm(forms.Form):
    name = TextField(label=_("Tên luật"), max_length=80)
    mode = forms.ChoiceField(
        label=_("Cách chơi"),
        choices=[
            ("first_out", _("Đếm lá: dừng khi có người tới")),
            ("placement", _("Nhất nhì ba bét: chơi đến hết")),
        ],
    )
    unit = TextField(label=_("Đơn vị"), max_length=20, help_text=_("lá, phần, cược, điểm…"))
    card_value = _amount(_("Mỗi lá còn lại (đếm lá)"))
    count_special_cards = forms.BooleanField(
        label=_("Heo và hàng cũng đếm vào số lá"), required=False
    )
    cong_multiplier = _amount(_("Cóng: trả gấp mấy lần tiền lá (đếm lá)"))
    cong_score = _amount(_("Cóng: điểm của người cóng (nhất nhì ba bét)"), help_text=_("Ví dụ −6."))
    placement_4 = forms.CharField(
        label=_("Điểm theo hạng, 4 người"),
        help_text=_("Từ nhất tới bét, mỗi số cách nhau một khoảng trắng: 3 1 -1 -3"),
    )
    placement_3 = forms.CharField(label=_("Điểm theo hạng, 3 người"))
    placement_2 = forms.CharField(label=_("Điểm theo hạng, 2 người"))
    thoi_to = forms.ChoiceField(
        label=_("Tiền thối trả cho"),
        choices=[("winner", _("Người nhất")), ("above", _("Người về ngay trên"))],
    )
    separate_chat = forms.BooleanField(label=_("Chặt phạt khác thối"), required=False)
    toi_trang_value = _amount(
        _("Tới trắng: mỗi người thua trả"),
        required=False,
        help_text=_("Để trống nếu mỗi bài tới trắng trả một mức riêng (bên dưới)."),
    )
    toi_trang_hands = _hands(_("Những bài được tới trắng"))
    toi_trang_opening_only = _hands(_("Chỉ tính ở ván khởi đầu"))
    toi_trang_counts_thoi = forms.ChoiceField(
        label=_("Tới trắng có đếm heo (tính thối)"),
        choices=[
            ("no", _("Không: mỗi người thua chỉ trả giá tới trắng")),
            ("all", _("Có, với mọi bài tới trắng: người thua trả thêm thối của bài được chia")),
            ("hands", _("Chỉ với những bài chọn bên dưới (vd 6 đôi thông có, 6 đôi thì không)")),
        ],
        widget=forms.RadioSelect,
    )
    toi_trang_thoi_hands = _hands(
        _("Bài tới trắng có đếm heo"),
        help_text=_("Chỉ dùng khi chọn “Chỉ với những bài chọn bên dưới”."),
    )
    den_when = forms.ChoiceField(
        label=_("Khi nào tính đền bài"),
        choices=[
            ("all_cong", _("Chỉ khi mọi người thua đều cóng (cóng 3 nhà mới xét đền)")),
            ("any_cong", _("Khi có ít nhất một người cóng (luật riêng của bàn)")),
            ("always", _("Cả khi không ai cóng, vd người để lộ bài phải đền")),
            ("never", _("Không chơi đền")),
        ],
        widget=forms.RadioSelect,
        help_text=_(
            "Người đền đền thay cả làng: trả hết phần những người thua nợ người nhất; "
            "người đền có thể đang cóng."
        ),
    )
    cong_thoi_to = forms.ChoiceField(
        label=_("Thối của người cóng trả cho"),
        choices=[
            ("winner", _("Người nhất (người ăn cóng)")),
            ("above", _("Người về ngay trên người cóng (chỉ nhất nhì ba bét)")),
        ],
        widget=forms.RadioSelect,
    )
    ket_3_bich = _amount(
        _("Kết 3 bích: mỗi người thua trả"), required=False, help_text=_("Để trống nếu không chơi.")
    )
    ket_3_bich_mode = forms.ChoiceField(
        label=_("Tiền kết 3 bích"),
        choices=[
            ("instead", _("Thay cho tiền lá và thối của người thua")),
            ("plus", _("Cộng thêm vào tiền lá và thối của người thua")),
        ],
        widget=forms.RadioSelect,
    )
    chan_ket_keeps_cards = forms.BooleanField(
        label=_("Chặn kết 3 bích: người thua vẫn trả tiền lá và thối cho người nhất"),
        required=False,
    )
    two_out = forms.ChoiceField(
        label=_("Về bằng heo (lá cuối là heo)"),
        choices=[
            ("allowed", _("Được về như mọi lá")),
            ("bet", _("Về bét")),
        ],
        widget=forms.RadioSelect,
    )
    two_out_cards = forms.IntegerField(
        label=_("Đếm lá: người về bằng heo bị tính như còn"),
        required=False,
        min_value=0,
        max_value=13,
        help_text=_("Số lá, từ 0 đến 13; cần khi về bằng heo là về bét trong đếm lá."),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    toi_trang_outside_opening = forms.BooleanField(
        label=_("Ở ván khởi đầu chỉ tính những bài của ván khởi đầu"),
        required=False,
        help_text=_("Các bài còn lại (vd tứ quý heo, 6 đôi thông) chỉ tính ở các ván khác."),
    )
    cong_ca_lang = _amount(
        _("Cóng cả làng: người cóng trả mỗi người"),
        required=False,
        help_text=_("Để trống để tính cóng như thường."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for key, label in PENALTY_LABELS.items():
            self.fields[f"pen_{key}"] = _amount(_("Thối/chặt: %(x)s") % {"x": label})
        for key, label in PENALTY_LABELS.items():
            self.fields[f"chat_{key}"] = _amount(_("Chặt: %(x)s") % {"x": label}, required=False)
        for hang, label in CHOPPER_LABELS.items():
            self.fields[f"chops_{hang}"] = forms.MultipleChoiceField(
                label=label,
                choices=[(play, PLAY_LABELS[play]) for play in engine.PLAYS],
                required=False,
                widget=forms.CheckboxSelectMultiple,
                help_text=CHOPS_HELP if hang == "4dt" else "",
            )
        for hand, label in _hand_choices():
            self.fields[f"hv_{hand}"] = _amount(
                _("Tới trắng bằng %(x)s") % {"x": label}, required=False
            )
        self.rules: engine.RuleSet | None = None

    @classmethod
    def initial_from(cls, rules: engine.RuleSet, name: str) -> dict[str, Any]:
        data = engine.ruleset_to_dict(rules)
        initial: dict[str, Any] = {key: data[key] for key in _AS_IS}
        initial |= {key: _json(data[key]) for key in _AMOUNTS}
        initial["name"] = name
        counts = data["toi_trang_counts_thoi"]
        initial["toi_trang_counts_thoi"] = (
            "hands" if isinstance(counts, list) else "all" if counts else "no"
        )
        initial["toi_trang_thoi_hands"] = counts if isinstance(counts, list) else []
        for hang, plays in data["chops"].items():
            initial[f"chops_{hang}"] = plays
        for n in ("2", "3", "4"):
            initial[f"placement_{n}"] = " ".join(str(v) for v in data["placement"][n])
        for key, value in data["penalties"].items():
            initial[f"pen_{key}"] = _json(value)
        if data["chat_penalties"]:
            initial["separate_chat"] = True
            for key, value in data["chat_penalties"].items():
                initial[f"chat_{key}"] = _json(value)
        for hand, value in data["toi_trang_hand_values"].items():
            initial[f"hv_{hand}"] = _json(value)
        return initial

    def penalty_fields(self) -> list[forms.BoundField]:
        return [self[f"pen_{key}"] for key in PENALTY_LABELS]

    def chat_fields(self) -> list[forms.BoundField]:
        return [self[f"chat_{key}"] for key in PENALTY_LABELS]

    def chop_fields(self) -> list[forms.BoundField]:
        return [self[f"chops_{hang}"] for hang in CHOPPER_LABELS]

    def hand_value_fields(self) -> list[forms.BoundField]:
        return [self[f"hv_{hand}"] for hand in engine.HANDS]

    def to_dict(self) -> dict[str, Any]:
        data = self.cleaned_data

        def amount(value: str) -> str | None:
            value = (value or "").strip().replace("−", "-").replace(",", ".")
            return value or None

        return {
            "id": "custom",
            "name": data["name"],
            **{key: data[key] for key in _AS_IS},
            **{key: amount(data[key]) for key in _AMOUNTS},
            "placement": {
                n: [amount(v) for v in data[f"placement_{n}"].split()] for n in ("2", "3", "4")
            },
            "penalties": {key: amount(data[f"pen_{key}"]) for key in PENALTY_LABELS},
            "chat_penalties": (
                {key: amount(data[f"chat_{key}"]) for key in PENALTY_LABELS}
                if data["separate_chat"]
                else None
            ),
            "toi_trang_hand_values": {
                hand: value
                for hand in engine.HANDS
                if (value := amount(data[f"hv_{hand}"])) is not None
            },
            "toi_trang_counts_thoi": {
                "no": False,
                "all": True,
                "hands": list(data["toi_trang_thoi_hands"]),
            }[data["toi_trang_counts_thoi"]],
            "chops": {hang: list(data[f"chops_{hang}"]) for hang in CHOPPER_LABELS},
        }

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if cleaned.get("toi_trang_counts_thoi") == "hands" and not cleaned.get(
            "toi_trang_thoi_hands"
        ):
            self.add_error(
                "toi_trang_thoi_hands",
                _("Hãy chọn ít nhất một bài, hoặc chọn “Không” ở trên."),
            )
        if self.errors:
            return cleaned
        try:
            rules = engine.ruleset_from_dict(self.to_dict())
        except engine.InvalidRuleSet as error:
            problems = error.problems
        else:
            problems = check_rule_limits(rules)
            self.rules = None if problems else rules
        for problem in problems:
            field = _field_for(problem.path)
            self.add_error(
                field if field in self.fields else None, problem.message(engine_language())
            )
        return cleaned


def _field_for(path: str) -> str:
    head, _sep, rest = path.partition(".")
    head = head.split("[")[0]
    key = rest.split("[")[0].split(".")[0]
    if head == "penalties":
        return f"pen_{key}"
    if head == "chat_penalties":
        return f"chat_{key}" if key else "separate_chat"
    if head == "placement":
        return f"placement_{key}"
    if head == "toi_trang_hand_values":
        return f"hv_{key}"
    if head == "chops":
        return f"chops_{key}" if key else "chops_3dt"
    if head == "toi_trang_counts_thoi" and "[" in path:
        return "toi_trang_thoi_hands"
    return head
