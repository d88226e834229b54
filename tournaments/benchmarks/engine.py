"""How fast the rules engine plays, through the API a bot uses (`azul-arena bench engine`)."""

from __future__ import annotations

import platform
import random
import time
from collections.abc import Callable
from typing import Any

from referee.engine import COMPILED, Game, new_game

# The 2-player random-games/s each family's engine must reach (compiled, one core).
GAMES_PER_S_TARGET = {"classic": 4_000, "pavilion": 1_500}


def random_playouts(ruleset: str, players: int, games: int, seed: int) -> tuple[float, int]:
    """Play `games` random games with `new_game`, `legal_moves` and `push`, as a bot's playout
    would; return the seconds taken and the moves played."""
    # A uniform pick by index: random.choice's pure-Python layers would cost more than a move.
    uniform = random.Random(seed).random
    moves = 0
    start = time.perf_counter()
    for i in range(games):
        game = new_game(ruleset, players, seed=seed + i)
        while not game.is_over():
            legal = game.legal_moves()
            game.push(legal[int(uniform() * len(legal))])
            moves += 1
    return time.perf_counter() - start, moves


def sample_positions(ruleset: str, players: int, count: int, seed: int) -> list[Game]:
    """Positions from all stages of random games (a fresh deal is the easy case)."""
    chooser = random.Random(seed)
    positions: list[Game] = []
    i = 0
    while len(positions) < count:
        game = new_game(ruleset, players, seed=seed + 10_000 + i)
        i += 1
        while not game.is_over() and len(positions) < count:
            if chooser.random() < 0.2:
                positions.append(game.copy())
            game.push(chooser.choice(game.legal_moves()))
    return positions


def per_call_us(positions: list[Game], call: Callable[[Game], Any], repeat: int = 5) -> float:
    """Best-of-`repeat` mean time of `call` over the positions, in microseconds."""
    rounds = max(1, 20_000 // len(positions))
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(rounds):
            for position in positions:
                call(position)
        best = min(best, (time.perf_counter() - start) / (rounds * len(positions)))
    return best * 1e6


def run_engine_bench(ruleset: str, players: int, games: int, seed: int) -> dict[str, Any]:
    random_playouts(ruleset, players, max(1, games // 10), seed)  # warm the move tables
    seconds, moves = random_playouts(ruleset, players, games, seed)
    positions = sample_positions(ruleset, players, 500, seed)
    return {
        "ruleset": ruleset,
        "players": players,
        "games": games,
        "games_per_s": games / seconds,
        "moves_per_s": moves / seconds,
        "moves_per_game": moves / games,
        "copy_us": per_call_us(positions, lambda g: g.copy()),
        "legal_moves_us": per_call_us(positions, lambda g: g.legal_moves()),
        "python": platform.python_version(),
        "compiled": COMPILED,
    }
