"""Rebuilding a classic game from its public state (`to_state()`), checking what it is given."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, TypeVar

from referee.engine import rng
from referee.engine.classic.moves import COLOUR_LETTERS, N_COLOURS
from referee.engine.classic.rulesets import classic_ruleset
from referee.engine.classic.tables import FLOOR_SLOTS, PRESENCE, presence8, wall_column
from referee.engine.errors import EngineError
from referee.engine.game import BLANK, OVER, TAKE, WALL, fresh_seed

G = TypeVar("G")
_PHASES = {TAKE: TAKE, WALL: WALL, OVER: OVER}
_CENTRE_SHIFT = 9


def _colour(ch: str, where: str) -> int:
    c = COLOUR_LETTERS.find(ch) if len(ch) == 1 else -1
    if c < 0:
        raise EngineError(f"state: {where}: {ch!r} is not a tile colour (use B Y R K W)")
    return c


def _counts(text: str, where: str) -> list[int]:
    """Tiles per colour in a string of tile letters (one C-level count per colour: the bag
    alone can be 100 letters, and a bot rebuilds the state at every move)."""
    if text.strip(COLOUR_LETTERS):
        bad = text.strip(COLOUR_LETTERS)[0]
        raise EngineError(f"state: {where}: {bad!r} is not a tile colour (use B Y R K W)")
    return [text.count(letter) for letter in COLOUR_LETTERS]


def _packed(text: str, where: str) -> int:
    return sum(n << (8 * c) for c, n in enumerate(_counts(text, where)))


@lru_cache(maxsize=1024)
def _factory_code(text: str, where: str) -> int:
    if len(text) > 4:
        raise EngineError(f"state: {where}: a factory holds at most 4 tiles, not {len(text)}")
    code = 0
    for ch in text:
        code += 1 << (3 * _colour(ch, where))
    return code


@lru_cache(maxsize=8192)
def _parse_wall(rows: tuple[str, ...], gray: bool, seat: int) -> tuple[int, int, int, int]:
    """A wall's masks from its 5 row strings (see tables). Cached: a wall changes once a
    round, and a bot rebuilds the state at every move."""
    if len(rows) != 5 or any(len(row) != 5 for row in rows):
        raise EngineError(f"state: seat {seat} wall: 5 rows of 5 spaces ('.' or a letter)")
    wall = wall_t = colour_rows = cells = 0
    for r, row in enumerate(rows):
        for k, ch in enumerate(row):
            if ch == ".":
                continue
            c = _colour(ch, f"seat {seat} wall row {r + 1}")
            if not gray and wall_column(r, c) != k:
                raise EngineError(
                    f"state: seat {seat} wall row {r + 1}: {ch} cannot stand in "
                    f"column {k + 1} of the coloured wall"
                )
            wall |= 1 << (5 * r + k)
            wall_t |= 1 << (5 * k + r)
            colour_rows |= 1 << (5 * c + r)
            cells |= (c + 1) << (3 * (5 * r + k))
    return wall, wall_t, colour_rows, cells


def classic_from_state(cls: type[G], state: dict[str, Any], seed: int | None) -> G:
    """A playable ClassicGame (of class `cls`) from a public state dict. The bag's order is not
    in the state: the deals to come are drawn with `seed` (random when None)."""
    try:
        return _build(cls, state, seed)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        if isinstance(exc, EngineError):
            raise
        raise EngineError(f"state: malformed ({type(exc).__name__}: {exc})") from None


@lru_cache(maxsize=4096)
def _tiles(text: str, where: str) -> tuple[int, int]:
    """A string of tile letters as (8-bit packed counts, number of tiles). Cached: the centre,
    floors, lid and bag repeat from one move to the next."""
    return _packed(text, where), len(text)


@lru_cache(maxsize=4096)
def _parse_lines(lines: tuple[str, ...], seat: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Pattern lines as (colour or -1, count) per line."""
    if len(lines) != 5:
        raise EngineError(f"state: seat {seat} has {len(lines)} pattern lines, not 5")
    colours, counts = [], []
    for d, line in enumerate(lines):
        if len(line) > d + 1 or len(set(line)) > 1:
            raise EngineError(f"state: seat {seat} pattern line {d + 1}: {line!r} does not fit")
        colours.append(_colour(line[0], f"seat {seat} line {d + 1}") if line else -1)
        counts.append(len(line))
    return tuple(colours), tuple(counts)


def _build(cls: type[G], state: dict[str, Any], seed: int | None) -> G:
    rules = classic_ruleset(state["ruleset"])
    players = int(state["players"])
    rules.check_players(players)
    g: Any = cls(BLANK)  # type: ignore[call-arg]
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
    g._factories = [_factory_code(f, "factory") for f in state["factories"]]
    g._centre, total = _tiles(state["centre"], "centre")
    total += sum(len(f) for f in state["factories"])
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
        colours, counts = _parse_lines(tuple(board["lines"]), p)
        g._line_colour += colours
        g._line_count += counts
        wall, wall_t, colour_rows, cells = _parse_wall(tuple(board["wall"]), rules.gray_wall, p)
        g._wall.append(wall)
        g._wall_t.append(wall_t)
        g._colour_rows.append(colour_rows)
        g._cells.append(cells)
        g._scores.append(int(board["score"]))
        floor, on_floor = _tiles(board["floor"], f"seat {p} floor")
        g._floor_tiles.append(floor)
        has_marker = bool(board["has_marker"])
        g._floor_count.append(min(FLOOR_SLOTS, on_floor + has_marker))
        if has_marker:
            g._next_starter = p
        total += sum(counts) + on_floor + bin(wall).count("1")
    g._bag, in_bag = _tiles(state["bag"], "bag")
    g._lid, in_lid = _tiles(state["lid"], "lid")
    total += in_bag + in_lid
    if total != 20 * N_COLOURS:
        raise EngineError(f"state: {total} tiles in all; the game has 100")
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
    return g  # type: ignore[no-any-return]
