"""Readable set-ups for rule tests: positions built from a state dict, and games from chosen deals.

    game = position(
        boards=[board(lines=["", "", "", "B", ""], wall=coloured_wall({1: "Y", 2: "Y"}))],
        factories=["YYRK"],
    )

`position` fills in everything not given (empty boards, empty factories, the bag holding every tile
not placed elsewhere, so the state always has exactly 100 tiles) and returns a ClassicGame made by
`ClassicGame.from_state`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from referee.engine import ClassicGame, replay

COLOURS = "BYRKW"
FACTORIES = {2: 5, 3: 7, 4: 9}
FLOOR_LOSS = (0, 1, 2, 4, 6, 8, 11, 14)  # -1 -1 -2 -2 -2 -3 -3, summed


def column_of(row: int, colour: str) -> int:
    """Column (0-based) of `colour` in `row` (0-based) of the coloured wall."""
    return (COLOURS.index(colour) + row) % 5


def coloured_wall(rows: dict[int, str] | None = None) -> list[str]:
    """A coloured wall from {row (0-based): "colours on that row"}; each tile at its own column."""
    out = [["."] * 5 for _ in range(5)]
    for r, colours in (rows or {}).items():
        for ch in colours:
            out[r][column_of(r, ch)] = ch
    return ["".join(row) for row in out]


def board(
    lines: list[str] | None = None,
    wall: list[str] | None = None,
    floor: str = "",
    score: int = 0,
    has_marker: bool = False,
) -> dict[str, Any]:
    """One player's board; `lines` are pattern lines 1-5 (tiles on each), `wall` rows 1-5."""
    return {
        "score": score,
        "lines": list(lines) if lines is not None else [""] * 5,
        "wall": list(wall) if wall is not None else ["....."] * 5,
        "floor": floor,
        "has_marker": has_marker,
    }


def state(
    ruleset: str = "azul",
    players: int = 2,
    boards: list[dict[str, Any]] | None = None,
    factories: list[str] | None = None,
    centre: str = "",
    marker_in_centre: bool = True,
    turn: int = 0,
    round: int = 2,
    round_starter: int | None = None,
    lid: str = "",
    bag: str | None = None,
    phase: str = "take",
    wall_line: int | None = None,
) -> dict[str, Any]:
    """A state dict; boards beyond those given are empty, the bag holds the rest of the tiles."""
    boards = [dict(b) for b in (boards or [])]
    boards += [board() for _ in range(players - len(boards))]
    facs = list(factories or [])
    facs += [""] * (FACTORIES[players] - len(facs))
    placed = Counter(centre + lid + "".join(facs))
    for b in boards:
        placed.update("".join(b["lines"]) + b["floor"] + "".join(b["wall"]).replace(".", ""))
    if bag is None:
        short = {c: placed[c] - 20 for c in COLOURS if placed[c] > 20}
        if short:
            raise ValueError(f"more than 20 tiles of a colour placed: {short}")
        bag = "".join(c * (20 - placed[c]) for c in COLOURS)
    return {
        "ruleset": ruleset,
        "players": players,
        "round": round,
        "turn": turn,
        "phase": phase,
        "round_starter": turn if round_starter is None else round_starter,
        "factories": facs,
        "centre": centre,
        "marker_in_centre": marker_in_centre,
        "bag": bag,
        "lid": lid,
        "boards": boards,
        "wall_line": wall_line,
    }


def position(ruleset: str = "azul", players: int = 2, seed: int = 1, **kwargs: Any) -> ClassicGame:
    """A playable game in the position described (see `state`)."""
    return ClassicGame.from_state(state(ruleset, players, **kwargs), seed=seed)


def tiles_in(st: dict[str, Any]) -> Counter[str]:
    """Every tile of a state dict, by colour letter (bag, lid, factories, centre, boards)."""
    count = Counter(st["bag"] + st["lid"] + "".join(st["factories"]) + st["centre"])
    for b in st["boards"]:
        count.update("".join(b["lines"]) + b["floor"] + "".join(b["wall"]).replace(".", ""))
    return count


def play(game: ClassicGame, *moves: str) -> ClassicGame:
    """Push moves in notation, in order; returns the game."""
    for text in moves:
        game.push_notation(text)
    return game


def record(
    ruleset: str = "azul",
    players: int = 2,
    rounds: list[tuple[list[str], list[str]]] | None = None,
    first_player: int = 0,
    **extra: Any,
) -> dict[str, Any]:
    """A record dict from (factories, moves) per round."""
    return {
        "format": "azul-arena/record/1",
        "ruleset": ruleset,
        "players": players,
        "first_player": first_player,
        "rounds": [{"factories": list(f), "moves": list(m)} for f, m in (rounds or [])],
        **extra,
    }


def dealt(
    ruleset: str = "azul",
    players: int = 2,
    rounds: list[tuple[list[str], list[str]]] | None = None,
    first_player: int = 0,
) -> ClassicGame:
    """A game replayed from chosen deals and moves (the last round may be unfinished)."""
    return replay(record(ruleset, players, rounds, first_player))


def legal(game: ClassicGame) -> set[str]:
    return {str(m) for m in game.legal_moves()}
