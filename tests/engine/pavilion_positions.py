"""Readable set-ups for Summer Pavilion rule tests: positions built from a state dict.

    game = position(phase="play", boards=[board(tiles="BBBPP", stars={4: "BB...."})])

`position` fills in everything not given (boards at 5 points with no tiles, empty factories, a
full supply, the bag holding every tile not placed elsewhere, so the state always has exactly
132 tiles) and returns a PavilionGame made by `Game.from_state`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from referee.engine import PavilionGame, game_from_state

COLOURS = "PGOYBR"
FACTORIES = {2: 5, 3: 7, 4: 9}
EMPTY_STAR = "......"


def board(
    score: int = 5,
    stars: dict[int, str] | None = None,
    tiles: str = "",
    kept: str = "",
    passed: bool = False,
    has_marker: bool = False,
) -> dict[str, Any]:
    """One player's board; `stars` maps a star (0 = centre, 1-6) to its 6 spaces."""
    rows = [EMPTY_STAR] * 7
    for s, text in (stars or {}).items():
        rows[s] = text
    return {
        "score": score,
        "stars": rows,
        "tiles": _sorted(tiles),
        "kept": _sorted(kept),
        "passed": passed,
        "has_marker": has_marker,
    }


def _sorted(tiles: str) -> str:
    return "".join(sorted(tiles, key=COLOURS.index))


def tile_count(state: dict[str, Any]) -> Counter[str]:
    """Every tile in a state, by colour (the bag included)."""
    count: Counter[str] = Counter()
    for text in [state["bag"], state["depot"], state["centre"], *state["factories"]]:
        count.update(text)
    count.update(ch for ch in state["supply"] if ch != ".")
    for b in state["boards"]:
        count.update(b["tiles"])
        count.update(b["kept"])
        for star in b["stars"]:
            count.update(ch for ch in star if ch != ".")
    return count


def state(
    ruleset: str = "pavilion",
    players: int = 2,
    boards: list[dict[str, Any]] | None = None,
    factories: list[str] | None = None,
    centre: str = "",
    marker_in_centre: bool = True,
    turn: int = 0,
    round: int = 1,
    round_starter: int | None = None,
    wild_order: str = "PGOYBR",
    supply: str = "PGOYBRPGOY",
    depot: str = "",
    bag: str | None = None,
    phase: str = "take",
    bonus_owed: int = 0,
    rest: str = "bag",
) -> dict[str, Any]:
    """A state dict; boards beyond those given are fresh; the tiles not placed elsewhere go to
    `rest`: "bag" (unless `bag` is given), "depot", or "seat N" (that seat's tiles)."""
    boards = [dict(b) for b in (boards or [])]
    boards += [board() for _ in range(players - len(boards))]
    facs = [_sorted(f) for f in (factories or [])]
    facs += [""] * (FACTORIES[players] - len(facs))
    out: dict[str, Any] = {
        "ruleset": ruleset,
        "players": players,
        "round": round,
        "turn": turn,
        "phase": phase,
        "round_starter": turn if round_starter is None else round_starter,
        "wild_order": wild_order,
        "wild": wild_order[round - 1],
        "factories": facs,
        "centre": _sorted(centre),
        "marker_in_centre": marker_in_centre,
        "supply": supply,
        "bag": "",
        "depot": _sorted(depot),
        "bonus_owed": bonus_owed,
        "boards": boards,
    }
    out["bag"] = bag or ""
    if bag is None or rest != "bag":
        used = tile_count(out)
        missing = {c: 22 - used[c] for c in COLOURS}
        if any(n < 0 for n in missing.values()):
            raise ValueError(f"more than 22 tiles of a colour: {dict(used)}")
        extra = "".join(c * missing[c] for c in COLOURS)
        if rest == "bag":
            out["bag"] = extra
        elif rest == "depot":
            out["depot"] = _sorted(out["depot"] + extra)
        else:
            seat = boards[int(rest.split()[1])]
            seat["tiles"] = _sorted(seat["tiles"] + extra)
    return out


def position(**kwargs: Any) -> PavilionGame:
    """A playable game at the state described by `state(**kwargs)` (seeded draws)."""
    game = game_from_state(state(**kwargs), seed=0)
    assert isinstance(game, PavilionGame)
    return game


def play(game: PavilionGame, *moves: str) -> PavilionGame:
    for text in moves:
        game.push_notation(text)
    return game
