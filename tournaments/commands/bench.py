"""`azul-arena bench ...`: every benchmark, each a thin verb that prints what its module in
tournaments/benchmarks measures (a table, or `--json` with stable keys for scripts)."""

from __future__ import annotations

import math
import os
import time
from typing import Annotated, Any

import typer
from rich.table import Table

from tournaments.commands.common import (
    OPTION_HELP,
    WILD_ORDER_ALIAS,
    WILD_ORDER_HELP,
    Exit,
    builtin_rulesets,
    check_clock,
    check_isolation,
    check_plays,
    check_ruleset,
    console,
    err_console,
    fail,
    print_json,
)
from tournaments.commands.groups import bench_app


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
    from referee.engine import COMPILED, RULESETS
    from tournaments.benchmarks import engine

    check_ruleset(ruleset, players)
    if games < 1:
        fail("--games must be at least 1")
    result = engine.run_engine_bench(ruleset, players, games, seed)
    if json_out:
        print_json(result)
        raise typer.Exit(int(Exit.OK))
    build = "compiled with mypyc" if COMPILED else "plain Python"
    table = Table(
        title=f"engine ({build}): {ruleset}, {players} players, {games} random games "
        f"(one core, CPython {result['python']})"
    )
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("target", justify="right")
    target = engine.GAMES_PER_S_TARGET[RULESETS[ruleset].family]
    table.add_row(
        "games/s",
        f"{result['games_per_s']:,.0f}",
        f">= {target:,} (2 players)" if players == 2 else "",
    )
    table.add_row("moves/s", f"{result['moves_per_s']:,.0f}", "")
    table.add_row("moves/game", f"{result['moves_per_game']:.1f}", "")
    table.add_row("state copy", f"{result['copy_us']:.2f} us", "<= 1 us")
    table.add_row("legal-move listing", f"{result['legal_moves_us']:.2f} us", "<= 2 us")
    console.print(table)


@bench_app.command("thought")
def bench_thought(
    ruleset: Annotated[str, typer.Option(help="Ruleset of the positions.")] = "azul",
    players: Annotated[int, typer.Option(help="Players per game (2-4).")] = 2,
    positions: Annotated[int, typer.Option(min=1, help="Positions from random games.")] = 40,
    iterations: Annotated[int, typer.Option(min=1, help="Simulations per decision.")] = 300,
    seed: Annotated[int, typer.Option(help="Seed of the random games.")] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON object for scripts.")] = False,
) -> None:
    """Speed of thought: the simulations per second of CPU of `mcts` and `expert` over the same
    positions in one run (each decides every position at --iterations simulations), and the
    expert's exact search of a classic round's end in positions per second where it decided.
    CPU time, not the wall clock: a loaded machine changes the figures less than a match's.

    Example: azul-arena bench thought --ruleset pavilion --positions 40 --iterations 300 --json
    """
    from tournaments.benchmarks.thought import run_thought_bench

    check_ruleset(ruleset, players)
    result = run_thought_bench(ruleset, players, positions, iterations, seed)
    if json_out:
        print_json(result)
        raise typer.Exit(int(Exit.OK))
    table = Table(
        title=f"speed of thought: {ruleset}, {players} players, {result['positions']} positions, "
        f"{iterations} simulations a decision (CPU time, one core)"
    )
    for column in ("bot", "simulations/s", "ms a search", "exact: decided", "exact: nodes/s"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for row in result["bots"]:
        table.add_row(
            row["bot"],
            f"{row['simulations_per_s']:,.0f}",
            f"{row['ms_per_search']:.1f}",
            f"{row['solved']} of {row['decisions']}",
            f"{row['solver_nodes_per_s']:,.0f}" if row["solved"] else "-",
        )
    console.print(table)


@bench_app.command("rl")
def bench_rl(
    ruleset: Annotated[str, typer.Option(help="Ruleset to play.")] = "azul",
    players: Annotated[int, typer.Option(help="Players per game (2-4).")] = 2,
    steps: Annotated[int, typer.Option(min=100, help="Moves each measure plays.")] = 20000,
    envs: Annotated[int, typer.Option(min=1, help="Games of the vectorised env.")] = 64,
    seed: Annotated[int, typer.Option(help="Seed of the games and the random actions.")] = 1,
    rounds: Annotated[
        int, typer.Option(min=1, help="Turns the measures take (each reports its median).")
    ] = 5,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON object for scripts.")] = False,
) -> None:
    """Steps per second of the RL environments (sdk.rl) on random masked actions, beside the
    raw engine's moves per second in the same run: the PettingZoo AEC env (observe + step),
    the Gymnasium env against the random bot, the vectorised env (--envs games a call). The
    measures take turns (--rounds); each ratio is the median of its rounds'. Goals: the
    vectorised env at >= 50% of the engine's moves/s, the AEC env >= 25%.

    Example: azul-arena bench rl --ruleset pavilion --players 3 --json
    """
    from tournaments.commands.extras import needs

    check_ruleset(ruleset, players)
    problem = needs("rl", "bench rl")
    if problem:
        fail(problem)
    from tournaments.benchmarks.rl import run_rl_bench

    result = run_rl_bench(ruleset, players, steps, envs, seed, rounds)
    if json_out:
        print_json(result)
        raise typer.Exit(int(Exit.OK))
    table = Table(title=f"RL environments: {ruleset}, {players} players, random masked actions")
    table.add_column("what")
    table.add_column("per second", justify="right")
    table.add_column("vs engine", justify="right")
    table.add_column("goal", justify="right")
    table.add_column("with the agent's pick", justify="right")
    engine_rate = result["engine_moves_per_s"]
    table.add_row("engine (legal_moves + push)", f"{engine_rate:,.0f} moves", "100%", "", "")
    for label, key, goal in (
        ("PettingZoo AEC env (observe + step)", "aec", ">= 25%"),
        ("Gymnasium env vs random (all moves)", "gym", ""),
        (f"vectorised env, {envs} games", "vector", ">= 50%"),
    ):
        rate = result["gym_moves_per_s" if key == "gym" else f"{key}_steps_per_s"]
        loop = result[f"{key}_loop_steps_per_s"] * (players if key == "gym" else 1)
        ratio = result[f"{key}_vs_engine"]
        table.add_row(label, f"{rate:,.0f} moves", f"{ratio:.0%}", goal, f"{loop:,.0f}")
    console.print(table)
    console.print(
        f"Inside the environments' calls; the last column times the whole loop. Medians of "
        f"{result['rounds']} rounds, the measures taking turns."
    )


@bench_app.command("codec")
def bench_codec(
    ruleset: Annotated[str, typer.Option(help="Ruleset of the positions.")] = "azul",
    players: Annotated[int, typer.Option(help="Players per game (2-4).")] = 2,
    positions: Annotated[int, typer.Option(help="Positions sampled from random games.")] = 500,
    seed: Annotated[int, typer.Option(help="Seed of the random games.")] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON object for scripts.")] = False,
) -> None:
    """The public state of a move request through the codec (referee.protocol.codec), per call
    over positions from every stage of random games: encode + decode of the state dict
    (`encode_decode_us`, the target is under 40 us), each half, the engine's to_state(), the
    whole way from the referee's game to the bot's dict through the bytes (`wire_us`), and the
    bot-side game rebuild (from_state, which the SDK does only when a bot uses its state).

    Example: azul-arena bench codec --ruleset pavilion --json
    """
    from tournaments.benchmarks import codec

    check_ruleset(ruleset, players)
    if positions < 1:
        fail("--positions must be at least 1")
    result = codec.run_codec_bench(ruleset, players, positions, seed)
    if json_out:
        print_json(result)
        raise typer.Exit(int(Exit.OK))
    table = Table(
        title=f"codec: {ruleset}, {players} players, {result['positions']} positions "
        f"(one core; {result['state_bytes']:.0f} bytes of state per request)"
    )
    table.add_column("measure")
    table.add_column("per call", justify="right")
    table.add_column("target", justify="right")
    table.add_row(
        "encode + decode (state dict -> GameState -> dict)",
        f"{result['encode_decode_us']:.1f} us",
        "< 40 us",
    )
    table.add_row("  encode_state", f"{result['encode_us']:.1f} us", "")
    table.add_row("  decode_state", f"{result['decode_us']:.1f} us", "")
    table.add_row("game.to_state()", f"{result['to_state_us']:.1f} us", "")
    table.add_row(
        "game -> bytes -> dict (to_state, encode, serialize, parse, decode)",
        f"{result['wire_us']:.1f} us",
        "",
    )
    table.add_row(
        "Game.from_state (the bot's rebuild, on first use)", f"{result['from_state_us']:.1f} us", ""
    )
    console.print(table)


@bench_app.command("schedule")
def bench_schedule(
    entries: Annotated[int, typer.Option(min=2, help="Entries in the simulated field.")] = 300,
    games: Annotated[int, typer.Option(min=2, help="Games each schedule plays.")] = 20000,
    players: Annotated[int, typer.Option(min=2, max=4, help="Players per game.")] = 2,
    fields: Annotated[
        int,
        typer.Option(min=1, help="Simulated fields to average over (each its own true strengths)."),
    ] = 3,
    seed: Annotated[int, typer.Option(help="Seed of the first field.")] = 1,
    checkpoints: Annotated[
        int, typer.Option(min=1, help="Points of the tau curve (each costs O(entries^2)).")
    ] = 40,
    json_out: Annotated[
        bool,
        typer.Option(
            "--json",
            help="JSON: schedules.{round-robin,swiss,adaptive}.tau, final_tau, "
            "scheduler_us_per_game, adaptive_fraction_of_games ...",
        ),
    ] = False,
) -> None:
    """How well each schedule's ratings recover the true order (Kendall tau) after k games,
    on a field without bots: true strengths drawn at random, results drawn from the TrueSkill
    model. Prints the tau curve, the games adaptive pairing needs to reach round-robin's final
    tau, and the scheduler's CPU time per game.

    Example: [bold]azul-arena bench schedule --entries 300 --games 20000 --json[/]
    """
    from tournaments.benchmarks.schedule import (
        TARGET_FRACTION,
        TARGET_US_PER_GAME,
        compare,
        summary,
    )

    if games < players or games % players:
        fail(f"--games {games} must be a multiple of --players {players}")
    if entries < players:
        fail(f"--entries {entries} is fewer than --players {players}")
    results = compare(entries, games, players, seed, fields, checkpoints)
    data = summary(results, entries, games, players, fields)
    if json_out:
        print_json(data)
        return
    table = Table(
        title=f"Kendall tau of the ratings vs the true order: {entries} entries, "
        f"{players} players, mean of {fields} simulated field(s)"
    )
    table.add_column("games")
    for kind in results:
        table.add_column(kind, justify="right")
    taus = {kind: dict(r.tau) for kind, r in results.items()}
    ks = [k for k, _ in results["round-robin"].tau]
    shown = sorted({ks[min(len(ks) - 1, i * len(ks) // 8)] for i in range(1, 9)})
    for k in shown:
        table.add_row(f"{k:,}", *(f"{taus[kind].get(k, float('nan')):.3f}" for kind in results))
    table.add_row(
        "scheduler us/game (CPU)", *(f"{r.scheduler_us_per_game():.0f}" for r in results.values())
    )
    console.print(table)
    reach, fraction = data["adaptive_games_to_round_robin_tau"], data["adaptive_fraction_of_games"]
    if reach is None:
        console.print(
            f"adaptive did not reach round-robin's tau "
            f"({data['round_robin_tau']:.3f}) within {games:,} games"
        )
    else:
        assert isinstance(fraction, float)
        verdict = "met" if fraction <= TARGET_FRACTION else "NOT met"
        console.print(
            f"adaptive reaches round-robin's final tau ({data['round_robin_tau']:.3f}) "
            f"after {reach:,} games: {fraction:.0%} of round-robin's (target <= "
            f"{TARGET_FRACTION:.0%}: {verdict})"
        )
    cost = results["adaptive"].scheduler_us_per_game()
    console.print(
        f"adaptive scheduler: {cost:.0f} us of CPU per game (pairing and the rating "
        f"updates it needs; target < {TARGET_US_PER_GAME:.0f}: "
        f"{'met' if cost < TARGET_US_PER_GAME else 'NOT met'})"
    )


@bench_app.command("latency")
def latency(
    games: Annotated[int, typer.Option("--games")] = 20,
    spawns: Annotated[int, typer.Option("--spawns")] = 5,
    entry: Annotated[
        list[str] | None,
        typer.Option(
            "--entry",
            "-e",
            help="also measure this bot (a kit's folder, a command line), against the SDK's bot",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    isolation: Annotated[
        str | None,
        typer.Option(
            "--isolation",
            help="bots at this level (default: the strongest); "
            "another than process is measured beside process, game for game",
        ),
    ] = None,
    ponder: Annotated[
        bool,
        typer.Option(
            "--ponder",
            help="bots are not frozen between their moves (as "
            "`tournament run --ponder`): shows what the freeze and thaw cost",
        ),
    ] = False,
    clock: Annotated[
        str,
        typer.Option(
            "--clock",
            help="cpu: every game is also played on the cpu clock and "
            "on the wall clock, alternating, on the same deals: what reading each bot's "
            "CPU counter costs a move",
        ),
    ] = "wall",
) -> None:
    """Per-move round trip through the referee vs a bare gRPC stream ping-pong of the same
    payload in the same run (grpc's textbook sync client; an asyncio client beside it) and vs
    the referee's sessions asking the same bots in turn with no match, and bot spawn-to-Hello
    (medians). With --entry, that bot plays as many games against the Python SDK's
    instant bot (bots/first_bot.py), seats alternating: its per-move round trip is printed beside
    its opponent's in the same games, and their ratio.

    Example: azul-arena bench latency --games 20 --json;
    azul-arena bench latency --entry sdk/kits/node --entry sdk/kits/cpp;
    azul-arena bench latency --clock cpu
    """
    from referee import check_entry, run_loop
    from tournaments.benchmarks.latency import latency as run_bench

    entry = entry or []
    level = check_isolation(isolation)
    check_clock(clock)
    try:
        for bot in entry:
            check_entry(bot)
    except ValueError as exc:
        fail(str(exc))
    try:
        figures = run_loop(
            run_bench(
                games=games,
                spawns=spawns,
                isolation=level,
                entries=tuple(entry),
                ponder=ponder,
                clock=clock,
            )
        )
    except ValueError as exc:
        fail(str(exc), Exit.FAILED)
    if as_json:
        print_json(figures)
        return
    from rich.table import Table

    table = Table(title=f"latency over {figures['moves']} moves (medians)")
    for column in ("measure", "value", "target"):
        table.add_column(column, justify="right" if column != "measure" else "left")
    table.add_row("isolation", figures["isolation"], "")
    table.add_row(
        "move round trip via the referee (Python SDK)", f"{figures['per_move_us']:.0f} us", ""
    )
    if "ratio_to_process" in figures:
        table.add_row(
            f"  {figures['isolation']} vs process, game for game",
            f"{figures['per_move_us_paired']:.0f} / {figures['per_move_us_process']:.0f} us",
            "",
        )
        table.add_row("  ratio to process", f"{figures['ratio_to_process']:.3f}", "<= 1.10")
    if "cpu_clock_ratio" in figures:
        table.add_row(
            "  cpu clock vs wall clock, game for game",
            f"{figures['per_move_us_cpu_clock']:.0f} / {figures['per_move_us_wall_clock']:.0f} us",
            "",
        )
        table.add_row("  ratio", f"{figures['cpu_clock_ratio']:.3f}", "<= 1.05")
    for kit in figures["entries"]:
        table.add_row(f"{kit['entry']}, against the SDK bot", f"{kit['per_move_us']:.0f} us", "")
        table.add_row("  the SDK bot, in the same games", f"{kit['sdk_per_move_us']:.0f} us", "")
        table.add_row("  ratio", f"{kit['ratio_to_sdk']:.2f}", "<= 1.5")
    table.add_row(
        "bare gRPC ping-pong, same payload (sync client)",
        f"{figures['bare_pingpong_us']:.0f} us",
        "",
    )
    table.add_row("ratio", f"{figures['ratio']:.2f}", "<= 1.3")
    table.add_row(
        "  bare ping-pong, asyncio client", f"{figures['bare_pingpong_aio_us']:.0f} us", ""
    )
    table.add_row("  ratio to it", f"{figures['ratio_to_aio']:.2f}", "")
    table.add_row(
        "  bare ping-pong, two sync clients in turn",
        f"{figures['bare_pingpong_in_turn_us']:.0f} us",
        "",
    )
    table.add_row("  ratio to it", f"{figures['ratio_to_in_turn']:.2f}", "")
    table.add_row(
        "  the referee's sessions asking the same bots in turn, no match",
        f"{figures['no_match_round_trip_us']:.0f} us",
        "",
    )
    table.add_row("  ratio to it", f"{figures['ratio_to_no_match']:.2f}", "")
    table.add_row(
        "bot spawn to Hello (warm standby)", f"{figures['spawn_to_hello_ms']:.0f} ms", "<= 150 ms"
    )
    table.add_row(
        "bot spawn to Hello (fresh process)", f"{figures['cold_spawn_to_hello_ms']:.0f} ms", ""
    )
    table.add_row(
        "  its floor: python -c 'import grpc'", f"{figures['python_import_grpc_ms']:.0f} ms", ""
    )
    table.add_row("referee's event loop", figures["event_loop"], "")
    console.print(table)


@bench_app.command("tournament")
def bench_tournament(
    games: Annotated[int, typer.Option(min=1, help="Games to play.")] = 400,
    concurrency: Annotated[
        str,
        typer.Option(
            metavar="C[,C...]",
            help="Games at once; several (2,8,16): each in turn, --repeat rounds alternating, "
            "games/s side by side.",
        ),
    ] = str(os.cpu_count() or 1),
    json_out: Annotated[
        bool, typer.Option("--json", help="JSON: games_per_s, per_move_us, breakdown_us, ...")
    ] = False,
    ruleset: Annotated[str, typer.Option(help="Ruleset.")] = "azul",
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            min=1,
            max=16,
            metavar="N",
            help="Also play the games on Dask LocalClusters of 1..N worker processes "
            "(--concurrency "
            "games at once shared among them, at least one each) and compare with the "
            "embedded runner.",
        ),
    ] = None,
    repeat: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="With --workers: run the embedded and each cluster figure this many times, "
            "alternating, and keep each one's best (a busy machine's noise). With "
            "several --concurrency: rounds of them all, pooled (default 2).",
        ),
    ] = None,
    entries: Annotated[
        int,
        typer.Option(
            "--entries",
            min=2,
            help="Random bots in the round-robin (bot_processes_peak in the "
            "JSON shows how many processes they needed).",
        ),
    ] = 2,
    isolation: Annotated[
        str | None,
        typer.Option(
            help="Bots at this level (default: the strongest available); a level other than "
            "process is measured beside process in the same run (ratio_to_process)."
        ),
    ] = None,
    ponder: Annotated[
        bool,
        typer.Option(
            "--ponder",
            help="Bots keep their CPU between their moves (no freeze and thaw per "
            "move), as `tournament run --ponder`.",
        ),
    ] = False,
    profile: Annotated[
        bool,
        typer.Option(
            "--profile",
            help="Profile this process (referee, runner, store) with cProfile over the games "
            "measured: the top functions by own and cumulative time, in us per move "
            "(`profile` in the JSON). The profiler slows the run: read its shares, not its "
            "games/s.",
        ),
    ] = False,
    top: Annotated[
        int, typer.Option("--top", min=1, help="With --profile: functions listed in each table.")
    ] = 25,
) -> None:
    """Random bots, 2 players, through the real path (bot processes, referee, SQLite store).

    Example: [bold]azul-arena bench tournament --games 400 --isolation sandbox --json[/]

    A larger field: [bold]azul-arena bench tournament --entries 16 --concurrency 8[/].

    Concurrency compared in one run: [bold]azul-arena bench tournament --entries 16
    --games 240 --concurrency 2,8,16 --repeat 2[/] (`levels` in the JSON: games_per_s,
    games_per_s_rounds and bot_processes_peak of each, ratio_to_first).

    With [bold]--workers 4[/]: the same on a Dask LocalCluster of 1, 2, 3 and 4 worker
    processes, in the same run (`cluster` in the JSON: games_per_s and ratio to the embedded
    runner for each).

    Where the referee's CPU goes: [bold]azul-arena bench tournament --profile[/].
    """
    from tournaments.benchmarks.tournament import (
        compare_cluster,
        compare_concurrency,
        compare_isolation,
        run_bench,
    )
    from tournaments.domain.cluster import ClusterError

    levels = _concurrency_levels(concurrency)
    level = check_isolation(isolation)
    if profile and (workers or len(levels) > 1 or (isolation is not None and level != "process")):
        fail(
            "--profile profiles one run of the embedded runner: leave out --workers, several "
            "--concurrency values and --isolation (the default level is profiled)"
        )
    if len(levels) > 1:
        if workers or (isolation is not None and level != "process"):
            fail(
                "several --concurrency values compare the embedded runner at one isolation "
                "level: leave out --workers, and --isolation other than process"
            )
        compared = compare_concurrency(games, levels, repeat or 2, ruleset, entries, level, ponder)
        _show_concurrency(compared, json_out)
        return
    concurrency_one, repeat = levels[0], repeat or 1
    if isolation is not None and level != "process":
        result = compare_isolation(games, concurrency_one, level, ruleset, ponder=ponder)
    else:
        result = run_bench(
            games,
            concurrency_one,
            ruleset,
            entries,
            level,
            ponder,
            profile_top=top if profile else 0,
            floor=True,
        )
    if workers:
        try:
            result = compare_cluster(
                result, games, concurrency_one, workers, repeat, ruleset, level, ponder
            )
        except ClusterError as exc:
            fail(str(exc))
    if json_out:
        print_json(result)
    else:
        _show_tournament(result, ponder)
        if "profile" in result:
            _show_profile(result["profile"])


def _show_profile(profile: dict[str, Any]) -> None:
    """The profile's two tables: the top functions by own time, then by cumulative time."""
    console.print(
        f"profile of this process over {profile['moves']} moves: "
        f"{profile['profiled_us_per_move']:.0f} us of Python a move under the profiler "
        "(which slows every call: read the shares)"
    )
    for key, title in (("top_own", "own time"), ("top_cumulative", "cumulative time")):
        table = Table(title=f"top functions by {title} (us per move)")
        for column in ("function", "calls/move", "own", "cumulative", "share of own"):
            table.add_column(column, justify="left" if column == "function" else "right")
        for row in profile[key]:
            table.add_row(
                row["function"],
                f"{row['calls_per_move']:.2f}",
                f"{row['own_us_per_move']:.1f}",
                f"{row['cumulative_us_per_move']:.1f}",
                f"{100 * row['own_share']:.1f}%",
            )
        console.print(table)


def _show_tournament(result: dict[str, Any], ponder: bool) -> None:
    console.print(
        f"{result['games']} games in {result['elapsed_s']:.2f} s at concurrency "
        f"{result['concurrency']}: [bold]{result['games_per_s']:.1f} games/s[/], "
        f"{result['per_move_us']:.0f} us per move ({result['moves']} moves)"
    )
    console.print(
        f"{result['entries']} entries; at most {result['bot_processes_peak']} live bot "
        "processes (counted from /proc)"
    )
    console.print(
        f"isolation: {result['isolation']}"
        + (", bots ponder (not frozen between moves)" if ponder else ""),
        highlight=False,
    )
    console.print(
        f"referee's process: {result['referee_cpu_us_per_move']:.0f} us of CPU a move "
        f"({result['referee_cpu_ms_per_game']:.1f} ms a game; target <= 150 us a move)"
    )
    if "bare_pingpong_us" in result:
        console.print(
            f"bare gRPC ping-pong, {result['concurrency']} stream(s) at once, same run: "
            f"{result['bare_pingpong_us']:.0f} us a round trip, "
            f"{result['bare_pingpong_cpu_us']:.0f} us of its server's CPU; per move "
            f"{result['per_move_ratio_to_pingpong']:.2f} x the round trip (target <= 2.0), "
            f"referee CPU {result['referee_cpu_ratio_to_pingpong']:.2f} x the server's"
        )
    if "no_match_cpu_us_per_move" in result:
        console.print(
            "the referee with no match, asking the same bots in turn, same run: "
            f"{result['no_match_per_move_us']:.0f} us a move, "
            f"{result['no_match_cpu_us_per_move']:.0f} us of its CPU a move "
            f"(the bots' {result['no_match_bot_cpu_us_per_move']:.0f}); per move "
            f"{result['per_move_ratio_to_no_match']:.2f} x, referee CPU "
            f"{result['referee_cpu_ratio_to_no_match']:.2f} x "
            f"(+{result['referee_cpu_over_no_match_us']:.0f} us: the match's)"
        )
    if "ratio_to_process" in result:
        console.print(
            f"process, same run: {result['process_games_per_s']:.1f} games/s, "
            f"{result['process_per_move_us']:.0f} us per move; per-move ratio "
            f"[bold]{result['ratio_to_process']:.3f}[/] (target <= 1.10)"
        )
    console.print("where a move's time goes (us per move):")
    for key, value in result["breakdown_us"].items():
        console.print(f"  {key:<28} {value:8.1f}")
    if "cluster" not in result:
        return
    repeat = result["repeat"]
    table = Table(
        title="Embedded runner and Dask LocalClusters"
        + (f", best of {repeat}" if repeat > 1 else "")
    )
    for column in (
        "runner",
        "games at once",
        "games/s",
        "vs embedded",
        "CPU ms/game",
        "vs embedded",
    ):
        table.add_column(column, justify="right")
    table.add_row(
        "embedded",
        str(result["concurrency"]),
        f"{result['games_per_s']:.1f}",
        "1.00",
        f"{result['cpu_ms_per_game']:.1f}",
        "1.00",
    )
    for row in result["cluster"]:
        table.add_row(
            f"{row['workers']} worker(s)",
            str(row["workers"] * row["threads_per_worker"]),
            f"{row['games_per_s']:.1f}",
            f"{row['ratio_to_embedded']:.2f}",
            f"{row['cpu_ms_per_game']:.1f}",
            f"{row['cpu_ratio_to_embedded']:.2f}",
        )
    console.print(table)


def _concurrency_levels(text: str) -> list[int]:
    """`--concurrency 8` or `2,8,16`: the games-at-once values, each at least 1 (else exit 2)."""
    try:
        levels = [int(part) for part in text.split(",")]
    except ValueError:
        levels = []
    if not levels or min(levels) < 1:
        fail(
            f"--concurrency {text!r} is not a number of games at once (1 or more) or a list "
            "of them such as 2,8,16"
        )
    return levels


def _show_concurrency(result: dict[str, Any], json_out: bool) -> None:
    if json_out:
        print_json(result)
        return
    from rich.table import Table

    table = Table(
        title=f"{result['entries']} entries, {result['games_per_round']} games per "
        f"run, rounds: {result['rounds']} (alternating), isolation "
        f"{result['isolation']}"
    )
    for column in (
        "games at once",
        "games/s (pooled)",
        "each round",
        "bot processes (peak)",
        "vs first",
    ):
        table.add_column(column, justify="right")
    for row in result["levels"]:
        table.add_row(
            str(row["concurrency"]),
            f"{row['games_per_s']:.1f}",
            " ".join(f"{v:.1f}" for v in row["games_per_s_rounds"]),
            str(row["bot_processes_peak"]),
            f"{row['ratio_to_first']:.2f}",
        )
    console.print(table)


@bench_app.command("viewer")
def bench_viewer(
    players: Annotated[int, typer.Option(min=2, max=4, help="Players of the game.")] = 4,
    no_browser: Annotated[
        bool, typer.Option("--no-browser", help="Only build the page (no chromium).")
    ] = False,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="JSON: moves, build_s, page_bytes, load_ms, step_ms_mean, ..."),
    ] = False,
) -> None:
    """The replay page of the longest game there can be (50 rounds): its size, the time to
    build it, and in headless chromium the time to show each position.

    Example: [bold]azul-arena bench viewer --json[/]
    """
    from tournaments.benchmarks.viewer import run_bench
    from tournaments.commands.common import print_json

    figures = run_bench(players, use_browser=not no_browser)
    if as_json:
        print_json(figures)
        return
    console.print(
        f"{figures['players']} players, {figures['rounds']} rounds, "
        f"{figures['moves']} moves: page of {figures['page_bytes'] / 1e3:.0f} KB "
        f"built in {figures['build_s']:.2f} s",
        highlight=False,
    )
    if figures["step_ms_mean"] is None:
        console.print(f"browser: {figures['browser']}", highlight=False)
        return
    console.print(
        f"{figures['browser']}: loads in {figures['load_ms']:.0f} ms; one position "
        f"shown in {figures['step_ms_mean']:.1f} ms on average (95%: "
        f"{figures['step_ms_p95']:.1f} ms, slowest {figures['step_ms_max']:.1f} ms; "
        "a 60 Hz frame is 16.7 ms)",
        highlight=False,
    )


@bench_app.command("strength")
def bench_strength(
    time_per_move: Annotated[
        float, typer.Option("--time-per-move", "-t", min=0.001, help="seconds per move")
    ] = 0.1,
    games: Annotated[
        int,
        typer.Option(
            "--games",
            "-n",
            min=1,
            help="games per line-up (2 players: per pair; seats rotate over the same deals)",
        ),
    ] = 20,
    bots: Annotated[
        list[str] | None,
        typer.Option("--bot", "-b", help="bots to compare (default: the reference bots)"),
    ] = None,
    ruleset: Annotated[str, typer.Option("--ruleset", "-r")] = "azul",
    players: Annotated[
        int,
        typer.Option(
            "--players",
            "-p",
            min=2,
            max=4,
            help="players per game: 3 or 4 play every line-up of that many bots",
        ),
    ] = 2,
    option: Annotated[list[str] | None, typer.Option("--option", help=OPTION_HELP)] = None,
    wild: Annotated[str | None, typer.Option(WILD_ORDER_ALIAS, help=WILD_ORDER_HELP)] = None,
    seed: Annotated[int, typer.Option("--seed", help="seed of the first deal")] = 1,
    concurrency: Annotated[
        int,
        typer.Option(
            "--concurrency",
            "-c",
            min=1,
            help="games at once through the referee (1: the bots do not compete for the CPU)",
        ),
    ] = 1,
    local: Annotated[
        bool,
        typer.Option(
            "--local", help="play in-process with sdk.local instead of through the referee"
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object on stdout")] = False,
) -> None:
    """The strength ladder among the reference bots: every pair's win rate with a 95% interval,
    as a matrix, each bot's mean rank, score and faults, and the bots in order with each rung
    marked held or not (2 players: the stronger wins at least 70%; 3 or 4: the mean ranks'
    95% intervals do not overlap).

    Runs through the real referee (bot processes, gRPC, the referee's clocks), one game at a
    time unless --concurrency says otherwise; --local plays in this process instead. With 2
    players every pair plays -n games (game g deals from seed + g // 2, seats swapped on odd
    games); with 3 or 4, every line-up of that many bots plays -n games with the seats rotated
    over the same deals, each deal in the next order around the table (every order equally
    often with -n a multiple of 6 for 3 players, 24 for 4), and each game counts for every
    pair in it (who ranked higher). Bots that do not play the ruleset are left out. A
    benchmark, not a test. Example:
    [bold]azul-arena bench strength --ruleset pavilion -t 0.1 -n 40[/]
    or [bold]azul-arena bench strength --players 3 -t 0.1 -n 12[/]
    """
    from tournaments.benchmarks.strength import REFERENCE_BOTS, play_local, play_referee
    from tournaments.domain.compliance import FIRST_MOVE_ALLOWANCE

    bots = bots or list(REFERENCE_BOTS)
    options = check_ruleset(ruleset, players, option or [], wild)
    # The default ladder leaves out the reference bots that do not play the ruleset; a bot
    # named with --bot must play it.
    skipped = (
        [b for b in bots if ruleset not in (builtin_rulesets(b) or [ruleset])]
        if list(bots) == list(REFERENCE_BOTS)
        else []
    )
    bots = [b for b in bots if b not in skipped]
    try:
        check_plays(bots, ruleset)
    except ValueError as exc:
        fail(str(exc))
    if skipped and not as_json:
        err_console.print(f"left out (they do not play {ruleset}): {', '.join(skipped)}")
    if len(bots) < 2:
        fail("name at least two bots")
    if len(set(bots)) != len(bots):
        fail("name each bot once (a bot is not compared with itself)")
    if players > len(bots):
        fail(
            f"--players {players} needs at least {players} bots; {len(bots)} play {ruleset}: "
            f"{', '.join(bots)}"
        )
    began = time.monotonic()

    def progress(ladder: Any, total: int) -> None:
        # With --json too where a person watches: stdout keeps the one JSON object.
        if not as_json or err_console.is_terminal:
            err_console.print(f"  game {ladder.games}/{total}", end="\r", highlight=False)

    try:
        if local:
            ladder = play_local(
                list(bots), games, time_per_move, ruleset, seed, players, progress, options
            )
        else:
            ladder = play_referee(
                list(bots),
                games,
                time_per_move,
                ruleset,
                seed,
                players,
                concurrency,
                progress,
                options,
                FIRST_MOVE_ALLOWANCE,
            )
    except ValueError as exc:
        fail(str(exc))
    elapsed = time.monotonic() - began
    path = "local" if local else "referee"
    if as_json:
        print_json(
            {
                "pairs": [p.as_dict() for p in ladder.pairs.values()],
                "bots": [b.as_dict() for b in ladder.by_bot.values()],
                "rungs": [r.as_dict() for r in ladder.rungs()],
                "time_per_move": time_per_move,
                "games_per_pair": games,
                "ruleset": ruleset,
                "options": options,
                "left_out": skipped,
                "players": players,
                "concurrency": 1 if local else concurrency,
                "games": ladder.games,
                "faults": ladder.faults(),
                "path": path,
                "seed": seed,
                "seconds": round(elapsed, 1),
            }
        )
        return
    _show_strength(
        ladder, bots, ruleset, players, time_per_move, games, local, concurrency, elapsed
    )


def _show_strength(
    ladder: Any,
    bots: list[str],
    ruleset: str,
    players: int,
    time_per_move: float,
    games: int,
    local: bool,
    concurrency: int,
    elapsed: float,
) -> None:
    """The ladder as a matrix of win rates, each bot's mean rank, score and faults, and the
    order of the bots with each rung held or not."""
    from tournaments.benchmarks.strength import RUNG_WIN_RATE

    path = "local" if local else "referee"
    title = (
        f"strength: {ruleset}, {players} players, {time_per_move:g} s/move, "
        f"{games} games per {'pair' if players == 2 else 'line-up'}, {path} path"
        + ("" if local or concurrency == 1 else f", {concurrency} at once")
        + f" ({elapsed:.0f} s)"
    )
    matrix = Table(
        title=title, caption="row's win rate against the column (draws half), 95% interval, games"
    )
    matrix.add_column("")
    for b in bots:
        matrix.add_column(b, justify="center")
    for a in bots:
        cells = []
        for b in bots:
            if a == b:
                cells.append("-")
                continue
            rate, (low, high), n = ladder.pair(a, b)
            cells.append(f"{rate:.0%} ({low:.0%}-{high:.0%}) {n}")
        matrix.add_row(a, *cells)
    console.print(matrix)
    table = Table(caption="mean rank with its 95% interval")
    for col in ("bot", "games", "mean rank", "firsts", "mean score", "faults"):
        table.add_column(col)
    for r in sorted(ladder.by_bot.values(), key=lambda r: r.mean_rank):
        low, high = r.rank_interval()
        interval = "" if math.isnan(low) else f" ({low:.2f}-{high:.2f})"  # below two deals
        table.add_row(
            r.name,
            str(r.games),
            f"{r.mean_rank:.2f}{interval}",
            str(r.firsts),
            f"{r.points / max(1, r.games):.1f}",
            str(r.faults) if not r.faults else f"[bold red]{r.faults}[/]",
        )
    console.print(table)
    rungs = ladder.rungs()
    order = rungs[0].above if rungs else ""
    for rung in rungs:
        order += (" > " if rung.holds else " ~ ") + rung.below
    bar = (
        f"the stronger wins at least {RUNG_WIN_RATE:.0%} of their games"
        if players == 2
        else "their mean ranks' 95% intervals do not overlap"
    )
    console.print(f"ladder: {order}", highlight=False)
    console.print(f"  ('>': the rung holds, {bar}; '~': it does not)", highlight=False)
