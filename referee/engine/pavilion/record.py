"""Pavilion records: the chance outcomes (initial supply, deals, supply refills) checked and
decoded, and the options (the wild order)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.engine.errors import EngineError, RecordError
from referee.engine.pavilion.moves import COLOUR_LETTERS
from referee.engine.pavilion.tables import STANDARD_WILD_ORDER, SUPPLY_SPACES, check_wild_order
from referee.engine.record import read_common, read_factories


@dataclass
class PavilionHeader:
    """The checked top of a pavilion record."""

    ruleset: str
    players: int
    names: list[str]
    first_player: int
    wild_order: str
    supply: str
    deals: list[list[int]] = field(default_factory=list)
    refills: list[list[str]] = field(default_factory=list)
    moves: list[list[str]] = field(default_factory=list)


def _tiles(text: Any, what: str, round_no: int | None, most: int) -> str:
    if not isinstance(text, str):
        raise RecordError(f"{what} must be a string of tile letters such as 'PGOY'", round=round_no)
    tiles = str(text).upper()
    bad = [ch for ch in tiles if ch not in COLOUR_LETTERS]
    if bad:
        raise RecordError(
            f"{what}: {bad[0]!r} is not a tile colour (use P G O Y B R)", round=round_no
        )
    if len(tiles) > most:
        raise RecordError(f"{what} holds {len(tiles)} tiles; at most {most}", round=round_no)
    return tiles


def _factory_code(text: str) -> int:
    return sum(1 << (3 * COLOUR_LETTERS.index(ch)) for ch in text)


def read_pavilion_header(record: dict[str, Any]) -> PavilionHeader:
    """Check a pavilion record's structure (not yet its moves) and return what it says."""
    common = read_common(record, "pavilion")
    n = common.players
    options = record.get("options", {})
    if not isinstance(options, dict):
        raise RecordError('\'options\' must be an object such as {"wild_order": "PGOYBR"}')
    unknown = sorted(set(options) - {"wild_order"})
    if unknown:
        raise RecordError(f"unknown option(s) {', '.join(unknown)}; pavilion has wild_order")
    try:
        wild_order = check_wild_order(options.get("wild_order", STANDARD_WILD_ORDER))
    except EngineError as exc:
        raise RecordError(str(exc)) from None
    supply = _tiles(record.get("supply"), "'supply' (the initial supply)", None, SUPPLY_SPACES)
    header = PavilionHeader(
        common.rules.name, n, common.names, common.first_player, wild_order, supply
    )
    for k, rnd in enumerate(common.rounds, 1):
        factories = read_factories(rnd, k, n)
        header.deals.append(
            [_factory_code(_tiles(f, f"factory {i + 1}", k, 4)) for i, f in enumerate(factories)]
        )
        refills = rnd.get("refills", [])
        if not isinstance(refills, list):
            raise RecordError(
                "'refills' must be a list of strings: the tiles drawn into the "
                "supply after each bonus turn, in order",
                round=k,
            )
        header.refills.append(
            [_tiles(r, f"supply refill {i + 1}", k, SUPPLY_SPACES) for i, r in enumerate(refills)]
        )
        header.moves.append(list(rnd.get("moves", [])))
    return header
