"""Tournaments on a Dask cluster: the runner's `play(game)` backed by Dask workers.

`cluster_player` is the embedded `arena_player`'s twin: it gives the runner a `play(game)`
coroutine, so the runner's dispatch, the store (written by this client alone, each result as it
arrives), resume and every report work unchanged. Each worker holds one Dask actor
(tournaments/domain/cluster_worker.py) that plays whole games on its own referee Arena; a game is
one call to it and its reply (straight to the worker, or relayed by the scheduler), so no task is
scheduled per game (a Dask task per game cost 7-10 ms of CPU, a quarter of a short game). The
entries' files travel as content-addressed bundles (tournaments/domain/bundles.py), sent once to
each worker that needs them, and again to a worker that replaces a lost one.

Failures of the machine, not of a bot, are retried: a game whose worker dies, is cut off or
cannot play it (cannot start an entry or isolate its bots) is sent again, preferring other
workers, `max_attempts` times in all, and then raised to the runner, which notes the error and
leaves the game pending. Only the games in flight on a lost worker are played again, from their
stored seeds. A lost scheduler, or no worker left, stops the run (`StopRun`): what was finished
is stored, and rerunning resumes. Bot faults come back as results, as locally.

With `seat_logs` (the ladder's), a game also brings back each seat's log of that game alone, as
the referee cut it, and the client writes it to that seat's file, as a local game's.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import secrets
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tournaments.domain.arena import isolation_level
from tournaments.domain.bundles import Packer, PortableEntry
from tournaments.domain.entries import Entry, resolve_env
from tournaments.domain.runner import PlayFn, StopRun
from tournaments.domain.schedule import ScheduledGame
from tournaments.domain.settings import MatchSettings
from tournaments.domain.store import GameOutcome

CONNECT_TIMEOUT = 15.0  # seconds to reach the scheduler, and to see a first worker
CLOSE_TIMEOUT = 10.0  # seconds the workers get to end a run's bots


class ClusterError(RuntimeError):
    """The cluster cannot be used: Dask missing, no scheduler, no worker, a broken worker."""


@dataclass(frozen=True)
class ClusterOptions:
    """Where games go: a running scheduler (`address`) or a LocalCluster of `workers`."""

    address: str | None = None  # tcp://HOST:8786 or tls://HOST:8786
    workers: int | None = None  # worker processes of a LocalCluster on this machine
    threads: int = 1  # games at once on each local worker
    max_attempts: int = 3  # tries per game and run for failures of the machine
    security: Path | None = None  # a folder of ca.pem, client.pem, client.key (mutual TLS)


SECURITY_FILES = ("ca.pem", "client.pem", "client.key")


def cluster_security(folder: Path) -> Any:
    """Dask's `Security` for mutual TLS from `folder` (the CA that signed the scheduler's and
    workers' certificates, and this client's certificate and key); ClusterError naming what
    is missing."""
    from distributed.security import Security

    missing = [name for name in SECURITY_FILES if not (folder / name).is_file()]
    if missing:
        raise ClusterError(
            f"{folder} lacks {', '.join(missing)}: a cluster security folder "
            "holds ca.pem, client.pem and client.key (docs/cluster.md, TLS)"
        )
    ca, cert, key = (str(folder / name) for name in SECURITY_FILES)
    return Security(
        tls_ca_file=ca, tls_client_cert=cert, tls_client_key=key, require_encryption=True
    )


def exposure_warning(address: str) -> str | None:
    """What a plain `tcp://` scheduler on another machine exposes, or None where it is fine."""
    from referee import is_loopback

    if not address.startswith("tcp://"):
        return None
    host_port = address.removeprefix("tcp://")
    if ":" not in host_port:
        host_port += ":8786"
    if is_loopback(host_port):
        return None
    return (
        f"{address} is plain TCP: anyone who reaches that scheduler can run any code on "
        "every worker, and reads the games and the entries' files shipped to them. Use "
        "tls:// with --cluster-security (docs/cluster.md, TLS)"
    )


@dataclass
class ClusterPlayer:
    """What `cluster_player` yields: the `play` coroutine, how many games to keep in flight, and
    the workers seen at the start (address -> host, cpus, isolation, threads)."""

    play: PlayFn
    concurrency: int
    workers: dict[str, dict[str, Any]] = field(default_factory=dict)

    def describe(self) -> str:
        """One line on the workers, for the start of a run."""
        parts = [
            f"{w['host']} ({w['threads']} at once, {w['cpus']} CPUs, isolation {w['isolation']})"
            for w in self.workers.values()
        ]
        return f"{len(self.workers)} worker(s): " + "; ".join(parts)


def _require_dask() -> None:
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ClusterError(
            "the cluster runner needs Dask: pip install 'azul-arena[cluster]' "
            "(or `make install` in a checkout)"
        ) from None


def run_key(entries: Sequence[PortableEntry], settings: MatchSettings, isolation: str) -> str:
    """One tournament's identity on the workers (their Arena and log folder are keyed by it)."""
    text = json.dumps([[asdict(e) for e in entries], asdict(settings), isolation], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


class _Remote:
    """One worker as the client sees it: its actor, the bundles sent to it, its free slots."""

    def __init__(self, address: str, actor_key: str, future: Any, slots: int) -> None:
        self.address, self.actor_key, self.future = address, actor_key, future
        self.free = slots  # games it may still be sent (its threads, plus one that waits there)
        self.sent: set[str] = set()  # bundle digests it has
        self.sending = asyncio.Lock()  # one bundle upload at a time
        self.lost = asyncio.Event()  # set when the scheduler no longer lists it


class WorkerLost(OSError):
    """The worker playing a game went away (killed, crashed, cut off)."""


class _Pool:
    """The workers' actors: one per worker, made as workers appear, dropped as they go.

    A monitor asks the scheduler for its workers every `POLL` seconds: a new worker gets an actor
    (and the bundles it needs with its first game), a worker the scheduler dropped has its games
    in flight failed over to the others, and a lost scheduler stops the run."""

    POLL = 1.0

    def __init__(self, client: Any, bundles: dict[str, bytes], where: str) -> None:
        self.client, self.bundles, self.where = client, bundles, where
        self.remotes: dict[str, _Remote] = {}
        self.changed = asyncio.Condition()  # a slot freed, a worker came or went
        self.broken: str | None = None  # why no game can be sent any more
        self._monitor: asyncio.Task[None] | None = None
        self._starting: set[str] = set()
        self._refused: set[str] = set()  # workers that could not make an actor: not asked again
        self._adding: set[asyncio.Task[None]] = set()

    async def start(self, workers: dict[str, dict[str, Any]]) -> None:
        await asyncio.gather(
            *(self._add(address, info["threads"]) for address, info in workers.items())
        )
        self._monitor = asyncio.ensure_future(self._watch())

    async def close(self) -> None:
        for task in [self._monitor, *self._adding]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for remote in self.remotes.values():
            remote.future.release()

    async def _add(self, address: str, threads: int) -> None:
        from distributed import KilledWorker
        from distributed.client import FutureCancelledError

        from tournaments.domain.cluster_worker import ArenaActor

        self._starting.add(address)
        try:
            future = self.client.submit(
                ArenaActor,
                threads,
                actor=True,
                workers=[address],
                allow_other_workers=False,
                key=f"azul-arena-{secrets.token_hex(8)}",
            )
            await asyncio.wait_for(future, CONNECT_TIMEOUT)
        except (OSError, TimeoutError, FutureCancelledError, KilledWorker):
            # It went as it came: the next look tries again if it is still there.
            return
        except Exception:
            self._refused.add(address)
            return
        finally:
            self._starting.discard(address)
        async with self.changed:
            self.remotes[address] = _Remote(address, future.key, future, threads + 1)
            self.changed.notify_all()

    async def _drop(self, remote: _Remote) -> None:
        remote.lost.set()
        async with self.changed:
            if self.remotes.get(remote.address) is remote:
                del self.remotes[remote.address]
                remote.future.release()
            self.changed.notify_all()

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.POLL)
            try:
                if self.client.status != "running":
                    raise OSError(f"client {self.client.status}")
                info = await self.client.scheduler.identity(n_workers=-1)
            except (OSError, TimeoutError) as exc:
                async with self.changed:
                    self.broken = (
                        f"lost the Dask scheduler at {self.where} ({exc}); the games "
                        "finished are stored: rerun the same command to resume"
                    )
                    self.changed.notify_all()
                return
            listed = {
                a: w
                for a, w in info.get("workers", {}).items()
                if w.get("status", "running") == "running"
            }
            for remote in [r for a, r in self.remotes.items() if a not in listed]:
                await self._drop(remote)
            for address, worker in listed.items():
                if address not in self.remotes and address not in self._starting | self._refused:
                    self._starting.add(address)
                    task = asyncio.ensure_future(self._add(address, int(worker.get("nthreads", 1))))
                    self._adding.add(task)
                    task.add_done_callback(self._adding.discard)

    async def acquire(self, avoid: set[str]) -> _Remote:
        """A worker with a free slot, preferring those not in `avoid`; waits for one."""
        deadline: float | None = None
        async with self.changed:
            while True:
                if self.broken:
                    raise StopRun(self.broken)
                free = [r for r in self.remotes.values() if r.free > 0]
                if free:
                    remote = max(free, key=lambda r: (r.address not in avoid, r.free))
                    remote.free -= 1
                    return remote
                loop = asyncio.get_running_loop()
                if self.remotes:
                    deadline = None
                elif deadline is None:
                    deadline = loop.time() + CONNECT_TIMEOUT
                elif loop.time() > deadline:
                    raise StopRun(
                        f"no Dask worker left at {self.where} for "
                        f"{CONNECT_TIMEOUT:.0f} s; the games finished are stored: "
                        "start workers and rerun the same command to resume"
                    )
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), self.POLL)

    async def release(self, remote: _Remote) -> None:
        async with self.changed:
            remote.free += 1
            self.changed.notify_all()

    async def call(self, remote: _Remote, method: str, *args: Any) -> Any:
        """`method(*args)` on `remote`'s actor; `WorkerLost` if the worker goes meanwhile.

        This is the call Dask's `Actor` proxy makes, without its wait for the actor to be made
        again elsewhere after a loss (ours is tied to its worker: it would wait for ever)."""
        from distributed.actor import ProxyRPC
        from distributed.protocol import to_serialize

        rpc = (
            self.client.rpc(remote.address)
            if self.client.direct_to_workers
            else ProxyRPC(self.client.scheduler, remote.address)
        )
        request = asyncio.ensure_future(
            rpc.actor_execute(
                actor=remote.actor_key,
                function=method,
                args=[to_serialize(a) for a in args],
                kwargs={},
            )
        )
        lost = asyncio.ensure_future(remote.lost.wait())
        try:
            await asyncio.wait([request, lost], return_when=asyncio.FIRST_COMPLETED)
        finally:  # the worker gone, or the run cancelled: the call is abandoned
            lost.cancel()
            if not request.done():
                request.cancel()
        if request.cancelled():
            raise WorkerLost(f"worker {remote.address} left the cluster mid-game")
        try:
            reply = request.result()
        except OSError as exc:  # its connection broke: killed, or cut off
            await self._drop(remote)
            raise WorkerLost(
                f"worker {remote.address} lost mid-game ({type(exc).__name__}: {exc})"
            ) from None
        if reply.get("status") != "OK":
            raise reply["exception"]
        return reply["result"]

    async def ensure_bundles(self, remote: _Remote, digests: Sequence[str]) -> None:
        """Send `remote` the bundles it lacks (once each; a new worker gets them afresh)."""
        if all(d in remote.sent for d in digests):
            return
        async with remote.sending:
            for digest in digests:
                if digest not in remote.sent:
                    await self.call(remote, "receive", digest, self.bundles[digest])
                    remote.sent.add(digest)


async def _describe_workers(client: Any) -> dict[str, dict[str, Any]]:
    """Every worker's host, CPUs and isolation; `ClusterError` for one that cannot run us."""
    from tournaments.domain.cluster_worker import describe_worker

    found = await client.run(describe_worker, on_error="return")
    nthreads = await client.scheduler.ncores()
    workers: dict[str, dict[str, Any]] = {}
    for address, info in found.items():
        if isinstance(info, BaseException):
            raise ClusterError(
                f"worker {address} cannot run azul-arena: "
                f"{type(info).__name__}: {info} (install it there, see "
                "docs/cluster.md)"
            )
        workers[address] = dict(info, threads=int(nthreads.get(address, 1)))
    return workers


@contextlib.asynccontextmanager
async def _connect(options: ClusterOptions) -> AsyncIterator[Any]:
    """An asynchronous Dask client for `options`, the LocalCluster started and ended with it."""
    import dask
    from distributed import Client, LocalCluster

    from referee import loop_name

    if options.address is not None:
        # Without a folder of certificates, Dask's own configuration says (distributed.comm.tls)
        security = None if options.security is None else cluster_security(options.security)
        if security is None and options.address.startswith("tls://"):
            from distributed.security import Security

            if getattr(Security(), "tls_client_cert", None) is None:
                raise ClusterError(
                    f"{options.address} takes only clients with a certificate its CA signed: "
                    "give --cluster-security DIR (ca.pem, client.pem, client.key), or set "
                    "distributed.comm.tls in Dask's configuration (docs/cluster.md, TLS)"
                )
        try:
            client = await Client(
                options.address, asynchronous=True, timeout=CONNECT_TIMEOUT, security=security
            )
        except (OSError, TimeoutError) as exc:
            hint = (
                "; a tls:// scheduler needs this client's certificate: --cluster-security"
                if options.address.startswith("tls://")
                else ""
            )
            raise ClusterError(
                f"cannot reach the Dask scheduler at {options.address}: "
                f"{exc} (start one with `dask scheduler`; "
                f"docs/cluster.md){hint}"
            ) from None
        async with client:
            yield client
        return
    # Local workers run the referee on the loop the embedded runner uses (uvloop if installed),
    # without Dask's sampling of their threads every 10 ms (no dashboard shows it), and the
    # client calls them directly (they are on this machine).
    config: dict[str, Any] = {"distributed.worker.profile.enabled": False}
    if loop_name() == "uvloop":
        config["distributed.admin.event-loop"] = "uvloop"
    with dask.config.set(config):
        cluster = await LocalCluster(
            n_workers=options.workers,
            threads_per_worker=options.threads,
            processes=True,
            asynchronous=True,
            dashboard_address=None,
            worker_dashboard_address=None,
        )
    async with (
        cluster,
        Client(
            cluster, asynchronous=True, direct_to_workers=True, timeout=CONNECT_TIMEOUT
        ) as client,
    ):
        yield client


@contextlib.asynccontextmanager
async def cluster_client(options: ClusterOptions) -> AsyncIterator[Any]:
    """An asynchronous Dask client for `options` once a worker is there (the LocalCluster
    started and ended with it): the tournaments' games, and work that needs no bot such as the
    analysis of games (tournaments/domain/analysis/batch.py). `ClusterError` says what is wrong."""
    _require_dask()
    async with _connect(options) as client:
        try:
            await client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
        except TimeoutError:
            raise ClusterError(
                f"the Dask scheduler at {options.address} has no worker after "
                f"{CONNECT_TIMEOUT:.0f} s; start some with `dask worker "
                f"{options.address}`"
            ) from None
        yield client


def _keep_seat_logs(
    outcome: GameOutcome, texts: Sequence[bytes | None], paths: Sequence[Path]
) -> GameOutcome:
    """Write each seat's log a worker brought back to its file here, and name it in the seat's
    `log` as a local game names its copy (empty where the worker had none). Each file is
    replaced whole, as the referee's copy is: a game played again leaves one copy."""
    from referee import write_seat_log

    for seat, text, path in zip(outcome.seats, texts, paths, strict=True):
        seat.log = ""
        if text is None:
            continue
        write_seat_log(path, text)
        seat.log = str(path)
    return outcome


def _failure(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if text.startswith("worker ") else f"{type(exc).__name__}: {text}"


@contextlib.asynccontextmanager
async def cluster_player(
    entries: Sequence[Entry],
    settings: MatchSettings,
    options: ClusterOptions,
    players: int = 2,
    entry_of: Callable[[str], Entry | None] | None = None,
    seat_logs: Callable[[ScheduledGame], list[Path]] | None = None,
) -> AsyncIterator[ClusterPlayer]:
    """An async context giving a `play(game)` coroutine that plays each game on a Dask worker.
    A seat whose entry joined after the start is looked up with `entry_of` and packed then.
    `seat_logs(game)`: the files here where each seat's log of that game goes, as with
    `arena_player` (the ladder's); without it a seat's log stays on its worker.

    Raises `ClusterError` when the cluster cannot be used at all (before any game), and
    `EntryError` for an entry whose files cannot be packed; `play` raises `StopRun` once the
    cluster is gone (scheduler lost, no worker left), which stops the run.
    """
    _require_dask()
    from tournaments.domain.cluster_worker import ArenaPlugin, GameTask, MachineError, close_run

    packer = Packer()
    portable = await asyncio.to_thread(lambda: [packer.portable(e) for e in entries])
    by_name = {e.name: e for e in portable}
    data = packer.bundles  # grows with late entries
    # Workers isolate bots as asked, else at least as well as this machine.
    isolation = settings.isolation or isolation_level()
    key = run_key(portable, settings, isolation)
    bot_env = tuple(sorted(resolve_env(settings.bot_env).items()))  # this machine's values
    where = options.address or f"a LocalCluster of {options.workers} worker(s)"
    async with cluster_client(options) as client:
        await client.register_plugin(ArenaPlugin(), name="azul-arena")
        workers = await _describe_workers(client)
        pool = _Pool(client, data, where)
        await pool.start(workers)

        async def entry(name: str) -> PortableEntry:
            if name not in by_name:
                late = entry_of(name) if entry_of is not None else None
                if late is None:
                    raise ValueError(f"entry {name!r} is not in the tournament")
                by_name[name] = await asyncio.to_thread(packer.portable, late)
            return by_name[name]

        async def play(game: ScheduledGame) -> GameOutcome:
            seats = tuple(dict.fromkeys([await entry(name) for name in game.seats]))
            task = GameTask(key, game, seats, settings, isolation, len(by_name), players, bot_env)
            digests = list(dict.fromkeys(d for e in seats for d in e.bundles))
            failed_on: set[str] = set()
            errors: list[str] = []
            # Only a caller that keeps the logs pays for carrying them back.
            method = "play" if seat_logs is None else "play_logged"
            for _ in range(max(1, options.max_attempts)):
                # After a worker could not play it, the game prefers the others (if any).
                remote = await pool.acquire(failed_on)
                try:
                    await pool.ensure_bundles(remote, digests)
                    reply = await pool.call(remote, method, task)
                    break
                except MachineError as exc:
                    errors.append(_failure(exc))
                    failed_on.add(exc.worker)
                except WorkerLost as exc:  # only its games in flight: played again elsewhere
                    errors.append(_failure(exc))
                    failed_on.add(remote.address)
                except Exception as exc:
                    errors.append(_failure(exc))
                finally:
                    await pool.release(remote)
            else:
                raise ClusterGameError(
                    f"failed {len(errors)} times on the cluster: "
                    + "; ".join(dict.fromkeys(errors))
                )
            if seat_logs is None:
                return reply  # type: ignore[no-any-return]
            # Outside the attempts: a write failing here is this machine's, not the worker's.
            outcome, texts = reply
            return await asyncio.to_thread(_keep_seat_logs, outcome, texts, seat_logs(game))

        threads = sum(w["threads"] for w in workers.values())
        try:
            # One game queued per worker beside those playing, so a worker never waits for us.
            yield ClusterPlayer(play, threads + len(workers), workers)
        finally:
            await pool.close()
            # This run's bots end now on every worker (not when a worker happens to close).
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.run(close_run, key, on_error="ignore"), CLOSE_TIMEOUT)


class ClusterGameError(RuntimeError):
    """A game that failed for reasons of the machine on every attempt; it stays pending."""
