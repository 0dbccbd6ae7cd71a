"""URL patterns of this area; see the views modules ``players`` and ``live``."""

from django.urls import path, re_path

from scoring.views import live, players

urlpatterns = [
    path("players/", players.players, name="players"),
    path("players/<int:pk>/", players.player, name="player"),
    path("players/<int:pk>/merge/", players.player_merge, name="player_merge"),
    path("players/<int:pk>/bank/", players.player_bank, name="player_bank"),
    path("s/<int:pk>/live/", live.sitting_live, name="sitting_live"),
    # Tokens are secrets.token_urlsafe(32): 43 URL-safe characters. The same URL answers the
    # page and its polls (an htmx request gets the board fragment, or 304 if nothing is new).
    re_path(r"^live/(?P<token>[A-Za-z0-9_-]{43})/$", live.live, name="live"),
]
