from __future__ import annotations

import secrets
from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import NON_FIELD_ERRORS

from tournaments.server.contests.models import Contest, Participant


class SignupForm(UserCreationForm):  # type: ignore[misc]
    participant = forms.SlugField(
        max_length=64,
        help_text="your name on the leaderboard (letters, digits, - and _)",
        # Django's own words ("a valid slug") mean nothing to a newcomer.
        error_messages={
            "invalid": "a participant's name is letters, digits, - and _ only (no spaces or "
            "other signs), e.g. ann-bots"
        },
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
        contest = Contest.front()
        code = str(self.cleaned_data.get("code") or "")
        # A contest asking for a code it was never given takes no one (not an empty code).
        if contest.signup == Contest.SIGNUP_CLOSED or (
            contest.signup == Contest.CODE and not contest.signup_code
        ):
            raise forms.ValidationError(
                "sign-up is closed: the organisers make the accounts (ask them for your "
                "sign-up link)"
            )
        if contest.signup == Contest.CODE and not secrets.compare_digest(
            code.encode(), contest.signup_code.encode()
        ):
            raise forms.ValidationError("sign-up needs the organisers' invitation code")
        return code


class UploadForm(forms.Form):
    archive = forms.FileField(
        help_text=".zip or .tar.gz of the bot's folder (bot.py, or bot.toml in any language)"
    )

    def chunks(self) -> Any:
        return self.cleaned_data["archive"].chunks()


def form_errors(form: forms.Form) -> str:
    """A refused form's errors in one line, field by field, for a message or a JSON error."""
    parts = []
    for field, errors in form.errors.items():
        label = "" if field == NON_FIELD_ERRORS else f"{field}: "
        parts.append(label + " ".join(str(e) for e in errors))
    return "; ".join(parts)


def _names(value: str) -> list[str]:
    """Participants' names, comma-separated, each one a name (a slug) as on the leaderboard."""
    names = [n.strip() for n in value.split(",") if n.strip()]
    for name in names:
        try:
            forms.SlugField().clean(name)
        except forms.ValidationError:
            raise forms.ValidationError(
                f"{name!r} is not a participant's name (letters, digits, - and _)"
            ) from None
    if not names:
        raise forms.ValidationError("name at least one opponent")
    return names


class PinForm(forms.Form):
    """Which version plays: a version's number, or "newest" (the newest that passed)."""

    pin = forms.CharField(max_length=16)

    def clean_pin(self) -> int | None:
        pin = str(self.cleaned_data["pin"]).strip()
        if pin == "newest":
            return None
        if not pin.isdigit() or int(pin) < 1:
            raise forms.ValidationError(f"{pin!r} is neither a version number nor 'newest'")
        return int(pin)


class ChallengeForm(forms.Form):
    challenge = forms.CharField(max_length=1000, help_text="opponents' names, comma-separated")

    def clean_challenge(self) -> list[str]:
        return _names(str(self.cleaned_data["challenge"]))


class TokenForm(forms.Form):
    name = forms.CharField(max_length=64, required=False)

    def clean_name(self) -> str:
        return str(self.cleaned_data.get("name") or "cli")


class RevokeForm(forms.Form):
    revoke = forms.IntegerField(min_value=1, error_messages={"invalid": "not a token's number"})


class ApiTokenForm(TokenForm):
    username = forms.CharField(max_length=150)
    password = forms.CharField(max_length=4096, strip=False)


class ActingForm(forms.Form):
    """The participant an API call acts for (empty: the token's user's own)."""

    participant = forms.SlugField(max_length=64, required=False)


class ApiCompareForm(ActingForm):
    """A version test: `version` of the participant (empty: its active one) against `base`
    ('ann v3', or 'v2' for its own; empty: its predecessor, the automatic test)."""

    base = forms.CharField(max_length=100, required=False)
    version = forms.IntegerField(min_value=1, required=False)


class ApiChallengeForm(ActingForm):
    opponents = forms.CharField(max_length=1000)

    def clean_opponents(self) -> list[str]:
        return _names(str(self.cleaned_data["opponents"]))
