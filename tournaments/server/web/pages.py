"""The site's pages: the leaderboard, a participant's page (its versions, uploads, pins and
challenges), a version's page and archive, sign-up and API tokens. The game pages are
games.py's, the command line's JSON API api.py's."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_safe
from django_htmx.middleware import HtmxDetails

from tournaments.server.accounts.models import ApiToken
from tournaments.server.contests.models import Contest, Participant, participant_of
from tournaments.server.handins.decisions import handin_line
from tournaments.server.ladder import results
from tournaments.server.ladder.models import Game, Seat
from tournaments.server.ladder.retention import KEEP_RECENT
from tournaments.server.ladder.standings import active_versions
from tournaments.server.submissions.intake import SubmissionError, recent_submissions, submit
from tournaments.server.submissions.models import Version
from tournaments.server.visibility import is_organiser, results_open
from tournaments.server.web.board import standings_table
from tournaments.server.web.forms import (
    ChallengeForm,
    PinForm,
    RevokeForm,
    SignupForm,
    TokenForm,
    UploadForm,
    form_errors,
)
from tournaments.server.web.history import rating_chart, rating_points, results_against
from tournaments.server.web.logview import marked_lines


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails  # set by django_htmx's middleware


class AccountRequest(HttpRequest):
    user: User  # a view behind login_required


@require_safe
def leaderboard(request: HtmxHttpRequest, slug: str | None = None) -> HttpResponse:
    contest = get_object_or_404(Contest, slug=slug) if slug else Contest.front()
    # A contest hidden until its results shows participants no standings (nor the games'
    # results that would give them away) before it is closed; organisers see everything.
    visible = results_open(contest, request.user)
    final, published = _published(contest, request.user)
    changed, since = results.settings_changed(contest)
    context = {
        "settings_changed": changed,
        "settings_since": since,
        "standings": standings_table(contest) if visible else "",
        "contest": contest,
        "hidden": not visible,
        "final": final,
        "final_rows": published,
        "tab": request.GET.get("tab", ""),
        "recent": Game.objects.visible_to(request.user)
        .filter(status=Game.DONE, contest=contest, kind=Game.LADDER)
        .order_by("-finished")
        .prefetch_related("seats__version__participant")[:10]
        if visible
        else [],
    }
    if request.htmx:  # the live refresh asks for the table only
        return render(request, "web/_leaderboard_table.html", context)
    return render(request, "web/leaderboard.html", context)


def _published(contest: Contest, user: Any) -> tuple[Any, list[dict[str, Any]] | None]:
    """Where the contest's final is (None before its deadline), and its standings once it is
    done: for everyone once the contest is closed, for the organisers before (None: not
    shown)."""
    from tournaments.server.finals.published import final_rows
    from tournaments.server.finals.status import final_status

    if contest.state in (Contest.DRAFT, Contest.OPEN):
        return None, None
    status = final_status(contest)
    shown = status.finished and (contest.state == Contest.CLOSED or is_organiser(user))
    return status, final_rows(contest) if shown else None


@require_safe
@login_required
def home(request: HttpRequest) -> HttpResponse:
    who = participant_of(request.user)
    if who is None:
        return redirect("leaderboard")
    return redirect("participant", name=who.name)


# Said before the body is read: a stranger's POST is refused without parsing (or storing) it.
_MEMBERS_ONLY = "only the participant's members pin its version, ask for its challenges or submit"


@require_http_methods(["GET", "HEAD", "POST"])
def participant_page(request: HttpRequest, name: str) -> HttpResponse:
    who = get_object_or_404(Participant, name=name)
    form, status = UploadForm(), 200
    if request.method == "POST":
        if not who.is_member(request.user):
            return HttpResponse(_MEMBERS_ONLY, status=403)
        action = next((a for a in ("pin", "challenge") if a in request.POST), "archive")
        handler = {"pin": _pin, "challenge": _challenge, "archive": _upload}[action]
        answer = handler(request, who)
        if isinstance(answer, HttpResponse):
            return answer
        # A refused form: the page again, with why (the message, or the upload form's errors).
        form, status = answer, 400
    return render(
        request, "web/participant.html", _participant_context(request, who, form), status=status
    )


def _pin(request: HttpRequest, who: Participant) -> HttpResponse | UploadForm:
    from tournaments.server.contests.lifecycle import submission_refusal

    # The pin chooses what a team hands in (`handins.decisions.choose`): past its deadline a
    # version sent in time may still be validating, and the choice is no longer the team's.
    refusal = submission_refusal(who)
    if refusal is not None:
        messages.error(request, f"{refusal}: the version handed in cannot be changed now")
        return UploadForm()
    form = PinForm(request.POST)
    number = form.cleaned_data["pin"] if form.is_valid() else None
    chosen = (
        Version.objects.filter(participant=who, number=number, state=Version.PASSED).first()
        if number is not None
        else None
    )
    if not form.is_valid() or (number is not None and chosen is None):
        why = form_errors(form) or f"{who.name} has no version {number} that passed validation"
        messages.error(request, f"{why}: pin a version listed as passed, or 'newest'")
        return UploadForm()
    who.pinned = chosen
    who.save(update_fields=["pinned"])
    messages.info(
        request,
        "the newest version that passed plays" if chosen is None else f"version {number} plays",
    )
    return redirect("participant", name=who.name)


def _challenge(request: HttpRequest, who: Participant) -> HttpResponse | UploadForm:
    from tournaments.server.ladder.challenges import ChallengeError, challenge

    form = ChallengeForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_errors(form))
        return UploadForm()
    try:
        game = challenge(who, form.cleaned_data["challenge"])
    except ChallengeError as exc:
        messages.error(request, str(exc))
        return UploadForm()
    messages.success(request, f"challenge scheduled as game {game.pk} (unranked)")
    return redirect("game", game_id=game.pk)


def _upload(request: HttpRequest, who: Participant) -> HttpResponse | UploadForm:
    form = UploadForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            version = submit(who, form.chunks(), request.user)
        except SubmissionError as exc:
            form.add_error("archive", str(exc))
        else:
            messages.success(
                request, f"version {version.number} received; it is validated before it plays"
            )
            return redirect("participant", name=who.name)
    return form


def _participant_context(
    request: HttpRequest, who: Participant, form: UploadForm
) -> dict[str, Any]:
    versions = list(who.versions.select_related("standing").order_by("-number"))
    # Only the games the visitor may see (in a contest hidden until its results, a participant
    # sees the games it played in): their scores and ranks, and the results against each
    # opponent drawn from them.
    seen = Seat.objects.visible_to(request.user)
    games = (
        seen.filter(version_id__in=[v.pk for v in versions], rank__isnull=False)
        .select_related("game", "version")
        .prefetch_related("game__seats__version__participant")  # the opponents column
        .order_by("-game_id")[:KEEP_RECENT]  # the games whose logs retention keeps
    )
    # Ratings and game counts are the standings: hidden with them.
    rated = results_open(Contest.of(who), request.user)
    return {
        "who": who,
        "versions": versions,
        "member": who.is_member(request.user),
        "form": form,
        "seats": games,
        "active": {v.pk for v in active_versions(who)},
        "private": who.may_see_private(request.user),
        "rated": rated,
        "chart": rating_chart(rating_points(who)) if rated else None,
        "against": results_against(who, seats=seen),
        "handin": handin_line(who) if who.may_see_private(request.user) else None,
        "quota": _quota_line(who) if who.is_member(request.user) else "",
    }


def _quota_line(who: Participant) -> str:
    """What is left of today's submissions, refused uploads included (they count too)."""
    quota = Contest.of(who).daily_quota
    recent, refused = recent_submissions(who)
    of_which = f", {refused} of them refused" if refused else ""
    return (
        f"{len(recent)} of {quota} submissions used in the last 24 hours{of_which}: refused "
        f"uploads count as well"
    )


@require_safe
def version_page(request: HttpRequest, name: str, number: int) -> HttpResponse:
    who = get_object_or_404(Participant, name=name)
    version = get_object_or_404(Version, participant=who, number=number)
    private = Version.objects.private_to(request.user).filter(pk=version.pk).exists()
    lines = marked_lines(version.log_tail) if private else []
    from tournaments.server.versiontests.runs import tests_of

    tests = tests_of(version, request.user)
    return render(
        request,
        "web/version.html",
        {
            "who": who,
            "version": version,
            "private": private,
            "log_lines": lines,
            "tests": tests,
            "testing": any(t.running for t in tests),
        },
    )


@require_safe
def version_archive(request: HttpRequest, name: str, number: int) -> FileResponse:
    version = get_object_or_404(
        Version.objects.private_to(request.user).select_related("participant"),
        participant__name=name,
        number=number,
    )
    who = version.participant
    path = version.archive_path()
    return FileResponse(
        open(path, "rb"),
        as_attachment=True,
        filename=f"{who.name}-v{version.number}.{version.archive_format}",
    )


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    contest = Contest.front()  # the course's, when the site has one (`server run --contest`)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        who = Participant.objects.create(name=form.cleaned_data["participant"], contest=contest)
        who.members.add(user)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("participant", name=who.name)
    status = 400 if request.method == "POST" else 200  # a refused form, with its errors
    closed = contest.signup == Contest.SIGNUP_CLOSED
    context = {"form": form, "contest": contest, "closed": closed}
    return render(request, "web/signup.html", context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def tokens(request: AccountRequest) -> HttpResponse:
    new, status = None, 200
    if request.method == "POST":
        form = RevokeForm(request.POST) if "revoke" in request.POST else TokenForm(request.POST)
        if not form.is_valid():
            messages.error(request, form_errors(form))
            status = 400
        elif "revoke" in form.cleaned_data:
            row = get_object_or_404(ApiToken, pk=form.cleaned_data["revoke"], user=request.user)
            row.revoke()
            messages.info(request, f"token {row} revoked")
            return redirect("tokens")
        else:
            _, new = ApiToken.issue(request.user, form.cleaned_data["name"])
    return render(
        request,
        "web/tokens.html",
        {"tokens": ApiToken.objects.filter(user=request.user), "new": new},
        status=status,
    )
