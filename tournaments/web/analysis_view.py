"""What the viewer draws of a record's `analysis` block (tournaments/domain/analysis): each analysed
move's values, label and best move, with the table as it would be after the best move (the
"show the best move" button draws that frame).

The block is read as hostile input (a record may come from anywhere): a move whose fields are
not of the expected kinds, or whose best move is not legal in its position, is left out, and
the page escapes every string it shows.
"""

from __future__ import annotations

import math
from typing import Any

from referee.engine import EngineError, Game
from tournaments.families import FamilyView

LABELS = ("inaccuracy", "mistake", "blunder")


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _entry(raw: Any, plies: int) -> dict[str, Any] | None:
    """One analysed move, checked: None if any field is not what the analysis writes."""
    if not isinstance(raw, dict):
        return None
    ply, seat = raw.get("ply"), raw.get("seat")
    numbers = {k: _number(raw.get(k)) for k in ("value_played", "value_best", "loss")}
    label = raw.get("label")
    if not (isinstance(ply, int) and 0 <= ply < plies and isinstance(seat, int)):
        return None
    if any(v is None for v in numbers.values()) or label not in (None, *LABELS):
        return None
    if not all(isinstance(raw.get(k), str) and len(raw[k]) <= 16 for k in ("played", "best")):
        return None
    return {
        "ply": ply,
        "seat": seat,
        "played": raw["played"],
        "best": raw["best"],
        **numbers,
        "label": label,
        "exact": bool(raw.get("exact")),
    }


def analysis_data(
    record: dict[str, Any], view: FamilyView, states: list[dict[str, Any]], moves: list[str]
) -> dict[str, Any] | None:
    """The viewer's `analysis` (None when the record has none): the settings, each seat's
    summary, and the analysed moves by ply, each with the best move in words and its frame."""
    block = record.get("analysis")
    if not isinstance(block, dict) or not isinstance(block.get("moves"), list):
        return None
    entries = [e for e in (_entry(m, len(moves)) for m in block["moves"]) if e is not None]
    for entry in entries:
        ply = entry["ply"]
        if entry["seat"] != states[ply]["turn"] or entry["played"] != moves[ply]:
            entry["best"] = entry["played"]  # not this game's move: show no best move
        if entry["best"] != entry["played"]:
            frame = _after(record, ply, entry["best"])
            if frame is None:
                entry["best"] = entry["played"]
            else:
                entry["best_words"] = view.describe(states[ply], entry["best"])
                entry["best_frame"] = frame
    summary = block.get("summary")
    return {
        "budget": _number(block.get("budget")),
        "engine": str(block.get("engine", ""))[:80],
        "summary": [
            {k: s.get(k) for k in ("seat", "decisions", "mean_loss", "accuracy", *LABELS)}
            for s in (summary if isinstance(summary, list) else [])
            if isinstance(s, dict)
        ],
        "moves": {str(e["ply"]): e for e in entries},
    }


def _after(record: dict[str, Any], ply: int, move: str) -> dict[str, Any] | None:
    """The state after `move` in the position before ply `ply` (None: not a legal move there)."""
    try:
        game = Game.from_record(record, upto=ply)
        game.push(game.parse_move(move))
    except (EngineError, ValueError):
        return None
    return game.to_state()
