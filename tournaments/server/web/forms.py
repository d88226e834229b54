from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm

from tournaments.server.accounts.models import Participant
from tournaments.server.ladder.models import Contest


class SignupForm(UserCreationForm):  # type: ignore[misc]
    participant = forms.SlugField(
        max_length=64, help_text="your name on the leaderboard (letters, digits, - and _)"
    )
    code = forms.CharField(
        max_length=64,
        required=False,
        help_text="the organisers' invitation code, if the contest asks for one",
    )

    def clean_participant(self) -> str:
        name = str(self.cleaned_data["participant"])
        if Participant.objects.filter(name__iexact=name).exists():
            raise forms.ValidationError("that name is taken; choose another")
        return name

    def clean_code(self) -> str:
        contest = Contest.current()
        code = str(self.cleaned_data.get("code") or "")
        if contest.signup == Contest.CODE and code != contest.signup_code:
            raise forms.ValidationError("sign-up needs the organisers' invitation code")
        return code


class UploadForm(forms.Form):
    archive = forms.FileField(
        help_text=".zip or .tar.gz of the bot's folder (bot.py, or bot.toml in any language)"
    )

    def chunks(self) -> Any:
        return self.cleaned_data["archive"].chunks()
