"""Rebuilding a pavilion game from its public state (`to_state()`), checking what it is given."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, TypeVar

from referee.engine import rng
from referee.engine.errors import EngineError
from referee.engine.game import BLANK, OVER, TAKE, fresh_seed
from referee.engine.pavilion.moves import CENTRE, COLOUR_LETTERS, MAX_KEPT, N_COLOURS
from referee.engine.pavilion.rulesets import pavilion_ruleset
from referee.engine.pavilion.tables import (
    BONUS,
    ONE3,
    PLAY,
    ROUNDS,
    STAR_COLOURS,
    SUPPLY_SPACES,
    TILES_PER_COLOUR,
    check_wild_order,
    colours_of_factory,
    colours_of_packed,
)
from referee.engine.rulesets import FACTORIES_FOR_PLAYERS

G = TypeVar("G")
_PHASES = {TAKE: TAKE, PLAY: PLAY, BONUS: BONUS, OVER: OVER}


@lru_cache(maxsize=4096)
def _packed(text: str, where: str) -> tuple[int, int]:
    """A string of tile letters as (8-bit packed counts, number of tiles). Cached: the bag, the
    depot and the hands repeat from one move to the next, and a bot rebuilds the state at each."""
    if not isinstance(text, str):
        raise EngineError(f"state: {where}: a string of tile letters (P G O Y B R)")
    bad = text.strip(COLOUR_LETTERS)
    if bad:
        raise EngineError(f"state: {where}: {bad[0]!r} is not a tile colour (use P G O Y B R)")
    return sum(text.count(ch) << (8 * c) for c, ch in enumerate(COLOUR_LETTERS)), len(text)


@lru_cache(maxsize=4096)
def _factory(text: str, where: str) -> tuple[int, int, int]:
    """A factory's letters as (factory code, number of tiles, colour mask)."""
    packed, n = _packed(text, where)
    if n > 4:
        raise EngineError(f"state: {where} holds {n} tiles; at most 4")
    code = sum(((packed >> (8 * c)) & 255) * ONE3[c] for c in range(N_COLOURS))
    return code, n, colours_of_factory(code)


@lru_cache(maxsize=4096)
def _star(text: str, star: int, mono: bool, where: str) -> tuple[int, int, int, int]:
    """A star's 6 characters as (covered bits, 3-bit cells, colour mask, number of tiles),
    checked against the colour rules of its side of the board."""
    if not isinstance(text, str) or len(text) != 6:
        raise EngineError(f"state: {where}: 6 characters, a tile letter or '.' per space")
    bits = cells = colours = 0
    for k, ch in enumerate(text):
        if ch == ".":
            continue
        c = COLOUR_LETTERS.find(ch)
        if c < 0:
            raise EngineError(f"state: {where}: {ch!r} is not a tile colour (use P G O Y B R)")
        bits |= 1 << k
        cells |= (c + 1) << (3 * k)
        colours |= 1 << c
    tiles = [ch for ch in text if ch != "."]
    different = len(set(tiles)) == len(tiles)
    if not mono and star:
        colour = COLOUR_LETTERS[STAR_COLOURS[star]]
        if any(ch != colour for ch in tiles):
            raise EngineError(f"state: {where}: only {colour} tiles go on star {star}")
    elif not mono and not different:
        raise EngineError(f"state: {where}: the centre star holds six different colours")
    elif mono and not different and len(set(tiles)) > 1:
        raise EngineError(f"state: {where}: a star is single-coloured or multicoloured")
    return bits, cells, colours, len(tiles)


def pavilion_from_state(cls: type[G], state: dict[str, Any], seed: int | None) -> G:
    """A playable PavilionGame (of class `cls`) from a public state dict. The bag's order is not
    in the state: the draws to come are made with `seed` (random when None)."""
    try:
        return _build(cls, state, seed)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        if isinstance(exc, EngineError):
            raise
        raise EngineError(f"state: malformed ({type(exc).__name__}: {exc})") from None


def _build(cls: type[G], state: dict[str, Any], seed: int | None) -> G:  # noqa: C901, PLR0912, PLR0915  # one check per field of the state, in its order
    rules = pavilion_ruleset(state["ruleset"], "state: ")
    players = int(state["players"])
    rules.check_players(players)
    g: Any = cls(BLANK)  # type: ignore[call-arg]
    g.ruleset = rules
    g.players = players
    g._set_rules(rules, check_wild_order(state["wild_order"]))
    g.round = int(state["round"])
    if not 1 <= g.round <= ROUNDS:
        raise EngineError(f"state: round {g.round} is not 1-{ROUNDS}")
    phase = _PHASES.get(state["phase"])
    if phase is None:
        raise EngineError(f"state: phase {state['phase']!r} is not one of take, play, bonus, over")
    g.phase = phase
    g.wild = g._wilds[g.round - 1]
    if state.get("wild", COLOUR_LETTERS[g.wild]) != COLOUR_LETTERS[g.wild]:
        raise EngineError(
            f"state: wild {state['wild']!r} is not round {g.round}'s wild colour "
            f"({COLOUR_LETTERS[g.wild]}) in the order {g.wild_order}"
        )
    g.turn = int(state["turn"])
    if phase is not OVER and not 0 <= g.turn < players:
        raise EngineError(f"state: turn {g.turn} is not a seat from 0 to {players - 1}")
    g.round_starter = int(state["round_starter"])
    g._first_player = g.round_starter
    g.bonus_owed = int(state.get("bonus_owed", 0))
    if (phase is BONUS) != (g.bonus_owed > 0):
        raise EngineError("state: bonus_owed is more than 0 exactly in the bonus phase")
    total = 0
    factories = list(state["factories"])
    if len(factories) != FACTORIES_FOR_PLAYERS[players]:
        raise EngineError(
            f"state: {len(factories)} factories; {players} players use "
            f"{FACTORIES_FOR_PLAYERS[players]}"
        )
    g._factories = []
    src = [0] * (CENTRE + 1)
    for f, text in enumerate(factories):
        code, n, colours = _factory(text, f"factory {f + 1}")
        g._factories.append(code)
        src[f] = colours
        total += n
    g._centre, n = _packed(state["centre"], "centre")
    total += n
    src[CENTRE] = colours_of_packed(g._centre)
    g._src_colours = src
    g._marker_in_centre = bool(state["marker_in_centre"])
    supply = state["supply"]
    if not isinstance(supply, str) or len(supply) != SUPPLY_SPACES:
        raise EngineError(
            f"state: supply: exactly {SUPPLY_SPACES} characters, a tile letter or '.' per space"
        )
    g._supply = [COLOUR_LETTERS.find(ch) if ch != "." else -1 for ch in supply]
    if any(c < 0 and ch != "." for c, ch in zip(g._supply, supply, strict=True)):
        raise EngineError("state: supply: use tile letters P G O Y B R, or '.' for an empty space")
    total += sum(1 for c in g._supply if c >= 0)
    g._bag, n = _packed(state["bag"], "bag")
    total += n
    g._depot, n = _packed(state["depot"], "depot")
    total += n
    boards = state["boards"]
    if len(boards) != players:
        raise EngineError(f"state: {len(boards)} boards for {players} players")
    g._scores, g._hands, g._kept, g._filled = [], [], [], []
    g._star_cells, g._star_colours = [], []
    g._passed = 0
    g._marker_holder = -1
    for p, board in enumerate(boards):
        g._scores.append(int(board["score"]))
        hand, n = _packed(board["tiles"], f"seat {p} tiles")
        total += n
        kept, n = _packed(board["kept"], f"seat {p} kept")
        if n > MAX_KEPT:
            raise EngineError(f"state: seat {p} keeps {n} tiles; at most {MAX_KEPT}")
        total += n
        g._hands.append(hand)
        g._kept.append(kept)
        if board["passed"]:
            g._passed |= 1 << p
        if board["has_marker"]:
            g._marker_holder = p
        stars = list(board["stars"])
        if len(stars) != 7:
            raise EngineError(f"state: seat {p}: 7 stars (the centre star first), not {len(stars)}")
        filled = 0
        for s, text in enumerate(stars):
            bits, cells, colours, n = _star(text, s, rules.monochrome_stars, f"seat {p} star {s}")
            filled |= bits << (6 * s)
            g._star_cells.append(cells)
            g._star_colours.append(colours)
            total += n
        g._filled.append(filled)
    if total != TILES_PER_COLOUR * N_COLOURS:
        raise EngineError(
            f"state: {total} tiles in all; the game has {TILES_PER_COLOUR * N_COLOURS}"
        )
    if phase is not OVER and g._passed >> g.turn & 1:
        raise EngineError(f"state: seat {g.turn} is to move but has passed")
    g._rng = rng.seed_state(fresh_seed() if seed is None else seed)
    g._chance = None
    g._refill_next = 0
    g._history = None
    g._initial_supply = ""
    g._round_scores = []
    g.rebuild_derived()
    return g  # type: ignore[no-any-return]
