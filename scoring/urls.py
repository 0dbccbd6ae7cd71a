from django.urls import include, path

from scoring.views import rules, site, sittings

urlpatterns = [
    path("", include("scoring.urls_ledger")),
    path("", include("scoring.urls_players")),
    path("", include("scoring.urls_sharing")),
    path("", site.home, name="home"),
    path("healthz", site.healthz, name="healthz"),
    path("accounts/signup/", site.signup, name="signup"),
    path("accounts/", site.account, name="account"),
    path("rules/", rules.rules_list, name="rules"),
    path("rules/book/", rules.rules_book, name="rules_book"),
    path("rules/new/", rules.rules_edit, name="rules_new"),
    path("rules/<int:pk>/", rules.rules_edit, name="rules_edit"),
    path("s/new/", sittings.sitting_new, name="sitting_new"),
    path("s/<int:pk>/", sittings.sitting_page, name="sitting"),
    path("s/<int:pk>/games/", sittings.game_new, name="game_new"),
    path("s/<int:pk>/undo/", sittings.sitting_undo, name="sitting_undo"),
    path("s/<int:pk>/redo/", sittings.sitting_redo, name="sitting_redo"),
    path("s/<int:pk>/members/", sittings.sitting_members, name="sitting_members"),
    path("s/<int:pk>/history/", sittings.sitting_history, name="sitting_history"),
    path("s/<int:pk>/g/<int:number>/", sittings.game_page, name="game"),
    path("s/<int:pk>/g/<int:number>/edit/", sittings.game_edit, name="game_edit"),
    path("s/<int:pk>/g/<int:number>/void/", sittings.game_void, name="game_void"),
    path("s/<int:pk>/g/<int:number>/restore/", sittings.game_restore, name="game_restore"),
]

# --- Groups (scoring.views.groups) ---
from django.urls import re_path  # noqa: E402

from scoring.views import groups  # noqa: E402

urlpatterns += [
    path("groups/", groups.group_list, name="groups"),
    path("groups/<int:pk>/", groups.group_page, name="group"),
    path("groups/<int:pk>/settle/", groups.group_settle, name="group_settle"),
    path("groups/<int:pk>/settlements/", groups.group_settlement_new, name="group_settlement_new"),
    path(
        "groups/<int:pk>/settlements/<int:settlement_id>/void/",
        groups.group_settlement_void,
        name="group_settlement_void",
    ),
    path(
        "groups/<int:pk>/players/<int:player_id>/", groups.group_statement, name="group_statement"
    ),
    path(
        "groups/<int:pk>/players/<int:player_id>/statement.csv",
        groups.group_statement_csv,
        name="group_statement_csv",
    ),
    path(
        "groups/<int:pk>/players/<int:player_id>/statement.json",
        groups.group_statement_json,
        name="group_statement_json",
    ),
    path("groups/<int:pk>/close/", groups.group_close, name="group_close"),
    path("groups/<int:pk>/close/<int:close_id>/undo/", groups.group_reopen, name="group_reopen"),
    path("groups/<int:pk>/sittings/new/", groups.group_sitting_new, name="group_sitting_new"),
    path(
        "groups/<int:pk>/sittings/<int:sitting_id>/move/", groups.sitting_move, name="sitting_move"
    ),
    path("groups/<int:pk>/merge/", groups.group_merge, name="group_merge"),
    path("groups/<int:pk>/share/", groups.group_share, name="group_share"),
    path(
        "groups/<int:pk>/share/withdraw/<int:invitation_id>/",
        groups.group_invitation_withdraw,
        name="group_invitation_withdraw",
    ),
    path(
        "groups/<int:pk>/share/remove/<int:user_id>/",
        groups.group_keeper_remove,
        name="group_keeper_remove",
    ),
    path("groups/<int:pk>/leave/", groups.group_leave, name="group_leave"),
    path("groups/<int:pk>/live/", groups.group_live_settings, name="group_live_settings"),
    path("groups/<int:pk>/rename/", groups.group_rename, name="group_rename"),
    path("groups/<int:pk>/history/", groups.group_history, name="group_history"),
    re_path(r"^gl/(?P<token>[A-Za-z0-9_-]{43})/$", groups.group_live, name="group_live"),
]
