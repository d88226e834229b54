"""Game records: reading them with clear errors, and replaying them from their recorded deals."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.engine.classic import FACTORIES_FOR_PLAYERS, RECORD_FORMAT, ClassicGame
from referee.engine.classic_moves import COLOUR_LETTERS
from referee.engine.errors import EngineError, IllegalMoveError, NotationError, RecordError
from referee.engine.rulesets import get_ruleset


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
        raise RecordError(f"{p}: not valid JSON at line {exc.lineno}, column {exc.colno}: "
                          f"{exc.msg}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{p}: a record is a JSON object, not {type(data).__name__}")
    return data


@dataclass
class RecordHeader:
    """The checked top of a record."""

    ruleset: str
    players: int
    names: list[str]
    first_player: int
    rounds: list[tuple[list[int], list[str]]] = field(default_factory=list)


def _factory_code(text: Any, round_no: int, index: int) -> int:
    if not isinstance(text, str):
        raise RecordError(f"factory {index} must be a string of tile letters such as 'RWYY'",
                          round=round_no)
    if len(text) > 4:
        raise RecordError(f"factory {index} holds {len(text)} tiles; a factory holds at most 4",
                          round=round_no)
    code = 0
    for ch in text.upper():
        c = COLOUR_LETTERS.find(ch)
        if c < 0:
            raise RecordError(f"factory {index}: {ch!r} is not a tile colour (use B Y R K W)",
                              round=round_no)
        code += 1 << (3 * c)
    return code


def read_header(record: dict[str, Any]) -> RecordHeader:
    """Check a record's structure (not yet its moves) and return what it says."""
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
        raise RecordError(f"{ruleset} is played by {rules.min_players}-{rules.max_players} "
                          f"players, the record has {n}")
    first = record.get("first_player", 0)
    if not isinstance(first, int) or not 0 <= first < n:
        raise RecordError(f"'first_player' must be a seat from 0 to {n - 1}")
    rounds = record.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise RecordError("'rounds' must be a non-empty list of {\"factories\": [...], "
                          "\"moves\": [...]}")
    header = RecordHeader(ruleset, n, names, first)
    for k, rnd in enumerate(rounds, 1):
        if not isinstance(rnd, dict):
            raise RecordError("a round is an object with 'factories' and 'moves'", round=k)
        factories = rnd.get("factories")
        if not isinstance(factories, list):
            raise RecordError("'factories' must be a list of strings", round=k)
        if len(factories) != FACTORIES_FOR_PLAYERS[n]:
            raise RecordError(f"{len(factories)} factories; {n} players use "
                              f"{FACTORIES_FOR_PLAYERS[n]}", round=k)
        moves = rnd.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("'moves' must be a list of moves in notation, e.g. \"4K2\"",
                              round=k)
        codes = [_factory_code(f, k, i + 1) for i, f in enumerate(factories)]
        header.rounds.append((codes, moves))
    return header


def replay(record: dict[str, Any]) -> ClassicGame:
    """Replay a record from its recorded deals, checking every move.

    Raises RecordError with the round, the move's number in that round and the move, and the
    rule for an illegal move. A record may stop before the game ends: check `is_over()`.
    """
    header = read_header(record)
    deals = [codes for codes, _ in header.rounds]
    game = ClassicGame(header.ruleset, header.players, seed=0, first_player=header.first_player,
                       deals=deals)
    for k, (_, moves) in enumerate(header.rounds, 1):
        if game.is_over():
            raise RecordError("the game was already over", round=k)
        for j, text in enumerate(moves, 1):
            if game.is_over():
                raise RecordError("the game was already over", round=k, move_number=j, move=text)
            if game.round != k:
                raise RecordError(f"round {k} ended after move {j - 1}, yet the record goes on",
                                  round=k, move_number=j, move=text)
            try:
                game.push(game.parse_move(text))
            except NotationError as exc:
                raise RecordError(str(exc), round=k, move_number=j, move=text) from None
            except IllegalMoveError as exc:
                raise RecordError(f"{exc.reason} [{exc.rule}]", round=k, move_number=j, move=text,
                                  rule=exc.rule) from None
        if game.round == k and not game.is_over() and k < len(header.rounds):
            raise RecordError(f"the round is not finished after its {len(moves)} moves, yet "
                              "another round follows", round=k)
    return game


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
        mismatches.append(f"the record says final scores {record['final_scores']}, "
                          f"the replay gives {final}")
    stated = record.get("round_scores")
    if isinstance(stated, list) and stated != round_scores:
        mismatches.append(f"the record says round scores {stated}, the replay gives "
                          f"{round_scores}")
    return Verdict(not mismatches, round_scores, final, game.is_over(), mismatches=mismatches)
