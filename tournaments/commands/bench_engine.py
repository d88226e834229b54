"""`azul-arena bench engine`: how fast the rules engine plays, through the API a bot uses."""

from __future__ import annotations

import platform
import random
import time
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.table import Table

from referee.engine import COMPILED, RULESETS, Game, new_game
from tournaments.commands.common import Exit, check_ruleset, console, fail, print_json
from tournaments.commands.groups import bench_app

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


@bench_app.command("engine")
def bench_engine(
    players: Annotated[int, typer.Option(help="Players per game (2-4).")] = 2,
    games: Annotated[int, typer.Option(help="Random games to play.")] = 3000,
    ruleset: Annotated[str, typer.Option(help="Ruleset to play.")] = "azul",
    seed: Annotated[int, typer.Option(help="Seed of the deals and the random choices.")] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON object for scripts.")] = False,
) -> None:
    """Engine speed on one core: random games/s and moves/s through the public API (new_game,
    legal_moves, push), and the time of one state copy and one legal-move listing over positions
    from every stage of the game. `make install` compiles the engine with mypyc; set
    AZUL_ARENA_PURE_PYTHON=1 to measure the plain-Python engine.

    Example: azul-arena bench engine --ruleset pavilion --players 2 --games 3000 --json
    """
    check_ruleset(ruleset, players)
    if games < 1:
        fail("--games must be at least 1")
    result = run_engine_bench(ruleset, players, games, seed)
    if json_out:
        print_json(result)
        raise typer.Exit(int(Exit.OK))
    build = "compiled with mypyc" if COMPILED else "plain Python"
    table = Table(title=f"engine ({build}): {ruleset}, {players} players, {games} random games "
                        f"(one core, CPython {result['python']})")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("target", justify="right")
    target = GAMES_PER_S_TARGET[RULESETS[ruleset].family]
    table.add_row("games/s", f"{result['games_per_s']:,.0f}",
                  f">= {target:,} (2 players)" if players == 2 else "")
    table.add_row("moves/s", f"{result['moves_per_s']:,.0f}", "")
    table.add_row("moves/game", f"{result['moves_per_game']:.1f}", "")
    table.add_row("state copy", f"{result['copy_us']:.2f} us", "<= 1 us")
    table.add_row("legal-move listing", f"{result['legal_moves_us']:.2f} us", "<= 2 us")
    console.print(table)
