"""Play a recorded game again (`azul-arena replay rerun`): the same entries in the same seats, the
same deals, the same bot seeds and game id, and find the first move where a bot chose otherwise.

A bot whose moves depend only on the position and its seed (`self.rng`; the built-in search
bots at a fixed budget) plays the game again move for move: no difference. A bot that reads the
clock, or a new version of a bot put in its seat, shows where it parts from the record; the
rest of the game is then played out on the recorded deals, so a fixed bot's result can be set
beside the one it had ("would my fix have won?").
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee import Arena, MatchConfig, MatchResult, Termination, final_ranks
from referee.engine import Game, RecordError


class RerunError(ValueError):
    """A record that cannot be played again: the message says why."""


@dataclass
class Difference:
    """The first move (0-based, over the whole game) where the rerun left the record."""

    ply: int
    seat: int
    name: str
    recorded: str
    played: str
    # Whether the referee chose that move for a faulty seat (then it is no bot's choice).
    recorded_substituted: bool = False
    played_substituted: bool = False


@dataclass
class Rerun:
    """What a rerun found."""

    names: list[str]
    entries: list[str]
    moves: int  # moves the record has
    difference: Difference | None
    recorded_scores: list[int]
    recorded_ranks: list[int]
    result: MatchResult
    swapped: int | None = None  # the seat whose entry was replaced
    notes: list[str] = dataclasses.field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "names": self.names,
            "entries": self.entries,
            "moves": self.moves,
            "same": self.difference is None,
            "first_difference": (
                dataclasses.asdict(self.difference) if self.difference is not None else None
            ),
            "recorded_scores": self.recorded_scores,
            "scores": self.result.scores,
            "recorded_ranks": self.recorded_ranks,
            "ranks": self.result.ranks,
            "swapped_seat": self.swapped,
            "notes": self.notes,
            "terminations": [s.termination for s in self.result.seats],
            "logs": [s.log_path for s in self.result.seats],
        }


def moves_of(record: dict[str, Any]) -> list[str]:
    """Every move of a record in order, over all its rounds."""
    return [str(m) for rnd in record.get("rounds", []) for m in rnd.get("moves", [])]


def movers(record: dict[str, Any]) -> list[int]:
    """The seat that made each move of a record (replayed from its chance outcomes)."""
    game = Game.from_record(record, upto=0)
    seats = []
    for text in moves_of(record):
        seats.append(game.turn)
        game.push(game.parse_move(text))
    return seats


def first_difference(recorded: dict[str, Any], played: dict[str, Any]) -> Difference | None:
    """Where `played` first leaves `recorded` (a rerun of it), or None when it never does."""
    old, new = moves_of(recorded), moves_of(played)
    ply = next(
        (i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b),
        min(len(old), len(new)),
    )
    if ply == len(old) == len(new):
        return None
    seats = movers(recorded if ply < len(old) else played)
    names = list(recorded.get("players") or [])
    seat = seats[ply] if ply < len(seats) else -1
    return Difference(
        ply=ply,
        seat=seat,
        name=names[seat] if 0 <= seat < len(names) else f"seat {seat}",
        recorded=old[ply] if ply < len(old) else "(the game had ended)",
        played=new[ply] if ply < len(new) else "(the game had ended)",
        recorded_substituted=ply in recorded.get("referee", {}).get("substituted", []),
        played_substituted=ply in played.get("referee", {}).get("substituted", []),
    )


def rerun_config(record: dict[str, Any], time_limit: bool = True) -> tuple[MatchConfig, list[str]]:
    """The match settings a record was played with (and notes on what it did not record)."""
    referee = record.get("referee")
    if not isinstance(referee, dict) or not isinstance(referee.get("config"), dict):
        raise RerunError(
            "this record has no referee part (it was not played through the "
            "referee): there is nothing to play again"
        )
    stored = referee["config"]
    known = {f.name for f in dataclasses.fields(MatchConfig)}
    settings = {k: v for k, v in stored.items() if k in known}
    for key in ("seat_time_per_move", "bot_seeds"):
        if key in settings:
            settings[key] = tuple(settings[key])
    notes = []
    if not settings.get("bot_seeds"):
        notes.append(
            "the record holds no bot seeds (played before bots had them): the bots "
            "get seeds derived from the deal's seed and the game id"
        )
    settings["time_limit"] = time_limit
    try:
        return MatchConfig(**settings), notes
    except (TypeError, ValueError) as exc:
        raise RerunError(f"this record's settings cannot be played again: {exc}") from None


async def rerun(
    record: dict[str, Any],
    specs: dict[str, str] | None = None,
    *,
    isolation: str | None = None,
    time_limit: bool = True,
    swap: tuple[int, str] | None = None,
    log_dir: Path | None = None,
    arena_options: dict[str, Any] | None = None,
) -> Rerun:
    """Play `record` again. `specs` gives each seat name's entry (from the tournament's
    database; None: the entries the record names); `swap` (seat, entry) puts another bot in
    one seat; `arena_options`: how the tournament ran its bots (tournaments.domain.arena
    .arena_options: variables, memory limits, ponder)."""
    try:
        final = Game.from_record(record)  # every move checked, its deals read
    except RecordError as exc:
        raise RerunError(f"this record cannot be replayed: {exc}") from None
    config, notes = rerun_config(record, time_limit)
    names = [str(n) for n in record.get("players") or []]
    referee = record["referee"]
    recorded_entries = [str(e) for e in referee.get("entries") or names]
    if not 2 <= len(names) == len(recorded_entries):
        raise RerunError("this record does not say which bot sat in each seat")
    entries = [(specs or {}).get(n, e) for n, e in zip(names, recorded_entries, strict=True)]
    seats = list(names)
    if swap is not None:
        seat, entry = swap
        if not 0 <= seat < len(names):
            raise RerunError(f"--seat {seat}: this game has seats 0 to {len(names) - 1}")
        entries[seat] = entry
        if names.count(names[seat]) > 1:  # the entry sits elsewhere too: another name here
            seats[seat] = f"{names[seat]}@rerun"
    match_id = str(referee.get("match_id") or record.get("game_id") or "")
    options = {**(arena_options or {}), "isolation": isolation}
    async with Arena(dict(zip(seats, entries, strict=True)), log_dir=log_dir, **options) as arena:
        result = await arena.play(seats, config, match_id=match_id or None)
    result.record["players"] = names
    forfeited = [
        b.get("termination", Termination.OK) != Termination.OK for b in referee.get("bots") or []
    ]
    ranks = final_ranks(
        final.ranks(), forfeited if len(forfeited) == len(names) else [False] * len(names)
    )
    return Rerun(
        names,
        entries,
        len(moves_of(record)),
        first_difference(record, result.record),
        list(final.scores),
        ranks,
        result,
        swap[0] if swap else None,
        notes,
    )
