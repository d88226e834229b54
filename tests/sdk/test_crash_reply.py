"""A bot whose choose_move raises says so in `MoveReply.crash` (not a move), and the referee
reads it as a crash: a strike, the process lives on. The older form, a move starting "error: ",
is still read for one release."""

from __future__ import annotations

import random
from typing import Any

from referee.engine import new_game
from referee.protocol import bot_pb2
from sdk.bot import Bot
from sdk.client import answer


class Raising(Bot):
    def choose_move(self, state: Any) -> Any:
        raise KeyError("the move I wanted")


def _runner() -> Any:
    from referee.match import MatchRunner
    from referee.match_types import FaultPolicy

    game = new_game("azul", players=2, seed=1)
    return game, MatchRunner(
        "m", game, [], fault_policy=FaultPolicy.RANDOM, max_strikes=3, rng=random.Random(0)
    )


def test_the_sdk_says_crash_and_names_no_move() -> None:
    game, _ = _runner()
    reply = bot_pb2.MoveReply()
    answer(Raising(), game, [str(m) for m in game.legal_moves()], reply)
    # The exception's last line, and the line of the bot's own code it came from.
    assert reply.crash.startswith("KeyError: 'the move I wanted' (test_crash_reply.py line ")
    assert reply.crash.endswith(", in choose_move)")
    assert reply.WhichOneof("choice") is None


def test_the_referee_reads_crash_and_the_old_error_move_alike() -> None:
    from referee.faults import BotFault, Termination

    game, runner = _runner()
    legal = game.legal_moves()
    for reply in (
        bot_pb2.MoveReply(crash="KeyError: 'x'"),
        bot_pb2.MoveReply(move="error: KeyError: 'x'"),
    ):
        fault = runner._read(reply, legal)
        assert isinstance(fault, BotFault) and fault.kind is Termination.CRASH
        assert fault.detail == "KeyError: 'x'" and not fault.forfeits  # a strike, no more
    memory = runner._read(bot_pb2.MoveReply(crash="MemoryError"), legal)
    assert memory.kind is Termination.MEMORY
