"""A game's pages: the game (its seats, its analysis, the replay viewer), the viewer alone, the
request for an analysis, and a seat's log (its team's and the organisers' only)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRefresh

from tournaments.server.analyses.models import Analysis
from tournaments.server.ladder import logs
from tournaments.server.ladder.models import CANCELLED_BY, Game, Seat
from tournaments.server.visibility import is_organiser
from tournaments.server.web import replays
from tournaments.server.web.logview import marked_lines, read_seat_log
from tournaments.server.web.pages import HtmxHttpRequest


@require_safe
def game_page(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.visible_to(request.user), pk=game_id)
    analysis = _analysis_context(request, game)
    if request.htmx and not _changing(game, analysis["analysis"]):
        # What the page's refresh waited for has come: the whole page again, so that the
        # replay viewer's scripts run (a swapped part would not start them).
        return HttpResponseClientRefresh()
    seats = list(game.seats.select_related("version__participant").order_by("seat"))
    own = _own_seats(request, game)
    for s in seats:
        s.private = s.seat in own
    found = analysis["analysis"]
    done = found if found is not None and found.status == Analysis.DONE else None
    context = {
        "game": game,
        "seats": seats,
        "organiser": is_organiser(request.user),
        # An organiser's cancellation (`ladder.admin`) is said to everyone; a traceback is not.
        "cancelled": game.error.startswith(CANCELLED_BY),
        "live": _changing(game, analysis["analysis"]),
        "replay": _replay(game, own, done),
    }
    return render(request, "web/game.html", {**context, **analysis})


def _changing(game: Game, analysis: Analysis | None) -> bool:
    """Whether the page will change by itself: a game still to be played, or an analysis still
    to be made (the page refreshes itself meanwhile, as the standings do)."""
    waiting = analysis is not None and analysis.status in (Analysis.QUEUED, Analysis.RUNNING)
    return game.status == Game.SCHEDULED or waiting


def _own_seats(request: HttpRequest, game: Game) -> set[int]:
    """The seats of `game` whose logs (and faults' details) this user may see."""
    seen = Seat.objects.logs_visible_to(request.user).filter(game=game)
    return set(seen.values_list("seat", flat=True))


def _shown_record(
    game: Game, own: set[int], done: Analysis | None
) -> tuple[tuple[Any, ...], Callable[[], dict[str, Any]]]:
    """The game's record as a user with the seats `own` is shown it: the details of others'
    faults hidden (they are their logs), with the game's analysis `done` when it is made (the
    viewer draws it); as what tells it from what another user is shown (a key for
    `replays.kept`) and what makes it."""
    key = (game.pk, game.finished, tuple(sorted(own)), done.pk if done else None)

    def record() -> dict[str, Any]:
        shown = logs.details_hidden(game.record or {}, own)
        return shown if done is None else {**shown, "analysis": done.block}

    return key, record


def _replay(game: Game, own: set[int], done: Analysis | None) -> dict[str, Any] | None:
    """The replay viewer's parts for the game page (None before the game is played), or why
    the record cannot be replayed."""
    from referee.engine import RecordError
    from tournaments.web.replay_page import viewer_parts

    if game.status != Game.DONE:
        return None
    key, record = _shown_record(game, own, done)
    try:
        _, app = replays.kept(("parts", *key), lambda: viewer_parts(record()))
    except RecordError as exc:
        return {"error": f"this game's record cannot be replayed: {exc}"}
    return {"app": app}


def _analysis_context(request: HttpRequest, game: Game) -> dict[str, Any]:
    """The game page's analysis part: its state, and whether this user may ask for it."""
    from tournaments.server.analyses import queue as analyses

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
    from tournaments.server.analyses.queue import AnalysisRefused, request_analysis

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
    """The replay viewer alone, a page of its own (the game page embeds the same viewer)."""
    from referee.engine import RecordError
    from tournaments.web.replay_page import viewer_html

    game = get_object_or_404(Game.objects.visible_to(request.user), pk=game_id, status=Game.DONE)
    done = Analysis.objects.filter(game=game, status=Analysis.DONE).first()
    key, record = _shown_record(game, _own_seats(request, game), done)
    try:
        return HttpResponse(replays.kept(("page", *key), lambda: viewer_html(record())))
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
    log = read_seat_log(row, row.game.record, row.game.logs_deleted)
    context = {
        "seat": row,
        "log_lines": marked_lines(log.text),
        "reason": log.reason,
        "silence": log.empty,
    }
    return render(request, "web/log.html", context)
