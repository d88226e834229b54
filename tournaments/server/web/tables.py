"""The pages of a person's game against a bot in the browser (`tables.play`): pick a bot, the
board (the same page as `azul-arena play --web`), its state and moves as JSON, the replay."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from tournaments.server.contests.models import Contest
from tournaments.server.tables import play as tables
from tournaments.server.tables.models import TableGame
from tournaments.web.live_table import MoveRejected

MAX_BODY = 1024


def _session_key(request: HttpRequest) -> str:
    if request.session.session_key is None:
        request.session.save()  # a visitor's games are its session's
    return request.session.session_key or ""


def _mine(request: HttpRequest, table_id: int) -> TableGame:
    """The table, if it is the requester's (404 otherwise: others' games are not shown)."""
    from django.http import Http404

    table = get_object_or_404(TableGame.objects.select_related("contest"), pk=table_id)
    if not tables.may_see(table, request.user, request.session.session_key or ""):
        raise Http404("no such game")
    return table


@require_http_methods(["GET", "HEAD", "POST"])
def choose(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    """Pick a bot and a seat; POST starts the game and goes to its board."""
    contest = get_object_or_404(Contest, slug=slug) if slug else Contest.current()
    error = ""
    if request.method == "POST":
        try:
            table = tables.open_table(
                contest,
                request.user,
                _session_key(request),
                int(request.POST.get("opponent") or 0),
                int(request.POST.get("seat") or 0),
            )
        except (tables.TableError, ValueError) as exc:
            error = str(exc) if isinstance(exc, tables.TableError) else "pick a bot and a seat"
        else:
            return redirect("table", table.pk)
    recent = tables.of_person(contest, request.user, request.session.session_key or "")[:10]
    return render(
        request,
        "web/play.html",
        {
            "contest": contest,
            "bots": tables.opponents(contest, request.user),
            "refused": tables.refusal(contest, request.user),
            "error": error,
            "recent": recent,
        },
        status=400 if error else 200,
    )


@require_safe
def board(request: HttpRequest, table_id: int) -> HttpResponse:
    """The board, inside the site's own page (its header and navigation stay)."""
    from tournaments.families import view_for
    from tournaments.web.play_server import play_parts

    table = _mine(request, table_id)
    title = f"{table.name} vs {table.opponent.participant.name}"
    app = play_parts(
        title,
        view_for(table.contest.ruleset).family,
        reverse("table_state", args=[table.pk]),
        reverse("table_move", args=[table.pk]),
        get_token(request),
        again=_play_url(table.contest),
    )
    return render(request, "web/table.html", {"app": app, "title": title, "table": table})


def _play_url(contest: Contest) -> str:
    return reverse("contest_play", args=[contest.slug]) if contest.slug else reverse("play")


@require_safe
def state(request: HttpRequest, table_id: int) -> JsonResponse:
    table = _mine(request, table_id)
    data: dict[str, Any] = dict(table.state)
    if table.status != TableGame.PLAYING:
        data["your_turn"], data["legal"] = False, []
        result = dict(data.get("result") or {"text": f"the game is {table.status}"})
        result["replay"] = reverse("table_viewer", args=[table.pk]) if table.record else ""
        data["result"] = result
    elif not data:  # its thread has not written yet
        return JsonResponse({"starting": True})
    else:
        data["result"] = None  # over only once the record is stored (with its replay link)
        if table.answer:  # the person's move is being played
            data["your_turn"], data["legal"] = False, []
    return JsonResponse(data)


@require_POST
def move(request: HttpRequest, table_id: int) -> JsonResponse:
    table = _mine(request, table_id)
    if request.content_type != "application/json" or len(request.body) > MAX_BODY:
        return JsonResponse({"error": 'send JSON: {"move": "1B3"}'}, status=400)
    try:
        body = json.loads(request.body)
        chosen = tables.answer(table.pk, body.get("move") if isinstance(body, dict) else None)
    except MoveRejected as exc:
        return JsonResponse({"error": str(exc)}, status=400)
    except ValueError:
        return JsonResponse({"error": 'send JSON: {"move": "1B3"}'}, status=400)
    return JsonResponse({"move": chosen})


@require_safe
def viewer(request: HttpRequest, table_id: int) -> HttpResponse:
    """The game's replay, inside the site's page."""
    from tournaments.web.replay_page import viewer_parts

    table = _mine(request, table_id)
    if not table.record:
        return HttpResponse("this game has no record yet", content_type="text/plain", status=404)
    title, app = viewer_parts(table.record)
    context = {"app": app, "title": title, "table": table, "again": _play_url(table.contest)}
    return render(request, "web/table_replay.html", context)
