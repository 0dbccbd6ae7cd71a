"""URL patterns of this area; see the views modules ``ledger`` and ``exports``."""

from django.urls import path

from scoring.views import exports, ledger

urlpatterns = [
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
    path("s/<int:pk>/export/payments.csv", exports.sitting_export_csv, name="sitting_export_csv"),
    path(
        "s/<int:pk>/export/totals.csv",
        exports.sitting_export_totals_csv,
        name="sitting_export_totals_csv",
    ),
    path("s/<int:pk>/export/session.json", exports.sitting_export_json, name="sitting_export_json"),
    path("s/<int:pk>/print/", exports.sitting_print, name="sitting_print"),
    path("import/", exports.session_import, name="session_import"),
    path("ledger/<int:player_id>/", ledger.player_ledger, name="player_ledger"),
]
