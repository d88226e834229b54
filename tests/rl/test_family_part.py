"""A family brings its RL encoding through its descriptor (`Family(..., rl="module")`, whose
ENCODING the environments use), here a pure-Python one for the toy family azul-tiny; without
one, the environments say the family has none yet."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import sdk.rl
from referee.engine import FAMILIES, RULESETS, Game, register
from referee.engine.game import ENGINES
from sdk.rl.encoding import Encoding, Field, Writer, encoding_for
from tests.families.tiny.family import NOTATION, TINY

MOVES = tuple(sorted(NOTATION))  # the toy's moves are their notation: action i is MOVES[i]


def write(game: Game, seat: int, out: Any, at: int) -> None:
    """Scores / 10 and the seat to move, seen from `seat`."""
    for r in range(2):
        out[at + r] = game.scores[(seat + r) % 2] / 10
    if not game.is_over():
        out[at + 2 + (game.turn - seat) % 2] = 1.0


def mark(game: Game, out: Any, at: int) -> None:
    """The mask by the moves' notation (the toy's moves have no index)."""
    for move in game.legal_moves():
        out[at + MOVES.index(move)] = 1


class TinyEncoding(Encoding):
    family = "tiny"
    fields = (
        Field("scores", (2,), 0, 1, "score of each seat / 10, you first"),
        Field("to_move", (2,), 0, 1, "one-hot: the seat to move"),
    )
    moves = MOVES
    writer = Writer(write, mark, (("scores", 2), ("to_move", 2)))


ENCODING = TinyEncoding


@pytest.fixture
def tiny() -> Iterator[None]:
    """azul-tiny registered as its descriptor says (no RL encoding), and gone after the test."""
    register(TINY)
    yield
    del FAMILIES["tiny"], ENGINES["tiny"], RULESETS["azul-tiny"]
    encoding_for.cache_clear()


def test_a_family_without_an_encoding_is_refused_saying_so(tiny: None) -> None:
    for make in (lambda: sdk.rl.env("azul-tiny"), lambda: sdk.rl.VectorEnv(2, "azul-tiny")):
        with pytest.raises(ValueError, match="tiny family, which has no RL encoding yet") as e:
            make()
        assert "Family(..., rl=" in str(e.value)  # what to do about it


def test_the_encoding_named_by_the_descriptor_is_the_one_used(tiny: None) -> None:
    register(dataclasses.replace(TINY, rl=__name__))
    vec = sdk.rl.VectorEnv(3, "azul-tiny", seed=1)
    obs, info = vec.reset()
    assert isinstance(vec.encoding, TinyEncoding) and obs.shape == (3, 4)
    for _ in range(12):
        for row, mask, game in zip(obs, info["action_mask"], vec.games, strict=True):
            assert row[2] == 1.0  # the observation is the seat to move's
            assert [MOVES[i] for i in np.flatnonzero(mask)] == sorted(game.legal_moves())
        obs, _, _, _, info = vec.step(np.argmax(info["action_mask"], axis=1))


def test_fields_that_are_not_what_the_writer_writes_are_refused() -> None:
    class Stale(TinyEncoding):
        fields = (TinyEncoding.fields[0], Field("round", (2,), 0, 1, "not what is written"))

    with pytest.raises(RuntimeError, match="are not those written"):
        Stale(2)
