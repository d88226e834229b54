"""The command line's JSON API (`azul-arena contest ...`): token auth, no cookies. Its keys are
an interface: kept stable."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST, require_safe

from tournaments.server.accounts.models import ApiToken
from tournaments.server.contests.models import Contest, Participant, participant_of
from tournaments.server.ladder.models import Game, Seat
from tournaments.server.submissions.intake import SubmissionError, submit
from tournaments.server.submissions.models import Version
from tournaments.server.web.forms import (
    ActingForm,
    ApiChallengeForm,
    ApiCompareForm,
    ApiTokenForm,
    form_errors,
)
from tournaments.server.web.logview import read_seat_log


def _token_user(request: HttpRequest) -> Any:
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        return None
    return ApiToken.authenticate(header.removeprefix("Bearer ").strip())


def _refuse(message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


@csrf_exempt  # no cookies: the password (here) or the token (below) is the credential
@require_POST
def api_token(request: HttpRequest) -> JsonResponse:
    form = ApiTokenForm(request.POST)
    if not form.is_valid():
        return _refuse(form_errors(form), 400)
    user = authenticate(
        request, username=form.cleaned_data["username"], password=form.cleaned_data["password"]
    )
    if user is None:
        return _refuse("wrong user name or password", 401)
    _, token = ApiToken.issue(user, form.cleaned_data["name"])
    who = participant_of(user)
    return JsonResponse(
        {"token": token, "user": user.get_username(), "participant": who.name if who else None}
    )


_NO_TOKEN = (
    "no valid token: run `azul-arena contest login --server URL` (a revoked token no longer works)"
)


def _acting_for(request: HttpRequest, doing: str) -> tuple[Any, Participant] | JsonResponse:
    """The token's user and the participant it acts for (the POST's `participant`, else its
    own), or the refusal to send: no valid token (401), not a name (400), no such participant
    (404), not a member (403)."""
    user = _token_user(request)
    if user is None:
        return _refuse(_NO_TOKEN, 401)
    form = ActingForm(request.POST)
    if not form.is_valid():
        return _refuse(form_errors(form), 400)
    name = form.cleaned_data["participant"]
    who = Participant.objects.filter(name=name).first() if name else participant_of(user)
    if name and who is None:
        return _refuse(f"no participant is named {name!r}: check the name on the leaderboard", 404)
    if who is None or not who.is_member(user):
        return _refuse(f"you may {doing} only for a participant you are a member of", 403)
    return user, who


@csrf_exempt
@require_POST
def api_submit(request: HttpRequest) -> JsonResponse:
    acting = _acting_for(request, "submit")
    if isinstance(acting, JsonResponse):
        return acting
    user, who = acting
    upload = request.FILES.get("archive")
    if upload is None:
        return _refuse("no archive in the request (form field 'archive')", 400)
    try:
        version = submit(who, upload.chunks(), user)
    except SubmissionError as exc:
        return _refuse(str(exc), 400)
    return JsonResponse(
        {
            "participant": who.name,
            "version": version.number,
            "sha256": version.sha256,
            "size": version.size,
            "url": request.build_absolute_uri(reverse("version", args=[who.name, version.number])),
        },
        status=201,
    )


@csrf_exempt
@require_POST
def api_challenge(request: HttpRequest) -> JsonResponse:
    """An unranked game against the opponents named (comma-separated), as the participant's
    page asks for it: the same quota and refusals."""
    from tournaments.server.ladder.challenges import ChallengeError, challenge, used_today

    acting = _acting_for(request, "ask for challenges")
    if isinstance(acting, JsonResponse):
        return acting
    _, who = acting
    form = ApiChallengeForm(request.POST)
    if not form.is_valid():
        return _refuse(form_errors(form), 400)
    opponents = form.cleaned_data["opponents"]
    try:
        game = challenge(who, opponents)
    except ChallengeError as exc:
        return _refuse(str(exc), 400)
    quota = Contest.of(who).challenge_quota
    return JsonResponse(
        {
            "game": game.pk,
            "participant": who.name,
            "opponents": opponents,
            "url": request.build_absolute_uri(reverse("game", args=[game.pk])),
            "challenges_left_today": max(0, quota - used_today(who)),
        },
        status=201,
    )


@csrf_exempt
@require_POST
def api_compare(request: HttpRequest) -> JsonResponse:
    """A version test of the participant's version against another (`versiontests.request`):
    asked for (201), or as it stands when it exists (200)."""
    from tournaments.server.versiontests import runs as versiontests

    acting = _acting_for(request, "ask for version tests")
    if isinstance(acting, JsonResponse):
        return acting
    user, who = acting
    form = ApiCompareForm(request.POST)
    if not form.is_valid():
        return _refuse(form_errors(form), 400)
    asked = versiontests.used_today(who)
    try:
        test = versiontests.request(
            who, form.cleaned_data["base"] or None, form.cleaned_data["version"], user
        )
    except versiontests.CompareError as exc:
        return _refuse(str(exc), 400)
    used = versiontests.used_today(who)
    url = reverse("version", args=[test.test.new.participant.name, test.test.new.number])
    return JsonResponse(
        {
            **test.to_json(),
            "url": request.build_absolute_uri(url),
            "tests_left_today": max(0, Contest.of(who).compare_quota - used),
        },
        status=201 if used > asked else 200,
    )


@csrf_exempt
@require_safe
def api_versions(request: HttpRequest) -> JsonResponse:
    user = _token_user(request)
    if user is None:
        return _refuse(_NO_TOKEN, 401)
    who = participant_of(user)
    if who is None:
        return _refuse("this account is in no participant", 404)
    return JsonResponse(
        {
            "participant": who.name,
            "versions": [
                {
                    "version": v.number,
                    "state": v.state,
                    "reason": v.reason,
                    "sha256": v.sha256,
                    "size": v.size,
                    "uploaded": v.uploaded.isoformat(),
                    "suspended": v.suspended,
                }
                for v in Version.objects.private_to(user)
                .filter(participant=who)
                .order_by("-number")
            ],
        }
    )


@require_safe
def api_logs(request: HttpRequest, game_id: int) -> JsonResponse:
    """The logs of a game's seats the token's user may read (their own; all for organisers)."""
    user = _token_user(request)
    if user is None:
        return _refuse(_NO_TOKEN, 401)
    seats = list(
        Seat.objects.logs_visible_to(user)
        .select_related("version__participant")
        .filter(game_id=game_id)
        .order_by("seat")
    )
    if not seats:
        return _refuse(f"game {game_id} has no seat of yours (or does not exist)", 404)
    out = []
    record, deleted = Game.objects.filter(pk=game_id).values_list("record", "logs_deleted")[0]
    for s in seats:
        log = read_seat_log(s, record, deleted)
        out.append(
            {
                "seat": s.seat,
                "version": s.version.label,
                "termination": s.termination,
                "reason": log.reason,
                "log": log.text,
                # Why `log` is empty, in words (None when it is not).
                "empty": log.empty or None,
            }
        )
    return JsonResponse({"game": game_id, "seats": out})
