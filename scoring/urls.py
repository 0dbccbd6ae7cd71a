"""Every page of the site. ``tienlen_site/urls.py`` includes this before Django's own
``accounts/`` pages, so the password reset paths here (Django's views in the site's look, only
where mail works) answer first."""

from django.contrib.auth.views import LoginView, PasswordChangeDoneView, PasswordChangeView
from django.urls import path, re_path

from scoring.forms.pages import LoginForm
from scoring.views import (
    accounts,
    app,
    checks,
    downloads,
    groups,
    joins,
    ledger,
    live,
    payee,
    players,
    rules,
    sharing,
    site,
    sittings,
    story,
)
from tienlen_site.plumbing.http import login_required

#: A secret link's token (a live link, a player's own link, a join code), as
#: ``secrets.token_urlsafe(32)`` makes it: 43 URL-safe characters.
TOKEN = "[A-Za-z0-9_-]{43}"

urlpatterns = [
    path("", site.home, name="home"),
    path("healthz", site.healthz, name="healthz"),
    path("manifest.webmanifest", app.manifest, name="manifest"),
    path("sw.js", app.service_worker, name="service_worker"),
    # Accounts
    path("accounts/signup/", site.signup, name="signup"),
    path("accounts/login/", LoginView.as_view(authentication_form=LoginForm), name="login"),
    path("accounts/", site.account, name="account"),
    # Django's own pages, behind the site's log-in check (its bounded ``next``) before theirs.
    path(
        "accounts/password_change/",
        login_required(PasswordChangeView.as_view()),
        name="password_change",
    ),
    path(
        "accounts/password_change/done/",
        login_required(PasswordChangeDoneView.as_view()),
        name="password_change_done",
    ),
    path("accounts/password_reset/", accounts.password_reset, name="password_reset"),
    path(
        "accounts/password_reset/done/",
        accounts.password_reset_done,
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        accounts.password_reset_confirm,
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        accounts.password_reset_complete,
        name="password_reset_complete",
    ),
    # Rules
    path("rules/", rules.rules_list, name="rules"),
    path("rules/book/", rules.rules_book, name="rules_book"),
    path("rules/new/", rules.rules_edit, name="rules_new"),
    path("rules/<int:pk>/", rules.rules_edit, name="rules_edit"),
    # Sittings and games
    path("s/new/", sittings.sitting_new, name="sitting_new"),
    path("s/<int:pk>/", sittings.sitting_page, name="sitting"),
    path("s/<int:pk>/games/", sittings.game_new, name="game_new"),
    path("s/<int:pk>/undo/", sittings.sitting_undo, name="sitting_undo"),
    path("s/<int:pk>/redo/", sittings.sitting_redo, name="sitting_redo"),
    path("s/<int:pk>/members/", sittings.sitting_members, name="sitting_members"),
    path("s/<int:pk>/history/", sittings.sitting_history, name="sitting_history"),
    path("s/<int:pk>/check/", checks.sitting_check, name="sitting_check"),
    path("s/<int:pk>/g/<int:number>/", sittings.game_page, name="game"),
    path("s/<int:pk>/g/<int:number>/edit/", sittings.game_edit, name="game_edit"),
    path("s/<int:pk>/g/<int:number>/void/", sittings.game_void, name="game_void"),
    path("s/<int:pk>/g/<int:number>/restore/", sittings.game_restore, name="game_restore"),
    # Ledger
    path("s/<int:pk>/settle/", ledger.sitting_settle, name="sitting_settle"),
    path("s/<int:pk>/settlements/", ledger.settlement_new, name="settlement_new"),
    path(
        "s/<int:pk>/settlements/<int:settlement_id>/void/",
        ledger.settlement_void,
        name="settlement_void",
    ),
    path(
        "s/<int:pk>/players/<int:player_id>/",
        ledger.player_statement_in_sitting,
        name="player_statement_in_sitting",
    ),
    path("s/<int:pk>/pair/<int:a>/<int:b>/", ledger.pair_explain, name="pair_explain"),
    path("ledger/<int:player_id>/", ledger.player_ledger, name="player_ledger"),
    # Files
    path("s/<int:pk>/export/payments.csv", downloads.sitting_export_csv, name="sitting_export_csv"),
    path(
        "s/<int:pk>/export/totals.csv",
        downloads.sitting_export_totals_csv,
        name="sitting_export_totals_csv",
    ),
    path(
        "s/<int:pk>/export/session.json", downloads.sitting_export_json, name="sitting_export_json"
    ),
    path("s/<int:pk>/print/", downloads.sitting_print, name="sitting_print"),
    path("import/", downloads.session_import, name="session_import"),
    # Players
    path("players/", players.players, name="players"),
    path("players/<int:pk>/", players.player, name="player"),
    path("players/<int:pk>/merge/", players.player_merge, name="player_merge"),
    path("players/<int:pk>/bank/", players.player_bank, name="player_bank"),
    path("players/<int:pk>/link/", payee.player_link_settings, name="player_link_settings"),
    # "Đã nhận": a scorekeeper confirms a payment for its payee (or takes it back).
    path(
        "settlements/<int:settlement_id>/received/",
        payee.settlement_receipt,
        name="settlement_receipt",
    ),
    # A player's own link.
    re_path(rf"^p/(?P<token>{TOKEN})/$", payee.player_page, name="player_link"),
    re_path(
        rf"^p/(?P<token>{TOKEN})/received/(?P<settlement_id>[0-9]{{1,18}})/$",
        payee.player_receipt,
        name="player_receipt",
    ),
    # Live boards. The same URL answers the page and its polls (an htmx request gets the board
    # fragment, or 304 if nothing is new).
    path("s/<int:pk>/live/", live.sitting_live, name="sitting_live"),
    re_path(rf"^live/(?P<token>{TOKEN})/$", live.live, name="live"),
    re_path(rf"^live/(?P<token>{TOKEN})/book/$", live.live_book, name="live_book"),
    # "Mời cả bàn": one QR code, each player takes their own link.
    path("s/<int:pk>/join/", joins.sitting_join, name="sitting_join"),
    path(
        "s/<int:pk>/join/<int:player_id>/reset/",
        joins.sitting_join_reset,
        name="sitting_join_reset",
    ),
    re_path(rf"^j/(?P<code>{TOKEN})/$", joins.join_page, name="join"),
    # Sharing
    path("s/<int:pk>/share/", sharing.sitting_share, name="sitting_share"),
    path(
        "s/<int:pk>/share/withdraw/<int:invitation_id>/",
        sharing.invitation_withdraw,
        name="invitation_withdraw",
    ),
    path(
        "s/<int:pk>/share/remove/<int:user_id>/",
        sharing.scorekeeper_remove,
        name="scorekeeper_remove",
    ),
    path("s/<int:pk>/leave/", sharing.sitting_leave, name="sitting_leave"),
    path("invitations/<int:invitation_id>/", sharing.invitation_page, name="invitation"),
    path(
        "invitations/<int:invitation_id>/accept/",
        sharing.invitation_answer,
        {"answer": "accept"},
        name="invitation_accept",
    ),
    path(
        "invitations/<int:invitation_id>/decline/",
        sharing.invitation_answer,
        {"answer": "decline"},
        name="invitation_decline",
    ),
    # Groups
    path("groups/", groups.group_list, name="groups"),
    path("groups/<int:pk>/", groups.group_page, name="group"),
    path("groups/import/", downloads.group_import, name="group_import"),
    path("groups/<int:pk>/archive/", downloads.group_archive_download, name="group_archive"),
    path("tasks/<int:pk>/", downloads.archive_task, name="archive_task"),
    path("groups/<int:pk>/settle/", ledger.group_settle, name="group_settle"),
    path("groups/<int:pk>/settlements/", ledger.group_settlement_new, name="group_settlement_new"),
    path("groups/<int:pk>/why/<int:payer_id>/<int:payee_id>/", groups.group_why, name="group_why"),
    path(
        "groups/<int:pk>/why/<int:payer_id>/<int:payee_id>/s/<int:sitting_id>/",
        groups.group_why_games,
        name="group_why_games",
    ),
    path(
        "groups/<int:pk>/settlements/<int:settlement_id>/void/",
        ledger.group_settlement_void,
        name="group_settlement_void",
    ),
    path(
        "groups/<int:pk>/players/<int:player_id>/", groups.group_statement, name="group_statement"
    ),
    path(
        "groups/<int:pk>/players/<int:player_id>/sittings/<int:sitting_id>/games/",
        groups.group_statement_games,
        name="group_statement_games",
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
    path("groups/<int:pk>/share/", sharing.group_share, name="group_share"),
    path(
        "groups/<int:pk>/share/withdraw/<int:invitation_id>/",
        sharing.group_invitation_withdraw,
        name="group_invitation_withdraw",
    ),
    path(
        "groups/<int:pk>/share/remove/<int:user_id>/",
        sharing.group_keeper_remove,
        name="group_keeper_remove",
    ),
    path("groups/<int:pk>/leave/", sharing.group_leave, name="group_leave"),
    path("groups/<int:pk>/live/", live.group_live_settings, name="group_live_settings"),
    path(
        "groups/<int:pk>/live/leaderboard/",
        live.group_live_leaderboard,
        name="group_live_leaderboard",
    ),
    path("groups/<int:pk>/rename/", groups.group_rename, name="group_rename"),
    path("groups/<int:pk>/history/", groups.group_history, name="group_history"),
    path("groups/<int:pk>/check/", checks.group_check, name="group_check"),
    path("groups/<int:pk>/stats/", story.group_stats, name="group_stats"),
    path(
        "groups/<int:pk>/stats/<int:player_id>/<slug:what>/",
        story.group_stats_games,
        name="group_stats_games",
    ),
    path(
        "groups/<int:pk>/players/<int:player_id>/year/", story.player_year, name="group_player_year"
    ),
    path("groups/<int:pk>/what-if/", story.group_what_if, name="group_what_if"),
    re_path(rf"^gl/(?P<token>{TOKEN})/$", live.group_live, name="group_live"),
]
