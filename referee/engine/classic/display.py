"""A readable text picture of a classic game: factories, centre, and each seat's board."""

from __future__ import annotations

from typing import Any

from referee.engine.classic.tables import FLOOR_LOSS, FLOOR_SLOTS, wall_column

COLOUR_LETTERS = "BYRKW"


def render_classic(state: dict[str, Any]) -> str:
    """The table as text. On the coloured wall an empty space shows its colour in lower case."""
    gray = state["ruleset"] == "azul-gray"
    head = f"{state['ruleset']} | {state['players']} players | round {state['round']} | "
    if state["phase"] == "over":
        head += "game over"
    elif state["phase"] == "wall":
        head += f"seat {state['turn']} places pattern line {state['wall_line']} on the wall"
    else:
        head += f"seat {state['turn']} to move"
    factories = "  ".join(f"{i + 1}:{f or '-'}" for i, f in enumerate(state["factories"]))
    centre = state["centre"] or "-"
    if state["marker_in_centre"]:
        centre += " +start marker"
    lines = [
        head,
        f"factories  {factories}",
        f"centre     {centre}",
        f"bag {len(state['bag'])} tiles, lid {len(state['lid'])} tiles",
        "",
    ]
    for seat, board in enumerate(state["boards"]):
        marker = "  (start marker)" if board["has_marker"] else ""
        to_move = " <" if seat == state["turn"] else ""
        lines.append(f"seat {seat}  score {board['score']}{marker}{to_move}")
        for d in range(5):
            line = board["lines"][d]
            pattern = ("." * (d + 1 - len(line)) + line).rjust(5)
            row = board["wall"][d]
            if not gray:
                row = "".join(
                    ch if ch != "." else COLOUR_LETTERS[c].lower()
                    for k, ch in enumerate(row)
                    for c in range(5)
                    if wall_column(d, c) == k
                )
            lines.append(f"  {d + 1} {pattern} | {' '.join(row)}")
        n_floor = min(FLOOR_SLOTS, len(board["floor"]) + board["has_marker"])
        floor = ("1" if board["has_marker"] else "") + board["floor"]
        lines.append(f"  floor {floor or '-'} ({-FLOOR_LOSS[n_floor]})")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
