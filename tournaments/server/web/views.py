"""The pages: leaderboard, participant, version, game (with the replay viewer), logs, tokens,
sign-up; and the small JSON API the CLI uses (token auth, no cookies)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import authenticate, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import FileResponse, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.middleware import HtmxDetails

from tournaments.server.accounts.models import ApiToken
from tournaments.server.contests.models import Contest, Participant, participant_of
from tournaments.server.ladder import logs, results
from tournaments.server.ladder.handins import handin_line
from tournaments.server.ladder.models import CANCELLED_BY, Analysis, Game, Seat, Standing
from tournaments.server.ladder.standings import active_versions
from tournaments.server.submissions.intake import SubmissionError, submit
from tournaments.server.submissions.models import Version
from tournaments.server.submissions.validation import tail
from tournaments.server.visibility import is_organiser, results_open
from tournaments.server.web.forms import (
    ActingForm,
    ApiChallengeForm,
    ApiCompareForm,
    ApiTokenForm,
    ChallengeForm,
    PinForm,
    RevokeForm,
    SignupForm,
    TokenForm,
    UploadForm,
    form_errors,
)
from tournaments.server.web.history import rating_points, results_against, svg_polyline
from tournaments.server.web.logview import marked_lines

LOG_LINES = 400


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails  # set by django_htmx's middleware


class AccountRequest(HttpRequest):
    user: User  # a view behind login_required


def leaderboard_rows(contest: Contest | None = None) -> list[dict[str, Any]]:
    """The leaderboard's rows, every cell already text: the page lists every participant and
    refreshes itself, so the template only places strings (its filters and {% url %} per cell
    cost more than the database)."""
    person = reverse("participant", args=["NAME"])
    version_url = reverse("version", args=["NAME", 987654321])
    rows: list[dict[str, Any]] = []
    for v in active_versions(contest=contest):
        st: Standing = v.standing
        name = v.participant.name
        rows.append(
            {
                "name": name,
                "href": person.replace("NAME", name),
                "reference": v.participant.staff_bot,
                "version": f"v{v.number}",
                "version_href": version_url.replace("987654321", str(v.number)).replace(
                    "NAME", name
                ),
                "key": st.conservative,
                "score": f"{st.conservative:.2f}",
                "mu": f"{st.mu:.2f}",
                "sigma": f"{st.sigma:.2f}",
                "games": st.games,
                "win_rate": f"{100 * st.wins / st.games:.0f}%" if st.games else "-",
                "last_game": f"{st.last_game:%Y-%m-%d %H:%M:%S}" if st.last_game else "-",
            }
        )
    rows.sort(key=lambda r: -r["key"])
    for i, r in enumerate(rows, 1):
        r["rank"] = i
    return rows


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
        "rows": leaderboard_rows(contest) if visible else [],
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
    from tournaments.server.ladder.finalstate import final_status
    from tournaments.server.ladder.published import final_rows

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

    # The pin chooses what a team hands in (`ladder.handins.choose`): past its deadline a
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
        .order_by("-game_id")[:20]
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
        "chart": svg_polyline(rating_points(who)) if rated else None,
        "against": results_against(who, seats=seen),
        "handin": handin_line(who) if who.may_see_private(request.user) else None,
    }


@require_safe
def version_page(request: HttpRequest, name: str, number: int) -> HttpResponse:
    who = get_object_or_404(Participant, name=name)
    version = get_object_or_404(Version, participant=who, number=number)
    private = Version.objects.private_to(request.user).filter(pk=version.pk).exists()
    lines = marked_lines(version.log_tail) if private else []
    from tournaments.server.ladder.versiontests import tests_of

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


@require_safe
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.visible_to(request.user), pk=game_id)
    seats = list(game.seats.select_related("version__participant").order_by("seat"))
    logs = set(
        Seat.objects.logs_visible_to(request.user).filter(game=game).values_list("pk", flat=True)
    )
    for s in seats:
        s.private = s.pk in logs
    context = {
        "game": game,
        "seats": seats,
        "organiser": is_organiser(request.user),
        # An organiser's cancellation (`ladder.admin`) is said to everyone; a traceback is not.
        "cancelled": game.error.startswith(CANCELLED_BY),
    }
    return render(request, "web/game.html", {**context, **_analysis_context(request, game)})


def _analysis_context(request: HttpRequest, game: Game) -> dict[str, Any]:
    """The game page's analysis part: its state, and whether this user may ask for it."""
    from tournaments.server.ladder import analyses

    found = Analysis.objects.filter(game=game).first()
    may = (
        found is None
        and game.status == Game.DONE
        and Game.objects.analysable_by(request.user).filter(pk=game.pk).exists()
    )
    left = None
    if may and not is_organiser(request.user):
        left = max(0, analyses.daily_quota() - analyses.asked_today(request.user))
    return {"analysis": found, "may_analyse": may, "analyses_left": left}


@require_POST
@login_required
def game_analyse(request: HttpRequest, game_id: int) -> HttpResponse:
    from tournaments.server.ladder.analyses import AnalysisRefused, request_analysis

    get_object_or_404(Game.objects.visible_to(request.user), pk=game_id)
    try:
        request_analysis(request.user, game_id)
    except AnalysisRefused as exc:
        messages.error(request, str(exc))
    else:
        messages.info(request, "analysis queued: it is made when the ladder has a free slot")
    return redirect("game", game_id=game_id)


@require_safe
def game_viewer(request: HttpRequest, game_id: int) -> HttpResponse:
    from referee.engine import RecordError
    from tournaments.web.replay_page import viewer_html

    game = get_object_or_404(Game.objects.visible_to(request.user), pk=game_id, status=Game.DONE)
    own = (
        Seat.objects.logs_visible_to(request.user).filter(game=game).values_list("seat", flat=True)
    )
    record = logs.details_hidden(game.record or {}, set(own))
    done = Analysis.objects.filter(game=game, status=Analysis.DONE).first()
    if done is not None:  # the viewer draws it: chart, labels, best moves
        record = {**record, "analysis": done.block}
    try:
        return HttpResponse(viewer_html(record))
    except RecordError as exc:
        return HttpResponse(
            f"this game's record cannot be replayed: {exc}", content_type="text/plain", status=500
        )


@require_safe
def seat_log(request: HttpRequest, game_id: int, seat: int) -> HttpResponse:
    row = get_object_or_404(
        Seat.objects.logs_visible_to(request.user).select_related("version__participant", "game"),
        game_id=game_id,
        seat=seat,
    )
    path = logs.readable(row.log, game_id, seat)  # only its own file (ladder.logs)
    text = tail(path, LOG_LINES, 256 * 1024) if path else ""
    reason = logs.seat_reason(row.game.record, seat, row.termination)
    return render(
        request,
        "web/log.html",
        {"seat": row, "log_lines": marked_lines(text), "reason": reason},
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


# -- the CLI's API ---------------------------------------------------------------------------
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
    from tournaments.server.ladder import versiontests

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
    record = Game.objects.filter(pk=game_id).values_list("record", flat=True).first()
    for s in seats:
        path = logs.readable(s.log, game_id, s.seat)  # only its own file (ladder.logs)
        text = tail(path, LOG_LINES, 256 * 1024) if path else ""
        out.append(
            {
                "seat": s.seat,
                "version": s.version.label,
                "termination": s.termination,
                "reason": logs.seat_reason(record, s.seat, s.termination),
                "log": text,
            }
        )
    return JsonResponse({"game": game_id, "seats": out})
