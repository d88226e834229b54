"""`azul-arena bench schedule`: round-robin, Swiss and adaptive pairing on a simulated field."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from tournaments.commands.common import console, fail, print_json
from tournaments.commands.groups import bench_app

# Targets from the issue that asked for adaptive pairing (docs/tournaments.md).
TARGET_FRACTION = 0.5
TARGET_US_PER_GAME = 1000.0


@bench_app.command("schedule")
def bench_schedule(
    entries: Annotated[int, typer.Option(min=2, help="Entries in the simulated field.")] = 300,
    games: Annotated[int, typer.Option(min=2, help="Games each schedule plays.")] = 20000,
    players: Annotated[int, typer.Option(min=2, max=4, help="Players per game.")] = 2,
    fields: Annotated[int, typer.Option(
        min=1, help="Simulated fields to average over (each its own true strengths).")] = 3,
    seed: Annotated[int, typer.Option(help="Seed of the first field.")] = 1,
    checkpoints: Annotated[int, typer.Option(
        min=1, help="Points of the tau curve (each costs O(entries^2)).")] = 40,
    json_out: Annotated[bool, typer.Option(
        "--json", help="JSON: schedules.{round-robin,swiss,adaptive}.tau, final_tau, "
                       "scheduler_us_per_game, adaptive_fraction_of_games ...")] = False,
) -> None:
    """How well each schedule's ratings recover the true order (Kendall tau) after k games,
    on a field without bots: true strengths drawn at random, results drawn from the TrueSkill
    model. Prints the tau curve, the games adaptive pairing needs to reach round-robin's final
    tau, and the scheduler's CPU time per game.

    Example: [bold]azul-arena bench schedule --entries 300 --games 20000 --json[/]
    """
    from tournaments.simulate import compare, summary

    if games < players or games % players:
        fail(f"--games {games} must be a multiple of --players {players}")
    if entries < players:
        fail(f"--entries {entries} is fewer than --players {players}")
    results = compare(entries, games, players, seed, fields, checkpoints)
    data = summary(results, entries, games, players, fields)
    if json_out:
        print_json(data)
        return
    table = Table(title=f"Kendall tau of the ratings vs the true order: {entries} entries, "
                        f"{players} players, mean of {fields} simulated field(s)")
    table.add_column("games")
    for kind in results:
        table.add_column(kind, justify="right")
    taus = {kind: dict(r.tau) for kind, r in results.items()}
    ks = [k for k, _ in results["round-robin"].tau]
    shown = sorted({ks[min(len(ks) - 1, i * len(ks) // 8)] for i in range(1, 9)})
    for k in shown:
        table.add_row(f"{k:,}", *(f"{taus[kind].get(k, float('nan')):.3f}" for kind in results))
    table.add_row("scheduler us/game (CPU)",
                  *(f"{r.scheduler_us_per_game():.0f}" for r in results.values()))
    console.print(table)
    reach, fraction = data["adaptive_games_to_round_robin_tau"], data["adaptive_fraction_of_games"]
    if reach is None:
        console.print(f"adaptive did not reach round-robin's tau "
                      f"({data['round_robin_tau']:.3f}) within {games:,} games")
    else:
        assert isinstance(fraction, float)
        verdict = "met" if fraction <= TARGET_FRACTION else "NOT met"
        console.print(f"adaptive reaches round-robin's final tau ({data['round_robin_tau']:.3f}) "
                      f"after {reach:,} games: {fraction:.0%} of round-robin's (target <= "
                      f"{TARGET_FRACTION:.0%}: {verdict})")
    cost = results["adaptive"].scheduler_us_per_game()
    console.print(f"adaptive scheduler: {cost:.0f} us of CPU per game (pairing and the rating "
                  f"updates it needs; target < {TARGET_US_PER_GAME:.0f}: "
                  f"{'met' if cost < TARGET_US_PER_GAME else 'NOT met'})")
