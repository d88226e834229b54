"""Game records of every family: reading them with clear errors, replaying and verifying them.

The parts every family shares live here (the file, the header's players, replaying the moves
round by round); each family reads its own chance outcomes (deals, supply draws) in its `record`
module and rebuilds its game in `from_record`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from referee.engine.errors import EngineError, IllegalMoveError, NotationError, RecordError
from referee.engine.game import Game
from referee.engine.rulesets import FACTORIES_FOR_PLAYERS, Ruleset, get_ruleset

RECORD_FORMAT: Final = "azul-arena/record/1"


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file; RecordError names the file and the line and column of bad JSON."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {p}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{p} is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"{p}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
    if not isinstance(data, dict):
        raise RecordError(f"{p}: a record is a JSON object, not {type(data).__name__}")
    return data


@dataclass
class CommonHeader:
    """What the top of every record says, checked: the ruleset, the seats, the rounds."""

    rules: Ruleset
    names: list[str]
    first_player: int
    rounds: list[dict[str, Any]]

    @property
    def players(self) -> int:
        return len(self.names)


def read_common(record: dict[str, Any], family: str) -> CommonHeader:
    """Check the parts of a record every family shares; `family` is the one expected."""
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    fmt = record.get("format", RECORD_FORMAT)
    if fmt != RECORD_FORMAT:
        raise RecordError(f"format {fmt!r} is not {RECORD_FORMAT!r}")
    ruleset = record.get("ruleset")
    if not isinstance(ruleset, str):
        raise RecordError("missing 'ruleset' (e.g. \"azul\")")
    try:
        rules = get_ruleset(ruleset)
    except EngineError as exc:
        raise RecordError(str(exc)) from None
    if rules.family != family:
        raise RecordError(f"{ruleset} is a ruleset of the {rules.family} family, not {family}")
    players = record.get("players")
    names: list[str]
    if isinstance(players, int) and not isinstance(players, bool):
        names = [f"seat {i}" for i in range(players)]
    elif isinstance(players, list) and all(isinstance(n, str) for n in players):
        names = list(players)
    else:
        raise RecordError("'players' must be a number or a list of names")
    n = len(names)
    if not rules.min_players <= n <= rules.max_players:
        raise RecordError(
            f"{ruleset} is played by {rules.min_players}-{rules.max_players} "
            f"players, the record has {n}"
        )
    first = record.get("first_player", 0)
    if not isinstance(first, int) or not 0 <= first < n:
        raise RecordError(f"'first_player' must be a seat from 0 to {n - 1}")
    rounds = record.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise RecordError(
            '\'rounds\' must be a non-empty list of {"factories": [...], "moves": [...]}'
        )
    for k, rnd in enumerate(rounds, 1):
        if not isinstance(rnd, dict):
            raise RecordError("a round is an object with 'factories' and 'moves'", round=k)
        moves = rnd.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("'moves' must be a list of moves in notation, e.g. \"4K2\"", round=k)
    return CommonHeader(rules, names, first, rounds)


def read_factories(rnd: dict[str, Any], round_no: int, players: int) -> list[Any]:
    """A recorded round's factories: a list with one entry per factory of the game (each
    family checks the entries themselves)."""
    factories = rnd.get("factories")
    if not isinstance(factories, list):
        raise RecordError("'factories' must be a list of strings", round=round_no)
    if len(factories) != FACTORIES_FOR_PLAYERS[players]:
        raise RecordError(
            f"{len(factories)} factories; {players} players use {FACTORIES_FOR_PLAYERS[players]}",
            round=round_no,
        )
    return factories


def first_moves(rounds: list[list[str]], upto: int | None) -> list[list[str]]:
    """Each round's moves, cut after the first `upto` moves of the game (None: all of them);
    RecordError when the record has fewer."""
    if upto is None:
        return rounds
    total = sum(len(moves) for moves in rounds)
    if not 0 <= upto <= total:
        raise RecordError(f"upto={upto}: this record has moves 0 to {total}")
    cut: list[list[str]] = []
    left = upto
    for moves in rounds:
        cut.append(moves[:left])
        left -= len(cut[-1])
        if left == 0:
            break
    return cut


def play_rounds(game: Game, rounds: list[list[str]]) -> None:
    """Push each round's recorded moves into `game`, checking that rounds end where the record
    says. RecordError gives the round, the move's number in that round, the move and the rule."""
    for k, moves in enumerate(rounds, 1):
        if game.is_over():
            raise RecordError("the game was already over", round=k)
        for j, text in enumerate(moves, 1):
            if game.is_over():
                raise RecordError("the game was already over", round=k, move_number=j, move=text)
            if game.round != k:
                raise RecordError(
                    f"round {k} ended after move {j - 1}, yet the record goes on",
                    round=k,
                    move_number=j,
                    move=text,
                )
            try:
                game.push(game.parse_move(text))
            except NotationError as exc:
                raise RecordError(str(exc), round=k, move_number=j, move=text) from None
            except IllegalMoveError as exc:
                raise RecordError(
                    f"{exc.reason} [{exc.rule}]", round=k, move_number=j, move=text, rule=exc.rule
                ) from None
            except RecordError as exc:  # a chance outcome the record lacks or that cannot be
                if exc.round is not None:
                    raise
                raise RecordError(exc.reason, round=k, move_number=j, move=text) from None
        if game.round == k and not game.is_over() and k < len(rounds):
            raise RecordError(
                f"the round is not finished after its {len(moves)} moves, yet "
                "another round follows",
                round=k,
            )


def replay(record: dict[str, Any]) -> Game:
    """Replay a record of any family from its recorded chance outcomes, checking every move.

    Raises RecordError with the round, the move's number in that round and the move, and the
    rule for an illegal move. A record may stop before the game ends: check `is_over()`.
    """
    if not isinstance(record, dict):  # checked here: the compiled engine refuses a non-dict
        raise RecordError("a record is a JSON object")
    return Game.from_record(record)


@dataclass
class Verdict:
    """What `verify` found in one record."""

    ok: bool
    round_scores: list[list[int]]
    final_scores: list[int] | None
    complete: bool
    error: RecordError | None = None
    mismatches: list[str] = field(default_factory=list)


def verify(record: dict[str, Any]) -> Verdict:
    """Replay a record and compare it with the scores it states (if it states any)."""
    try:
        game = replay(record)
    except RecordError as exc:
        return Verdict(False, [], None, False, error=exc)
    round_scores = [list(s) for s in game.round_scores]
    final = list(game.scores) if game.is_over() else None
    mismatches = []
    if "final_scores" in record and record["final_scores"] != final:
        mismatches.append(
            f"the record says final scores {record['final_scores']}, the replay gives {final}"
        )
    stated = record.get("round_scores")
    if isinstance(stated, list) and stated != round_scores:
        mismatches.append(f"the record says round scores {stated}, the replay gives {round_scores}")
    return Verdict(not mismatches, round_scores, final, game.is_over(), mismatches=mismatches)
