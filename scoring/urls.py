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
