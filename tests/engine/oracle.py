"""An independent, deliberately plain implementation of the classic Azul rules.

It is a test oracle for differential testing of ``referee.engine``: it was written from
/work/shared/RULES.md and the rulebooks (and docs/engine.md only for the notation, the record
and state formats and the documented decisions), not from the engine's code. Nothing here is
fast or clever: dataclasses, lists of lists and loops, so that every rule can be read off.

Rulesets: ``azul``, ``azul-mini`` (same rules), ``azul-gray`` (the player chooses the wall
column), ``azul-greenbox`` (a colour may not be in two pattern lines at once); 2-4 players.
The decisions docs/engine.md records are followed: wall-tiling seat 0 first, lines top to
bottom; a gray-wall dead end, a round with nothing to deal and round 50 end the game.

The game is driven by recorded deals (the factory strings of each round, as in a record). The
oracle keeps the bag and the lid as multisets and checks that every deal was possible: tiles are
drawn from the bag first, and only when the bag is empty while a tile is still needed is the lid
poured into the bag.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field

COLOURS = "BYRKW"  # blue, yellow, red, black, white
RULESETS = ("azul", "azul-mini", "azul-gray", "azul-greenbox")
FACTORY_COUNT = {2: 5, 3: 7, 4: 9}
TILES_PER_FACTORY = 4
TILES_PER_COLOUR = 20
FLOOR_PENALTIES = (-1, -1, -2, -2, -2, -3, -3)
FLOOR_SPACES = len(FLOOR_PENALTIES)
MAX_ROUNDS = 50  # docs/engine.md decision: a game ends after round 50 at the latest
MARKER = "*"  # the start-player marker on a floor line; never a tile
CENTRE = -1  # source index of the centre of the table

TAKE, WALL, DEAL, OVER = "take", "wall", "deal", "over"


class OracleError(Exception):
    """The oracle was asked to do something the rules forbid (illegal move, impossible deal)."""


def coloured_wall_column(row: int, colour: str) -> int:
    """Coloured wall: row r holds colour c (index in BYRKW) at column (c + r) mod 5."""
    return (COLOURS.index(colour) + row) % 5


def sort_tiles(tiles) -> str:
    """Tiles as letters in colour order (the order used by records and states)."""
    return "".join(sorted(tiles, key=COLOURS.index))


def counter_contains(big: Counter, small: Counter) -> bool:
    return all(big[c] >= n for c, n in small.items())


@dataclass
class Board:
    """One player's board."""

    score: int = 0
    # pattern line i (0-based) holds up to i + 1 tiles, all of one colour
    lines: list[list[str]] = field(default_factory=lambda: [[] for _ in range(5)])
    # wall[row][column] is a colour letter or None
    wall: list[list[str | None]] = field(default_factory=lambda: [[None] * 5 for _ in range(5)])
    # the occupied floor spaces, left to right: colour letters, or MARKER for the marker
    floor: list[str] = field(default_factory=list)

    # -- queries -------------------------------------------------------------------------
    def row_has(self, row: int, colour: str) -> bool:
        return colour in self.wall[row]

    def column_has(self, column: int, colour: str) -> bool:
        return any(self.wall[row][column] == colour for row in range(5))

    def line_full(self, line: int) -> bool:
        return len(self.lines[line]) == line + 1

    def complete_rows(self) -> int:
        return sum(
            1 for row in range(5) if all(self.wall[row][col] is not None for col in range(5))
        )

    def complete_columns(self) -> int:
        return sum(
            1 for col in range(5) if all(self.wall[row][col] is not None for row in range(5))
        )

    def complete_colours(self) -> int:
        placed = Counter(tile for row in self.wall for tile in row if tile is not None)
        return sum(1 for colour in COLOURS if placed[colour] == 5)

    def gray_columns(self, row: int, colour: str) -> list[int]:
        """Gray wall: the free columns of `row` whose column does not hold `colour` yet."""
        return [
            col
            for col in range(5)
            if self.wall[row][col] is None and not self.column_has(col, colour)
        ]

    def row_can_be_completed_gray(self, row: int) -> bool:
        """Gray wall: can the free spaces of `row` still all be filled, each with a colour the
        row lacks and its column does not hold? (A matching of missing colours to free columns.)"""
        free = [col for col in range(5) if self.wall[row][col] is None]
        missing = [c for c in COLOURS if c not in self.wall[row]]
        if len(free) != len(missing):  # cannot happen (the row rule keeps rows duplicate-free)
            return False
        for order in itertools.permutations(missing):
            if all(
                not self.column_has(col, colour) for col, colour in zip(free, order, strict=True)
            ):
                return True
        return False

    # -- changes -------------------------------------------------------------------------
    def score_placed_tile(self, row: int, col: int) -> int:
        """Points for the tile just placed at (row, col): its horizontal run (if 2 or more)
        plus its vertical run (if 2 or more); 1 if it has no neighbour at all."""
        horizontal = 1
        c = col - 1
        while c >= 0 and self.wall[row][c] is not None:
            horizontal += 1
            c -= 1
        c = col + 1
        while c < 5 and self.wall[row][c] is not None:
            horizontal += 1
            c += 1
        vertical = 1
        r = row - 1
        while r >= 0 and self.wall[r][col] is not None:
            vertical += 1
            r -= 1
        r = row + 1
        while r < 5 and self.wall[r][col] is not None:
            vertical += 1
            r += 1
        if horizontal == 1 and vertical == 1:
            return 1
        points = 0
        if horizontal >= 2:
            points += horizontal
        if vertical >= 2:
            points += vertical
        return points

    def place_on_wall(self, row: int, col: int, colour: str) -> int:
        assert self.wall[row][col] is None, "wall space already taken"
        self.wall[row][col] = colour
        points = self.score_placed_tile(row, col)
        self.score += points
        return points

    def floor_penalty(self) -> int:
        return sum(FLOOR_PENALTIES[: len(self.floor)])


@dataclass
class PendingChoice:
    """Gray wall: a seat must choose the column for the tile of one of its full pattern lines."""

    seat: int
    line: int
    columns: list[int]


class OracleGame:
    """A classic-family Azul game replayed from recorded deals.

    `deals` is the list of per-round factory strings (e.g. ``["RWYY", "RYBB", ...]`` per round);
    more deals can be given later with `add_deal` (the game waits in phase "deal" for them).
    """

    def __init__(
        self,
        ruleset: str,
        players: int,
        first_player: int = 0,
        deals: list[list[str]] | None = None,
    ) -> None:
        if ruleset not in RULESETS:
            raise OracleError(f"unknown ruleset {ruleset!r}")
        if players not in FACTORY_COUNT:
            raise OracleError(f"{players} players: the classic family is for 2-4")
        if not 0 <= first_player < players:
            raise OracleError(f"first player {first_player} is not a seat")
        self.ruleset = ruleset
        self.players = players
        self.gray = ruleset == "azul-gray"
        self.greenbox = ruleset == "azul-greenbox"
        self.factory_count = FACTORY_COUNT[players]
        self.deals: list[list[str]] = [list(d) for d in (deals or [])]

        self.boards = [Board() for _ in range(players)]
        self.bag: Counter = Counter({c: TILES_PER_COLOUR for c in COLOURS})
        self.lid: Counter = Counter()
        self.factories: list[list[str]] = [[] for _ in range(self.factory_count)]
        self.centre: list[str] = []
        self.marker_in_centre = True
        self.marker_taker: int | None = None  # who took the marker from the centre this round

        self.round = 0  # 1-based once the first round is dealt
        self.round_starter = first_player
        self.turn = first_player
        self.phase = DEAL
        self.pending: PendingChoice | None = None
        self.wall_position = (0, 0)  # next (seat, line) to tile during the wall phase
        self.round_scores: list[tuple[int, ...]] = []
        self.end_reason: str | None = None
        self.moves_played: list[str] = []
        # statistics, so that tests can check which situations a game went through
        self.lid_pours = 0
        self.marker_on_full_floor = 0
        self.gray_lines_to_floor = 0  # gray wall: full lines with no legal column
        self.gray_auto_placed = 0  # gray wall: exactly one legal column, placed without asking
        self._start_round()

    @classmethod
    def from_state(cls, state: dict) -> OracleGame:
        """A game in the take phase rebuilt from a public state (docs/engine.md format); later
        deals are given with `add_deal`."""
        if state["phase"] != TAKE:
            raise OracleError("from_state: only positions in the take phase")
        game = cls(state["ruleset"], state["players"], state["round_starter"])
        game.round = state["round"]
        # placeholders for the earlier rounds' deals (unknown), then this round's
        game.deals = [[] for _ in range(game.round - 1)] + [list(state["factories"])]
        game.round_starter = state["round_starter"]
        game.turn = state["turn"]
        game.phase = TAKE
        game.factories = [list(f) for f in state["factories"]]
        game.centre = list(state["centre"])
        game.marker_in_centre = state["marker_in_centre"]
        game.bag = Counter(state["bag"])
        game.lid = Counter(state["lid"])
        game.marker_taker = None
        for seat, data in enumerate(state["boards"]):
            board = game.boards[seat]
            board.score = data["score"]
            board.lines = [list(line) for line in data["lines"]]
            board.wall = [[None if t == "." else t for t in row] for row in data["wall"]]
            board.floor = list(data["floor"])
            if data["has_marker"]:
                game.marker_taker = seat
                if len(board.floor) < FLOOR_SPACES:
                    board.floor.insert(0, MARKER)
        total = (
            sum(game.bag.values())
            + sum(game.lid.values())
            + len(game.centre)
            + sum(len(f) for f in game.factories)
            + sum(
                len(b.floor)
                - b.floor.count(MARKER)
                + sum(len(line) for line in b.lines)
                + sum(1 for row in b.wall for t in row if t is not None)
                for b in game.boards
            )
        )
        if total != TILES_PER_COLOUR * len(COLOURS):
            raise OracleError(f"from_state: {total} tiles, expected 100")
        return game

    # ------------------------------------------------------------------ public API ------
    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(board.score for board in self.boards)

    def is_over(self) -> bool:
        return self.phase == OVER

    def ranks(self) -> tuple[int, ...]:
        """1 = best: highest score, ties broken by more complete rows; still tied = shared rank
        (competition ranking: two seats tied first are both 1, the next is 3)."""
        keys = [(b.score, b.complete_rows()) for b in self.boards]
        return tuple(1 + sum(1 for other in keys if other > key) for key in keys)

    def legal_moves(self) -> set[str]:
        if self.phase == TAKE:
            return self._legal_takes()
        if self.phase == WALL:
            assert self.pending is not None
            return {f"{self.pending.line + 1}@{col + 1}" for col in self.pending.columns}
        return set()

    def push(self, text: str) -> None:
        move = text.strip().upper()
        if move not in self.legal_moves():
            raise OracleError(
                f"illegal move {text!r} in phase {self.phase} "
                f"(round {self.round}, seat {self.turn})"
            )
        self.moves_played.append(move)
        if self.phase == TAKE:
            self._apply_take(move)
        else:
            self._apply_column_choice(move)

    def add_deal(self, factories: list[str]) -> None:
        self.deals.append(list(factories))
        if self.phase == DEAL:
            self._start_round()

    def to_state(self) -> dict:
        """The public state in the format of docs/engine.md (for comparison with the engine)."""
        boards = []
        for seat, board in enumerate(self.boards):
            boards.append(
                {
                    "score": board.score,
                    "lines": ["".join(line) for line in board.lines],
                    "wall": ["".join(tile or "." for tile in row) for row in board.wall],
                    "floor": sort_tiles(t for t in board.floor if t != MARKER),
                    "has_marker": not self.marker_in_centre and self.marker_taker == seat,
                }
            )
        return {
            "ruleset": self.ruleset,
            "players": self.players,
            "round": self.round,
            "turn": self.turn,
            "phase": self.phase,
            "round_starter": self.round_starter,
            "factories": [sort_tiles(f) for f in self.factories],
            "centre": sort_tiles(self.centre),
            "marker_in_centre": self.marker_in_centre,
            "bag": sort_tiles(self.bag.elements()),
            "lid": sort_tiles(self.lid.elements()),
            "boards": boards,
            "wall_line": self.pending.line + 1 if self.pending is not None else None,
        }

    # ------------------------------------------------------------------ take phase -------
    def _sources(self) -> list[tuple[int, list[str]]]:
        sources = [(i, f) for i, f in enumerate(self.factories)]
        sources.append((CENTRE, self.centre))
        return sources

    def _line_accepts(self, board: Board, line: int, colour: str) -> bool:
        if board.line_full(line):
            return False  # a full pattern line cannot be chosen
        if board.lines[line] and board.lines[line][0] != colour:
            return False  # one colour per pattern line
        if board.row_has(line, colour):
            return False  # row rule (on the gray wall too: the row may not hold it twice)
        if self.greenbox:
            for other in range(5):
                if other != line and colour in board.lines[other]:
                    return False  # Green Box: a colour in only one pattern line at a time
        return True

    def _legal_takes(self) -> set[str]:
        board = self.boards[self.turn]
        moves = set()
        for index, tiles in self._sources():
            source = "C" if index == CENTRE else str(index + 1)
            for colour in set(tiles):
                moves.add(f"{source}{colour}F")  # the floor is always allowed
                for line in range(5):
                    if self._line_accepts(board, line, colour):
                        moves.add(f"{source}{colour}{line + 1}")
        return moves

    def _drop_on_floor(self, board: Board, tiles: list[str]) -> None:
        for tile in tiles:
            if len(board.floor) < FLOOR_SPACES:
                board.floor.append(tile)
            else:
                self.lid[tile] += 1  # beyond 7 spaces: to the box lid, no penalty

    def _apply_take(self, move: str) -> None:
        source_char, colour, dest = move[0], move[1], move[2]
        board = self.boards[self.turn]
        if source_char == "C":
            taken = [t for t in self.centre if t == colour]
            self.centre = [t for t in self.centre if t != colour]
            if self.marker_in_centre:
                # first from the centre: the marker goes to the leftmost free floor space
                # before the tiles; on a full floor it costs nothing but still counts for
                # who starts next round
                self.marker_in_centre = False
                self.marker_taker = self.turn
                if len(board.floor) < FLOOR_SPACES:
                    board.floor.append(MARKER)
                else:
                    self.marker_on_full_floor += 1
        else:
            factory = self.factories[int(source_char) - 1]
            taken = [t for t in factory if t == colour]
            self.centre.extend(t for t in factory if t != colour)
            factory.clear()
        if dest == "F":
            self._drop_on_floor(board, taken)
        else:
            line = int(dest) - 1
            room = line + 1 - len(board.lines[line])
            board.lines[line].extend(taken[:room])
            self._drop_on_floor(board, taken[room:])

        if all(not f for f in self.factories) and not self.centre:
            self._start_wall_tiling()
        else:
            self.turn = (self.turn + 1) % self.players

    # ------------------------------------------------------------------ wall-tiling ------
    def _start_wall_tiling(self) -> None:
        self.phase = WALL
        self.wall_position = (0, 0)
        self._continue_wall_tiling()

    def _continue_wall_tiling(self) -> None:
        """Seat 0 first, then 1, ...; each seat's pattern lines top to bottom. Stops at a gray
        wall choice with more than one legal column."""
        seat, line = self.wall_position
        while seat < self.players:
            board = self.boards[seat]
            while line < 5:
                if board.line_full(line):
                    colour = board.lines[line][0]
                    if self.gray:
                        columns = board.gray_columns(line, colour)
                        if len(columns) > 1:
                            self.pending = PendingChoice(seat, line, columns)
                            self.turn = seat
                            self.wall_position = (seat, line)
                            return
                        if not columns:
                            # no legal column: the whole line goes to the floor line
                            tiles = list(board.lines[line])
                            board.lines[line].clear()
                            self.gray_lines_to_floor += 1
                            self._drop_on_floor(board, tiles)
                        else:
                            self._tile_line(board, line, columns[0])
                            self.gray_auto_placed += 1
                    else:
                        self._tile_line(board, line, coloured_wall_column(line, colour))
                line += 1
            seat += 1
            line = 0
        self.pending = None
        self._finish_round()

    def _tile_line(self, board: Board, line: int, col: int) -> None:
        colour = board.lines[line][0]
        board.place_on_wall(line, col, colour)
        self.lid[colour] += line  # the other tiles of the full line go to the lid
        board.lines[line].clear()

    def _apply_column_choice(self, move: str) -> None:
        assert self.pending is not None
        line = int(move[0]) - 1
        col = int(move[2]) - 1
        board = self.boards[self.pending.seat]
        self._tile_line(board, line, col)
        self.pending = None
        self.wall_position = (self.wall_position[0], line + 1)
        self._continue_wall_tiling()

    def _finish_round(self) -> None:
        for board in self.boards:
            board.score = max(0, board.score + board.floor_penalty())
            for tile in board.floor:
                if tile != MARKER:
                    self.lid[tile] += 1
            board.floor.clear()
        self.round_scores.append(self.scores)

        if any(board.complete_rows() > 0 for board in self.boards):
            self._end_game("complete row")
            return
        if self.gray and not any(
            board.row_can_be_completed_gray(row) for board in self.boards for row in range(5)
        ):
            self._end_game("gray dead end")
            return
        if self.round >= MAX_ROUNDS:
            self._end_game("round cap")
            return
        if self.marker_taker is not None:
            self.round_starter = self.marker_taker
        # else: nobody took from the centre, the same player starts again
        self.phase = DEAL
        self._start_round()

    def _end_game(self, reason: str) -> None:
        for board in self.boards:
            board.score += (
                2 * board.complete_rows()
                + 7 * board.complete_columns()
                + 10 * board.complete_colours()
            )
        self.phase = OVER
        self.turn = self.round_starter  # unspecified; not compared
        self.end_reason = reason

    # ------------------------------------------------------------------ dealing ----------
    def _start_round(self) -> None:
        assert self.phase == DEAL
        if not self.bag and not self.lid and self.round > 0:
            # nothing can be dealt: nobody could move, the game ends (engine decision)
            self._end_game("no tiles to deal")
            return
        if len(self.deals) <= self.round:
            return  # wait for add_deal
        factories = self.deals[self.round]
        self._check_and_draw(factories)
        self.round += 1
        self.factories = [list(f) for f in factories]
        self.centre = []
        self.marker_in_centre = True
        self.marker_taker = None
        self.turn = self.round_starter
        self.phase = TAKE
        if all(not f for f in self.factories):  # pragma: no cover - excluded above
            self._end_game("no tiles to deal")

    def _check_and_draw(self, factories: list[str]) -> None:
        """Take the deal's tiles out of the bag (and the lid) and check it was possible."""
        where = f"round {self.round + 1} deal {factories}"
        if len(factories) != self.factory_count:
            raise OracleError(f"{where}: {len(factories)} factories, expected {self.factory_count}")
        exhausted = False
        for index, text in enumerate(factories):
            text = text.upper()
            if any(c not in COLOURS for c in text) or len(text) > TILES_PER_FACTORY:
                raise OracleError(f"{where}: bad factory {text!r}")
            if exhausted and text:
                raise OracleError(f"{where}: factory {index + 1} filled after bag and lid ran out")
            need = Counter(text)
            if sum(self.bag.values()) == 0 and self.lid and text:
                self.bag, self.lid = self.lid, Counter()  # bag empty: pour the lid in
                self.lid_pours += 1
            bag_count = sum(self.bag.values())
            if bag_count >= len(text):
                if not counter_contains(self.bag, need):
                    raise OracleError(
                        f"{where}: factory {index + 1} {text!r} not in the bag "
                        f"{sort_tiles(self.bag.elements())}"
                    )
                self.bag -= need
            else:
                # the bag runs out inside this factory: all of it is here, the rest comes
                # from the lid poured into the bag
                if not counter_contains(need, self.bag):
                    raise OracleError(
                        f"{where}: factory {index + 1} {text!r} must contain the "
                        f"last bag tiles {sort_tiles(self.bag.elements())}"
                    )
                need -= self.bag
                self.bag, self.lid = self.lid, Counter()
                self.lid_pours += 1
                if not counter_contains(self.bag, need):
                    raise OracleError(
                        f"{where}: factory {index + 1} {text!r}: the rest is not "
                        f"in the lid {sort_tiles(self.bag.elements())}"
                    )
                self.bag -= need
            if len(text) < TILES_PER_FACTORY:
                if self.bag or self.lid:
                    raise OracleError(
                        f"{where}: factory {index + 1} {text!r} short although tiles were left"
                    )
                exhausted = True


def replay_record(record: dict) -> OracleGame:
    """Replay a whole record (docs/engine.md format) in the oracle."""
    players = record["players"]
    if not isinstance(players, int):
        players = len(players)
    deals = [r["factories"] for r in record["rounds"]]
    game = OracleGame(record["ruleset"], players, record.get("first_player", 0), deals)
    for rnd in record["rounds"]:
        for move in rnd["moves"]:
            game.push(move)
    return game
