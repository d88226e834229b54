"""A readable text picture of a pavilion game: factories, centre, supply, each seat's stars."""

from __future__ import annotations

from typing import Any

from referee.engine.pavilion.moves import COLOUR_LETTERS, COLOUR_NAMES
from referee.engine.pavilion.rulesets import pavilion_ruleset
from referee.engine.pavilion.tables import STAR_COLOURS

_PHASE_WORDS = {
    "take": "takes tiles",
    "play": "places a tile or passes",
    "bonus": "takes bonus tiles",
}


def render_pavilion(state: dict[str, Any]) -> str:
    """The table as text. On a star an empty space shows its number (the tiles it costs), a
    covered one the letter of its tile."""
    rules = pavilion_ruleset(state["ruleset"])
    wild = state["wild"]
    head = (
        f"{state['ruleset']} | {state['players']} players | round {state['round']}/6 | "
        f"wild {wild} ({COLOUR_NAMES[COLOUR_LETTERS.index(wild)]}) | "
    )
    if state["phase"] == "over":
        head += "game over"
    else:
        head += f"seat {state['turn']} {_PHASE_WORDS[state['phase']]}"
        if state["phase"] == "bonus":
            head += f" ({state['bonus_owed']} owed)"
    factories = "  ".join(f"{i + 1}:{f or '-'}" for i, f in enumerate(state["factories"]))
    centre = state["centre"] or "-"
    if state["marker_in_centre"]:
        centre += " +start token"
    lines = [
        head,
        f"factories  {factories}",
        f"centre     {centre}",
        f"supply     {state['supply']}",
        f"bag {len(state['bag'])} tiles, depot {len(state['depot'])} tiles",
        "",
    ]
    for seat, board in enumerate(state["boards"]):
        notes = []
        if board["has_marker"]:
            notes.append("start token")
        if board["passed"]:
            notes.append("passed")
        note = f"  ({', '.join(notes)})" if notes else ""
        to_move = " <" if seat == state["turn"] else ""
        lines.append(f"seat {seat}  score {board['score']}{note}{to_move}")
        lines.append(f"  tiles {board['tiles'] or '-'}   kept {board['kept'] or '-'}")
        for star, text in enumerate(board["stars"]):
            if rules.monochrome_stars:
                name = "centre" if star == 0 else f"star {star}"
            else:
                name = "centre" if star == 0 else COLOUR_NAMES[STAR_COLOURS[star]]
            spaces = " ".join(
                ch if ch != "." else str(rules.space_numbers[star][k]) for k, ch in enumerate(text)
            )
            lines.append(f"  {star} {name:<7} {spaces}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
