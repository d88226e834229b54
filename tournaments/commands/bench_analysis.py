"""`azul-arena bench analyse`: what the game analysis costs and how good its search is
(tournaments/benchmarks/analysis.py)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from tournaments.commands.common import Exit, check_ruleset, console, print_json
from tournaments.commands.groups import bench_app
from tournaments.domain.analysis import DEFAULT_BUDGET


@bench_app.command("analyse")
def bench_analyse(
    games: Annotated[int, typer.Option(min=1, help="2-player games to analyse.")] = 2,
    budget: Annotated[
        int, typer.Option(min=1, help="Simulations per decision (the analysis's --budget).")
    ] = DEFAULT_BUDGET,
    ruleset: Annotated[str, typer.Option(help="A classic ruleset (the exact search's).")] = "azul",
    seed: Annotated[int, typer.Option(help="Seed of the games and of the search.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object on stdout.")] = False,
) -> None:
    """Seconds (CPU, one core) to analyse every decision of a 2-player game between two greedy
    bots at the budget; the exact search's decisions per second; and agreement: the share of
    the positions the exact search solves where the tree search alone, at the budget, picks a
    move as good as the exact search's (the goal: >= 0.95, with a game in <= 60 s).

    Example: [bold]azul-arena bench analyse --games 2 --json[/]
    """
    from tournaments.benchmarks.analysis import run_bench

    check_ruleset(ruleset, 2)
    result = run_bench(ruleset, games, budget, seed)
    if as_json:
        print_json(result)
        raise typer.Exit(int(Exit.OK))
    table = Table(
        title=f"game analysis: {ruleset}, 2 players, {games} greedy games, budget {budget} "
        f"(CPU time, one core, CPython {result['python']})"
    )
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("goal", justify="right")
    table.add_row(
        "seconds a game (mean)", f"{result['game_s']:.1f}", f"<= {result['goal_game_s']:.0f}"
    )
    table.add_row("seconds a game (slowest)", f"{result['game_s_max']:.1f}", "")
    table.add_row("decisions analysed", str(result["decisions"]), "")
    table.add_row("of them exact", f"{result['exact_share']:.0%}", "")
    table.add_row("exact decisions/s", f"{result['exact_decisions_per_s']:.1f}", "")
    table.add_row(
        f"tree agrees with exact ({result['exact_positions']} positions)",
        f"{result['agreement']:.1%}",
        f">= {result['goal_agreement']:.0%}",
    )
    console.print(table)
