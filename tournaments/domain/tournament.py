"""A tournament from options to final report: config, schedule in the store, run, resume.

`prepare` makes the store hold this tournament's schedule (writing it, or checking that the
stored one is the same tournament) and returns the games still to play; `run_tournament` plays
them (a coroutine: it knows nothing of terminals, signals or event loops; it tells a watcher of
its progress, `tournaments.domain.progress`). `tournament run`, `demo` (through
`tournaments.terminal.running`, which adds the live view, the signals and the loop) and a
contest's final (awaited by the ladder worker) go through here.

A round-robin or gauntlet stores its whole schedule at once; an adaptive, Swiss or graded one
stores a round at a time, each built from the results before it (`tournaments.domain.rounds`).
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from tournaments.domain.arena import arena_player, local_pool, process_cap
from tournaments.domain.entries import Entry
from tournaments.domain.progress import (
    GameFinished,
    Notice,
    OnProgress,
    RunEnded,
    RunStarted,
    TotalChanged,
    ignore,
)
from tournaments.domain.rounds import ROUND_KINDS, RoundPlan, Rounds
from tournaments.domain.runner import PlayFn, Pool, RunSummary, run_games
from tournaments.domain.schedule import ScheduledGame, build_schedule
from tournaments.domain.settings import MatchSettings
from tournaments.domain.store import GameOutcome, GameStore

if TYPE_CHECKING:
    from tournaments.domain.cluster import ClusterOptions

CONFIG_FORMAT = "azul-arena/tournament/1"
# Where each seat's log of a game goes (`arena.arena_player`'s `seat_logs`).
SeatLogs = Callable[[ScheduledGame], list[Path]]
RUN_KEYS = ("isolation", "ponder", "bot_env", "clock", "anonymous")


class RoundSource(Protocol):
    """A schedule that grows from its results: the games to play next ([] when it is over),
    and the games in all as far as can be told now (`tournaments.domain.rounds.Rounds`)."""

    def next_games(self) -> list[ScheduledGame]: ...

    def total_games(self) -> int: ...


class ConfigMismatch(ValueError):
    """The database holds a different tournament than the one asked for."""


@dataclass
class TournamentConfig:
    """Everything that decides the schedule and the results (not how fast they come): the
    entries, the schedule, and the match settings every game is played with."""

    entries: list[Entry]
    match: MatchSettings = field(default_factory=MatchSettings)
    players: int = 2
    games_per_pairing: int = 2
    seed: int | None = None  # None: a fresh random one, or the stored one on resume
    gauntlet: str | None = None
    schedule: str = "round-robin"  # or "adaptive", "swiss", "graded" (tournaments.domain.rounds)
    games: int | None = None  # adaptive, graded: games in all
    rounds: int | None = None  # swiss: rounds
    min_games: int | None = None  # adaptive, graded: games each entry plays at least
    # graded: the entries each other one plays `games_per_pairing` games against first (a
    # contest's staff bots: tournaments.domain.rounds)
    graders: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The run key the database keeps: the schedule's fields and the match settings' stored
        ones, flat (tournaments.domain.settings), as databases have always held them."""
        data = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "match"}
        data.update(self.match.stored())
        data["entries"] = [
            [e.name, e.spec, *([e.options()] if e.options() else [])] for e in self.entries
        ]
        data["graders"] = list(self.graders)
        data["format"] = CONFIG_FORMAT
        if self.schedule == "round-robin":
            # Stored as before these options existed, so older databases resume unchanged.
            for key in ("schedule", "games", "rounds", "min_games"):
                del data[key]
        if not self.graders:
            del data["graders"]  # likewise
        return data

    def round_plan(self) -> RoundPlan | None:
        """How an adaptive, Swiss or graded tournament goes on; None for a fixed schedule (or
        one that goes on by other rules: a compare, tournaments/domain/compare.py)."""
        if self.schedule not in ROUND_KINDS:
            return None
        assert self.seed is not None
        return RoundPlan(
            self.schedule,
            self.players,
            self.seed,
            self.games,
            self.rounds,
            self.min_games or 0,
            tuple(self.graders),
            self.games_per_pairing,
        )

    def settings(self) -> MatchSettings:
        """The match settings of its games: the tournament's seed keys the bots' seeds, and a
        compare's duplicate pairs give a seat the same ones on one deal (domain/compare.py)."""
        return replace(
            self.match,
            clock=self.match.clock or "wall",
            seed=self.seed,
            seeds_by_deal=self.schedule == "compare",
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


def prepare(
    store: GameStore, config: TournamentConfig
) -> tuple[TournamentConfig, list[ScheduledGame]]:
    """Write the schedule (first run) or check it matches (resume); return the pending games.

    Raises `ConfigMismatch` when the store holds another tournament, `ScheduleError` for an
    impossible schedule.
    """
    if settle(store, config, config.to_json()):
        plan = config.round_plan()
        if plan is not None:
            return config, Rounds(store, plan).next_games()
        return config, store.pending_games()
    assert config.seed is not None  # settle chose one
    plan = config.round_plan()
    if plan is not None:
        plan.check(len(config.entries), {e.name for e in config.entries})
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


def settle(store: GameStore, config: TournamentConfig, wanted: dict[str, Any]) -> bool:
    """Give `config` the seed, isolation and clock it runs with: the stored ones when the store
    holds this tournament already (True: a resume; `wanted` is what it should have stored),
    else those given or chosen now (False: nothing is stored yet). Raises `ConfigMismatch`
    when the store holds another tournament."""
    stored = store.config()
    if stored is not None:
        diffs = _differences(stored, wanted)
        if diffs:
            raise ConfigMismatch(
                f"{store.path} holds a different tournament: {'; '.join(diffs)}. Run the same "
                "command to resume it, or give another --db for a new tournament."
            )
        config.seed = int(stored["seed"])
        config.match = replace(
            config.match,
            isolation=config.match.isolation or stored.get("isolation"),
            # Stored before there was a choice of clock: the wall clock.
            clock=config.match.clock or stored.get("clock", "wall"),
        )
        return True
    if config.match.isolation is None:
        from referee import strongest

        config.match = replace(config.match, isolation=strongest())
    if config.seed is None:
        config.seed = secrets.randbelow(2**31)
    config.match = replace(config.match, clock=config.match.clock or "wall")
    return False


def _with_options(stored: list[Entry], given: list[Entry]) -> list[Entry]:
    """The stored entries, with the options (memory, env) this run gives them."""
    by_name = {e.name: e for e in given}
    return [by_name.get(e.name, e) for e in stored]


def _private_paths(db: Path) -> list[Path]:
    """The database and its companion files: no bot sees them, even in its own folder."""
    return [db, *(db.with_name(db.name + suffix) for suffix in ("-wal", "-shm", "-journal"))]


@dataclass
class _Player:
    """How the games are played: the coroutine, how many at once, the model of the processes."""

    play: PlayFn
    at_once: int
    pool: Pool


async def run_tournament(  # noqa: PLR0913  # keyword-only options, each with a default
    store: GameStore,
    config: TournamentConfig,
    games: Sequence[ScheduledGame],
    *,
    concurrency: int = 1,
    player: PlayFn | None = None,
    on_progress: OnProgress = ignore,
    log_dir: Path | None = None,
    cluster: ClusterOptions | None = None,
    rounds: RoundSource | None = None,
    seat_logs: SeatLogs | None = None,
) -> RunSummary:
    """Play `games` (what `prepare` returned) and commit every result as it finishes.

    The games are played by `player` when given, else through the referee on this machine
    (`concurrency` at once, the bots' logs in `log_dir`) or on the Dask cluster `cluster` says.
    `on_progress` hears of each step (`tournaments.domain.progress`). An adaptive or Swiss
    tournament goes on round after round until it is over, or until a round has a game that failed
    (the next round depends on it: run again to retry).

    Cancelled (the caller's signal handler, a ladder worker stopping), the games in flight are
    abandoned and stay pending, the bots end, and what was committed stays committed: running
    the same tournament again resumes it.

    `rounds` says what comes after `games` when it is not the config's adaptive or Swiss
    plan (a compare's next pairs, tournaments/domain/compare.py). `seat_logs(game)`: the files
    where each seat's log of that game goes, on this machine or brought back from the cluster
    (a contest server's final keeps them as its ladder's games); without it a seat's log is its
    bot process's, in `log_dir`.
    """
    plan = config.round_plan()
    if rounds is None and plan is not None:
        rounds = Rounds(store, plan)
    started = _started(store, rounds)
    cap = process_cap(len(started.names), config.players, concurrency)
    async with contextlib.AsyncExitStack() as stack:
        if player is not None:
            chosen = _Player(player, concurrency, local_pool(cap))
        elif cluster is not None:
            chosen = await _on_cluster(stack, store, config, cluster, on_progress, seat_logs)
        else:
            play = await stack.enter_async_context(
                _on_this_machine(store, config, cap, log_dir, seat_logs)
            )
            chosen = _Player(play, concurrency, local_pool(cap))
        on_progress(started)
        try:
            return await _play_rounds(store, games, chosen, rounds, on_progress)
        finally:
            on_progress(RunEnded())


def _started(store: GameStore, rounds: RoundSource | None) -> RunStarted:
    done, total = store.counts()
    if rounds is not None:
        total = rounds.total_games()
    finished = list(store.games(done_only=True)) if done else []
    return RunStarted([e.name for e in store.entries()], total, finished)


async def _play_rounds(
    store: GameStore,
    games: Sequence[ScheduledGame],
    player: _Player,
    rounds: RoundSource | None,
    on_progress: OnProgress,
) -> RunSummary:
    def on_done(game: ScheduledGame, outcome: GameOutcome | None, error: str | None) -> None:
        on_progress(GameFinished(game, outcome, error))

    summary, batch = RunSummary(), games
    while batch:
        part = await run_games(store, batch, player.play, player.at_once, on_done, pool=player.pool)
        summary.add(part)
        if part.failed or part.aborted or rounds is None:
            break
        batch = rounds.next_games()
        on_progress(TotalChanged(rounds.total_games()))
    return summary


def _entry_finder(store: GameStore) -> Callable[[str], Entry | None]:
    def entry_of(name: str) -> Entry | None:  # an entry added while the tournament runs
        return {e.name: e for e in store.entries()}.get(name)

    return entry_of


def _on_this_machine(
    store: GameStore,
    config: TournamentConfig,
    cap: int,
    log_dir: Path | None,
    seat_logs: SeatLogs | None,
) -> contextlib.AbstractAsyncContextManager[PlayFn]:
    """The referee's Arena on this machine; one model of the processes for all the rounds
    (the Arena outlives each round)."""
    return arena_player(
        _with_options(store.entries(), config.entries),
        config.settings(),
        log_dir,
        cap,
        _entry_finder(store),
        hidden=_private_paths(store.path),
        seat_logs=seat_logs,
    )


async def _on_cluster(
    stack: contextlib.AsyncExitStack,
    store: GameStore,
    config: TournamentConfig,
    cluster: ClusterOptions,
    on_progress: OnProgress,
    seat_logs: SeatLogs | None,
) -> _Player:
    from tournaments.domain.cluster import cluster_player

    remote = await stack.enter_async_context(
        cluster_player(
            store.entries(),
            config.settings(),
            cluster,
            config.players,
            _entry_finder(store),
            seat_logs=seat_logs,
        )
    )
    on_progress(Notice(f"cluster: {remote.describe()}"))
    # Each worker caps its own Arena; no one model of processes holds here.
    return _Player(remote.play, remote.concurrency, Pool())
