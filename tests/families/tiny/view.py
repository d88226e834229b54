"""azul-tiny for people: its moves in words, its table in a terminal, its viewer renderer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from tournaments.families import FamilyView

NAMES = {"R": "red", "G": "green", "B": "blue"}


def describe(state: dict[str, Any], move: str) -> str:
    """ "takes 2 red from the factory" """
    src, colour = move[0], move[1]
    tiles = state["factories"][0] if src == "F" else state["centre"]
    where = "the factory" if src == "F" else "the centre"
    return f"takes {tiles.count(colour)} {NAMES[colour]} from {where}"


def board(state: dict[str, Any], names: list[str] | None = None) -> RenderableType:
    names = names or [f"seat {i}" for i in range(state["players"])]
    lines = [f"factory {state['factories'][0] or '-'}  centre {state['centre'] or '-'}"]
    for name, b in zip(names, state["boards"], strict=True):
        lines.append(f"{name}: wall {b['wall']}  score {b['score']}")
    return Text("\n".join(lines))


def layout(ruleset: str) -> dict[str, Any]:
    return {"colours": NAMES}


VIEW = FamilyView("tiny", describe, board, layout, Path(__file__).with_name("tiny.js"))
