"""Classic records: the recorded deals (factory contents of each round) checked and decoded."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.engine.classic.moves import COLOUR_LETTERS
from referee.engine.errors import RecordError
from referee.engine.record import read_common, read_factories


@dataclass
class RecordHeader:
    """The checked top of a classic record."""

    ruleset: str
    players: int
    names: list[str]
    first_player: int
    rounds: list[tuple[list[int], list[str]]] = field(default_factory=list)


def _factory_code(text: Any, round_no: int, index: int) -> int:
    if not isinstance(text, str):
        raise RecordError(
            f"factory {index} must be a string of tile letters such as 'RWYY'", round=round_no
        )
    if len(text) > 4:
        raise RecordError(
            f"factory {index} holds {len(text)} tiles; a factory holds at most 4", round=round_no
        )
    code = 0
    for ch in text.upper():
        c = COLOUR_LETTERS.find(ch)
        if c < 0:
            raise RecordError(
                f"factory {index}: {ch!r} is not a tile colour (use B Y R K W)", round=round_no
            )
        code += 1 << (3 * c)
    return code


def read_header(record: dict[str, Any]) -> RecordHeader:
    """Check a classic record's structure (not yet its moves) and return what it says."""
    common = read_common(record, "classic")
    n = common.players
    header = RecordHeader(common.rules.name, n, common.names, common.first_player)
    for k, rnd in enumerate(common.rounds, 1):
        factories = read_factories(rnd, k, n)
        codes = [_factory_code(f, k, i + 1) for i, f in enumerate(factories)]
        header.rounds.append((codes, list(rnd.get("moves", []))))
    return header
