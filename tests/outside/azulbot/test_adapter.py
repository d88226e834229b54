"""The AzulBot adapter (tests/outside/azulbot/adapter.py): its mapping of states and moves,
checked against our engine move by move, and whole games through the real referee.

AzulBot's `azulcpp` module is not kept in this repository (no licence file: docs/strength.md,
"Against an outside engine"): these tests run where AZULBOT_DIR names the folder it was built
into, and skip, saying so, elsewhere.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from referee.engine import new_game
from referee.engine.classic import wall_column
from tests.outside.azulbot.adapter import (
    FLOOR_SLOTS,
    MissingEngine,
    load_azulcpp,
    player_state,
    to_azulbot,
    to_ours,
)

ADAPTER = Path(__file__).with_name("adapter.py")


@pytest.fixture(scope="module")
def cpp() -> ModuleType:
    if not os.environ.get("AZULBOT_DIR"):
        pytest.skip(
            "AZULBOT_DIR is not set: build gleb-t/AzulBot's azulcpp module and name its "
            "folder (docs/strength.md, Against an outside engine)"
        )
    try:
        return load_azulcpp()
    except MissingEngine as exc:
        pytest.skip(str(exc))


def _their_move(cpp: ModuleType, theirs: Any, ours: Any, legal: tuple[Any, ...]) -> Any:
    """AzulBot's move that maps onto our `ours`."""
    found = [m for m in cpp.Azul().enumerate_moves(theirs) if to_ours(m, legal) is ours]
    assert len(found) == 1, f"{len(found)} AzulBot moves map onto {ours}"
    return found[0]


def _capped(cpp: ModuleType, state: Any) -> Any:
    """`state` with each floor count capped at the floor's slots: AzulBot counts every tile that
    falls, we send those past the 7th to the lid; both score 7 slots at most."""
    players = state.players
    for player in players:
        player.floorCount = min(player.floorCount, FLOOR_SLOTS)
    state.players = players
    return state


def _check_game(cpp: ModuleType, seed: int) -> int:
    """Play one random game in our engine; at every position AzulBot must list the same legal
    moves, and the move played must leave both engines in the same state (at a round's end:
    the same walls, lines and scores; at the game's end, the same final scores)."""
    azul, rng = cpp.Azul(), random.Random(seed)
    game = new_game("azul", 2, seed=seed, first_player=seed % 2)
    positions = 0
    while not game.is_over():
        theirs = to_azulbot(cpp, game.to_state())
        legal = game.legal_moves()
        assert {to_ours(m, legal) for m in azul.enumerate_moves(theirs)} == set(legal)
        assert len(azul.enumerate_moves(theirs)) == len(legal)
        move = rng.choice(legal)
        after = azul.apply_move_without_scoring(theirs, _their_move(cpp, theirs, move, legal))
        game.push(move)
        positions += 1
        state, now = _capped(cpp, after.state), game.to_state()
        if not azul.is_round_end(state):
            assert to_azulbot(cpp, now) == state, f"seed {seed}, after {move}"
            continue
        state = azul.score_round(state)
        if azul.is_game_end(state):
            state = azul.score_game(state)
            assert game.is_over(), f"seed {seed}: AzulBot ends the game, we do not"
        for seat, board in enumerate(now["boards"]):
            mine, its = player_state(cpp, board), state.players[seat]
            assert (mine.wall, mine.queue, mine.score) == (its.wall, its.queue, its.score)
    return positions


def test_mapping_replays_our_legal_moves(cpp: ModuleType) -> None:
    positions = sum(_check_game(cpp, seed) for seed in range(12))
    assert positions > 12 * 40  # whole games: some 50-80 moves each


def test_wall_pattern_is_ours(cpp: ModuleType) -> None:
    """Both walls put a colour in the same column of each row (AzulBot computes it)."""
    for row in range(5):
        for colour in range(5):
            slot = cpp.Azul.get_wall_slot_color(row, wall_column(row, colour))
            assert int(slot) == colour + 1, (row, colour)


def test_move_outside_legal_moves_is_refused(cpp: ModuleType) -> None:
    game = new_game("azul", 2, seed=2)
    legal = game.legal_moves()
    stray = cpp.Move(0, cpp.Color.Blue, 4)
    if any((m.source, m.colour, m.line) == (0, 0, 4) for m in legal):
        stray = cpp.Move(0, cpp.Color.Blue, 7)  # no such line
    with pytest.raises(ValueError, match="none of our legal moves"):
        to_ours(stray, legal)


def test_missing_module_says_what_to_do(tmp_path: Path) -> None:
    """Without AzulBot's module the adapter refuses to start and says where it looked (this
    test needs no AzulBot)."""
    import subprocess

    done = subprocess.run(
        [sys.executable, str(ADAPTER), "--module-dir", str(tmp_path), "--referee", "unix:/x"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": ""},
        check=False,
    )
    assert done.returncode != 0
    assert "azulcpp" in done.stderr and str(tmp_path) in done.stderr
    assert "--module-dir" in done.stderr


@pytest.mark.slow
def test_adapter_plays_legal_full_games_through_the_referee(cpp: ModuleType) -> None:
    """Two games against greedy through the real referee (bot processes, gRPC, clocks), seats
    swapped: both complete with no fault of either bot."""
    from referee import Arena, MatchConfig, run_loop

    command = f"{sys.executable} {ADAPTER} --module-dir {os.environ['AZULBOT_DIR']}"
    results = []

    async def main() -> None:
        async with Arena({"azulbot": command, "greedy": "greedy"}, isolation="process") as arena:
            for seats in (["azulbot", "greedy"], ["greedy", "azulbot"]):
                config = MatchConfig(ruleset="azul", seed=7, time_per_move=0.2)
                results.append((seats, await arena.play(seats, config)))

    run_loop(main())
    for seats, result in results:
        assert result.reason == "completed", (seats, result.reason)
        assert [sum(s.faults.values()) for s in result.seats] == [0, 0], seats
        assert sum(result.scores) > 0
