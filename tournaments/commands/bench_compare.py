"""`azul-arena bench compare`: what duplicate pairs buy the sequential test of `bot compare`
(tournaments/benchmarks/compare.py)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Annotated

import typer
from rich.table import Table

from tournaments.commands.common import (
    check_plays,
    check_ruleset,
    console,
    err_console,
    fail,
    print_json,
)
from tournaments.commands.groups import bench_app


@bench_app.command("compare")
def bench_compare(  # the benchmark's settings, each with a default
    new: Annotated[
        str, typer.Option(help="The stronger bot (a built-in).")
    ] = "mcts:iterations=200",
    base: Annotated[str, typer.Option(help="The weaker bot (a built-in).")] = "mcts:iterations=100",
    pairs: Annotated[
        int, typer.Option(min=10, help="Duplicate pairs to record and draw from.")
    ] = 100,
    tests: Annotated[int, typer.Option(min=10, help="Simulated tests of each kind.")] = 1000,
    elo0: Annotated[float, typer.Option(help="H0 of the tests.")] = 0.0,
    elo1: Annotated[float, typer.Option(help="H1 of the tests.")] = 20.0,
    alpha: Annotated[float, typer.Option(help="False H1 rate allowed.")] = 0.05,
    beta: Annotated[float, typer.Option(help="False H0 rate allowed.")] = 0.05,
    max_games: Annotated[int, typer.Option(min=2, help="A test's budget of games.")] = 20000,
    ruleset: Annotated[str, typer.Option(help="Ruleset of the recorded games.")] = "azul",
    seed: Annotated[int, typer.Option(help="Seed of the deals and the draws.")] = 1,
    statistic: Annotated[
        str, typer.Option(help="What every arm's test decides on: wdl (ranks) or margin (points).")
    ] = "wdl",
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object on stdout.")] = False,
) -> None:
    """Games to a verdict of `bot compare`'s test with duplicate pairs against independent
    games, and its error rates: NEW and BASE play --pairs duplicate pairs in this process
    (seeded as bot compare seeds them), then --tests sequential tests of each kind draw from
    those games (a bootstrap: the truth is the recording's mean), as many on BASE against
    itself (H1 at most at rate alpha) and, for margins, on the pairs shifted to H0 exactly
    (null). Every arm decides on --statistic; games_ratio is duplicate over independent.

    Example: [bold]azul-arena bench compare --pairs 100 --tests 1000 --json[/]
    """
    from tournaments.benchmarks.compare import record_pairs, run_arms, summarise
    from tournaments.domain.compare import STATISTICS
    from tournaments.domain.sprt import SprtSettings

    settings = SprtSettings(elo0, elo1, alpha, beta)
    if settings.problems():
        fail("; ".join(settings.problems()))
    if statistic not in STATISTICS:
        fail(f"--statistic is one of {', '.join(STATISTICS)}, not {statistic!r}")
    check_ruleset(ruleset, 2)
    try:
        check_plays([new, base], ruleset)
    except ValueError as exc:
        fail(str(exc))
    with err_console.status(f"recording {pairs} duplicate pairs of {new} vs {base} ...") as status:

        def said(what: str) -> Callable[[int], None]:
            return lambda k: status.update(f"{what}: {k}/{pairs} pairs recorded")

        pool = record_pairs(new, base, pairs, seed, ruleset, said(f"{new} vs {base}"))
        same = record_pairs(base, base, pairs, seed + 1, ruleset, said(f"{base} vs itself"))
        status.update(f"{4 * tests} simulated tests ...")
        arms = run_arms(pool, same, settings, tests, max_games, random.Random(seed), statistic)
    figures = summarise(pool, arms, settings, statistic)
    figures.update({"new": new, "base": base, "ruleset": ruleset, "seed": seed})
    if as_json:
        print_json(figures)
        return
    table = Table(
        title=f"{new} vs {base}: {pairs} recorded pairs, pool {figures['pool_elo']:+} Elo"
    )
    for column in ("world", "kind", "mean games", "median", "H1", "H0", "undecided"):
        table.add_column(column)
    for world in ("different", "same", "null"):
        for kind, arm in figures.get(world, {}).items():
            table.add_row(
                world,
                kind,
                str(arm["mean_games"]),
                str(arm["median_games"]),
                f"{arm['h1_rate']:.1%}",
                f"{arm['h0_rate']:.1%}",
                f"{arm['inconclusive_rate']:.1%}",
            )
    console.print(table)
    console.print(
        f"games to a verdict, duplicate / independent: {figures['games_ratio']} (a bot against "
        f"itself: {figures['same_games_ratio']}); variance ratio {figures['variance_ratio']} "
        f"(statistic: {statistic}); pool {figures['pool_margin']:+} points a game "
        f"(spread {figures['pool_margin_sd']}, {figures['pool_margin_elo']:+} Elo by margins)"
    )
    low, high = figures["pool_elo_interval"]
    m_low, m_high = figures["pool_margin_elo_interval"]
    rho = {k: "n/a" if v is None else v for k, v in figures.items() if "correlation" in k}
    console.print(
        f"pool Elo 95% interval {low:+} to {high:+} by ranks, {m_low:+} to {m_high:+} by "
        f"margins (the difference is resolved if low > 0); a pair's two games correlate "
        f"{rho['pair_correlation_wdl']} by ranks, {rho['pair_correlation_margin']} "
        f"by margins"
    )
