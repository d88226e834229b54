"""A person at the table: a seat that asks the terminal for its moves, and a live table view.

`HumanSeat` is an SDK bot like any other (the referee asks it through the same protocol, under
its clock); its `choose_move` shows the board and the legal moves, numbered and in words, and
reads a number or a move in notation, asking again until the answer is a legal move.
`TableWatcher` follows a match's events on a copy of the game, to say each move in words and
draw the board as it goes (`match --board`, `play`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from referee import MatchEvent, MovePlayed, SeatFaulted
from referee.engine import RULESETS, EngineError, new_game
from sdk import Bot
from sdk.bot import GameInfo
from tournaments.families import FamilyView, view_for

# What the yellow notes in the move grid mean, by family ("77-79": the same place, more wilds).
NOTES_LEGEND = {
    "classic": "yellow +k: k of the tiles taken fall to the floor",
    "pavilion": "yellow (n): the tiles a take brings, +w with a wild one; n-m: the same place"
    " paid with 0, 1, 2 ... wilds",
}

# Beyond this a time limit is no limit worth showing (a human seat's default is a week).
SHOWN_LIMIT = 24 * 3600.0


def moves_table(
    state: dict[str, Any],
    legal: list[tuple[int, str]],
    describe: Callable[[dict[str, Any], str], str],
    width: int = 80,
) -> Table:
    """Moves by their number, notation and in words, in as many columns as `width` holds (the
    words cut short rather than wrapped, so that a long list stays one line a row)."""
    cells = []
    for number, m in legal:
        words = describe(state, m).removeprefix("takes ")
        cells.append(f"[bold]{number:>3}[/] {escape(m):<4} {escape(words)}")
    longest = max((len(c) for c in cells), default=10) - len("[bold][/]")
    columns = max(1, min(4, (width + 3) // (min(longest, 44) + 3)))
    table = Table.grid(padding=(0, 3))
    for _ in range(columns):
        table.add_column(no_wrap=True, overflow="ellipsis", max_width=(width + 3) // columns - 3)
    per = -(-len(legal) // columns)
    for r in range(per):
        table.add_row(
            *(cells[c * per + r] if c * per + r < len(cells) else "" for c in range(columns))
        )
    return table


def _column_key(label: str) -> tuple[bool, str]:
    # Numbered places first ("line 1" ... "line 5", "space 1" ...), then "floor" or "pass".
    return not label[-1:].isdigit(), label


def _numbers(moves: list[tuple[int, str]]) -> str:
    """One cell's moves: "31+1" for one with a note, "77-79" for a run of numbers."""
    if len(moves) == 1:
        number, note = moves[0]
        return f"[bold]{number}[/]" + (f"[yellow]{escape(note)}[/]" if note else "")
    numbers = [n for n, _ in moves]
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"[bold]{numbers[0]}-{numbers[-1]}[/]"
    return ",".join(f"[bold]{n}[/]" for n in numbers)


def moves_grid(state: dict[str, Any], legal: list[str], view: FamilyView, width: int = 80) -> Group:
    """The legal moves as a compact grid, numbered from 1: a row for each choice of tiles (or
    star), a column for each place they can go, the move's number in the cell with the
    family's note ("+1": a tile falls to the floor); a cell with a run "77-79" holds the same
    place paid with more wilds, left to right. Moves the family's grid does not hold are
    listed under it by number and in words. A classic turn of 108 moves fits in 20 rows."""
    cells: dict[tuple[str, str], list[tuple[int, str]]] = {}
    others: list[tuple[int, str]] = []
    for number, move in enumerate(legal, 1):
        placed = view.move_cell(state, move) if view.move_cell else None
        if placed is None:
            others.append((number, move))
        else:
            cells.setdefault(placed[:2], []).append((number, placed[2]))
    parts: list[Any] = []
    if cells:
        rows = list(dict.fromkeys(row for row, _ in cells))
        columns = sorted(dict.fromkeys(column for _, column in cells), key=_column_key)
        grid = Table(
            box=box.SIMPLE_HEAD,
            padding=(0, 1),
            pad_edge=False,
            show_edge=False,
            header_style="bold",
            title="your moves: type the number in a cell",
            title_justify="left",
            title_style="bold",
        )
        grid.add_column("", no_wrap=True, overflow="ellipsis", max_width=48)
        for column in columns:
            grid.add_column(column, justify="right", no_wrap=True)
        for row in rows:
            grid.add_row(
                escape(row),
                *(_numbers(cells[row, c]) if (row, c) in cells else "[dim]·[/]" for c in columns),
            )
        parts.append(grid)
        if any(note for moves in cells.values() for _, note in moves):
            parts.append(Text(NOTES_LEGEND.get(view.family, ""), style="dim"))
    if others:
        parts.append(moves_table(state, others, view.describe, width))
    return Group(*parts)


class HumanSeat(Bot):
    """A seat played by a person at this terminal."""

    name = "human"
    version = "1"
    rulesets = tuple(RULESETS)  # a person plays whatever the table shows

    def __init__(
        self, console: Console | None = None, read: Callable[[str], str] | None = None
    ) -> None:
        super().__init__()
        self.console = console or Console()
        self.read = read or (lambda prompt: self.console.input(Text(prompt, style="bold")))
        self.names: list[str] = []
        self.ruleset = "azul"

    def on_game_start(self, info: GameInfo) -> None:
        self.names = list(info.names)
        self.ruleset = info.ruleset
        self.console.print(
            f"[bold]You are seat {info.seat}[/] ({escape(' vs '.join(self.names))},"
            f" {info.ruleset}).",
            highlight=False,
        )

    def choose_move(self, state: Any) -> Any:
        game = getattr(state, "game", state)
        view = view_for(self.ruleset)
        public = game.to_state()
        legal = list(game.legal_moves())
        notations = [str(m) for m in legal]
        self.console.print()
        self.console.print(view.board(public, self.names or None))
        self.console.print(moves_grid(public, notations, view, self.console.width))
        limit = self.clock.move_time
        hint = f" ({limit:.0f} s)" if limit < SHOWN_LIMIT else ""
        prompt = f"your move [1-{len(legal)}] or notation{hint}: "
        while True:
            try:
                text = self.read(prompt).strip()
            except EOFError:
                self.console.print(f"no more input: playing {notations[0]}", highlight=False)
                return legal[0]
            if not text:
                continue
            if text.isdigit():
                k = int(text)
                if 1 <= k <= len(legal):
                    return legal[k - 1]
                self.console.print(
                    f"[red]{k} is not a move number[/]: type 1 to {len(legal)}", highlight=False
                )
                continue
            try:
                move = game.parse_move(text)
            except EngineError as exc:
                # The notation's own reason first: which part is wrong (a line 9, a colour Q).
                self.console.print(
                    f"[red]{escape(text)!r} is not a move[/] ({escape(str(exc))}): type a "
                    f"number from 1 to {len(legal)} or a move such as {notations[0]}",
                    highlight=False,
                )
                continue
            if move in legal:
                return move
            probe = game.copy()
            try:
                probe.push(move)
                why = "it is not legal here"
            except EngineError as exc:
                why = str(exc)
            self.console.print(
                f"[red]{escape(text)} is not legal here[/]: {escape(why)}", highlight=False
            )


class TableWatcher:
    """Follows a match's events on its own copy of the game (same ruleset, options, seats and
    seed as the referee's), printing each move in words and, with `board`, the table after it;
    with `rounds`, the table whenever a round or a phase begins."""

    def __init__(
        self,
        console: Console,
        ruleset: str,
        names: list[str],
        seed: int,
        board: bool = False,
        first_player: int = 0,
        options: dict[str, str] | None = None,
        rounds: bool = False,
    ) -> None:
        self.console = console
        self.names = names
        self.board = board
        self.rounds = rounds
        self.view = view_for(ruleset)
        self.game = new_game(
            ruleset, len(names), seed=seed, first_player=first_player, **(options or {})
        )
        self._drawn: tuple[int, str] | None = None

    def start(self) -> None:
        """Before the first move: the table as dealt (with `board` or `rounds`)."""
        if self.board or self.rounds:
            self._table(heading=True)

    def _table(self, heading: bool = False) -> None:
        game = self.game
        self._drawn = (game.round, game.phase)
        if heading:
            self.console.print(f"[bold]round {game.round}, phase {game.phase}[/]", highlight=False)
        self.console.print(self.view.board(game.to_state(), self.names))

    def __call__(self, event: MatchEvent) -> None:
        if isinstance(event, MovePlayed):
            before = self.game.to_state()
            words = self.view.describe(before, event.move)
            self.game.push(self.game.parse_move(event.move))
            note = " [yellow](substituted by the referee)[/]" if event.substituted else ""
            # No emoji: "pass:B: ..." would print a symbol for ":B:".
            self.console.print(
                f"{event.ply:4d}  [bold]{escape(self.names[event.seat])}[/] "
                f"{escape(event.move)}: {escape(words)}{note}",
                highlight=False,
                emoji=False,
            )
            if self.board:
                self._table()
            elif (
                self.rounds
                and not self.game.is_over()
                and (self.game.round, self.game.phase) != self._drawn
            ):
                self._table(heading=True)
        elif isinstance(event, SeatFaulted):
            end = ", forfeited" if event.forfeited else ""
            self.console.print(
                f"      [yellow]{escape(self.names[event.seat])}: {event.fault}[/]"
                f" (strike {event.strikes}{end}) {escape(event.detail)}"
            )
