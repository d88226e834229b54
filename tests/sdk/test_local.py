"""Local play (sdk/local.py): a bot sees what it would see under the referee, the position and
nothing more: its game's future deals are not the real game's."""

from __future__ import annotations

import random
from typing import Any

from sdk.bot import Bot
from sdk.local import play_local


class Foresight(Bot):
    """Plays random moves, and at its first move of round 1 plays its own copy of the state to
    the end of the round, noting the factories it would deal next."""

    name = "foresight"
    rulesets = ("azul", "pavilion")

    def __init__(self) -> None:
        super().__init__()
        self.foreseen: list[Any] = []
        self.states: list[dict[str, Any]] = []

    def choose_move(self, state: Any) -> Any:
        if not self.foreseen:
            self.states.append(state.to_state())
            sim = state.copy()
            rng = random.Random(0)
            while sim.round == 1 and not sim.is_over():
                sim.push(rng.choice(sim.legal_moves()))
            self.foreseen.append(sim.to_state()["factories"])
        return self.rng.choice(state.legal_moves())


def test_a_local_bot_sees_the_position_but_not_the_real_deals() -> None:
    for ruleset in ("azul", "pavilion"):
        spy = Foresight()
        result = play_local([spy, Foresight()], ruleset=ruleset, seed=5, time_per_move=5.0)
        first_move_position = spy.states[0]
        # The position it was given is the game's, key for key (the public state).
        assert first_move_position["factories"] == result.record["rounds"][0]["factories"]
        # The next deal its copy dealt is not the one the real game dealt.
        assert spy.foreseen[0] != result.record["rounds"][1]["factories"], ruleset
