"""Django's log-in and set-password pages, answering 400 when their form is refused (a wrong
password, passwords that differ): the page again with the form's errors, as every form here."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import views as auth_views
from django.http import HttpResponse


class LoginView(auth_views.LoginView):  # type: ignore[misc]
    def form_invalid(self, form: Any) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)


class WelcomeView(auth_views.PasswordResetConfirmView):  # type: ignore[misc]
    """The one-time sign-up link of an imported account: its owner sets a password."""

    def form_invalid(self, form: Any) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)
