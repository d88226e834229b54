"""Summer Pavilion (pavilion, pavilion-mono) for people: moves in words, the board in colour."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from referee.engine.pavilion import (
    COLOUR_LETTERS,
    COLOUR_NAMES,
    STAR_COLOURS,
    pavilion_ruleset,
)
from tournaments.families import FamilyView, terminal

TILE_STYLE = {
    "P": "bold white on purple",
    "G": "bold white on green4",
    "O": "bold black on dark_orange",
    "Y": "bold black on yellow",
    "B": "bold white on blue",
    "R": "bold white on red",
}


def colour_name(letter: str) -> str:
    return COLOUR_NAMES[COLOUR_LETTERS.index(letter.upper())]


def star_name(ruleset: str, star: int) -> str:
    """ "the centre star", "the blue star" (or "star 4" where the stars have no colour)."""
    if star == 0:
        return "the centre star"
    if pavilion_ruleset(ruleset).monochrome_stars:
        return f"star {star}"
    return f"the {COLOUR_NAMES[STAR_COLOURS[star]]} star"


def _count(n: int, letter: str) -> str:
    return f"{n} {colour_name(letter)}"


def describe(state: dict[str, Any], move: str) -> str:
    """`move` in words from `state` (the state before it); unreadable notation comes back as
    it is."""
    text = move.strip().upper()
    wild = state.get("wild", "")
    if text.startswith("PASS"):
        kept = text.partition(":")[2]
        if not kept:
            return "passes, keeping no tile"
        counts = [_count(kept.count(c), c) for c in COLOUR_LETTERS if c in kept]
        listed = ", ".join(counts[:-1]) + " and " + counts[-1] if len(counts) > 1 else counts[0]
        return "passes, keeping " + listed
    if text.startswith("BONUS:") and len(text) == 7:
        return f"takes a {colour_name(text[6])} bonus tile from the supply"
    if "-" in text:  # <star>-<space><colour>[+<wilds>]
        try:
            star_text, _, rest = text.partition("-")
            star, space, letter = int(star_text), int(rest[0]), rest[1]
            wilds = int(rest.partition("+")[2] or 0)
            cost = pavilion_ruleset(state["ruleset"]).space_numbers[star][space - 1]
        except (ValueError, IndexError):
            return move
        paid = _count(cost - wilds, letter)
        if wilds:
            paid += f" and {wilds} wild {colour_name(wild)}"
        where = star_name(state["ruleset"], star)
        return f"places {colour_name(letter)} on space {space} of {where} (pays {paid})"
    if len(text) == 2 and text[1] in COLOUR_LETTERS:
        source, letter = text[0], text[1]
        if source == "C":
            tiles, where = state["centre"], "the centre"
        elif source.isdigit() and 1 <= int(source) <= len(state["factories"]):
            tiles, where = state["factories"][int(source) - 1], f"factory {source}"
        else:
            return move
        if letter == wild:
            words = f"takes 1 wild {colour_name(wild)}"
        else:
            words = f"takes {_count(tiles.count(letter), letter)}"
            if wild and wild in tiles:
                words += f" and 1 wild {colour_name(wild)}"
        words += f" from {where}"
        if source == "C" and state.get("marker_in_centre"):
            words += " with the start token"
        return words
    return move


def layout(ruleset: str) -> dict[str, Any]:
    """What the page needs to draw the stars: their names and colours, each space's cost."""
    rules = pavilion_ruleset(ruleset)
    stars = []
    for star in range(7):
        colour = None if star == 0 or rules.monochrome_stars else COLOUR_LETTERS[STAR_COLOURS[star]]
        stars.append(
            {
                "name": star_name(ruleset, star).removeprefix("the "),
                "colour": colour,
                "costs": list(rules.space_numbers[star]),
            }
        )
    return {"stars": stars, "colours": dict(zip(COLOUR_LETTERS, COLOUR_NAMES, strict=True))}


def _tiles(letters: str) -> Text:
    return terminal.tiles(letters, TILE_STYLE)


def _seat(state: dict[str, Any], seat: int, name: str) -> Table:
    b = state["boards"][seat]
    costs = pavilion_ruleset(state["ruleset"]).space_numbers
    title = terminal.seat_title(state, seat, name)
    if b["has_marker"]:
        title.append("  start token", style="dim")
    if b["passed"]:
        title.append("  passed", style="yellow")
    grid = Table.grid(padding=(0, 1))
    grid.add_column()
    grid.add_column()
    for star, cells in enumerate(b["stars"]):
        row = Text()
        for k, ch in enumerate(cells):
            if ch == ".":
                row.append(f" {costs[star][k]} ", style="dim")
            else:
                row.append_text(_tiles(ch))
        grid.add_row(Text(star_name(state["ruleset"], star).removeprefix("the "), style="dim"), row)
    hand = Text("tiles ")
    hand.append_text(_tiles(b["tiles"]) if b["tiles"] else Text("-", style="dim"))
    hand.append("   kept ")
    hand.append_text(_tiles(b["kept"]) if b["kept"] else Text("-", style="dim"))
    return terminal.stacked(title, grid, hand)


def board(state: dict[str, Any], names: list[str] | None = None) -> RenderableType:
    """The table as a person sees it: wild colour, factories, centre, supply, every seat."""
    names = names or [f"seat {i}" for i in range(state["players"])]
    head = Text(f"{state['ruleset']}  round {state['round']}/6  wild ", style="bold")
    head.append_text(_tiles(state["wild"]))
    phase = {
        "take": "takes tiles",
        "play": "places a tile or passes",
        "bonus": f"takes {state.get('bonus_owed', 0)} bonus tile(s)",
    }
    head.append(
        "  "
        + (
            "game over"
            if state["phase"] == "over"
            else f"{names[state['turn']]} {phase.get(state['phase'], '')}"
        )
    )
    factories, centre = terminal.sources(state, TILE_STYLE)
    supply = Text("supply: ", style="bold")
    for ch in state["supply"]:
        supply.append_text(_tiles(ch) if ch != "." else Text(" · ", style="dim"))
    supply.append(
        f"    bag {terminal.count(state['bag'])}, depot {terminal.count(state['depot'])}",
        style="dim",
    )
    seats = terminal.seats_grid([_seat(state, s, names[s]) for s in range(state["players"])])
    return Group(head, factories, centre, supply, Text(""), seats)


def move_cell(state: dict[str, Any], move: str) -> tuple[str, str, str] | None:
    """The move grid's cell of `move`: a take by source (row) and colour (column), with the
    tiles it brings as the note; a placement by star (and colour, on the centre star) and
    space, the same place paid with more wilds in the same cell; passes in one cell; a bonus
    tile by colour."""
    text = move.strip().upper()
    if text.startswith("PASS"):
        return "pass (type pass:TILES to keep them, e.g. pass:GGO)", "pass", ""
    if text.startswith("BONUS:") and len(text) == 7:
        return "bonus tile from the supply", colour_name(text[6]), ""
    if "-" in text:
        star_text, _, rest = text.partition("-")
        if not (star_text.isdigit() and len(rest) >= 2 and rest[1] in COLOUR_LETTERS):
            return None
        where = star_name(state["ruleset"], int(star_text)).removeprefix("the ")
        if star_text == "0" or pavilion_ruleset(state["ruleset"]).monochrome_stars:
            where += f", {colour_name(rest[1])}"
        return where, f"space {rest[0]}", ""
    if len(text) != 2 or text[1] not in COLOUR_LETTERS:
        return None
    got, _, where = describe(state, text).removeprefix("takes ").partition(" from ")
    if got.startswith("1 wild"):
        return where, colour_name(text[1]), "(wild)"
    return where, colour_name(text[1]), f"({got.split(' ', 1)[0]}{'+w' if ' wild ' in got else ''})"


VIEW = FamilyView(
    "pavilion",
    describe,
    board,
    layout,
    Path(__file__).with_name("pavilion.js"),
    move_cell=move_cell,
)
