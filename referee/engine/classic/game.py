"""The classic Azul family: `azul`, `azul-mini`, `azul-gray` and `azul-greenbox`.

A fast core (ints, bitmasks and the tables of `tables`) behind the readable API of
`Game`. The layout of the private fields is described in `tables`. Lists that change only
during wall-tiling (walls, scores) and the bag are never changed in place, only replaced, so that
`copy()` may share them; lists that change every turn are copied.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from itertools import permutations
from typing import Any, Final, Self, cast

from referee.engine import bag, rng
from referee.engine.classic.display import render_classic
from referee.engine.classic.moves import (
    CENTRE,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    FLOOR,
    MOVES_BY_TEXT,
    N_COLOURS,
    WALL_MOVES,
    Move,
    parse_move,
)
from referee.engine.classic.record import read_header
from referee.engine.classic.rulesets import classic_ruleset
from referee.engine.classic.state import classic_from_state
from referee.engine.classic.tables import (
    COLOUR_BONUS,
    COLUMN_BONUS,
    FIELD,
    FLOOR_BIT,
    FLOOR_LOSS,
    FLOOR_SLOTS,
    GROUPS,
    PRESENCE,
    ROW_BONUS,
    TILE3,
    TO_PACKED8,
    build_group,
    placement_points,
    wall_column,
)
from referee.engine.errors import EngineError, IllegalMoveError, NotationError, RecordError
from referee.engine.game import (
    BLANK,
    OVER,
    TAKE,
    WALL,
    Blank,
    Game,
    fresh_seed,
    ranks_from_keys,
)
from referee.engine.record import RECORD_FORMAT, first_moves, play_rounds
from referee.engine.rulesets import FACTORIES_FOR_PLAYERS, Ruleset

TILES_PER_COLOUR: Final = 20
TILES_PER_FACTORY: Final = 4
_FIRST_IN_EACH_ROW: Final = 0b00001_00001_00001_00001_00001  # bit 0 of each 5-bit row field


def _any_full_line(mask: int) -> bool:
    """Whether any 5-bit field of a 25-bit wall mask is full (a full row, or full column if
    given the transposed wall)."""
    return bool(mask & (mask >> 1) & (mask >> 2) & (mask >> 3) & (mask >> 4) & _FIRST_IN_EACH_ROW)


def _count_full_lines(mask: int) -> int:
    return bin(
        mask & (mask >> 1) & (mask >> 2) & (mask >> 3) & (mask >> 4) & _FIRST_IN_EACH_ROW
    ).count("1")


@lru_cache(maxsize=8192)
def _wall_rows(wall: int, cells: int) -> tuple[str, ...]:
    """The wall as 5 strings, a letter where a tile is. Cached: walls change only once a round,
    and the referee sends the state at every move."""
    return tuple(
        "".join(
            COLOUR_LETTERS[((cells >> (3 * (5 * r + k))) & 7) - 1]
            if wall >> (5 * r + k) & 1
            else "."
            for k in range(5)
        )
        for r in range(5)
    )


@lru_cache(maxsize=8192)
def _packed_to_letters(packed: int) -> str:
    return "".join(COLOUR_LETTERS[c] * ((packed >> (8 * c)) & 255) for c in range(N_COLOURS))


@lru_cache(maxsize=1024)
def _factory_to_letters(code: int) -> str:
    return "".join(COLOUR_LETTERS[c] * ((code >> (3 * c)) & 7) for c in range(N_COLOURS))


class ClassicGame(Game):
    """A game of the classic Azul family. Create one with `new_game(...)` or `ClassicGame(...)`."""

    family = "classic"

    __slots__ = (
        "_allowed",
        "_bag",
        "_cells",
        "_centre",
        "_colour_rows",
        "_deals",
        "_factories",
        "_first_player",
        "_floor_count",
        "_floor_tiles",
        "_gray",
        "_history",
        "_lid",
        "_line_colour",
        "_line_count",
        "_marker_in_centre",
        "_next_starter",
        "_rng",
        "_round_scores",
        "_scores",
        "_sources",
        "_touched",
        "_unique",
        "_wall",
        "_wall_next",
        "_wall_t",
        "phase",
        "players",
        "round",
        "round_starter",
        "ruleset",
        "turn",
    )

    def __init__(
        self,
        ruleset: str | Ruleset | Blank = "azul",
        players: int = 2,
        seed: int | None = None,
        first_player: int = 0,
        *,
        deals: list[list[int]] | None = None,
    ) -> None:
        """A new game. `seed` makes the deals reproducible; `deals` gives them instead (the
        factory contents of each round, as factory codes, e.g. from a record: see `replay`)."""
        if ruleset is BLANK:
            return  # copy() and from_state() fill in every field themselves
        rules = classic_ruleset(cast(str | Ruleset, ruleset))
        rules.check_players(players)
        if not 0 <= first_player < players:
            raise EngineError(f"first_player must be a seat from 0 to {players - 1}")
        self.ruleset = rules
        self.players = players
        self._gray = rules.gray_wall
        self._unique = rules.unique_line_colours
        self.round = 0
        self.phase = TAKE
        self.round_starter = first_player
        self.turn = first_player
        self._first_player = first_player
        self._factories = [0] * FACTORIES_FOR_PLAYERS[players]
        self._centre = 0
        self._sources = 0
        self._marker_in_centre = True
        self._next_starter = -1
        self._line_colour = [-1] * (5 * players)
        self._line_count = [0] * (5 * players)
        self._allowed = [0] * (5 * players)  # filled by _start_round
        self._floor_count = [0] * players
        self._floor_tiles = [0] * players
        self._wall = [0] * players
        self._wall_t = [0] * players
        self._colour_rows = [0] * players  # bit 5*colour + row: that row holds that colour
        self._cells = [0] * players  # 3 bits per wall cell: colour + 1 (gray wall display)
        self._scores = [0] * players
        self._bag = sum(TILES_PER_COLOUR << (8 * c) for c in range(N_COLOURS))
        self._lid = 0
        self._rng = rng.seed_state(fresh_seed() if seed is None else seed)
        self._deals = deals
        self._wall_next = -1
        self._touched = (1 << players) - 1  # seats whose lines or wall changed this wall-tiling
        self._history: list[tuple[list[int], list[str]]] | None = []
        self._round_scores: list[tuple[int, ...]] = []
        self._start_round()

    # ------------------------------------------------------------------ public surface
    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._scores)

    @property
    def round_scores(self) -> list[tuple[int, ...]]:
        """Scores after each finished round's wall-tiling and floor, before end-of-game bonuses."""
        return list(self._round_scores)

    @property
    def first_player(self) -> int:
        return self._first_player

    def legal_moves(self) -> tuple[Move, ...]:
        if self.phase is not TAKE:
            return self._wall_moves() if self.phase is WALL else ()
        # One table lookup per colour (see tables.GROUPS): this is the innermost loop of
        # every search bot, so the lookup is inlined.
        s = self._sources
        a = self._allowed
        b = self.turn * 5
        moves: tuple[Move, ...] = ()
        for c in range(N_COLOURS):
            key = (c << 16) | (((s >> (12 * c)) & FIELD) << 6) | a[b + c]
            found = GROUPS[key]
            if found is None:
                found = build_group(key)
            if found:
                moves = moves + found if moves else found
        return moves

    def parse_move(self, text: object) -> Move:
        move = parse_move(text)
        if move.is_wall and not self._gray:
            raise NotationError(f"{text!r}: wall placements exist only in azul-gray")
        return move

    @classmethod
    def moves_by_notation(cls) -> Mapping[str, Move]:
        return MOVES_BY_TEXT

    def is_legal(self, move: Any) -> bool:
        return isinstance(move, Move) and self._why_illegal(move) is None

    def push(self, move: Move) -> None:  # noqa: PLR0912, PLR0915  # the hot path of every playout: one frame, no calls
        """Apply `move`. Illegal moves raise IllegalMoveError and leave the game unchanged."""
        try:
            is_wall = move.is_wall
        except AttributeError:  # compiled, the engine raises this TypeError itself
            raise TypeError(
                f"push() takes a Move from legal_moves() or parse_move(), not "
                f"{type(move).__name__}; push_notation(text) takes text"
            ) from None
        if is_wall:
            self._push_wall(move)
            return
        p = self.turn
        c = move.colour
        d = move.line
        sources = self._sources
        allowed = self._allowed
        base = p * 5
        if (
            self.phase is not TAKE
            or not sources & move._source_bit
            or not (allowed[base + c] >> d) & 1
        ):
            self._raise_illegal(move)
        if self._history is not None:
            self._history[-1][1].append(move._text)
        # Take the tiles.
        src = move.source
        if src == CENTRE:
            shift = 8 * c
            n = (self._centre >> shift) & 255
            self._centre -= n << shift
            self._sources = sources & ~move._source_bit
            if self._marker_in_centre:
                # The marker lands on the floor before this turn's tiles (if there is room).
                self._marker_in_centre = False
                self._next_starter = p
                if self._floor_count[p] < FLOOR_SLOTS:
                    self._floor_count[p] += 1
        else:
            code = self._factories[src]
            n = (code >> (3 * c)) & 7
            rest = code - n * TILE3[c]
            self._factories[src] = 0
            self._centre += TO_PACKED8[rest]
            self._sources = (sources & ~(PRESENCE[code] << src)) | (PRESENCE[rest] << CENTRE)
        # Place them.
        if d == FLOOR:
            excess = n
        else:
            i = base + d
            have = self._line_count[i]
            if have == 0:
                self._line_colour[i] = c
                keep = ~(1 << d)
                for other in range(base, base + N_COLOURS):
                    allowed[other] &= keep
                if self._unique:
                    # Green Box: this colour may now go to this line (or the floor) only.
                    allowed[base + c] = (1 << d) | FLOOR_BIT
                else:
                    allowed[base + c] |= 1 << d
            total = have + n
            if total > d:  # the line is full (it holds d + 1)
                self._line_count[i] = d + 1
                excess = total - d - 1
                allowed[base + c] &= ~(1 << d)
            else:
                self._line_count[i] = total
                excess = 0
        if excess:
            self._to_floor(p, c, excess)
        if self._sources:
            self.turn = p + 1 if p + 1 < self.players else 0
        else:
            self._tile_walls(0)

    def copy(self, stack: bool = False) -> Self:
        g = type(self)(BLANK)
        g.ruleset = self.ruleset
        g.players = self.players
        g.turn = self.turn
        g.round = self.round
        g.phase = self.phase
        g.round_starter = self.round_starter
        g._gray = self._gray
        g._unique = self._unique
        g._factories = self._factories[:]
        g._centre = self._centre
        g._sources = self._sources
        g._marker_in_centre = self._marker_in_centre
        g._next_starter = self._next_starter
        g._line_colour = self._line_colour[:]
        g._line_count = self._line_count[:]
        g._allowed = self._allowed[:]
        g._floor_count = self._floor_count[:]
        g._floor_tiles = self._floor_tiles[:]
        # Replaced, never changed in place: safe to share.
        g._wall = self._wall
        g._wall_t = self._wall_t
        g._colour_rows = self._colour_rows
        g._cells = self._cells
        g._scores = self._scores
        g._bag = self._bag
        g._lid = self._lid
        g._rng = self._rng
        g._deals = self._deals
        g._wall_next = self._wall_next
        g._touched = self._touched
        g._round_scores = self._round_scores
        g._first_player = self._first_player
        g._history = (
            [(f, m[:]) for f, m in self._history] if stack and self._history is not None else None
        )
        return g

    def ranks(self) -> tuple[int, ...]:
        """1 = best. Ties on score are broken by more complete rows; still tied = shared rank."""
        keys = [(self._scores[p], _count_full_lines(self._wall[p])) for p in range(self.players)]
        return ranks_from_keys(keys)

    def complete_rows(self, seat: int) -> int:
        return _count_full_lines(self._wall[seat])

    # ------------------------------------------------------------------ gray-wall decisions
    def _free_columns(self, p: int, row: int, colour: int) -> list[int]:
        """Columns of `row` where a tile of `colour` may go on a gray wall: the space is free and
        its column holds no tile of that colour yet."""
        wall = self._wall[p]
        cells = self._cells[p]
        out = []
        for col in range(5):
            if wall >> (5 * row + col) & 1:
                continue
            if any((cells >> (3 * (5 * r + col)) & 7) == colour + 1 for r in range(5)):
                continue
            out.append(col)
        return out

    def _row_completable(self, p: int, row: int) -> bool:
        """Whether the missing colours of a gray-wall row can still fill its free spaces, each
        in a column that does not hold that colour yet."""
        wall = self._wall[p]
        free = [k for k in range(5) if not wall >> (5 * row + k) & 1]
        missing = [c for c in range(N_COLOURS) if not self._colour_rows[p] >> (5 * c + row) & 1]
        cells = self._cells[p]

        def fits(c: int, k: int) -> bool:
            return all((cells >> (3 * (5 * r + k)) & 7) != c + 1 for r in range(5))

        return any(
            all(fits(c, k) for c, k in zip(missing, order, strict=True))
            for order in permutations(free)
        )

    def _wall_moves(self) -> tuple[Move, ...]:
        p, row = divmod(self._wall_next, 5)
        colour = self._line_colour[self._wall_next]
        return tuple(WALL_MOVES[row * 5 + col] for col in self._free_columns(p, row, colour))

    def _push_wall(self, move: Move) -> None:
        if (
            self.phase is not WALL
            or move.line != self._wall_next % 5
            or move not in self._wall_moves()
        ):
            self._raise_illegal(move)
        if self._history is not None:
            self._history[-1][1].append(move._text)
        pos = self._wall_next
        self._own_round_lists()
        self._place_on_wall(pos // 5, move.line, move.column)
        self._tile_walls(pos + 1)

    # ------------------------------------------------------------------ round structure
    def _tile_walls(self, start: int) -> None:
        """Wall-tiling, seat by seat and line by line from top to bottom, from position `start`
        (seat * 5 + line). On a gray wall it stops where a player has a choice to make."""
        self._own_round_lists()
        line_count = self._line_count
        for pos in range(start, 5 * self.players):
            row = pos % 5
            if line_count[pos] != row + 1:
                continue
            p = pos // 5
            self._touched |= 1 << p
            colour = self._line_colour[pos]
            if self._gray:
                columns = self._free_columns(p, row, colour)
                if len(columns) > 1:
                    self.phase = WALL
                    self.turn = p
                    self._wall_next = pos
                    return
                if not columns:
                    self._line_to_floor(p, row)
                    continue
                column = columns[0]
            else:
                column = wall_column(row, colour)
            self._place_on_wall(p, row, column)
        self._wall_next = -1
        self._finish_round()

    def _own_round_lists(self) -> None:
        """Fresh copies of the lists only wall-tiling changes, before changing them: copies of
        the game share the old ones (see copy())."""
        self._wall = self._wall[:]
        self._wall_t = self._wall_t[:]
        self._colour_rows = self._colour_rows[:]
        self._cells = self._cells[:]
        self._scores = self._scores[:]

    def _place_on_wall(self, p: int, row: int, column: int) -> None:
        """Move the tile of a full pattern line to the wall and score it (lists already fresh)."""
        i = p * 5 + row
        colour = self._line_colour[i]
        wall = self._wall[p] | 1 << (5 * row + column)
        wall_t = self._wall_t[p] | 1 << (5 * column + row)
        self._wall[p] = wall
        self._wall_t[p] = wall_t
        self._colour_rows[p] |= 1 << (5 * colour + row)
        self._cells[p] |= (colour + 1) << (3 * (5 * row + column))
        self._scores[p] += placement_points(wall, wall_t, row, column)
        self._lid += row << (8 * colour)  # the rest of the line goes to the lid
        self._line_count[i] = 0
        self._line_colour[i] = -1

    def _to_floor(self, p: int, colour: int, n: int) -> None:
        """`n` tiles of `colour` fall to seat `p`'s floor line; those past its 7 spaces go to the
        lid, without penalty."""
        kept = min(n, FLOOR_SLOTS - self._floor_count[p])
        self._floor_count[p] += kept
        self._floor_tiles[p] += kept << (8 * colour)
        self._lid += (n - kept) << (8 * colour)

    def _line_to_floor(self, p: int, row: int) -> None:
        """Gray wall with no legal column: the whole pattern line falls to the floor."""
        i = p * 5 + row
        self._to_floor(p, self._line_colour[i], row + 1)
        self._line_count[i] = 0
        self._line_colour[i] = -1

    def _finish_round(self) -> None:
        scores = self._scores
        for p in range(self.players):
            # Floor penalty, then the clamp at 0.
            scores[p] = max(0, scores[p] - FLOOR_LOSS[self._floor_count[p]])
            self._lid += self._floor_tiles[p]
            self._floor_tiles[p] = 0
            self._floor_count[p] = 0
        self._round_scores = [*self._round_scores, tuple(scores)]
        if any(_any_full_line(w) for w in self._wall):
            self._end_game()
        elif self.round >= self.ruleset.max_rounds:
            # Players who send every tile to the floor would play forever: no tile reaches a
            # wall and the lid refills the bag. A match must end (docs/engine.md, decisions).
            self._end_game()
        elif self._gray and not any(
            self._row_completable(p, r) for p in range(self.players) for r in range(5)
        ):
            # A gray wall can reach a point where no row can ever be completed (the last free
            # space's column already holds the missing colour). The rulebooks do not cover it;
            # the game ends then, as no later round could end it (docs/engine.md, decisions).
            self._end_game()
        else:
            self._start_round()

    def _end_game(self) -> None:
        scores = self._scores[:]
        for p in range(self.players):
            scores[p] += (
                ROW_BONUS * _count_full_lines(self._wall[p])
                + COLUMN_BONUS * _count_full_lines(self._wall_t[p])
                + COLOUR_BONUS
                * sum(1 for c in range(N_COLOURS) if (self._colour_rows[p] >> (5 * c)) & 31 == 31)
            )
        self._scores = scores
        self.phase = OVER
        self.turn = -1
        self._next_starter = -1  # the marker has left the floor with the last wall-tiling

    def _start_round(self) -> None:
        self.round += 1
        if self._next_starter >= 0:
            self.round_starter = self._next_starter
        self.turn = self.round_starter
        self._next_starter = -1
        self._marker_in_centre = True
        self.phase = TAKE
        for p in range(self.players):
            if self._touched >> p & 1:  # an untouched seat's destinations are still right
                self._recompute_allowed(p)
        self._touched = 0
        self._deal()
        if not self._sources:
            # Every tile is on a wall or a pattern line: nobody can move, and no later round
            # could differ. The rulebooks do not cover it; the game ends here (docs/engine.md).
            self._end_game()

    def _recompute_allowed(self, p: int) -> None:
        """Which destinations accept each colour for seat `p`, from scratch (start of a round)."""
        base = p * 5
        empty = 0  # pattern lines with no tile
        open_lines = [0] * N_COLOURS  # per colour: lines that hold it and are not full
        in_lines = 0  # colours present in some pattern line (bit per colour)
        for d in range(5):
            held = self._line_colour[base + d]
            if held < 0:
                empty |= 1 << d
            else:
                in_lines |= 1 << held
                if self._line_count[base + d] <= d:
                    open_lines[held] |= 1 << d
        rows = self._colour_rows[p]
        for c in range(N_COLOURS):
            mask = FLOOR_BIT | open_lines[c]
            if not (self._unique and in_lines >> c & 1):
                mask |= empty & ~(rows >> (5 * c))  # the row rule
            self._allowed[base + c] = mask

    def _deal(self) -> None:
        """Fill the factories: from the recorded deal when replaying, else from the bag."""
        n_factories = len(self._factories)
        if self._deals is not None and self.round <= len(self._deals):
            codes = self._deal_recorded(self._deals[self.round - 1])
        else:
            codes = self._deal_random(n_factories)
        self._factories = codes
        sources = 0
        for f, code in enumerate(codes):
            sources |= PRESENCE[code] << f
        self._sources = sources
        if self._history is not None:
            self._history.append((codes[:], []))  # the factories list empties as play goes on

    def _deal_random(self, n_factories: int) -> list[int]:
        count = n_factories * TILES_PER_FACTORY
        self._rng = rng.step(self._rng)
        drawn, self._bag, self._lid = bag.draw(
            self._bag, self._lid, rng.words(self._rng, count), count
        )
        # Four tiles a factory; when bag and lid both ran dry, the last factories stay short.
        codes = [0] * n_factories
        for k, c in enumerate(drawn):
            codes[k // TILES_PER_FACTORY] += TILE3[c]
        return codes

    def _deal_recorded(self, codes: list[int]) -> list[int]:
        """Take a recorded deal out of the bag (and the lid, once the bag is empty), checking that
        the bag could have produced it."""
        if len(codes) != len(self._factories):
            raise RecordError(
                f"{len(codes)} factories recorded; {self.players} players use "
                f"{len(self._factories)}",
                round=self.round,
            )
        drawn = [
            c for code in codes for c in range(N_COLOURS) for _ in range((code >> (3 * c)) & 7)
        ]
        self._bag, self._lid = bag.take(
            self._bag,
            self._lid,
            drawn,
            len(codes) * TILES_PER_FACTORY,
            what="the deal",
            refill_name="lid",
            colour_names=COLOUR_NAMES,
            round=self.round,
        )
        return list(codes)

    # ------------------------------------------------------------------ errors
    def _raise_illegal(self, move: Move) -> None:
        why = self._why_illegal(move)
        if why is None:  # pragma: no cover - callers only come here for illegal moves
            raise AssertionError(f"{move} is legal")
        raise IllegalMoveError(why[0], why[1], move)

    def _why_illegal(self, move: Move) -> tuple[str, str] | None:  # noqa: C901, PLR0912  # one check per rule, in the rulebook's order
        if self.phase is OVER:
            return "game-over", "the game is over"
        if move.is_wall:
            if not self._gray:
                return "no-wall-choice", "wall placements exist only in azul-gray"
            if self.phase is not WALL:
                return "not-wall-tiling", "it is not wall-tiling: take tiles (e.g. '1BF')"
            row = self._wall_next % 5
            if move.line != row:
                return "wrong-line", f"the tile to place is the one of pattern line {row + 1}"
            if self._wall[self.turn] >> (5 * row + move.column) & 1:
                return "space-taken", f"column {move.column + 1} of wall row {row + 1} is taken"
            if move not in self._wall_moves():
                colour = COLOUR_NAMES[self._line_colour[self._wall_next]]
                return "column-has-colour", (
                    f"column {move.column + 1} already holds a {colour} tile"
                )
            return None
        if self.phase is WALL:
            return "wall-tiling", (
                f"it is wall-tiling: choose the column for pattern line "
                f"{self._wall_next % 5 + 1} (e.g. '{self._wall_moves()[0]}')"
            )
        s, c, d, p = move.source, move.colour, move.line, self.turn
        colour = COLOUR_NAMES[c]
        if s != CENTRE and s >= len(self._factories):
            return "no-such-factory", (
                f"there are only {len(self._factories)} factories with {self.players} players"
            )
        if not self._sources & move._source_bit:
            where = "the centre" if s == CENTRE else f"factory {s + 1}"
            return "source-lacks-colour", f"{where} holds no {colour} tile"
        if d == FLOOR:
            return None
        i = p * 5 + d
        held = self._line_colour[i]
        if held == c and self._line_count[i] == d + 1:
            return "line-full", f"pattern line {d + 1} is already full"
        if held >= 0 and held != c:
            return "line-has-other-colour", (
                f"pattern line {d + 1} already holds {COLOUR_NAMES[held]} tiles"
            )
        if self._colour_rows[p] >> (5 * c + d) & 1:
            return "row-has-colour", f"wall row {d + 1} already holds a {colour} tile"
        if self._unique and any(self._line_colour[p * 5 + x] == c for x in range(5) if x != d):
            return "colour-in-other-line", (
                f"{colour} is already in another pattern line (Green Box rule)"
            )
        if not (self._allowed[p * 5 + c] >> d) & 1:  # pragma: no cover - the cases above cover it
            return "destination-refused", f"pattern line {d + 1} does not accept {colour} now"
        return None

    # ------------------------------------------------------------------ records and states
    def record(self, players: list[str] | None = None) -> dict[str, Any]:
        """The game as a record (docs/engine.md). Needs the history: not on `copy(stack=False)`."""
        if self._history is None:
            raise EngineError("this copy was made without its history: use copy(stack=True)")
        out: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "ruleset": self.ruleset.name,
            "players": list(players) if players else self.players,
            "first_player": self._first_player,
            "rounds": [
                {"factories": [_factory_to_letters(code) for code in f], "moves": list(m)}
                for f, m in self._history
            ],
            "round_scores": [list(s) for s in self._round_scores],
        }
        if self.phase is OVER:
            out["final_scores"] = list(self._scores)
        return out

    @classmethod
    def from_record(cls, record: dict[str, Any], upto: int | None = None) -> Self:
        """Replay a classic record from its recorded deals, checking every move (RecordError says
        where it went wrong); with `upto`, its first `upto` moves only."""
        header = read_header(record)
        game = cls(
            header.ruleset,
            header.players,
            seed=0,
            first_player=header.first_player,
            deals=[codes for codes, _ in header.rounds],
        )
        play_rounds(game, first_moves([moves for _, moves in header.rounds], upto))
        return game

    def to_state(self) -> dict[str, Any]:
        boards = []
        for p in range(self.players):
            lines = []
            for d in range(5):
                n = self._line_count[p * 5 + d]
                lines.append(COLOUR_LETTERS[self._line_colour[p * 5 + d]] * n if n else "")
            boards.append(
                {
                    "score": self._scores[p],
                    "lines": lines,
                    "wall": self._wall_rows(p),
                    "floor": _packed_to_letters(self._floor_tiles[p]),
                    "has_marker": p == self._next_starter,
                }
            )
        return {
            "ruleset": self.ruleset.name,
            "players": self.players,
            "round": self.round,
            "turn": self.turn,
            "phase": self.phase,
            "round_starter": self.round_starter,
            "factories": [_factory_to_letters(code) for code in self._factories],
            "centre": _packed_to_letters(self._centre),
            "marker_in_centre": self._marker_in_centre,
            "bag": _packed_to_letters(self._bag),
            "lid": _packed_to_letters(self._lid),
            "boards": boards,
            "wall_line": self._wall_next % 5 + 1 if self.phase is WALL else None,
        }

    def _wall_rows(self, p: int) -> list[str]:
        return list(_wall_rows(self._wall[p], self._cells[p]))

    @classmethod
    def from_state(cls, state: dict[str, Any], seed: int | None = None) -> Self:
        return classic_from_state(cls, state, seed)

    # ------------------------------------------------------------------ display
    def __str__(self) -> str:
        return render_classic(self.to_state())

    def __repr__(self) -> str:
        return (
            f"<ClassicGame {self.ruleset.name} players={self.players} round={self.round} "
            f"phase={self.phase} turn={self.turn} scores={list(self._scores)}>"
        )
