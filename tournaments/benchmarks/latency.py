"""`azul-arena bench latency`: the per-move round trip through the referee, next to a bare gRPC
stream ping-pong of the same payload measured in the same run, and bot spawn-to-Hello.

The bare ping-pong runs with the referee's own gRPC settings and the bots' environment, so the
ratio between the two is what the referee adds to a move."""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from referee import bot_environment, loop_name
from referee.protocol.transport import grpc_settings

# The bare clients echo a MoveReply-sized answer at once, with a bot's gRPC settings. The
# baseline is grpc's textbook streaming client (a sync stub fed by a queue-fed request generator,
# as in grpc's own streaming benchmark client); the asyncio client (on the loop the SDK runs,
# uvloop where installed) is the fastest bare client we know of, reported beside it.
_ECHO_CLIENT = r"""
import queue, sys, grpc
reply = b"\x12\x04\x08\x01\x10\x00"
out = queue.SimpleQueue()
def requests():
    while (item := out.get()) is not None:
        yield item
channel = grpc.insecure_channel(sys.argv[1])
call = channel.stream_stream("/bench.Echo/Pong")(requests())
for msg in call:
    out.put(reply)
"""
_ECHO_CLIENT_AIO = r"""
import sys, grpc
from referee.protocol.loop import run_loop as run
reply = b"\x12\x04\x08\x01\x10\x00"
async def echo():
    call = grpc.aio.insecure_channel(sys.argv[1]).stream_stream("/bench.Echo/Pong")()
    while (msg := await call.read()) is not grpc.aio.EOF:
        await call.write(reply)
run(echo())
"""


async def bare_pingpong(
    payload: bytes, rounds: int, client: str = _ECHO_CLIENT, in_turn: int = 1
) -> list[float]:
    """Round trips (seconds) of `payload` over a bare grpc.aio bidi stream to another process
    running `client` (Python source, given the address). With `in_turn` clients (each a process
    of its own) the server asks them one after the other, one round trip at a time, as a game
    asks its seats: each client waits while the others answer, as a bot does between its
    moves, and is woken cold for its next message."""
    with tempfile.TemporaryDirectory(prefix="azul-bench-") as tmp:
        address = f"unix:{tmp}/echo.sock"
        if in_turn > 1:
            return await _in_turn(payload, rounds, client, address, in_turn)
        return await _pingpong(payload, rounds, client, address)


@dataclass
class Floor:
    """What `transport_floor` measured: the mean round trip (seconds) of a bare ping-pong with
    as many streams at once as games, and this process's CPU seconds per round trip."""

    round_trip: float
    cpu: float


async def transport_floor(payload: bytes, rounds: int, streams: int) -> Floor:
    """`streams` bare ping-pongs of `payload` at once, each with its own echo client process
    (the textbook sync client), `rounds` round trips each after a few unmeasured: the floor
    under a referee's move at that many games in flight. Its CPU is this process's (the
    server's side: all a referee's process must do per move) from the first measured round trip
    to the last."""
    with tempfile.TemporaryDirectory(prefix="azul-bench-") as tmp:
        cpu: list[float] = []
        times = await _pingpong(
            payload, rounds, _ECHO_CLIENT, f"unix:{tmp}/echo.sock", streams, cpu
        )
    measured = len(times)
    return Floor(sum(times) / measured, (cpu[1] - cpu[0]) / measured)


# Round trips a stream of `_pingpong` makes before those measured (with `cpu`): connection and
# first-message costs stay out.
_WARM_ROUNDS = 50


async def _pingpong(
    payload: bytes,
    rounds: int,
    client: str,
    address: str,
    streams: int = 1,
    cpu: list[float] | None = None,
) -> list[float]:
    """Round trips of `payload` over `streams` bare grpc.aio streams at once, each to its own
    `client` process; with `cpu`, each stream first makes `_WARM_ROUNDS` round trips unmeasured,
    and `cpu` gets this process's CPU time when the first stream starts measuring and when the
    last one ends."""
    times: list[float] = []
    done = asyncio.Event()
    left = [streams]  # the streams still playing

    async def pong(request_iterator: Any, context: grpc.aio.ServicerContext) -> None:
        perf = time.perf_counter
        if cpu is not None:
            for _ in range(_WARM_ROUNDS):
                await context.write(payload)
                if await context.read() is grpc.aio.EOF:
                    break
            if not cpu:
                cpu.append(time.process_time())
        for _ in range(rounds):
            t0 = perf()
            await context.write(payload)
            if await context.read() is grpc.aio.EOF:
                break
            times.append(perf() - t0)
        left[0] -= 1
        if not left[0]:
            if cpu is not None:
                cpu.append(time.process_time())
            done.set()

    async with _echo_server(pong, address, client, streams):
        await asyncio.wait_for(done.wait(), 120)
    return times


async def _in_turn(
    payload: bytes, rounds: int, client: str, address: str, clients: int
) -> list[float]:
    """Round trips of `payload` to `clients` processes running `client`, asked one after the
    other (see `bare_pingpong`)."""
    joined: list[grpc.aio.ServicerContext] = []
    everyone, finished = asyncio.Event(), asyncio.Event()

    async def pong(request_iterator: Any, context: grpc.aio.ServicerContext) -> None:
        joined.append(context)
        if len(joined) == clients:
            everyone.set()
        await finished.wait()  # the stream stays open while the loop below uses it

    times: list[float] = []
    perf = time.perf_counter
    async with _echo_server(pong, address, client, clients):
        try:
            await asyncio.wait_for(everyone.wait(), 120)
            for turn in range(rounds):
                context = joined[turn % clients]
                t0 = perf()
                await context.write(payload)
                if await context.read() is grpc.aio.EOF:
                    break
                times.append(perf() - t0)
        finally:
            finished.set()
    return times


@contextlib.asynccontextmanager
async def _echo_server(
    pong: Callable[[Any, grpc.aio.ServicerContext], Awaitable[None]],
    address: str,
    client: str,
    clients: int,
) -> AsyncIterator[None]:
    """A grpc.aio server on `address` whose streams `pong` serves, and `clients` processes
    running `client` that dial it; the processes are killed and the server stopped on leaving."""
    server = grpc.aio.server()
    handler = grpc.method_handlers_generic_handler(
        "bench.Echo", {"Pong": grpc.stream_stream_rpc_method_handler(pong)}
    )
    server.add_generic_rpc_handlers((handler,))
    server.add_insecure_port(address)
    await server.start()
    # The client gets what a bot process gets (referee.protocol.transport).
    env = {**grpc_settings(one_connection=True), **bot_environment()}
    echoes = [
        subprocess.Popen([sys.executable, "-c", client, address], env=env) for _ in range(clients)
    ]
    try:
        yield
    finally:
        for echo in echoes:
            echo.kill()
            echo.wait()
        await server.stop(0)


async def sample_payload() -> bytes:
    """A typical MoveRequest on the wire: the first decision of a 2-player classic game."""
    from referee.engine import new_game
    from referee.protocol import bot_pb2
    from referee.protocol.codec import encode_state

    game = new_game("azul", players=2, seed=1)
    for move in game.legal_moves()[:1]:
        game.push(move)
    req = bot_pb2.MoveRequest(request_id=12345, game_id="0123456789ab")
    encode_state(game.to_state(), req.state)
    req.legal_moves.extend(str(m) for m in game.legal_moves())
    req.clock.move_time_ms, req.clock.bank_ms = 1000, 0
    return bot_pb2.ConnectResponse(move_request=req).SerializeToString()


def grpc_import_ms(runs: int = 5) -> float:
    """Median wall time of a fresh `python -c "import grpc"`: the floor under spawn-to-Hello,
    since a bot needs grpc before it can say Hello."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import grpc"], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


async def spawn_to_hello(
    spawns: int, warm_start: bool = True, isolation: str | None = None
) -> list[float]:
    """Seconds from asking the Arena for a new `random` bot to its accepted Hello. With
    `warm_start` the Arena hands out its warm standby process (sdk.standby), given half a second
    to warm up first, as between the bot starts of a tournament; without, a fresh process."""
    from referee import Arena, BotSettings

    times = []
    settings = BotSettings(reuse=False, warm_start=warm_start, isolation=isolation)
    async with Arena(["random"], bots=settings) as arena:
        for _ in range(spawns):
            await asyncio.sleep(0.5)
            bot = await arena.spawn("random")
            times.append(getattr(bot, "spawn_to_hello", float("nan")))
            await arena.retire(bot)
    return times


# The bot that "answers at once": the first legal move, through the SDK like any Python bot.
INSTANT_BOT = str(Path(__file__).resolve().parents[2] / "bots" / "first_bot.py")


async def _mixed_game(arena: Any, entry: str, seed: int, times: dict[str, list[float]]) -> None:
    """One game of `entry` against the SDK's instant bot, seats alternating with `seed`: each
    seat's answered moves' round trips (seconds) go to `times[entry]` and `times["first"]`."""
    from referee import MatchConfig, MatchEvent, MovePlayed, Termination

    seats = [entry, "first"] if seed % 2 == 0 else ["first", entry]

    def note(event: MatchEvent) -> None:
        if isinstance(event, MovePlayed) and not event.substituted:
            times[seats[event.seat]].append(event.elapsed)

    # A fresh process's first answer includes its warm-up (JIT, lazy loading).
    played = await arena.play(
        seats, MatchConfig(seed=seed, first_move_allowance=1.0), on_event=note
    )
    faulty = [s for s in played.seats if s.termination != Termination.OK or s.strikes]
    if faulty:
        raise ValueError(
            f"{faulty[0].entry} did not play cleanly ({faulty[0].termination}, "
            f"{faulty[0].strikes} strikes); see {faulty[0].log_path}"
        )


async def _paired(level: str, ponder: bool, games: int) -> dict[str, Any]:
    """At a level other than `process`, the per-move time there and at `process`, game for
    game in the same run (empty at `process`)."""
    from referee import Arena, BotSettings, MatchConfig

    paired: list[int] = []  # moves at `level`, game for game beside the baseline's
    baseline: list[int] = []
    if level == "process":
        return {}
    async with (
        Arena({"first": INSTANT_BOT}, bots=BotSettings(isolation=level, ponder=ponder)) as arena,
        Arena({"first": INSTANT_BOT}, bots=BotSettings(isolation="process", ponder=ponder)) as base,
    ):
        for seed in range(games):
            pair = ((arena, paired), (base, baseline))
            for which, into in pair if seed % 2 else pair[::-1]:  # neither always first
                result = await which.play(["first", "first"], MatchConfig(seed=seed))
                into += result.record["referee"]["move_times_us"]
    base_us, paired_us = statistics.median(baseline), statistics.median(paired)
    return {
        "per_move_us_paired": round(paired_us, 1),
        "per_move_us_process": round(base_us, 1),
        "ratio_to_process": round(paired_us / base_us, 3),
    }


@dataclass
class _Samples:
    """What the main run measures: the referee's moves, the bare ping-pongs, per clock and per
    extra entry."""

    per_move: list[int] = field(default_factory=list)
    clocks: dict[str, list[int]] = field(default_factory=lambda: {"wall": [], "cpu": []})
    mixed: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    bare: list[float] = field(default_factory=list)
    bare_aio: list[float] = field(default_factory=list)
    bare_in_turn: list[float] = field(default_factory=list)
    no_match: list[float] = field(default_factory=list)


# Moves a no-match chunk asks before those counted: its bots come back from a game's gap.
NO_MATCH_WARM = 10


async def _main_run(  # the benchmark's knobs
    level: str, ponder: bool, games: int, entries: tuple[str, ...], clock: str, payload: bytes
) -> _Samples:
    """The games at `level` with the bare ping-pong chunks between them (the machine's speed
    drifts: the two are measured in alternating chunks, so both medians come from the same
    stretches of time), and after each its no-match chunk: the same two bots asked in turn by
    the referee's sessions with no match (`referee.ask_in_turn`)."""
    from referee import Arena, BotSettings, Clock, MatchConfig, ask_in_turn

    got = _Samples(mixed={e: {e: [], "first": []} for e in entries})
    chunks = games  # a bare chunk after every game: the two share the machine's phases
    field_ = {"first": INSTANT_BOT, **{e: e for e in entries}}
    async with Arena(field_, bots=BotSettings(isolation=level, ponder=ponder)) as arena:
        for seed in range(games):
            result = await arena.play(["first", "first"], MatchConfig(seed=seed))
            got.per_move += result.record["referee"]["move_times_us"]
            if clock == "cpu":
                kinds = (Clock.CPU, Clock.WALL)
                for kind in kinds if seed % 2 else kinds[::-1]:  # neither first
                    played = await arena.play(
                        ["first", "first"], MatchConfig(seed=seed, clock=kind)
                    )
                    got.clocks[kind] += played.record["referee"]["move_times_us"]
            for entry in entries:
                await _mixed_game(arena, entry, seed, got.mixed[entry])
            if (seed + 1) * chunks // games != seed * chunks // games:  # `chunks` times in all
                got.bare += await bare_pingpong(payload, 2000 // chunks)
                got.bare_aio += await bare_pingpong(payload, 2000 // chunks, _ECHO_CLIENT_AIO)
                got.bare_in_turn += await bare_pingpong(payload, 2000 // chunks, in_turn=2)
                asked = await ask_in_turn(
                    arena, ["first", "first"], payload, moves=2000 // chunks, warm=NO_MATCH_WARM
                )
                got.no_match += asked.round_trips
    return got


def _kits(mixed: dict[str, dict[str, list[float]]]) -> list[dict[str, Any]]:
    """Each extra entry's per-move time beside the SDK's instant bot's in the same games."""
    kits = []
    for entry, times in mixed.items():
        mine, sdk = statistics.median(times[entry]) * 1e6, statistics.median(times["first"]) * 1e6
        kits.append(
            {
                "entry": entry,
                "per_move_us": round(mine, 1),
                "sdk_per_move_us": round(sdk, 1),
                "ratio_to_sdk": round(mine / sdk, 3),
                "moves": len(times[entry]),
            }
        )
    return kits


async def latency(
    games: int = 20,
    spawns: int = 5,
    isolation: str | None = None,
    entries: tuple[str, ...] = (),
    ponder: bool = False,
    clock: str = "wall",
) -> dict[str, Any]:
    """Run the benchmark with bots at `isolation` (None: the strongest available), frozen between
    their moves unless `ponder` (as in a tournament); every figure
    is a median, times in microseconds / milliseconds. A level other than `process` is measured
    beside `process` in the same run, game for game (`per_move_us_process`,
    `ratio_to_process`).

    Each of `entries` (any entry: a kit's bot folder, a command line) also plays `games` games
    against the SDK's instant bot, interleaved with the rest: its per-move round trip is set
    beside that opponent's in the same games (`entries` in the result), so that both answer
    under the same conditions (the same gaps between moves, the same phases of the machine).

    With `clock` "cpu" every game is also played on the cpu clock (which reads each bot's
    cgroup CPU counter as a move is asked for and answered), alternating with the wall clock's
    game on the same deal: `per_move_us_cpu_clock` beside `per_move_us_wall_clock`, and
    `cpu_clock_ratio`, their ratio."""
    from referee import require

    level = require(isolation)
    compared = await _paired(level, ponder, games)
    payload = await sample_payload()
    got = await _main_run(level, ponder, games, entries, clock, payload)
    cold = await spawn_to_hello(spawns, warm_start=False, isolation=level)
    warm = await spawn_to_hello(spawns, isolation=level)
    bare_us = statistics.median(got.bare) * 1e6
    bare_aio_us = statistics.median(got.bare_aio) * 1e6
    in_turn_us = statistics.median(got.bare_in_turn) * 1e6
    no_match_us = statistics.median(got.no_match) * 1e6
    move_us = statistics.median(got.per_move)
    if clock == "cpu":
        on_cpu, on_wall = (
            statistics.median(got.clocks["cpu"]),
            statistics.median(got.clocks["wall"]),
        )
        compared |= {
            "per_move_us_cpu_clock": round(on_cpu, 1),
            "per_move_us_wall_clock": round(on_wall, 1),
            "cpu_clock_ratio": round(on_cpu / on_wall, 3),
        }
    return {
        "isolation": level,
        "ponder": ponder,
        "clock": clock,
        "per_move_us": round(move_us, 1),
        **compared,
        "bare_pingpong_us": round(bare_us, 1),
        "ratio": round(move_us / bare_us, 3),
        "bare_pingpong_aio_us": round(bare_aio_us, 1),
        "ratio_to_aio": round(move_us / bare_aio_us, 3),
        "bare_pingpong_in_turn_us": round(in_turn_us, 1),
        "ratio_to_in_turn": round(move_us / in_turn_us, 3),
        "no_match_round_trip_us": round(no_match_us, 1),
        "ratio_to_no_match": round(move_us / no_match_us, 3),
        "moves": len(got.per_move),
        "payload_bytes": len(payload),
        "spawn_to_hello_ms": round(statistics.median(warm) * 1e3, 1),
        "spawn_to_hello_ms_all": [round(s * 1e3, 1) for s in warm],
        "cold_spawn_to_hello_ms": round(statistics.median(cold) * 1e3, 1),
        "cold_spawn_to_hello_ms_all": [round(s * 1e3, 1) for s in cold],
        "python_import_grpc_ms": round(grpc_import_ms(), 1),
        "event_loop": loop_name(),
        "entries": _kits(got.mixed),
    }
