"""`bench tournament`: random bots through the real path, and where the time goes.

The path measured is the production one: bot processes (reused across games), the in-process
referee over a unix socket, the runner and the SQLite store. A short warm-up (process start-up,
imports) is played first and not counted: 2 x concurrency games and a game for every entry, so
each entry has its process before the clock starts. It is the head of the same run: the clock
starts when that many games have finished, so the games measured see the run's steady state.

Per move, the breakdown splits a game's duration into
- the bot round trip as the referee measured it (send request, bot thinks, answer arrives),
- the rules engine work the referee does (replayed locally: legal moves, public state, push),
- the rest: the referee's own bookkeeping (protocol encoding, clocks, scheduling);
plus the store commit, which happens between games and is reported per move for comparison.
"""

from __future__ import annotations

import asyncio
import math
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee import all_bot_pids, loop_name, read_bytes, run_loop, strongest
from tournaments.benchmarks.profiling import Profile
from tournaments.domain.arena import arena_player, local_pool, process_cap
from tournaments.domain.entries import Entry
from tournaments.domain.runner import RunSummary, run_games
from tournaments.domain.schedule import ScheduledGame, build_schedule
from tournaments.domain.settings import MatchSettings
from tournaments.domain.store import Store, StoredGame


def _engine_us_per_move(records: list[dict[str, Any]], ruleset: str) -> float:
    """Time the engine work a referee does per move, by replaying recorded games."""
    from referee.engine import new_game

    moves = 0
    start = time.perf_counter()
    for rec in records:
        seed = rec.get("seed")
        game = new_game(ruleset, players=2, seed=seed)
        for rnd in rec.get("rounds", []):
            for text in rnd.get("moves", []):
                game.legal_moves()
                game.to_state()
                game.push_notation(text)
                moves += 1
    elapsed = time.perf_counter() - start
    return 1e6 * elapsed / moves if moves else float("nan")


ENTRIES = [Entry("random-a", "random"), Entry("random-b", "random")]


def run_cluster_bench(
    games: int,
    concurrency: int,
    workers: int,
    ruleset: str = "azul",
    isolation: str | None = None,
    ponder: bool = False,
) -> dict[str, Any]:
    """`games` random-vs-random games on a LocalCluster of `workers` processes, `concurrency`
    games at once in all (at least one per worker), with `run_bench`'s isolation and ponder;
    games/s after a warm-up, as `run_bench`."""
    from tournaments.domain.cluster import ClusterOptions, cluster_player

    threads = max(1, concurrency // workers)
    options = ClusterOptions(workers=workers, threads=threads)
    with tempfile.TemporaryDirectory(prefix="azul-bench-") as tmp:
        store = Store.open(Path(tmp) / "bench.db")
        warmup = 2 * threads * workers
        schedule = build_schedule([e.name for e in ENTRIES], 2, games + warmup, seed=1)
        store.write_schedule({"bench": True}, ENTRIES, schedule)
        settings = MatchSettings(
            ruleset=ruleset, time_per_move=1.0, isolation=isolation, ponder=ponder
        )

        async def main() -> tuple[Any, float]:
            async with cluster_player(ENTRIES, settings, options) as remote:
                await run_games(store, schedule[:warmup], remote.play, remote.concurrency)
                cpu0 = tree_cpu_s(os.getpid())
                summary = await run_games(store, schedule[warmup:], remote.play, remote.concurrency)
                return summary, tree_cpu_s(os.getpid()) - cpu0

        summary, cpu = run_loop(main())
        store.close()
    return {
        "workers": workers,
        "threads_per_worker": threads,
        "games": summary.played,
        "failed": summary.failed,
        "elapsed_s": summary.elapsed,
        "games_per_s": summary.played / summary.elapsed if summary.elapsed else 0.0,
        "cpu_ms_per_game": 1e3 * cpu / summary.played if summary.played else 0.0,
    }


# Processes the isolation wraps a bot in (unshare --fork waits for it): not bots themselves.
WRAPPERS = frozenset({"unshare", "bwrap", "setpriv", "prlimit"})


def _stat(line: bytes) -> tuple[str, list[str]]:
    """A /proc/PID/stat line: the command's name, and the fields after it (the state first)."""
    text = line.decode(errors="replace")
    close = text.rindex(")")
    return text[text.index("(") + 1 : close], text[close + 2 :].split()


def _tree(root: int) -> list[tuple[int, str, str, float]]:
    """`root` and its live descendants, read from /proc: (pid, command, state, CPU seconds its
    own and its reaped children's); [] where there is no /proc."""
    children: dict[int, list[tuple[int, str, str, float]]] = {}
    found = []
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return []
    for text in pids:
        try:
            comm, fields = _stat(read_bytes(f"/proc/{text}/stat"))
        except OSError:
            continue  # it ended meanwhile
        cpu = sum(int(f) for f in fields[11:15]) / _TICKS  # utime stime cutime cstime
        process = (int(text), comm, fields[0], cpu)
        children.setdefault(int(fields[1]), []).append(process)
        if int(text) == root:
            found.append(process)
    todo = [root]
    while todo:
        for process in children.get(todo.pop(), []):
            todo.append(process[0])
            found.append(process)
    return found


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _is_bot(comm: str, state: str) -> bool:
    """A live process that runs bot code (not a zombie, not the isolation's wrapper)."""
    return state != "Z" and comm not in WRAPPERS


def live_bot_processes(root: int) -> list[int]:
    """The live processes under `root` that run bot code, read from /proc (zombies and the
    isolation's wrappers left out; [] where there is no /proc)."""
    return [pid for pid, comm, state, _ in _tree(root) if pid != root and _is_bot(comm, state)]


def own_bot_processes() -> list[int]:
    """`live_bot_processes` of this process, read from its referee's bot cgroups where it has
    them: a few files rather than all of /proc, whose scan on a busy machine costs as much CPU
    as the referee's own work."""
    pids = all_bot_pids()
    if pids is None:
        return live_bot_processes(os.getpid())
    live = []
    for pid in pids:
        try:
            comm, fields = _stat(read_bytes(f"/proc/{pid}/stat"))
        except OSError:
            continue  # it ended meanwhile
        if _is_bot(comm, fields[0]):
            live.append(pid)
    return live


def tree_cpu_s(root: int) -> float:
    """CPU seconds used so far by `root` and everything under it (bots, referee, Dask workers):
    the cost of a run on a machine shared with others, whose games/s say little."""
    return sum(cpu for *_, cpu in _tree(root))


def bench_entries(count: int) -> list[Entry]:
    """The benchmark's field: `count` random bots (the two classic ones for 2)."""
    return ENTRIES if count == 2 else [Entry(f"random-{i + 1}", "random") for i in range(count)]


def warmup_games(schedule: list[ScheduledGame], count: int) -> list[ScheduledGame]:
    """The warm-up: at least `count` games and every entry's first, taken from `schedule` in
    rounds of games with no entry in common, so that it starts one process per entry (and a
    second only where the runner would) rather than crowd a round-robin's first entries."""
    names = {n for g in schedule for n in g.seats}
    chosen: list[ScheduledGame] = []
    seen: set[str] = set()
    left = schedule
    while left and (len(chosen) < count or seen != names):
        used: set[str] = set()
        rest = []
        for game in left:
            if (len(chosen) < count or seen != names) and used.isdisjoint(game.seats):
                chosen.append(game)
                used.update(game.seats)
                seen.update(game.seats)
            else:
                rest.append(game)
        left = rest
    return chosen


@dataclass
class _Meter:
    """What a bench run counts as its games end: the clock starts when as many games as the
    warm-up has are done (one run, warm-up first, so the games measured see the run's steady
    state, no warm-up tail); the peak of live bot processes is sampled beside; a `profile`
    starts with the clock."""

    warmup: int
    profile: Profile | None = None
    finished: int = 0
    after: int = 0  # games finished (not failed) once the clock started
    peak: int = 0
    # CPU seconds this process spent counting the bot processes once the clock started: the
    # benchmark's own, left out of the referee's figure
    sampling_cpu: float = 0.0
    # (wall, this process's CPU, the whole tree's CPU) when the warm-up's count ended
    mark: tuple[float, float, float] | None = None

    def on_done(self, game: ScheduledGame, outcome: Any, error: str | None) -> None:
        self.finished += 1
        if self.mark is None and self.finished >= self.warmup:
            tree = tree_cpu_s(os.getpid())  # the scan before the clock starts, not on it
            self.mark = (time.perf_counter(), time.process_time(), tree)
            if self.profile is not None:
                self.profile.start()
        elif self.mark is not None and outcome is not None:
            self.after += 1

    async def count_processes(self) -> None:
        while True:
            start = time.thread_time()
            self.peak = max(self.peak, len(own_bot_processes()))
            if self.mark is not None:
                self.sampling_cpu += time.thread_time() - start
            await asyncio.sleep(0.05)


@dataclass
class _Timed:
    """A bench run's times: start-up (to the clock's start), the games measured (wall), the
    CPU of this process and of the whole tree over them, the bot processes started."""

    startup: float = 0.0
    elapsed: float = 0.0
    referee_cpu: float = 0.0
    cpu: float = 0.0
    started: int = 0
    sampling_cpu: float = 0.0


async def _play_bench(
    store: Store,
    entries: list[Entry],
    settings: MatchSettings,
    games: list[ScheduledGame],
    concurrency: int,
    meter: _Meter,
    log_dir: Path,
) -> tuple[RunSummary, _Timed]:
    timed = _Timed()
    t0 = time.perf_counter()
    cap = process_cap(len(entries), 2, concurrency)
    counter = asyncio.ensure_future(meter.count_processes())
    try:
        async with arena_player(entries, settings, log_dir, cap) as play:
            pool = local_pool(cap)
            summary = await run_games(store, games, play, concurrency, meter.on_done, pool=pool)
            if meter.profile is not None:
                meter.profile.stop()
            wall, referee0, cpu0 = meter.mark or (t0, 0.0, 0.0)
            timed.referee_cpu = time.process_time() - referee0 - meter.sampling_cpu
            timed.cpu = tree_cpu_s(os.getpid()) - cpu0 - meter.sampling_cpu
            timed.sampling_cpu = meter.sampling_cpu
            timed.elapsed = time.perf_counter() - wall
            timed.started = pool.started
    finally:
        counter.cancel()
    timed.startup = wall - t0
    return summary, timed


def run_bench(
    games: int,
    concurrency: int,
    ruleset: str = "azul",
    entries_count: int = 2,
    isolation: str | None = None,
    ponder: bool = False,
    profile_top: int = 0,
    floor: bool = False,
) -> dict[str, Any]:
    """Play `games` games of a round-robin among `entries_count` random bots at `isolation`
    (None: the strongest available), frozen between their moves unless `ponder`; return
    throughput, the per-move breakdown and the peak of live bot processes (from /proc); with
    `profile_top`, `profile`: a cProfile of this process over the games measured, that many
    functions in each list (tournaments.benchmarks.profiling); with `floor`, the floors
    measured after the games: the transport's (`transport_floor`) and the referee's with no
    match (`no_match_floor`)."""
    entries = bench_entries(entries_count)
    names = [e.name for e in entries]
    per_group = -(-(games + 2 * concurrency + len(names)) // math.comb(len(names), 2))
    with tempfile.TemporaryDirectory(prefix="azul-bench-") as tmp:
        store = Store.open(Path(tmp) / "bench.db")
        full = build_schedule(names, 2, per_group, seed=1)
        warm = warmup_games(full, 2 * concurrency)
        warm_ids = {g.index for g in warm}
        measured = [g for g in full if g.index not in warm_ids][:games]
        schedule = sorted([*warm, *measured], key=lambda g: g.index)
        store.write_schedule({"bench": True}, entries, schedule)
        settings = MatchSettings(
            ruleset=ruleset, time_per_move=1.0, isolation=isolation, ponder=ponder
        )
        meter = _Meter(len(warm), Profile() if profile_top else None)
        summary, timed = run_loop(
            _play_bench(
                store, entries, settings, [*warm, *measured], concurrency, meter, Path(tmp) / "logs"
            )
        )
        summary.played = meter.after
        summary.store_time = summary.store_time * meter.after / max(1, meter.finished)
        done = [g for g in store.games(done_only=True) if g.game.index not in warm_ids]
        sample = [store.replay(g.game.game_id) or {} for g in done[:50]]
        store.close()
    try:
        engine_us = _engine_us_per_move(sample, ruleset)
    except Exception:
        engine_us = float("nan")
    result = {
        "isolation": isolation or strongest(),
        "ponder": ponder,
        "games": summary.played,
        "failed": summary.failed,
        "concurrency": concurrency,
        "entries": len(entries),
        "bot_processes_peak": meter.peak,
        "event_loop": loop_name(),
        **_figures(summary, timed, done, engine_us),
    }
    if floor:
        result.update(transport_floor(result, concurrency))
        result.update(no_match_floor(result, entries, settings, concurrency))
    if meter.profile is not None:
        result["profile"] = meter.profile.summary(result["moves"], profile_top)
    return result


FLOOR_ROUNDS = 2000  # round trips per stream of the bare ping-pong


def transport_floor(result: dict[str, Any], concurrency: int) -> dict[str, float]:
    """A bare gRPC ping-pong of a move request's size with `concurrency` streams at once
    (latency.transport_floor), set beside `result`'s moves: its mean round trip and the CPU of
    its server's process per round trip, the floors under `per_move_us` and
    `referee_cpu_us_per_move`, and the ratios of those to them."""
    from tournaments.benchmarks.latency import sample_payload
    from tournaments.benchmarks.latency import transport_floor as measure

    async def main() -> Any:
        return await measure(await sample_payload(), FLOOR_ROUNDS, concurrency)

    found = run_loop(main())
    round_trip_us, cpu_us = 1e6 * found.round_trip, 1e6 * found.cpu
    return {
        "bare_pingpong_us": round_trip_us,
        "bare_pingpong_cpu_us": cpu_us,
        "per_move_ratio_to_pingpong": result["per_move_us"] / round_trip_us,
        "referee_cpu_ratio_to_pingpong": result["referee_cpu_us_per_move"] / cpu_us,
    }


NO_MATCH_MOVES = 500  # moves counted per game of the no-match floor (after 100 unmeasured)


def no_match_floor(
    result: dict[str, Any], entries: list[Entry], settings: MatchSettings, concurrency: int
) -> dict[str, float]:
    """The referee with its match taken away (`referee.ask_in_turn`), set beside `result`'s
    moves: a fresh Arena with the bench's bot settings (isolation, ponder: the same freeze and
    grace), `concurrency` games at once each asking the bench's first two entries' bots in turn
    for the bench's sample move request (`latency.sample_payload`: classic Azul, 2 players, as
    the transport's floor uses). Its per-move path (the games' wall time a move, as
    `per_move_us`), this process's CPU a move and the bots', and the referee's ratios to
    them: what a move costs over them is the match's (engine, codec, record, runner, store)."""
    from referee import Arena, ask_in_turn
    from tournaments.benchmarks.latency import sample_payload
    from tournaments.domain.arena import bot_settings

    async def main() -> Any:
        with tempfile.TemporaryDirectory(prefix="azul-bench-") as logs:
            async with Arena(
                {e.name: e.spec for e in entries},
                log_dir=Path(logs),
                bots=bot_settings(entries, settings),
            ) as arena:
                seats = [e.name for e in entries[:2]]
                payload = await sample_payload()
                return await ask_in_turn(
                    arena, seats, payload, games=concurrency, moves=NO_MATCH_MOVES
                )

    asked = run_loop(main())
    path_us, cpu_us = 1e6 * asked.wall / asked.moves, 1e6 * asked.cpu / asked.moves
    bot_us = 1e6 * asked.bot_cpu / asked.moves if asked.bot_cpu is not None else float("nan")
    return {
        "no_match_per_move_us": path_us,
        "no_match_cpu_us_per_move": cpu_us,
        "no_match_bot_cpu_us_per_move": bot_us,
        "per_move_ratio_to_no_match": result["per_move_us"] / path_us,
        "referee_cpu_ratio_to_no_match": result["referee_cpu_us_per_move"] / cpu_us,
        "referee_cpu_over_no_match_us": result["referee_cpu_us_per_move"] - cpu_us,
    }


def _figures(
    summary: RunSummary, timed: _Timed, done: list[StoredGame], engine_us: float
) -> dict[str, Any]:
    """Throughput, CPU and the per-move breakdown of the games measured."""
    moves = sum(s.moves for g in done for s in g.seats)
    duration = sum(g.duration or 0.0 for g in done)
    bot_time = sum(s.move_time for g in done for s in g.seats)
    elapsed, played = timed.elapsed, summary.played
    # The moves of as many games as the clock counted, at the games' mean length.
    measured_moves = moves * played / len(done) if done else 0
    # The bots' CPU (each seat's processes, from its cgroup) over the moves of the games where
    # every seat's was counted: the SDK's side of a move, whichever bot made it.
    counted = [g for g in done if all(s.cpu_time is not None for s in g.seats)]
    bot_cpu = sum(s.cpu_time or 0.0 for g in counted for s in g.seats)
    counted_moves = sum(s.moves for g in counted for s in g.seats)
    per_move_us = 1e6 * duration / moves if moves else float("nan")
    bot_us = 1e6 * bot_time / moves if moves else float("nan")
    return {
        "elapsed_s": elapsed,
        "startup_s": timed.startup,
        # Games in flight on average (their durations over the wall time), the runner's count
        # of bot processes started (warm-up included), and the CPU of this process alone
        # (referee, runner, store) per game: where a concurrency's games/s goes. The CPU the
        # benchmark spends counting bot processes is left out of this and of cpu_ms_per_game
        # (it is `sampling_cpu_ms_per_game`).
        "games_in_flight_mean": duration / elapsed if elapsed else 0.0,
        "bot_processes_started": timed.started,
        "referee_cpu_ms_per_game": 1e3 * timed.referee_cpu / played if played else 0.0,
        "referee_cpu_us_per_move": 1e6 * timed.referee_cpu / measured_moves
        if measured_moves
        else float("nan"),
        "sampling_cpu_ms_per_game": 1e3 * timed.sampling_cpu / played if played else 0.0,
        "bot_cpu_us_per_move": 1e6 * bot_cpu / counted_moves if counted_moves else float("nan"),
        "games_per_s": played / elapsed if elapsed else 0.0,
        "cpu_ms_per_game": 1e3 * timed.cpu / played if played else 0.0,
        "moves": moves,
        "per_move_us": per_move_us,
        "wall_us_per_move": 1e6 * elapsed / moves if moves else float("nan"),
        "breakdown_us": {
            "bot round trip": bot_us,
            "referee engine work": engine_us,
            "referee other": per_move_us - bot_us - (engine_us if engine_us == engine_us else 0),
            "store commit (between games)": 1e6 * summary.store_time / moves if moves else 0.0,
        },
    }


def compare_isolation(
    games: int,
    concurrency: int,
    isolation: str,
    ruleset: str = "azul",
    rounds: int = 2,
    ponder: bool = False,
) -> dict[str, Any]:
    """`run_bench` at `isolation` and at `process`, in alternating rounds of the same run (the
    machine's speed drifts): the figures of `isolation`, the baseline's, and their ratio."""
    runs: dict[str, list[dict[str, Any]]] = {isolation: [], "process": []}
    for _ in range(rounds):
        for level in runs:
            runs[level].append(
                run_bench(
                    max(1, games // rounds), concurrency, ruleset, isolation=level, ponder=ponder
                )
            )

    def pooled(results: list[dict[str, Any]]) -> tuple[float, float]:
        moves = sum(r["moves"] for r in results)
        busy = sum(r["per_move_us"] * r["moves"] for r in results)
        played = sum(r["games"] for r in results)
        return busy / moves, played / sum(r["elapsed_s"] for r in results)

    figures = dict(runs[isolation][-1])
    per_move, per_s = pooled(runs[isolation])
    base_move, base_s = pooled(runs["process"])
    figures.update(
        games=sum(r["games"] for r in runs[isolation]),
        per_move_us=per_move,
        games_per_s=per_s,
        process_per_move_us=base_move,
        process_games_per_s=base_s,
        ratio_to_process=per_move / base_move,
        per_move_us_rounds=[r["per_move_us"] for r in runs[isolation]],
        process_per_move_us_rounds=[r["per_move_us"] for r in runs["process"]],
    )
    return figures


def compare_concurrency(
    games: int,
    levels: list[int],
    rounds: int = 2,
    ruleset: str = "azul",
    entries_count: int = 2,
    isolation: str | None = None,
    ponder: bool = False,
) -> dict[str, Any]:
    """`run_bench` at each concurrency of `levels`, in `rounds` rounds of the same run (the
    machine's speed drifts), every other round in reverse order: each level's pooled games/s,
    its figure per round, the peak of live bot processes, and games/s as a ratio to the first
    level's."""
    runs: dict[int, list[dict[str, Any]]] = {level: [] for level in levels}
    for turn in range(rounds):
        # Forward, then backward: no level always runs right after the same other one.
        for level in levels if turn % 2 == 0 else levels[::-1]:
            runs[level].append(run_bench(games, level, ruleset, entries_count, isolation, ponder))
    rows = []
    for level, results in runs.items():
        elapsed = sum(r["elapsed_s"] for r in results)
        played = sum(r["games"] for r in results)
        rows.append(
            {
                "concurrency": level,
                "games": played,
                "games_per_s": played / elapsed if elapsed else 0.0,
                "games_per_s_rounds": [r["games_per_s"] for r in results],
                "bot_processes_peak": max(r["bot_processes_peak"] for r in results),
                "games_in_flight_mean": sum(r["games_in_flight_mean"] for r in results)
                / len(results),
                "referee_cpu_ms_per_game": sum(r["referee_cpu_ms_per_game"] for r in results)
                / len(results),
                "cpu_ms_per_game": sum(r["cpu_ms_per_game"] for r in results) / len(results),
                "failed": sum(r["failed"] for r in results),
            }
        )
    base = rows[0]["games_per_s"]
    for row in rows:
        row["ratio_to_first"] = row["games_per_s"] / base if base else 0.0
    return {
        "entries": runs[levels[0]][0]["entries"],
        "isolation": runs[levels[0]][0]["isolation"],
        "ponder": ponder,
        "rounds": rounds,
        "games_per_round": games,
        "concurrency": levels,
        "levels": rows,
    }


def compare_cluster(
    result: dict[str, Any],
    games: int,
    concurrency: int,
    workers: int,
    repeat: int,
    ruleset: str,
    isolation: str,
    ponder: bool,
) -> dict[str, Any]:
    """`result` (the embedded runner's) with the same games on Dask LocalClusters of 1 to
    `workers` worker processes beside it (`cluster`, each row's ratio to the embedded runner),
    `repeat` times alternating, each figure the best of its runs (a busy machine's noise)."""
    best: dict[int, dict[str, Any]] = {}
    for turn in range(repeat):
        if turn:
            again = run_bench(games, concurrency, ruleset, result["entries"], isolation, ponder)
            if again["games_per_s"] > result["games_per_s"]:
                result = again
        for n in range(1, workers + 1):
            row = run_cluster_bench(games, concurrency, n, ruleset, isolation, ponder)
            if n not in best or row["games_per_s"] > best[n]["games_per_s"]:
                best[n] = row
    result["cluster"] = [best[n] for n in sorted(best)]
    result["repeat"] = repeat
    for row in result["cluster"]:
        row["ratio_to_embedded"] = (
            row["games_per_s"] / result["games_per_s"] if result["games_per_s"] else 0.0
        )
        # CPU per game, all processes counted: the overhead, whatever else runs meanwhile.
        row["cpu_ratio_to_embedded"] = (
            row["cpu_ms_per_game"] / result["cpu_ms_per_game"] if result["cpu_ms_per_game"] else 0.0
        )
    return result
