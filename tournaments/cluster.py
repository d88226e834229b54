"""Tournaments on a Dask cluster: the runner's `play(game)` backed by Dask workers.

`cluster_player` is the embedded `arena_player`'s twin: it gives the runner a `play(game)`
coroutine, so the runner's dispatch, the store (written by this client alone, each result as it
arrives), resume and every report work unchanged. Each game is one Dask task that a worker
plays whole on its own referee Arena (tournaments/cluster_worker.py); the entries' files travel as
content-addressed Dask data (tournaments/bundles.py), fetched by the workers that need them.

Failures of the machine, not of a bot, are retried: a worker that dies mid-game has its game
played again on another worker by Dask (from the same stored seed); a task that fails (a worker
that cannot start an entry or isolate its bots, a game Dask gave up on after killing workers
repeatedly) is submitted again preferring other workers, `max_attempts` times in all, and then
raised to the runner, which notes the error and leaves the game pending. Bot faults come back as
results, as locally.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import secrets
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from tournaments.arena import GameSettings, isolation_level
from tournaments.bundles import Packer, PortableEntry
from tournaments.entries import Entry, resolve_env
from tournaments.runner import PlayFn
from tournaments.schedule import ScheduledGame
from tournaments.store import GameOutcome

CONNECT_TIMEOUT = 15.0  # seconds to reach the scheduler, and to see a first worker
CLOSE_TIMEOUT = 10.0  # seconds the workers get to end a run's bots


class ClusterError(RuntimeError):
    """The cluster cannot be used: Dask missing, no scheduler, no worker, a broken worker."""


@dataclass(frozen=True)
class ClusterOptions:
    """Where games go: a running scheduler (`address`) or a LocalCluster of `workers`."""

    address: str | None = None  # tcp://HOST:8786
    workers: int | None = None  # worker processes of a LocalCluster on this machine
    threads: int = 1  # games at once on each local worker
    max_attempts: int = 3  # tries per game and run for failures of the machine


@dataclass
class ClusterPlayer:
    """What `cluster_player` yields: the `play` coroutine, how many games to keep in flight, and
    the workers seen at the start (address -> host, cpus, isolation, threads)."""

    play: PlayFn
    concurrency: int
    workers: dict[str, dict[str, Any]] = field(default_factory=dict)

    def describe(self) -> str:
        """One line on the workers, for the start of a run."""
        parts = [f"{w['host']} ({w['threads']} at once, {w['cpus']} CPUs, isolation "
                 f"{w['isolation']})" for w in self.workers.values()]
        return f"{len(self.workers)} worker(s): " + "; ".join(parts)


def _require_dask() -> None:
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ClusterError("the cluster runner needs Dask: pip install 'azul-arena[cluster]' "
                           "(or `make install` in a checkout)") from None


def run_key(entries: Sequence[PortableEntry], settings: GameSettings, isolation: str) -> str:
    """One tournament's identity on the workers (their Arena and log folder are keyed by it)."""
    text = json.dumps([[asdict(e) for e in entries], asdict(settings), isolation],
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


class _Bundles:
    """The entries' bundles as Dask data, scattered again if the cluster loses them."""

    def __init__(self, client: Any, data: dict[str, bytes]) -> None:
        self.client, self.data = client, data
        self.futures: dict[str, Any] = {}
        self._lock = asyncio.Lock()

    async def futures_for(self, digests: Sequence[str]) -> dict[str, Any]:
        async with self._lock:
            missing = {d: self.data[d] for d in digests
                       if d not in self.futures or self.futures[d].status != "finished"}
            if missing:
                # Content-addressed keys: the same files are one piece of data on the cluster.
                scattered = await self.client.scatter(
                    {f"azul-bundle-{d}": data for d, data in missing.items()}, hash=False)
                for d in missing:
                    self.futures[d] = scattered[f"azul-bundle-{d}"]
            return {d: self.futures[d] for d in digests}


async def _describe_workers(client: Any) -> dict[str, dict[str, Any]]:
    """Every worker's host, CPUs and isolation; `ClusterError` for one that cannot run us."""
    from tournaments.cluster_worker import describe_worker

    found = await client.run(describe_worker, on_error="return")
    nthreads = await client.scheduler.ncores()
    workers: dict[str, dict[str, Any]] = {}
    for address, info in found.items():
        if isinstance(info, BaseException):
            raise ClusterError(f"worker {address} cannot run azul-arena: "
                               f"{type(info).__name__}: {info} (install it there, see "
                               "docs/cluster.md)")
        workers[address] = dict(info, threads=int(nthreads.get(address, 1)))
    return workers


@contextlib.asynccontextmanager
async def _connect(options: ClusterOptions) -> AsyncIterator[Any]:
    """An asynchronous Dask client for `options`, the LocalCluster started and ended with it."""
    import dask
    from distributed import Client, LocalCluster

    # The cluster's own retries of a game whose worker died; the game is then ours to retry.
    with dask.config.set({"distributed.scheduler.allowed-failures": 2}):
        if options.address is not None:
            try:
                client = await Client(options.address, asynchronous=True,
                                      timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError) as exc:
                raise ClusterError(f"cannot reach the Dask scheduler at {options.address}: "
                                   f"{exc} (start one with `dask scheduler`; "
                                   "docs/cluster.md)") from None
            async with client:
                yield client
            return
        cluster = await LocalCluster(
            n_workers=options.workers, threads_per_worker=options.threads, processes=True,
            asynchronous=True, dashboard_address=None, worker_dashboard_address=None)
        async with cluster, Client(cluster, asynchronous=True) as client:
            yield client


def _failure(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if text.startswith("worker ") else f"{type(exc).__name__}: {text}"


@contextlib.asynccontextmanager
async def cluster_player(entries: Sequence[Entry], settings: GameSettings,
                         options: ClusterOptions, players: int = 2,
                         spec_of: Callable[[str], str | None] | None = None,
                         ) -> AsyncIterator[ClusterPlayer]:
    """An async context giving a `play(game)` coroutine that plays each game on a Dask worker.
    A seat whose entry joined after the start is looked up with `spec_of` and packed then.

    Raises `ClusterError` when the cluster cannot be used at all (before any game), and
    `EntryError` for an entry whose files cannot be packed.
    """
    _require_dask()
    from distributed.client import FutureCancelledError

    from tournaments.cluster_worker import (
        ArenaPlugin,
        GameTask,
        MachineError,
        close_run,
        play_on_worker,
    )

    packer = Packer()
    portable = await asyncio.to_thread(lambda: [packer.portable(e) for e in entries])
    by_name = {e.name: e for e in portable}
    data = packer.bundles  # grows with late entries
    # Workers isolate bots as asked, else at least as well as this machine.
    isolation = settings.isolation or isolation_level()
    key = run_key(portable, settings, isolation)
    bot_env = tuple(sorted(resolve_env(settings.bot_env).items()))  # this machine's values
    async with _connect(options) as client:
        try:
            await client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
        except TimeoutError:
            raise ClusterError(f"the Dask scheduler at {options.address} has no worker after "
                               f"{CONNECT_TIMEOUT:.0f} s; start some with `dask worker "
                               f"{options.address}`") from None
        await client.register_plugin(ArenaPlugin(), name="azul-arena")
        workers = await _describe_workers(client)
        bundles = _Bundles(client, data)

        async def entry(name: str) -> PortableEntry:
            if name not in by_name:
                spec = spec_of(name) if spec_of is not None else None
                if spec is None:
                    raise ValueError(f"entry {name!r} is not in the tournament")
                by_name[name] = await asyncio.to_thread(packer.portable, Entry(name, spec))
            return by_name[name]

        async def play(game: ScheduledGame) -> GameOutcome:
            seats = tuple(dict.fromkeys([await entry(name) for name in game.seats]))
            task = GameTask(key, game, seats, settings, isolation, len(by_name), players,
                            bot_env)
            digests = list(dict.fromkeys(d for e in seats for d in e.bundles))
            failed_on: set[str] = set()
            errors: list[str] = []
            for _ in range(max(1, options.max_attempts)):
                needed = await bundles.futures_for(digests)
                # After a worker could not play it, the game prefers the others (if any).
                others = [w for w in _cluster_workers(client) if w not in failed_on]
                where = {"workers": others, "allow_other_workers": True} \
                    if failed_on and others else {}
                future = client.submit(
                    play_on_worker, task, needed, pure=False,
                    key=f"azul-game-{game.game_id}-{secrets.token_hex(4)}", **where)
                try:
                    return await future  # type: ignore[no-any-return]
                except FutureCancelledError as exc:  # its data lost with a worker: again
                    errors.append(_failure(exc))
                except asyncio.CancelledError:
                    future.release()  # abandoned: the scheduler may drop it unless it is running
                    raise
                except MachineError as exc:
                    errors.append(_failure(exc))
                    failed_on.add(exc.worker)
                except Exception as exc:  # noqa: BLE001 - KilledWorker, a referee error...
                    errors.append(_failure(exc))
            raise ClusterGameError(f"failed {len(errors)} times on the cluster: "
                                   + "; ".join(dict.fromkeys(errors)))

        threads = sum(w["threads"] for w in workers.values())
        try:
            # One game queued per worker beside those playing, so a worker never waits for us.
            yield ClusterPlayer(play, threads + len(workers), workers)
        finally:
            # This run's bots end now on every worker (not when a worker happens to close).
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.run(close_run, key, on_error="ignore"),
                                       CLOSE_TIMEOUT)


class ClusterGameError(RuntimeError):
    """A game that failed for reasons of the machine on every attempt; it stays pending."""


def _cluster_workers(client: Any) -> list[str]:
    return list(client.scheduler_info().get("workers", {}))
