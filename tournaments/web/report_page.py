"""The tournament report page: the leaderboard `tournament show` prints, and what a page can
add to it (seat results, a heat-map crosstable, rating history, faults, every game watchable)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from referee.engine import EngineError
from tournaments.domain.ratings import Ratings
from tournaments.domain.report import (
    MEAN_INTERVAL_MIN_GAMES,
    build_report,
    mean_interval,
    rate_games,
    wilson,
)
from tournaments.domain.store import Store, StoredGame
from tournaments.web.pages import render
from tournaments.web.replay_page import game_data, renderer_scripts

REPORT_FORMAT = "azul-arena/report/1"
GAMES_EMBEDDED = 300  # games whose replay the report carries (a page stays a few MB)
HISTORY_POINTS = 400  # rating-history points kept per entry (evenly thinned beyond)


def _clean(v: Any) -> Any:
    return None if isinstance(v, float) and math.isnan(v) else v


def better_than(mu: float, sigma: float, mu2: float, sigma2: float) -> float:
    """The probability that an entry's true skill exceeds another's, under their ratings."""
    spread = math.sqrt(sigma * sigma + sigma2 * sigma2)
    return 0.5 * (1 + math.erf((mu - mu2) / (spread * math.sqrt(2)))) if spread > 0 else 0.5


def seat_results(done: list[StoredGame]) -> list[dict[str, Any]]:
    """How each seat did over all games: outright wins, win rate, mean score and rank."""
    seats: dict[int, dict[str, Any]] = {}
    for g in done:
        firsts = sum(1 for s in g.seats if s.rank == 1)
        for i, s in enumerate(g.seats):
            row = seats.setdefault(i, {"seat": i, "games": 0, "wins": 0, "scores": [], "ranks": []})
            row["games"] += 1
            row["wins"] += int(s.rank == 1 and firsts == 1)
            row["scores"].append(s.score)
            row["ranks"].append(s.rank)
    out = []
    for i in sorted(seats):
        row = seats[i]
        lo, hi = wilson(row["wins"], row["games"])
        mean, mlo, mhi = mean_interval(row["scores"])
        out.append(
            {
                "seat": i,
                "games": row["games"],
                "wins": row["wins"],
                "win_rate": row["wins"] / row["games"],
                "win_rate_low": lo,
                "win_rate_high": hi,
                "mean_score": _clean(mean),
                "mean_score_low": _clean(mlo),
                "mean_score_high": _clean(mhi),
                "mean_rank": sum(row["ranks"]) / row["games"],
            }
        )
    return out


def _thin(points: list[list[float]]) -> list[list[float]]:
    if len(points) <= HISTORY_POINTS:
        return points
    step = (len(points) - 1) / (HISTORY_POINTS - 1)
    return [points[round(k * step)] for k in range(HISTORY_POINTS)]


def best_game(done: list[StoredGame], order: list[str]) -> StoredGame | None:
    """The game most worth watching: the closest game between the two best entries (or, if
    they never met, the closest game of the best entry)."""
    if not done:
        return None
    top = set(order[:2])

    def margin(g: StoredGame) -> tuple[int, int]:
        scores = sorted((s.score for s in g.seats), reverse=True)
        return (scores[0] - scores[1], -sum(scores))

    met = [g for g in done if top <= {s.entry for s in g.seats}]
    pool = met or [g for g in done if order[0] in {s.entry for s in g.seats}] or done
    return min(pool, key=margin)


def _leaderboard(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """The leaderboard's rows, each with the chance it beats the next one."""
    rows: list[dict[str, Any]] = summary["leaderboard"]
    for i, row in enumerate(rows):
        nxt = rows[i + 1] if i + 1 < len(rows) else None
        row["p_better_than_next"] = (
            None if nxt is None else better_than(row["mu"], row["sigma"], nxt["mu"], nxt["sigma"])
        )
    return rows


def _rating_history(entries: list[str], done: list[StoredGame]) -> dict[str, list[list[float]]]:
    """Each entry's rating after each of its games: [game index, mu, sigma]."""
    history: dict[str, list[list[float]]] = {n: [] for n in entries}

    def note(g: StoredGame, ratings: Ratings) -> None:
        for s in g.seats:
            r = ratings.rating(s.entry)
            history.setdefault(s.entry, []).append(
                [g.game.index, round(float(r.mu), 3), round(float(r.sigma), 3)]
            )

    rate_games(entries, done, after=note)
    return history


def _game_faults(g: StoredGame, record: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The faults a game's record lists, each with the entry of its seat."""
    ref = (record or {}).get("referee") or {}
    faults = []
    for f in ref.get("faults") or []:
        seat = int(f.get("seat", 0))
        faults.append(
            {
                "game": g.game.game_id,
                "entry": g.seats[seat].entry if seat < len(g.seats) else "",
                "fault": f.get("fault"),
                "detail": f.get("detail", ""),
                "ply": f.get("ply"),
                "forfeited": bool(f.get("forfeited")),
            }
        )
    return faults


def _game_row(g: StoredGame, block: str | None) -> dict[str, Any]:
    """A game's line in the report's list of games; `block`: its viewer data's id, if any."""
    return {
        "index": g.game.index,
        "id": g.game.game_id,
        "seed": g.game.seed,
        "seats": [
            {"entry": s.entry, "score": s.score, "rank": s.rank, "termination": s.termination}
            for s in g.seats
        ],
        "duration": g.duration,
        "viewer": block,
    }


def _add_accuracies(
    into: dict[str, list[float]], g: StoredGame, record: dict[str, Any] | None
) -> None:
    """Each seat's accuracy in the game's analysis (`replay analyse --save`), by entry."""
    if record is None or "analysis" not in record:
        return
    from tournaments.domain.analysis.game import seat_accuracies

    for seat, accuracy in zip(g.seats, seat_accuracies(record), strict=False):
        if accuracy is not None:
            into.setdefault(seat.entry, []).append(accuracy)


def report_data(
    store: Store,
    games_embedded: int = GAMES_EMBEDDED,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The report's data and the viewer data of each embedded game (keyed by its block id)."""
    report = build_report(store)
    summary = report.to_json()
    rows = _leaderboard(summary)
    done = list(store.games(done_only=True))
    history = _rating_history(report.entries, done)
    best = best_game(done, [r["entry"] for r in rows])
    embed = [g for g in done if g is best] + [g for g in done if g is not best]
    embed_ids = {g.game.game_id for g in embed[:games_embedded]}
    games, faults, viewers = [], [], {}
    accuracies: dict[str, list[float]] = {}
    for k, g in enumerate(done):
        record = store.replay(g.game.game_id)
        faults += _game_faults(g, record)
        _add_accuracies(accuracies, g, record)
        block = None
        if record is not None and g.game.game_id in embed_ids:
            try:
                viewers[f"game-{g.game.index}"] = game_data(record)
                block = f"game-{g.game.index}"
            except (EngineError, ValueError, KeyError, TypeError, IndexError):
                block = None  # an unreadable record: listed, not watchable
        games.append(_game_row(g, block))
        if progress is not None:
            progress(k + 1, len(done))
    data = {
        "format": REPORT_FORMAT,
        "config": store.config() or {},
        "games_total": summary["games_total"],
        "games_done": summary["games_done"],
        "leaderboard": rows,
        # Beside the rating: how well each entry played where its games were analysed.
        "accuracy": {
            entry: {"accuracy": round(sum(found) / len(found), 1), "games": len(found)}
            for entry, found in accuracies.items()
        },
        "entries": report.entries,
        "unrated_games": summary["unrated_games"],
        "seats": seat_results(done),
        "crosstable": summary["crosstable"],
        "history": {name: _thin(points) for name, points in history.items()},
        "faults": {
            "by_entry": {r["entry"]: r["fault_kinds"] for r in rows if r["fault_kinds"]},
            "log": faults[:2000],
            "log_total": len(faults),
        },
        "games": games,
        # Fewer games than this: a mean score's interval says "too few games" (domain.report).
        "interval_min_games": MEAN_INTERVAL_MIN_GAMES,
        "best_game": best.game.index if best else None,
        "games_embedded": len(viewers),
    }
    return data, viewers


def report_html(
    store: Store,
    games_embedded: int = GAMES_EMBEDDED,
    progress: Callable[[int, int], None] | None = None,
) -> str:
    """The whole self-contained report page of a tournament database."""
    data, viewers = report_data(store, games_embedded, progress)
    config = data["config"]
    title = f"Tournament report ({config.get('ruleset', 'azul')}, {data['games_done']} games)"
    return render(
        "report.html",
        title=title,
        styles=["viewer.css", "report.css"],
        scripts=["viewer.js", "report.js"],
        blocks={"report-data": data, **viewers},
        inline_scripts=renderer_scripts({v["family"] for v in viewers.values()}),
    )
