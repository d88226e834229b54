"""`azul-arena bench outside`: one of our bots against an outside engine at time odds
(tournaments/benchmarks/outside.py)."""

from __future__ import annotations

import time
from typing import Annotated, Any

import typer
from rich.table import Table

from tournaments.commands.common import (
    ISOLATION_HELP,
    check_isolation,
    check_ruleset,
    console,
    err_console,
    fail,
    print_json,
)
from tournaments.commands.groups import bench_app


@bench_app.command("outside")
def bench_outside(
    engine: Annotated[
        str,
        typer.Option(
            "--engine",
            "-e",
            help="the outside engine's entry: a command line in quotes, a bot folder or file",
        ),
    ],
    bot: Annotated[
        str, typer.Option("--bot", "-b", help="our bot (an entry: `mcts`, `expert`, a file...)")
    ] = "mcts",
    engine_time: Annotated[
        float,
        typer.Option("--engine-time", "-t", min=0.01, help="the engine's seconds per move"),
    ] = 1.0,
    fractions: Annotated[
        list[float] | None,
        typer.Option(
            "--fraction",
            "-f",
            min=0.001,
            help="our bot's time as a share of the engine's, once per setting (default: 1, 0.1)",
        ),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help="games per setting (seats swapped)")
    ] = 20,
    ruleset: Annotated[str, typer.Option("--ruleset", "-r")] = "azul",
    seed: Annotated[int, typer.Option("--seed", help="seed of the first deal")] = 1,
    isolation: Annotated[str | None, typer.Option(help=ISOLATION_HELP)] = None,
    startup_timeout: Annotated[
        float | None,
        typer.Option(
            min=1.0,
            help="seconds each side may take from launch to Hello (default: the referee's "
            "10): an engine that compiles before it plays needs more",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object on stdout")] = False,
) -> None:
    """Our bot against an outside engine (an independent Azul AI run as an entry), 2 players,
    through the real referee: at equal time and at a fraction of the engine's time per move,
    each seat on its own clock. Prints our bot's win rate with a 95% interval, the mean scores
    and each side's faults per setting. One game at a time; a benchmark, not a test.

    The adapters for gleb-t/AzulBot's C++ MCTS and for cestpasphoto/alpha-zero-general's
    AlphaZero network are test fixtures (docs/strength.md, "Against an outside engine"; they run
    at --isolation process: the sandbox shows a bot only its own folder). Example: [bold]azul-arena
    bench outside -e 'python tests/outside/azulbot/adapter.py --module-dir DIR' --isolation
    process -b mcts -t 1 -f 1 -f 0.1 -n 20 --json[/]; the network, which compiles its rules
    first: [bold]-e 'python tests/outside/alphazero/adapter.py --dir DIR' --startup-timeout
    600[/]
    """
    from tournaments.benchmarks.outside import ENGINE, Odds, play_outside
    from tournaments.domain.compliance import FIRST_MOVE_ALLOWANCE
    from tournaments.domain.entries import EntryError, check_spec, parse_entry

    check_ruleset(ruleset, 2)
    level = check_isolation(isolation)
    odds = [Odds(round(engine_time * f, 6), engine_time) for f in fractions or [1.0, 0.1]]
    try:
        ours = parse_entry(bot)
        check_spec(ours.spec)
        check_spec(engine)
    except EntryError as exc:
        fail(str(exc))
    if ours.name == ENGINE:
        fail(f"our bot may not be named {ENGINE!r} (the engine's name): give it NAME=SPEC")
    began = time.monotonic()

    def progress(fraction: float, played: int, total: int) -> None:
        # With --json too where a person watches: stdout keeps the one JSON object.
        if not as_json or err_console.is_terminal:
            err_console.print(f"  x{fraction:g}: game {played}/{total}", end="\r", highlight=False)

    try:
        settings = play_outside(
            (ours.name, ours.spec),
            engine,
            odds,
            games,
            seed,
            ruleset,
            level,
            FIRST_MOVE_ALLOWANCE,
            progress,
            startup_timeout,
        )
    except ValueError as exc:
        fail(str(exc))
    result = {
        "bot": ours.name,
        "engine": engine,
        "ruleset": ruleset,
        "games_per_setting": games,
        "seed": seed,
        "isolation": level,
        "settings": settings,
        "faults": sum(s["bot_faults"] + s["engine_faults"] for s in settings),
        "seconds": round(time.monotonic() - began, 1),
    }
    if as_json:
        print_json(result)
        return
    _show(result)


def _show(result: dict[str, Any]) -> None:
    table = Table(
        title=f"{result['bot']} against the outside engine ({result['ruleset']}, 2 players, "
        f"{result['games_per_setting']} games a setting, {result['seconds']:.0f} s)",
        caption=f"engine: {result['engine']}",
    )
    for column in ("our time", "engine time", "win rate (95%)", "W-L-D", "mean score", "faults"):
        table.add_column(column, justify="right")
    table.add_column("goal", justify="right")
    for s in result["settings"]:
        low, high = s["ci95"]
        goal = (
            ""
            if s["goal"] is None
            else f">= {s['goal']:.0%} " + ("met" if s["goal_met"] else "[bold red]not met[/]")
        )
        faults = s["bot_faults"] + s["engine_faults"]
        table.add_row(
            f"{s['bot_time']:g} s",
            f"{s['engine_time']:g} s",
            f"{s['win_rate']:.0%} ({low:.0%}-{high:.0%})",
            f"{s['bot_wins']}-{s['engine_wins']}-{s['draws']}",
            f"{s['bot_mean_score']:.1f} : {s['engine_mean_score']:.1f}",
            f"{s['bot_faults']} / {s['engine_faults']}" if faults else "0",
            goal,
        )
    console.print(table)
    for s in result["settings"]:
        if s["bot_faults"] or s["engine_faults"]:  # late answers, crashes...: say which
            err_console.print(
                f"faults at x{s['fraction']:g}: ours {s['bot_fault_kinds']}, the engine's "
                f"{s['engine_fault_kinds']} (an engine faulting every move may not start: "
                "try --isolation process)",
                highlight=False,
            )
