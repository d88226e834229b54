"""`Game.from_record(record, upto=N)`: the position before move N (0-based) of a recorded game,
for a bot author's unit test, in every family."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine import Game, RecordError, replay

RECORDS = Path(__file__).parent / "records"


@pytest.mark.parametrize(
    "name", ["good-azul", "good-azul-gray", "good-pavilion", "good-pavilion-mono"]
)
def test_every_position_of_a_record_and_the_move_played_there(name: str) -> None:
    record = json.loads((RECORDS / f"{name}.json").read_text())
    moves = [m for rnd in record["rounds"] for m in rnd["moves"]]
    for n, text in enumerate(moves):
        before = Game.from_record(record, upto=n)
        assert not before.is_over()
        assert before.parse_move(text) in before.legal_moves(), n
        if n % 17 == 0:  # pushing the recorded move gives the next position
            before.push(before.parse_move(text))
            assert before.to_state() == Game.from_record(record, upto=n + 1).to_state()
    assert Game.from_record(record, upto=len(moves)).to_state() == replay(record).to_state()
    with pytest.raises(
        RecordError, match=f"upto={len(moves) + 1}: this record has moves 0 to {len(moves)}"
    ):
        Game.from_record(record, upto=len(moves) + 1)
