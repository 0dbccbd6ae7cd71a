"""Sign-up and account forms: an optional e-mail address, used only to reset a password."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

EMAIL_HELP = _(
    "Không bắt buộc. Chỉ dùng để gửi liên kết đặt lại mật khẩu khi bạn quên; "
    "không có e-mail thì không lấy lại được mật khẩu."
)

EMAIL_ERRORS = {
    "invalid": _("E-mail này không đúng dạng (ví dụ: ten@example.com); sửa lại hoặc để trống.")
}


class SignUpForm(UserCreationForm):  # type: ignore[type-arg]
    email = forms.EmailField(
        label=_("E-mail"), required=False, help_text=EMAIL_HELP, error_messages=EMAIL_ERRORS
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


class EmailForm(forms.ModelForm):  # type: ignore[type-arg]
    email = forms.EmailField(
        label=_("E-mail"), required=False, help_text=EMAIL_HELP, error_messages=EMAIL_ERRORS
    )

    class Meta:
        model = get_user_model()
        fields = ("email",)
