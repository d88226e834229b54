"""`ask_in_turn`: the referee's sessions asking real SDK bots for moves in turn with no match (the
floor the benchmarks set beside the referee's games); real Arena, real bot processes."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from referee import Arena, Asked, BotSettings, ask_in_turn, run_loop
from referee.cgroups import layout
from referee.protocol import bot_pb2
from tournaments.benchmarks.latency import sample_payload

INSTANT = str(Path(__file__).parents[2] / "bots" / "first_bot.py")


def test_two_games_ask_their_bots_in_turn_and_count_the_cpu(tmp_path: Path) -> None:
    async def go() -> tuple[Asked, list[bool], int]:
        async with Arena({"first": INSTANT}, log_dir=tmp_path) as arena:
            payload = await sample_payload()
            asked = await ask_in_turn(arena, ["first", "first"], payload, games=2, moves=30, warm=5)
            await asyncio.sleep(0.05)  # past the longest grace: every bot rests frozen
            frozen = [bool(w.process and w.process.frozen) for w in arena.pool.items()]
            return asked, frozen, arena.pool.idle("first")

    asked, frozen, idle = run_loop(go())
    assert asked.moves == len(asked.round_trips) == 60
    assert all(0 < t < 1 for t in asked.round_trips)
    # Each game's wall time holds its own round trips, and the process ran for them.
    assert asked.wall >= sum(asked.round_trips) and asked.cpu > 0
    if layout() is None:
        assert asked.bot_cpu is None
    else:
        assert asked.bot_cpu is not None and asked.bot_cpu > 0
    # The four bots are back in the pool, frozen between moves as in a game.
    assert idle == 4 and frozen == [True] * 4


def test_pondering_bots_are_never_frozen(tmp_path: Path) -> None:
    async def go() -> list[bool]:
        bots = BotSettings(ponder=True)
        async with Arena({"first": INSTANT}, log_dir=tmp_path, bots=bots) as arena:
            await ask_in_turn(arena, ["first", "first"], await sample_payload(), moves=10, warm=2)
            await asyncio.sleep(0.05)
            return [bool(w.process and w.process.frozen) for w in arena.pool.items()]

    assert run_loop(go()) == [False, False]


def test_what_is_not_a_move_request_is_refused(tmp_path: Path) -> None:
    ping = bot_pb2.ConnectResponse(ping=bot_pb2.Ping(nonce=1)).SerializeToString()

    async def go() -> None:
        async with Arena({"first": INSTANT}, log_dir=tmp_path) as arena:
            await ask_in_turn(arena, ["first", "first"], ping)

    with pytest.raises(ValueError, match="not a move request"):
        run_loop(go())


def test_a_bot_that_cannot_start_is_named(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.py")

    async def go() -> None:
        async with Arena({"gone": missing}, log_dir=tmp_path) as arena:
            await ask_in_turn(arena, ["gone", "gone"], await sample_payload())

    with pytest.raises(ValueError, match="'gone' could not start"):
        run_loop(go())


def test_a_bot_that_does_not_answer_in_time_is_named_and_ended(tmp_path: Path) -> None:
    sleepy = str(Path(__file__).parent / "bots" / "sleepy.py")

    async def go() -> int:
        async with Arena(
            {"sleepy": sleepy}, log_dir=tmp_path, bot_env={"AZUL_TEST_SLEEP": "1"}
        ) as arena:
            with pytest.raises(ValueError, match="failed: timeout"):
                await ask_in_turn(
                    arena, ["sleepy", "sleepy"], await sample_payload(), warm=1, patience=0.2
                )
            return arena.pool.live()  # not back in the pool: it may still be thinking

    assert run_loop(go()) == 0
