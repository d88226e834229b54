"""Rebuilding a classic game from its public state (`to_state()`), checking what it is given."""

from __future__ import annotations

from typing import Any, TypeVar

from referee.engine import rng
from referee.engine.classic_moves import COLOUR_LETTERS, N_COLOURS
from referee.engine.classic_tables import FLOOR_SLOTS, PRESENCE, presence8, wall_column
from referee.engine.errors import EngineError
from referee.engine.game import OVER, TAKE, WALL, fresh_seed
from referee.engine.rulesets import get_ruleset

G = TypeVar("G")
_PHASES = {TAKE: TAKE, WALL: WALL, OVER: OVER}
_CENTRE_SHIFT = 9


def _colour(ch: str, where: str) -> int:
    c = COLOUR_LETTERS.find(ch.upper())
    if c < 0 or not ch:
        raise EngineError(f"state: {where}: {ch!r} is not a tile colour (use B Y R K W)")
    return c


def _packed(text: str, where: str) -> int:
    packed = 0
    for ch in text:
        packed += 1 << (8 * _colour(ch, where))
    return packed


def _factory_code(text: str, where: str) -> int:
    if len(text) > 4:
        raise EngineError(f"state: {where}: a factory holds at most 4 tiles, not {len(text)}")
    code = 0
    for ch in text:
        code += 1 << (3 * _colour(ch, where))
    return code


def classic_from_state(cls: type[G], state: dict[str, Any], seed: int | None) -> G:
    """A playable ClassicGame (of class `cls`) from a public state dict. The bag's order is not
    in the state: the deals to come are drawn with `seed` (random when None)."""
    try:
        return _build(cls, state, seed)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        if isinstance(exc, EngineError):
            raise
        raise EngineError(f"state: malformed ({type(exc).__name__}: {exc})") from None


def _build(cls: type[G], state: dict[str, Any], seed: int | None) -> G:
    rules = get_ruleset(state["ruleset"])
    players = int(state["players"])
    rules.check_players(players)
    g: Any = object.__new__(cls)
    g.ruleset = rules
    g.players = players
    g._gray = rules.gray_wall
    g._unique = rules.unique_line_colours
    g.round = int(state["round"])
    phase = _PHASES.get(state["phase"])
    if phase is None:
        raise EngineError(f"state: phase {state['phase']!r} is not one of take, wall, over")
    g.phase = phase
    g.turn = int(state["turn"])
    g.round_starter = int(state["round_starter"])
    g._first_player = g.round_starter
    g._factories = [_factory_code(f, f"factory {i + 1}") for i, f in enumerate(state["factories"])]
    g._centre = _packed(state["centre"], "centre")
    g._marker_in_centre = bool(state["marker_in_centre"])
    sources = presence8(g._centre) << _CENTRE_SHIFT
    for f, code in enumerate(g._factories):
        sources |= PRESENCE[code] << f
    g._sources = sources
    boards = state["boards"]
    if len(boards) != players:
        raise EngineError(f"state: {len(boards)} boards for {players} players")
    g._line_colour, g._line_count = [], []
    g._floor_count, g._floor_tiles = [], []
    g._wall, g._wall_t, g._colour_rows, g._cells, g._scores = [], [], [], [], []
    g._next_starter = -1
    for p, board in enumerate(boards):
        for d, line in enumerate(board["lines"]):
            if len(line) > d + 1 or len(set(line)) > 1:
                raise EngineError(f"state: seat {p} pattern line {d + 1}: {line!r} does not fit")
            g._line_colour.append(_colour(line[0], f"seat {p} line {d + 1}") if line else -1)
            g._line_count.append(len(line))
        wall = wall_t = colour_rows = cells = 0
        for r, row in enumerate(board["wall"]):
            for k, ch in enumerate(row):
                if ch == ".":
                    continue
                c = _colour(ch, f"seat {p} wall row {r + 1}")
                if not rules.gray_wall and wall_column(r, c) != k:
                    raise EngineError(f"state: seat {p} wall row {r + 1}: {ch} cannot stand in "
                                      f"column {k + 1} of the coloured wall")
                wall |= 1 << (5 * r + k)
                wall_t |= 1 << (5 * k + r)
                colour_rows |= 1 << (5 * c + r)
                cells |= (c + 1) << (3 * (5 * r + k))
        g._wall.append(wall)
        g._wall_t.append(wall_t)
        g._colour_rows.append(colour_rows)
        g._cells.append(cells)
        g._scores.append(int(board["score"]))
        floor = board["floor"]
        g._floor_tiles.append(_packed(floor, f"seat {p} floor"))
        has_marker = bool(board["has_marker"])
        g._floor_count.append(min(FLOOR_SLOTS, len(floor) + has_marker))
        if has_marker:
            g._next_starter = p
    g._bag = [_colour(ch, "bag") for ch in state["bag"]]
    g._lid = _packed(state["lid"], "lid")
    g._rng = rng.seed_state(fresh_seed() if seed is None else seed)
    g._deals = None
    wall_line = state.get("wall_line")
    g._wall_next = g.turn * 5 + int(wall_line) - 1 if phase is WALL and wall_line else -1
    g._history = None
    g._touched = (1 << players) - 1  # recompute every seat at the next round start
    g._round_scores = []
    g._allowed = [0] * (5 * players)
    for p in range(players):
        g._recompute_allowed(p)
    total = (len(g._bag) + sum(len(f) for f in state["factories"]) + len(state["centre"])
             + len(state["lid"]) + sum(len("".join(b["lines"])) + len(b["floor"])
                                       + sum(len(r) - r.count(".") for r in b["wall"])
                                       for b in boards))
    if total != 20 * N_COLOURS:
        raise EngineError(f"state: {total} tiles in all; the game has 100")
    return g  # type: ignore[no-any-return]
