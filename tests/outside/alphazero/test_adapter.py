"""The AlphaZero adapter (tests/outside/alphazero/adapter.py): its mapping of states and moves,
held against the engine's own rules position by position, and whole games through the real
referee.

The engine (cestpasphoto/alpha-zero-general, numba, onnxruntime, its exported network) lives in
a scratch folder outside the repository (docs/strength.md, "Against an outside engine"): these
tests run where ALPHAZERO_DIR names that folder, and skip, saying what is missing, elsewhere.
Starting the engine compiles its numba code: half a minute of CPU, once for the module.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.engine import new_game
from tests.outside.alphazero.adapter import (
    MissingEngine,
    Scratch,
    Worker,
    scratch,
    to_action,
    to_alphazero,
    to_ours,
)

# The engine compiles for minutes on a loaded machine, in the first test that uses it.
pytestmark = pytest.mark.timeout(900)
ADAPTER = Path(__file__).with_name("adapter.py")
LINES, WALLS = slice(9, 13), slice(13, 23)  # rows of the engine's board (row 0: the scores)
FLOOR_SLOTS = 7  # our floor keeps 7 tiles (the rest go to the lid); the engine scores 7 at most


@pytest.fixture(scope="module")
def where() -> Scratch:
    if not os.environ.get("ALPHAZERO_DIR"):
        pytest.skip(
            "ALPHAZERO_DIR is not set: make the AlphaZero engine's scratch folder and name it "
            "(docs/strength.md, Against an outside engine)"
        )
    try:
        return scratch()
    except MissingEngine as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="module")
def worker(where: Scratch) -> Iterator[Worker]:
    engine = Worker(where)
    yield engine
    engine.close()


def _capped(board: list[list[int]]) -> list[list[int]]:
    """The engine's board with each floor's count capped at the floor's slots: it counts every
    tile that falls, we send those past the 7th to the lid (both discard them)."""
    for row in board[11:13]:
        row[5] = min(row[5], FLOOR_SLOTS)
    return board


def _check_game(worker: Worker, seed: int) -> int:
    """Play one random game in our engine; at every position the engine must list exactly
    our legal moves, and the move played must leave both in the same state: the same board
    within a round; at a round's end (its tiles are drawn afresh) the same scores, lines and
    walls and the same player to move; at the game's end the same final scores and winner."""
    rng = random.Random(seed)
    game = new_game("azul", 2, seed=seed, first_player=seed % 2)
    positions = 0
    while not game.is_over():
        before = game.to_state()
        board, player = to_alphazero(before), before["turn"]
        legal = game.legal_moves()
        theirs = worker.ask("legal", board=board, player=player)["legal"]
        assert sorted(theirs) == sorted(to_action(m) for m in legal), f"seed {seed}, {before}"
        move = rng.choice(legal)
        after = worker.ask("apply", board=board, player=player, action=to_action(move))
        game.push(move)
        positions += 1
        now, mine = game.to_state(), to_alphazero(game.to_state())
        where = f"seed {seed}, after {move}"
        if now["round"] == before["round"] and not game.is_over():
            assert _capped(after["board"]) == mine, where
            assert after["next"] == now["turn"], where
            assert after["ended"] == [0.0, 0.0], where
            continue
        assert after["board"][0][:2] == mine[0][:2], where  # (its round counts on at the end)
        for part in (LINES, WALLS):
            assert [r[:5] for r in after["board"][part]] == [r[:5] for r in mine[part]], where
        if not game.is_over():
            assert after["next"] == now["turn"] and after["ended"] == [0.0, 0.0], where
            continue
        assert tuple(after["board"][0][:2]) == game.scores, where
        winner = [rank == 1 for rank in game.ranks()]
        assert [v > 0.5 for v in after["ended"]] == (winner if winner.count(True) == 1 else
                                                     [False, False]), where  # fmt: skip
    return positions


def test_engine_rules_agree_with_ours(worker: Worker) -> None:
    """Legal move sets, boards, scores and winners over 12 random games."""
    positions = sum(_check_game(worker, seed) for seed in range(12))
    assert positions > 12 * 40  # whole games: some 50-80 moves each


def test_engine_thinks_for_its_time_and_plays_a_legal_move(worker: Worker) -> None:
    """A search from a mid-game position, in our seat 1, answers one of our legal moves in
    about the time given, having simulated more than the minimum."""
    import time

    game = new_game("azul", 2, seed=5)
    rng = random.Random(5)
    for _ in range(7):
        game.push(rng.choice(game.legal_moves()))
    state = game.to_state()
    worker.ask("new_game")
    began = time.monotonic()
    board, player = to_alphazero(state), state["turn"]
    answer = worker.ask("think", board=board, player=player, deadline=began + 0.3)
    took = time.monotonic() - began
    assert to_ours(answer["action"], game.legal_moves()) in game.legal_moves()
    assert answer["simulations"] > 2
    assert 0.3 <= took < 1.5, took


def test_only_two_player_classic_azul_maps() -> None:
    with pytest.raises(ValueError, match="2-player classic"):
        to_alphazero(new_game("azul", 3, seed=1).to_state())


def test_action_numbers_are_the_engines() -> None:
    """Source * 30 + colour * 6 + line, the centre as source 0 (their AzulLogicNumba.py): a
    move and its number map back and forth, and a number of no legal move is refused."""
    legal = new_game("azul", 2, seed=2).legal_moves()
    numbers = [to_action(m) for m in legal]
    assert len(set(numbers)) == len(legal) and all(0 <= n < 180 for n in numbers)
    assert all(to_ours(n, legal) is m for n, m in zip(numbers, legal, strict=True))
    assert all(n >= 30 for n in numbers)  # a game's first move takes from a factory
    with pytest.raises(ValueError, match="none of our legal moves"):
        to_ours(0, legal)  # the centre holds no tile yet


def test_missing_scratch_folder_says_what_to_do(tmp_path: Path) -> None:
    """Without its scratch folder the adapter refuses to start and says what to make (this
    test needs no engine)."""
    done = subprocess.run(
        [sys.executable, str(ADAPTER), "--dir", str(tmp_path), "--referee", "unix:/x"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": ""},
        check=False,
    )
    assert done.returncode != 0
    assert str(tmp_path) in done.stderr and "setup.sh" in done.stderr


@pytest.mark.slow
def test_adapter_plays_legal_full_games_through_the_referee(where: Scratch) -> None:
    """Two games against greedy through the real referee (bot processes, gRPC, clocks), seats
    swapped: both complete with no fault of either bot."""
    from referee import Arena, MatchConfig, run_loop

    command = f"{sys.executable} {ADAPTER} --dir {where.root}"
    results = []

    async def main() -> None:
        async with Arena(
            {"alphazero": command, "greedy": "greedy"}, isolation="process", startup_timeout=600
        ) as arena:
            for seats in (["alphazero", "greedy"], ["greedy", "alphazero"]):
                config = MatchConfig(ruleset="azul", seed=7, time_per_move=0.5)
                results.append((seats, await arena.play(seats, config)))

    run_loop(main())
    for seats, result in results:
        assert result.reason == "completed", (seats, result.reason)
        assert [sum(s.faults.values()) for s in result.seats] == [0, 0], seats
        assert sum(result.scores) > 0
