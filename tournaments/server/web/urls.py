from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from tournaments.server.web import auth, tables, views

urlpatterns = [
    path("", views.leaderboard, name="leaderboard"),
    path("c/<slug:slug>/", views.leaderboard, name="contest"),
    path("me/", views.home, name="home"),
    path("signup/", views.signup, name="signup"),
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
    path("tokens/", views.tokens, name="tokens"),
    path("p/<slug:name>/", views.participant_page, name="participant"),
    path("p/<slug:name>/v/<int:number>/", views.version_page, name="version"),
    path("p/<slug:name>/v/<int:number>/archive", views.version_archive, name="archive"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/viewer", views.game_viewer, name="viewer"),
    path("games/<int:game_id>/analyse", views.game_analyse, name="game_analyse"),
    path("games/<int:game_id>/log/<int:seat>", views.seat_log, name="seat_log"),
    path("play/", tables.choose, name="play"),
    path("c/<slug:slug>/play/", tables.choose, name="contest_play"),
    path("tables/<int:table_id>/", tables.board, name="table"),
    path("tables/<int:table_id>/state", tables.state, name="table_state"),
    path("tables/<int:table_id>/move", tables.move, name="table_move"),
    path("tables/<int:table_id>/viewer", tables.viewer, name="table_viewer"),
    path("api/token", views.api_token, name="api_token"),
    path("api/submit", views.api_submit, name="api_submit"),
    path("api/versions", views.api_versions, name="api_versions"),
    path("api/challenge", views.api_challenge, name="api_challenge"),
    path("api/compare", views.api_compare, name="api_compare"),
    path("api/games/<int:game_id>/logs", views.api_logs, name="api_logs"),
]
