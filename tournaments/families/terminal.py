"""Pieces of a terminal board every family draws the same way: tiles, sources, seat headings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

MARKER_STYLE = "bold black on white"


def tiles(letters: str, styles: Mapping[str, str]) -> Text:
    """Each tile as its letter on its colour."""
    out = Text()
    for ch in letters:
        out.append(f" {ch} ", style=styles.get(ch, "bold"))
    return out


def sources(state: dict[str, Any], styles: Mapping[str, str]) -> tuple[Text, Text]:
    """The factories on one line, the centre (with the start marker) on the next."""
    factories = Text()
    for i, f in enumerate(state["factories"]):
        factories.append(f"{i + 1}:", style="bold")
        factories.append_text(tiles(f, styles) if f else Text(" - ", style="dim"))
        factories.append("  ")
    centre = Text("centre: ", style="bold")
    # The start marker is a tile marked 1 (the first to take from the centre takes it): said in
    # words beside it, as the glyph alone means nothing without colour or to a newcomer.
    if state["marker_in_centre"]:
        centre.append(" 1 ", style=MARKER_STYLE)
    if state["centre"]:
        centre.append_text(tiles(state["centre"], styles))
    if state["marker_in_centre"]:
        centre.append(" (1: start marker)" if state["centre"] else " start marker, no tiles yet")
    elif not state["centre"]:
        centre.append("empty", style="dim")
    return factories, centre


def count(value: str | int) -> int:
    """A tile pile's size, given as its letters (engine states) or its count (viewer frames)."""
    return len(value) if isinstance(value, str) else value


def seat_title(state: dict[str, Any], seat: int, name: str) -> Text:
    """ "▶ seat 1 bob   score 12": the seat to move is marked."""
    to_move = state["phase"] != "over" and state["turn"] == seat
    title = Text(f"{'▶ ' if to_move else ''}seat {seat} {name}", style="bold" if to_move else "")
    title.append(f"   score {state['boards'][seat]['score']}", style="bold cyan")
    return title


def stacked(*rows: RenderableType) -> Table:
    table = Table.grid()
    for row in rows:
        table.add_row(row)
    return table


def seats_grid(boards: list[RenderableType]) -> Table:
    """Seats' boards two by two."""
    grid = Table.grid(padding=(0, 4))
    for _ in boards[:2]:
        grid.add_column()
    for k in range(0, len(boards), 2):
        grid.add_row(*boards[k : k + 2])
    return grid
