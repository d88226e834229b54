"""A tournament from options to final report: config, schedule in the store, run, resume.

`prepare` makes the store hold this tournament's schedule (writing it, or checking that the
stored one is the same tournament) and returns the games still to play; `play` runs them with a
live view. Both the `tournament run` command and `demo` go through here.

A round-robin or gauntlet stores its whole schedule at once; an adaptive or Swiss one stores a
round at a time, each built from the results before it (`tournaments.rounds`).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import signal
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console

from referee import run_loop
from tournaments.arena import GameSettings, arena_player, local_pool, process_cap
from tournaments.entries import Entry
from tournaments.live import LiveView
from tournaments.rounds import RoundPlan, Rounds
from tournaments.runner import PlayFn, Pool, RunSummary, run_games
from tournaments.schedule import ScheduledGame, build_schedule
from tournaments.store import Store

if TYPE_CHECKING:
    from tournaments.cluster import ClusterOptions

CONFIG_FORMAT = "azul-arena/tournament/1"
RUN_KEYS = ("isolation", "ponder", "bot_env", "clock")


class ConfigMismatch(ValueError):
    """The database holds a different tournament than the one asked for."""


@dataclass
class TournamentConfig:
    """Everything that decides the schedule and the results (not how fast they come)."""

    entries: list[Entry]
    ruleset: str = "azul"
    players: int = 2
    games_per_pairing: int = 2
    seed: int | None = None  # None: a fresh random one, or the stored one on resume
    gauntlet: str | None = None
    time_per_move: float = 1.0
    fault_policy: str = "random"
    schedule: str = "round-robin"  # or "adaptive", "swiss" (tournaments.rounds)
    games: int | None = None  # adaptive: games in all
    rounds: int | None = None  # swiss: rounds
    min_games: int | None = None  # adaptive: games each entry plays at least
    # How bots run (stored with the tournament): None until resolved, to the stored level on a
    # resume, else to the strongest this machine offers.
    isolation: str | None = None
    ponder: bool = False
    bot_env: list[str] = field(default_factory=list)  # NAME or NAME=VALUE, as given
    # The ruleset's options (name to value as text), stored with the schedule.
    options: dict[str, str] = field(default_factory=dict)
    # What a move's limit counts (referee.clocks): wall or cpu; None until resolved, to the
    # stored one on a resume, else to wall.
    clock: str | None = None

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["entries"] = [
            [e.name, e.spec, *([e.options()] if e.options() else [])] for e in self.entries
        ]
        data["format"] = CONFIG_FORMAT
        if self.schedule == "round-robin":
            # Stored as before these options existed, so older databases resume unchanged.
            for key in ("schedule", "games", "rounds", "min_games"):
                del data[key]
        data["bot_env"] = [item.partition("=")[0] for item in self.bot_env]  # no values stored
        if not self.options:
            del data["options"]  # likewise: a ruleset with no options stores none
        if self.clock is None:
            del data["clock"]  # not given on a resume: the stored one
        return data

    def round_plan(self) -> RoundPlan | None:
        """How an adaptive or Swiss tournament goes on; None for a fixed schedule."""
        if self.schedule == "round-robin":
            return None
        assert self.seed is not None
        return RoundPlan(
            self.schedule, self.players, self.seed, self.games, self.rounds, self.min_games or 0
        )

    def settings(self) -> GameSettings:
        return GameSettings(
            self.ruleset,
            self.time_per_move,
            self.fault_policy,
            isolation=self.isolation,
            ponder=self.ponder,
            bot_env=tuple(self.bot_env),
            options=self.options,
            seed=self.seed,
            clock=self.clock or "wall",
        )


def _differences(stored: dict[str, Any], wanted: dict[str, Any]) -> list[str]:
    diffs = []
    for key in sorted(set(stored) | set(wanted)):
        if key in ("seed", "isolation", "clock") and wanted.get(key) is None:
            continue  # not given on resume: keep the stored one
        if key in RUN_KEYS and key not in stored:
            continue  # a tournament stored before these were
        if stored.get(key) != wanted.get(key):
            if key == "entries":
                diffs.append("the entries")
            else:
                diffs.append(f"{key} (stored {stored.get(key)!r}, asked {wanted.get(key)!r})")
    return diffs


def prepare(store: Store, config: TournamentConfig) -> tuple[TournamentConfig, list[ScheduledGame]]:
    """Write the schedule (first run) or check it matches (resume); return the pending games.

    Raises `ConfigMismatch` when the store holds another tournament, `ScheduleError` for an
    impossible schedule.
    """
    stored = store.config()
    if stored is not None:
        wanted = config.to_json()
        diffs = _differences(stored, wanted)
        if diffs:
            raise ConfigMismatch(
                f"{store.path} holds a different tournament: {'; '.join(diffs)}. Run the same "
                "command to resume it, or give another --db for a new tournament."
            )
        config.seed = int(stored["seed"])
        if config.isolation is None:
            config.isolation = stored.get("isolation")
        if config.clock is None:
            config.clock = stored.get("clock", "wall")  # stored before there was a choice
        plan = config.round_plan()
        if plan is not None:
            return config, Rounds(store, plan).next_games()
        return config, store.pending_games()
    if config.isolation is None:
        from referee import strongest

        config.isolation = strongest()
    if config.seed is None:
        config.seed = secrets.randbelow(2**31)
    config.clock = config.clock or "wall"
    plan = config.round_plan()
    if plan is not None:
        plan.check(len(config.entries))
        store.write_schedule(config.to_json(), config.entries, [])
        return config, Rounds(store, plan).next_games()
    games = build_schedule(
        [e.name for e in config.entries],
        config.players,
        config.games_per_pairing,
        config.seed,
        config.gauntlet,
    )
    store.write_schedule(config.to_json(), config.entries, games)
    return config, games


def _with_options(stored: list[Entry], given: list[Entry]) -> list[Entry]:
    """The stored entries, with the options (memory, env) this run gives them."""
    by_name = {e.name: e for e in given}
    return [by_name.get(e.name, e) for e in stored]


def _private_paths(db: Path) -> list[Path]:
    """The database and its companion files: no bot sees them, even in its own folder."""
    return [db, *(db.with_name(db.name + suffix) for suffix in ("-wal", "-shm", "-journal"))]


def play(  # noqa: C901, PLR0913  # the run's parts; two callers: tournament run and demo
    store: Store,
    config: TournamentConfig,
    games: list[ScheduledGame],
    concurrency: int,
    console: Console,
    log_dir: Path | None = None,
    live: bool = True,
    player: PlayFn | None = None,
    cluster: ClusterOptions | None = None,
) -> RunSummary:
    """Play `games` through the referee (on this machine, or on the Dask cluster `cluster`
    says) with a live view; every result is committed at once.

    An adaptive or Swiss tournament goes on round after round until it is over, or until a
    round has a game that failed (the next round depends on it: rerun to retry).
    """
    names = [e.name for e in store.entries()]
    plan = config.round_plan()
    rounds = Rounds(store, plan) if plan is not None else None
    done_games, total = store.counts()
    if rounds is not None:
        total = rounds.total_games()
    finished = list(store.games(done_only=True)) if done_games else []
    cap = process_cap(len(names), config.players, concurrency)

    async def run_all(
        view: LiveView, play_fn: PlayFn, games_at_once: int, pool: Pool
    ) -> RunSummary:
        summary, batch = RunSummary(), games
        while batch:
            part = await run_games(store, batch, play_fn, games_at_once, view.update, pool=pool)
            summary.add(part)
            if part.failed or part.aborted or rounds is None:
                break
            batch = rounds.next_games()
            view.set_total(rounds.total_games())
        return summary

    def entry_of(name: str) -> Entry | None:  # an entry added while the tournament runs
        return {e.name: e for e in store.entries()}.get(name)

    async def run() -> RunSummary:
        async with contextlib.AsyncExitStack() as stack:
            # One model of the processes for all the rounds: the Arena outlives each round.
            play_fn, games_at_once, pool = player, concurrency, local_pool(cap)
            if play_fn is None and cluster is not None:
                from tournaments.cluster import cluster_player

                remote = await stack.enter_async_context(
                    cluster_player(
                        store.entries(), config.settings(), cluster, config.players, entry_of
                    )
                )
                console.print(f"cluster: {remote.describe()}", markup=False, highlight=False)
                # Each worker caps its own Arena; no one model of processes holds here.
                play_fn, games_at_once, pool = remote.play, remote.concurrency, Pool()
            elif play_fn is None:
                play_fn = await stack.enter_async_context(
                    arena_player(
                        _with_options(store.entries(), config.entries),
                        config.settings(),
                        log_dir,
                        cap,
                        entry_of,
                        hidden=_private_paths(store.path),
                    )
                )
            view = LiveView(console, names, total, finished, plain=None if live else True)
            with view:
                return await run_all(view, play_fn, games_at_once, pool)

    async def main() -> RunSummary:
        # SIGINT/SIGTERM cancel the run, so the games in flight are abandoned (they stay
        # pending), the Arena closes (bots ended, temp folders removed) and what was committed
        # stays committed. A second signal while closing is ignored.
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None
        caught: list[int] = []

        def on_signal(signum: int) -> None:
            if not caught:
                caught.append(signum)
                task.cancel()

        installed = []
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, on_signal, sig)
                installed.append(sig)
            except (NotImplementedError, RuntimeError, ValueError):
                pass  # not the main thread: the default behaviour stays
        try:
            return await run()
        except asyncio.CancelledError:
            if not caught:
                raise
            task.uncancel()
            return RunSummary(interrupted=caught[0])
        finally:
            for sig in installed:
                with contextlib.suppress(Exception):
                    loop.remove_signal_handler(sig)

    return run_loop(main())
