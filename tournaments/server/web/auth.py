"""Django's log-in and set-password pages, answering 400 when their form is refused (a wrong
password, passwords that differ): the page again with the form's errors, as every form here."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.http import HttpResponse


class LoginView(auth_views.LoginView):  # type: ignore[misc]
    def form_invalid(self, form: Any) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)


class WelcomeView(auth_views.PasswordResetConfirmView):  # type: ignore[misc]
    """The one-time sign-up link of an imported account: its owner sets a password, is logged
    in and lands on its team's page (`success_url`), told what happened, not on a bare login
    form."""

    post_reset_login = True
    post_reset_login_backend = "django.contrib.auth.backends.ModelBackend"

    def form_valid(self, form: Any) -> HttpResponse:
        answer = super().form_valid(form)
        messages.success(
            self.request,
            f"Welcome, {form.user.get_username()}: your password is set and you are logged in. "
            f"This is your team's page: submit your bot here or with `azul-arena contest submit`.",
        )
        return answer

    def form_invalid(self, form: Any) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)
