"""The analysis of a recorded game: every decision valued by the engine (`engine.value_moves`),
the points the played move lost against the best one, a label, and each seat's summary.

Labels, by the points lost (expected final score margin, best minus played; see engine.py):
an **inaccuracy** from `INACCURACY` points, a **mistake** from `MISTAKE`, a **blunder** from
`BLUNDER`. They were tuned on games between the reference bots (docs/improving.md, "Learning from a
lost game"): a sampled value moves by a point or so between seeds, so an inaccuracy starts
above that noise; a blunder is a round's typical winning margin thrown away in one move.

A seat's **accuracy** is the mean over its decisions of 100 * exp(-loss / ACCURACY_SCALE): 100
for the engine's move every time, about 37 for a decision that lost `ACCURACY_SCALE` points.
A decision with one legal move is no decision: it is left out. A decision the engine cannot
value (an error in its search) is kept, marked `not_valued` with the reason, and left out of the
summary's mean loss and accuracy: one such position costs its own values, not the game's.

The positions valued are the ones the seats saw (`public_position`): the record's later deals are
not part of them, so a line of the search that ends the round otherwise than the game did deals
from its own bag and lid.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any, Final

from referee.engine import Game
from tournaments.domain.analysis.engine import ENGINE_NAME, decision_seed, value_moves

ANALYSIS_FORMAT: Final = "azul-arena/analysis/2"  # 2: not_valued
INACCURACY: Final = 2.0
MISTAKE: Final = 5.0
BLUNDER: Final = 10.0
LABELS: Final = ("inaccuracy", "mistake", "blunder")
ACCURACY_SCALE: Final = 6.0


@dataclass(frozen=True)
class Decision:
    """One analysed move (the keys of `--json`'s `moves`)."""

    ply: int  # 0-based: the move's index in the game
    seat: int
    played: str
    best: str | None  # None, and the values too, where `not_valued`
    value_played: float | None
    value_best: float | None
    loss: float | None
    label: str | None
    exact: bool
    not_valued: str | None = None  # why the engine could not value this decision


def label_of(loss: float) -> str | None:
    """The label of a decision that lost `loss` points (None: a good move)."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def public_position(game: Any) -> Any:
    """`game` as its seat to move saw it: rebuilt from its public state, without the record's
    later deals. A game replayed from a record deals the recorded tiles at each round's start,
    whatever the lid holds; a search line that ends the round otherwise (other tiles to the lid)
    cannot take them, and the engine refuses it. Rebuilt, each line deals from its own bag and
    lid. That deal is past the horizon (engine.py: a value is read at the round's end, which the
    deal does not change), so the fixed seed of the bag order changes no value."""
    return game.from_state(game.to_state(), 0)


def positions(record: dict[str, Any]) -> list[tuple[Any, Any]]:
    """(position before the move, as `public_position`, the move) for every move of `record`
    (RecordError if it does not replay)."""
    game = Game.from_record(record, upto=0)
    full = Game.from_record(record)  # checks the whole record first: a clear error, nothing lost
    texts = [m for rnd in record["rounds"] for m in rnd.get("moves", [])]
    out = []
    for text in texts:
        move = game.parse_move(text)
        out.append((public_position(game), move))
        game.push(move)
    assert game.scores == full.scores
    return out


def analyse_position(state: Any, move: Any, ply: int, budget: int, seed: int) -> Decision:
    """One decision: the engine's values of the played move and of the best one; where the
    engine fails, a decision marked `not_valued` with the reason (the error's type and text)."""
    try:
        found = value_moves(state, budget, decision_seed(seed, ply), include=(move,))
    except Exception as exc:  # any failure, bug or refusal: reported in its decision, not fatal
        reason = f"{type(exc).__name__}: {exc}"
        return Decision(ply, state.turn, str(move), None, None, None, None, None, False, reason)
    played, best = str(move), found.best
    value_played, value_best = found.value(played), found.value(best)
    loss = round(value_best - value_played, 2)
    if loss <= 0:  # the played move is as good (to the hundredth of a point): it is the best
        best, value_best, loss = played, value_played, 0.0
    return Decision(
        ply,
        state.turn,
        played,
        best,
        round(value_played, 2),
        round(value_best, 2),
        loss,
        label_of(loss),
        found.exact,
    )


def decisions_to_analyse(
    record: dict[str, Any], seats: Iterable[int] | None = None
) -> list[tuple[int, Any, Any]]:
    """(ply, position, move) of each decision to analyse: more than one legal move, and the
    seat among `seats` (None: every seat)."""
    wanted = None if seats is None else set(seats)
    return [
        (ply, state, move)
        for ply, (state, move) in enumerate(positions(record))
        if len(state.legal_moves()) > 1 and (wanted is None or state.turn in wanted)
    ]


def analysis_block(
    decisions: list[Decision], players: int, budget: int, seed: int
) -> dict[str, Any]:
    """The record's `analysis` block (and `--json`'s body) from its decisions."""
    return {
        "format": ANALYSIS_FORMAT,
        "engine": ENGINE_NAME,
        "budget": budget,
        "seed": seed,
        "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
        "moves": [asdict(d) for d in sorted(decisions, key=lambda d: d.ply)],
        "summary": summary(decisions, players),
    }


def summary(decisions: list[Decision], players: int) -> list[dict[str, Any]]:
    """Per seat: decisions valued, mean loss, the count of each label, accuracy (0-100), and
    the decisions the engine could not value."""
    out = []
    for seat in range(players):
        mine = [d for d in decisions if d.seat == seat]
        losses = [d.loss for d in mine if d.loss is not None]
        accuracy = (
            100 * sum(math.exp(-x / ACCURACY_SCALE) for x in losses) / len(losses)
            if losses
            else None
        )
        out.append(
            {
                "seat": seat,
                "decisions": len(losses),
                "mean_loss": round(sum(losses) / len(losses), 2) if losses else None,
                **{label: sum(d.label == label for d in mine) for label in LABELS},
                "accuracy": None if accuracy is None else round(accuracy, 1),
                "not_valued": len(mine) - len(losses),
            }
        )
    return out


def annotate(record: dict[str, Any], analysis: dict[str, Any]) -> dict[str, Any]:
    """A copy of `record` with its `analysis` block (which `replay verify` ignores)."""
    return {**record, "analysis": analysis}


def seat_accuracies(record: dict[str, Any]) -> list[float | None]:
    """Each seat's accuracy in the `analysis` block of `record` (None: not analysed), read as
    hostile input: anything but a number in 0..100 counts as not analysed."""
    block = record.get("analysis")
    summary = block.get("summary") if isinstance(block, dict) else None
    players = record.get("players")
    seats = (
        len(players) if isinstance(players, list) else players if isinstance(players, int) else 0
    )
    out: list[float | None] = [None] * seats
    for item in summary if isinstance(summary, list) else []:
        seat = item.get("seat") if isinstance(item, dict) else None
        value = item.get("accuracy") if isinstance(item, dict) else None
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        if isinstance(seat, int) and 0 <= seat < seats and 0 <= value <= 100:
            out[seat] = float(value)
    return out
