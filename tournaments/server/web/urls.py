from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from tournaments.server.web import api, auth, games, pages, tables

urlpatterns = [
    path("", pages.leaderboard, name="leaderboard"),
    path("c/<slug:slug>/", pages.leaderboard, name="contest"),
    path("me/", pages.home, name="home"),
    path("signup/", pages.signup, name="signup"),
    path("login/", auth.LoginView.as_view(template_name="web/login.html"), name="login"),
    # The one-time sign-up link of an imported account: its owner sets a password.
    path(
        "welcome/<uidb64>/<token>/",
        auth.WelcomeView.as_view(
            template_name="web/welcome.html", success_url=reverse_lazy("home")
        ),
        name="welcome",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("tokens/", pages.tokens, name="tokens"),
    path("p/<slug:name>/", pages.participant_page, name="participant"),
    path("p/<slug:name>/v/<int:number>/", pages.version_page, name="version"),
    path("p/<slug:name>/v/<int:number>/archive", pages.version_archive, name="archive"),
    path("games/<int:game_id>/", games.game_page, name="game"),
    path("games/<int:game_id>/viewer", games.game_viewer, name="viewer"),
    path("games/<int:game_id>/analyse", games.game_analyse, name="game_analyse"),
    path("games/<int:game_id>/log/<int:seat>", games.seat_log, name="seat_log"),
    path("play/", tables.choose, name="play"),
    path("c/<slug:slug>/play/", tables.choose, name="contest_play"),
    path("tables/<int:table_id>/", tables.board, name="table"),
    path("tables/<int:table_id>/state", tables.state, name="table_state"),
    path("tables/<int:table_id>/move", tables.move, name="table_move"),
    path("tables/<int:table_id>/viewer", tables.viewer, name="table_viewer"),
    path("api/token", api.api_token, name="api_token"),
    path("api/submit", api.api_submit, name="api_submit"),
    path("api/versions", api.api_versions, name="api_versions"),
    path("api/challenge", api.api_challenge, name="api_challenge"),
    path("api/compare", api.api_compare, name="api_compare"),
    path("api/games/<int:game_id>/logs", api.api_logs, name="api_logs"),
]
