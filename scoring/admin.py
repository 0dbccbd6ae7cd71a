from typing import TYPE_CHECKING

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from scoring.models import (
    Game,
    HistoryEntry,
    Invitation,
    Membership,
    Payment,
    Player,
    SavedRuleSet,
    Seat,
    Settlement,
    Sitting,
)
from scoring.text.wording import payment_words

if TYPE_CHECKING:
    # django-stubs makes the admin classes generic in their model, but Django's own classes
    # cannot be subscripted at run time: the model-specific bases exist for the type checker.
    MembershipInlineBase = admin.TabularInline[Membership, Sitting]
    PlayerAdminBase = admin.ModelAdmin[Player]
    SavedRuleSetAdminBase = admin.ModelAdmin[SavedRuleSet]
    SittingAdminBase = admin.ModelAdmin[Sitting]
    MembershipAdminBase = admin.ModelAdmin[Membership]
    InvitationAdminBase = admin.ModelAdmin[Invitation]
    ReadOnlyAdminBase = admin.ModelAdmin[Model]
else:
    MembershipInlineBase = admin.TabularInline
    PlayerAdminBase = SavedRuleSetAdminBase = SittingAdminBase = admin.ModelAdmin
    MembershipAdminBase = InvitationAdminBase = ReadOnlyAdminBase = admin.ModelAdmin


class MembershipInline(MembershipInlineBase):
    model = Membership
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Player)
class PlayerAdmin(PlayerAdminBase):
    list_display = ["name", "owner", "merged_into", "created_at"]
    search_fields = ["name", "owner__username"]
    raw_id_fields = ["owner", "merged_into"]


@admin.register(SavedRuleSet)
class SavedRuleSetAdmin(SavedRuleSetAdminBase):
    list_display = ["name", "owner", "created_at"]
    raw_id_fields = ["owner"]


@admin.register(Sitting)
class SittingAdmin(SittingAdminBase):
    list_display = ["name", "owner", "date", "rules_label", "stake", "version"]
    search_fields = ["name", "owner__username"]
    raw_id_fields = ["owner"]
    filter_horizontal = ["scorekeepers"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(MembershipAdminBase):
    list_display = ["sitting", "player", "position"]
    raw_id_fields = ["sitting", "player"]


@admin.register(Invitation)
class InvitationAdmin(InvitationAdminBase):
    list_display = ["sitting", "username", "invitee", "status", "created_at", "answered_at"]
    list_filter = ["status"]
    raw_id_fields = ["sitting", "invitee", "invited_by"]


# Money rows are written only by the services, so the admin shows them read-only: an edit
# or a delete here would break the rule that every game sums to zero, and the history that
# explains it. A wrong game or payment is voided on the site instead, which keeps the trail.
# Without the delete permission Django also drops the "delete selected" action.
class ReadOnlyAdmin(ReadOnlyAdminBase):
    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["sitting", "number", "revision", "status", "created_at"]
    list_filter = ["status"]


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ["game", "player", "position", "place", "is_cong", "net"]


@admin.register(Payment)
class PaymentAdmin(ReadOnlyAdmin):
    list_display = ["game", "revision", "payer", "payee", "amount", "reason", "detail"]
    list_filter = ["reason"]

    @admin.display(description=_("giải thích"))
    def detail(self, payment: Payment) -> str:
        return payment_words(payment.detail_code, payment.detail_params)


@admin.register(Settlement)
class SettlementAdmin(ReadOnlyAdmin):
    list_display = ["sitting", "payer", "payee", "amount", "is_void", "created_at"]


@admin.register(HistoryEntry)
class HistoryEntryAdmin(ReadOnlyAdmin):
    list_display = ["sitting", "action", "game", "revision", "user", "at"]
    list_filter = ["action"]
