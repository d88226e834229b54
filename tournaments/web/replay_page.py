"""The replay viewer's page: a record turned into the data the page draws, and the page itself."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from referee import Termination, final_ranks
from referee.engine import FAMILIES, Game, RecordError
from tournaments.families import FamilyView, view_for
from tournaments.web.pages import Parts, parts, render

VIEWER_FORMAT = "azul-arena/viewer/1"
# Public chance is shown as counts: the frames need not repeat the bag's letters every move.
_COUNTED = ("bag", "lid", "depot")


def frame(state: dict[str, Any]) -> dict[str, Any]:
    """A state as the viewer draws it: public chance (bag, lid, depot) as counts."""
    return {k: (len(v) if k in _COUNTED and isinstance(v, str) else v) for k, v in state.items()}


def _names(record: dict[str, Any], players: int) -> list[str]:
    names = record["players"]
    return names if isinstance(names, list) else [f"seat {i}" for i in range(players)]


def _faults_by_ply(ref: dict[str, Any]) -> dict[int, list[dict[str, Any]]]:
    """The referee's faults by the ply they happened at."""
    faults: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for f in ref.get("faults") or []:
        faults[int(f.get("ply", 0))].append(
            {k: f.get(k) for k in ("seat", "fault", "detail", "forfeited")}
        )
    return faults


def _plies(
    view: FamilyView,
    states: list[dict[str, Any]],
    moves: list[str],
    ref: dict[str, Any],
    faults: dict[int, list[dict[str, Any]]],
) -> list[dict[str, Any]]:
    """A line per move: who, the move in words, its time, faults, a round's scores at its end."""
    times = ref.get("move_times_us") or []
    substituted = set(ref.get("substituted") or [])
    plies = []
    for i, move in enumerate(moves):
        before, after = states[i], states[i + 1]
        ply = {
            "seat": before["turn"],
            "round": before["round"],
            "move": move,
            "words": view.describe(before, move),
            "us": times[i] if i < len(times) and i not in substituted else None,
            "sub": i in substituted,
            "faults": faults.get(i, []),
        }
        ended = after["phase"] == "over" and before["phase"] != "over"
        if ended or after["round"] != before["round"]:
            # The move ended a round: what its scoring gave each seat (the board jumps there).
            ply["round_end"] = [
                a["score"] - b["score"]
                for a, b in zip(after["boards"], before["boards"], strict=True)
            ]
        plies.append(ply)
    return plies


def _seats(game: Game, names: list[str], ref: dict[str, Any]) -> list[dict[str, Any]]:
    """Each seat's line of the final table: its bot, score, rank, how its game ended."""
    n = game.players
    bots = ref.get("bots") or [{} for _ in range(n)]
    entries = ref.get("entries") or [""] * n
    terminations = [str(b.get("termination", "ok") or "ok") for b in bots]
    ranks = final_ranks(game.ranks(), [t != Termination.OK for t in terminations])
    seats = []
    for i in range(n):
        bot = bots[i] if i < len(bots) else {}
        seats.append(
            {
                "name": names[i],
                "entry": entries[i] if i < len(entries) else "",
                "bot": bot.get("name", ""),
                "version": bot.get("version", ""),
                "score": game.scores[i],
                "rank": ranks[i],
                "termination": terminations[i],
                "strikes": bot.get("strikes", 0),
                "moves": bot.get("moves"),
                "time_s": bot.get("move_time_total"),
            }
        )
    return seats


def game_data(record: dict[str, Any]) -> dict[str, Any]:
    """Everything the viewer draws, computed by the engine from `record` (RecordError if the
    record cannot be replayed): a frame per position, a line per move, the final table."""
    if not isinstance(record, dict) or not isinstance(record.get("ruleset"), str):
        raise RecordError("not a game record: no 'ruleset' (is this a record file?)")
    try:
        view = view_for(record["ruleset"])
    except NotImplementedError as exc:
        raise RecordError(str(exc)) from None
    states, moves = view.replay_states(record)
    game = Game.from_record(record)
    names = _names(record, game.players)
    raw = record.get("referee")
    ref: dict[str, Any] = raw if isinstance(raw, dict) else {}
    faults = _faults_by_ply(ref)
    config = ref.get("config") or {}
    return {
        "format": VIEWER_FORMAT,
        "family": view.family,
        "ruleset": record["ruleset"],
        "players": game.players,
        "names": names,
        "seed": record.get("seed", config.get("seed")),
        "match_id": record.get("game_id") or ref.get("match_id") or "",
        "config": {
            k: config[k]
            for k in ("time_per_move", "time_bank", "fault_policy", "max_strikes", "clock")
            if k in config
        },
        "duration": ref.get("duration"),
        "complete": game.is_over(),
        "layout": view.layout(record["ruleset"]),
        "seats": _seats(game, names, ref),
        "frames": [frame(s) for s in states],
        "plies": _plies(view, states, moves, ref, faults),
        "faults": [f for i in sorted(faults) for f in faults[i]],
        "analysis": _analysis(record, view, states, moves),
    }


def _analysis(
    record: dict[str, Any], view: FamilyView, states: list[dict[str, Any]], moves: list[str]
) -> dict[str, Any] | None:
    """The record's analysis as the viewer draws it (tournaments/web/analysis_view.py)."""
    if "analysis" not in record:
        return None
    from tournaments.web.analysis_view import analysis_data

    data = analysis_data(record, view, states, moves)
    if data is not None:
        for entry in data["moves"].values():
            if "best_frame" in entry:
                entry["best_frame"] = frame(entry["best_frame"])
    return data


def renderer_scripts(families: Iterable[str]) -> list[str]:
    """The web viewer's renderers of `families` (the scripts their views name), in name order."""
    scripts = []
    for name in sorted(families):
        view: FamilyView | None = FAMILIES[name].part("view")
        if view is not None and view.script is not None:
            scripts.append(view.script.read_text(encoding="utf-8"))
    return scripts


def title_of(data: dict[str, Any]) -> str:
    return f"{' vs '.join(data['names'])} ({data['ruleset']})"


def _viewer_assets(data: dict[str, Any], record: dict[str, Any]) -> dict[str, Any]:
    """What the viewer of one record is made of, as `parts` and `render` take it."""
    return {
        "styles": ["viewer.css"],
        "scripts": ["viewer.js"],
        "blocks": {"game-data": data, "game-record": record},
        "inline_scripts": renderer_scripts([data["family"]]),
    }


def viewer_parts(record: dict[str, Any]) -> tuple[str, Parts]:
    """The viewer of one record as parts another page embeds (`AzulViewer.mountPage` draws it
    from its "game-data" element), and its title."""
    data = game_data(record)
    return title_of(data), parts(**_viewer_assets(data, record))


def viewer_html(record: dict[str, Any]) -> str:
    """The whole self-contained viewer page of one record."""
    data = game_data(record)
    return render("viewer.html", title=title_of(data), **_viewer_assets(data, record))
