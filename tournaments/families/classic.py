"""The classic family (azul, azul-mini, azul-gray, azul-greenbox) for people: words, boards."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from referee.engine import COLOUR_LETTERS, COLOUR_NAMES
from referee.engine.classic import FLOOR_LOSS, FLOOR_SLOTS, wall_column
from tournaments.families import FamilyView, terminal

# Terminal styles of the tiles: black tiles get a light edge so they show on a dark terminal.
TILE_STYLE = {
    "B": "bold white on blue",
    "Y": "bold black on yellow",
    "R": "bold white on red",
    "K": "bold white on grey11",
    "W": "bold black on grey93",
}
EMPTY_STYLE = {"B": "blue", "Y": "yellow", "R": "red", "K": "grey50", "W": "grey70"}


def colour_name(letter: str) -> str:
    return COLOUR_NAMES[COLOUR_LETTERS.index(letter.upper())]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def describe(state: dict[str, Any], move: str) -> str:
    """`move` in words, from `state` (the state before it): "takes 3 red from factory 4 to line
    2 (1 to the floor)". Notation it cannot read is returned as it is."""
    text = move.strip().upper()
    if "@" in text:  # gray wall: <line>@<column>
        line, _, column = text.partition("@")
        return f"places the tile of pattern line {line} in column {column} of the wall"
    if len(text) != 3 or text[1] not in COLOUR_LETTERS:
        return move
    source, letter, dest = text[0], text[1], text[2]
    colour = colour_name(letter)
    if source == "C":
        count = state["centre"].count(letter)
        where = "the centre"
    else:
        factories = state["factories"]
        k = int(source) - 1 if source.isdigit() else -1
        count = factories[k].count(letter) if 0 <= k < len(factories) else 0
        where = f"factory {source}"
    words = f"takes {count} {colour} from {where}"
    if source == "C" and state.get("marker_in_centre"):
        words += " with the start marker"
    if dest == "F":
        return words + " to the floor"
    board = state["boards"][state["turn"]]
    d = int(dest) - 1
    room = d + 1 - len(board["lines"][d]) if 0 <= d < 5 else 0
    words += f" to line {dest}"
    if count > room:
        words += f" ({count - room} to the floor)"
    return words


def layout(ruleset: str) -> dict[str, Any]:
    """The static drawing data of the web page: the wall's colours (None on the gray wall), the
    floor's penalties, the colour names."""
    gray = ruleset == "azul-gray"
    wall = (
        None
        if gray
        else [
            "".join(COLOUR_LETTERS[c] for k in range(5) for c in range(5) if wall_column(d, c) == k)
            for d in range(5)
        ]
    )
    return {
        "wall": wall,
        "floor_loss": list(FLOOR_LOSS),
        "floor_slots": FLOOR_SLOTS,
        "colours": dict(zip(COLOUR_LETTERS, COLOUR_NAMES, strict=True)),
    }


def _tile(letter: str) -> Text:
    return terminal.tiles(letter, TILE_STYLE)


def _tiles(letters: str) -> Text:
    return terminal.tiles(letters, TILE_STYLE)


def _seat_board(
    state: dict[str, Any], seat: int, name: str, wall_pattern: list[str] | None
) -> Table:
    b = state["boards"][seat]
    grid = Table.grid()
    grid.add_column(justify="right")
    grid.add_column()
    grid.add_column()
    for d in range(5):
        line = b["lines"][d]
        pattern = Text(" · " * (d + 1 - len(line)), style="dim")
        pattern.append_text(_tiles(line))
        wall = Text()
        for k, ch in enumerate(b["wall"][d]):
            if ch != ".":
                wall.append_text(_tile(ch))
            elif wall_pattern is not None:
                colour = wall_pattern[d][k]
                wall.append(f" {colour.lower()} ", style=EMPTY_STYLE[colour])
            else:
                wall.append(" · ", style="dim")
        grid.add_row(pattern, Text("│", style="dim"), wall)
    n_floor = min(FLOOR_SLOTS, len(b["floor"]) + b["has_marker"])
    floor = Text("floor ")
    if b["has_marker"]:
        floor.append(" 1 ", style=terminal.MARKER_STYLE)
    floor.append_text(_tiles(b["floor"]))
    floor.append(f"  ({-FLOOR_LOSS[n_floor]})", style="dim")
    return terminal.stacked(terminal.seat_title(state, seat, name), grid, floor)


def board(state: dict[str, Any], names: list[str] | None = None) -> RenderableType:
    """The table as a person sees it: factories, centre, and every seat's board, in colour."""
    names = names or [f"seat {i}" for i in range(state["players"])]
    head = f"{state['ruleset']}  round {state['round']}  "
    if state["phase"] == "over":
        head += "game over"
    elif state["phase"] == "wall":
        head += f"{names[state['turn']]} places pattern line {state['wall_line']} on the wall"
    else:
        head += f"{names[state['turn']]} to move"
    factories, centre = terminal.sources(state, TILE_STYLE)
    centre.append(
        f"    bag {terminal.count(state['bag'])}, lid {terminal.count(state['lid'])}", style="dim"
    )
    pattern = layout(state["ruleset"])["wall"]
    boards = terminal.seats_grid(
        [_seat_board(state, s, names[s], pattern) for s in range(state["players"])]
    )
    return Group(Text(head, style="bold"), factories, centre, Text(""), boards)


def move_cell(state: dict[str, Any], move: str) -> tuple[str, str, str] | None:
    """The move grid's cell of `move`: the tiles taken as the row, the line (or the floor) as
    the column, "+k" when k of them fall to the floor; a gray-wall placement by pattern line
    and wall column."""
    text = move.strip().upper()
    if "@" in text:
        line, _, column = text.partition("@")
        return f"pattern line {line}", f"column {column}", ""
    if len(text) != 3 or text[1] not in COLOUR_LETTERS:
        return None
    taken, _, rest = describe(state, text).removeprefix("takes ").partition(" to ")
    fall = re.search(r"\((\d+) to the floor\)", rest)
    return taken, "floor" if text[2] == "F" else f"line {text[2]}", f"+{fall[1]}" if fall else ""


VIEW = FamilyView(
    "classic",
    describe,
    board,
    layout,
    Path(__file__).with_name("classic.js"),
    move_cell=move_cell,
)
