"""Shared helpers for the tournament tests: fake outcomes for store/ratings unit tests."""

from __future__ import annotations

from tournaments.domain.schedule import ScheduledGame
from tournaments.domain.store import GameOutcome, SeatOutcome

STRENGTH = {"strong": 3, "mid": 2, "weak": 1, "a": 1, "b": 2, "c": 3, "d": 4, "e": 5}


def fake_outcome(game: ScheduledGame, termination: dict[str, str] | None = None) -> GameOutcome:
    """A deterministic outcome: the stronger entry (by STRENGTH) scores more."""
    scores = [10 * STRENGTH.get(n, 1) + (game.index % 4) for n in game.seats]
    ranks = [1 + sum(1 for o in scores if o > s) for s in scores]
    seats = [
        SeatOutcome(
            entry=n,
            score=s,
            rank=r,
            termination=(termination or {}).get(n, "ok"),
            moves=20,
            move_time=0.01,
        )
        for n, s, r in zip(game.seats, scores, ranks, strict=True)
    ]
    return GameOutcome(
        seats=seats,
        record={
            "format": "azul-arena/record/1",
            "players": list(game.seats),
            "final_scores": scores,
        },
        duration=0.05,
    )
