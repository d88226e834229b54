"""The referee's own API (RunMatch, WatchMatch) is its operator's alone (docs/security.md, "The
referee's network surface"): tried as an attacker would, with real servers and real bots.

- A bot reaches the bot stream and nothing else from the socket it plays on, at every level.
- `referee serve` on TCP: anonymous, bot-token and wrong-operator calls are refused; the right
  operator may seat built-in bots and registered entries, never a command line or a path; in
  every refused case nothing is launched (the server's processes are counted, and the file the
  command would write is looked for).
- A network address without TLS or an operator credential does not serve at all.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from referee import Arena
from referee.access import operator_metadata
from referee.protocol import referee_pb2, referee_pb2_grpc
from referee.sandbox import LEVELS
from referee.tokens import TokenFile
from tests.referee.test_hostile import attempts, need

HOSTILE = Path(__file__).parent / "hostile"
ROOT = Path(__file__).resolve().parents[2]


def descendants(pid: int) -> set[int]:
    """Every process below `pid`, read from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int(
                    (entry / "stat").read_text().rsplit(")", 1)[1].split()[1]
                )
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        found |= frontier
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_serve(*args: str) -> tuple[subprocess.Popen[str], str]:
    """`referee serve ARGS` and what it printed up to its API line (it listens by then)."""
    server = subprocess.Popen(
        [sys.executable, "-m", "tournaments.cli", "referee", "serve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=ROOT,
        env={**os.environ, "AZUL_ARENA_WARM_START": "0"},
    )
    assert server.stdout is not None
    head = []
    for line in server.stdout:
        head.append(line)
        if line.startswith("RunMatch seats") or len(head) > 20:
            break
    return server, "".join(head)


def cli(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tournaments.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        **kwargs,
    )  # type: ignore[call-overload]


# -- a bot on its own socket ---------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_calling_the_referee_api_on_its_socket_is_refused(level: str, tmp_path: Path) -> None:
    need(level)
    secret_dir = tmp_path / "host"
    secret_dir.mkdir()
    (secret_dir / "secret.txt").write_text("the organiser's secret")
    marker = tmp_path / "ran"
    env = {
        **os.environ,
        "AZUL_TEST_MARKER_FILE": str(marker),
        "AZUL_TEST_HOST_FILE": str(secret_dir / "secret.txt"),
    }
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "tournaments.cli",
            "tournament",
            "run",
            f"caller={HOSTILE / 'caller' / 'bot.py'}",
            "random",
            "--isolation",
            level,
            "--db",
            str(tmp_path / "t.db"),
            "--log-dir",
            str(tmp_path / "logs"),
            "--games-per-pairing",
            "1",
            "--time-per-move",
            "10",
            "--plain",
            "--bot-env",
            "AZUL_TEST_MARKER_FILE",
            "--bot-env",
            "AZUL_TEST_HOST_FILE",
        ],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    logs = sorted((tmp_path / "logs").glob("caller-*.log"))
    assert logs, "the caller ran"
    text = logs[0].read_text(errors="replace")
    assert "ATTEMPTS DONE" in text, text[-2000:]
    seen = attempts(text)
    assert set(seen) == {
        "run_match_command",
        "run_match_builtins",
        "watch_match",
        "list_referee_service",
    }, seen
    assert all(verdict == "blocked" for verdict, _ in seen.values()), seen
    for name in ("run_match_command", "run_match_builtins", "watch_match"):
        assert seen[name][1] == "UNIMPLEMENTED", seen
    assert not marker.exists(), "the command line the bot named never ran"
    assert not list((tmp_path / "logs").glob("sh*.log")), "no process was started for it"


def test_the_arena_sockets_are_their_owners_alone(tmp_path: Path) -> None:
    async def go() -> list[int]:
        async with Arena(api=[f"unix:{tmp_path / 'api.sock'}"]) as arena:
            bot_socket = Path(arena._bot_address.removeprefix("unix:"))
            if arena.isolation == "sandbox":  # the address inside the sandbox: the host's
                bot_socket = Path(arena.address.removeprefix("unix:"))
            return [stat.S_IMODE(p.stat().st_mode) for p in (bot_socket, tmp_path / "api.sock")]

    assert asyncio.run(go()) == [0o600, 0o600]


def test_binding_a_socket_leaves_other_threads_folders_usable(tmp_path: Path) -> None:
    """A socket is bound 0600 without the process's umask: folders another thread makes
    meanwhile (a second validation's Arena, say) keep their modes. With the umask, a folder
    made in that moment was 0600, and a standby bot could not enter its own folder."""
    import tempfile
    import threading

    from referee.server import RefereeServer

    stop = threading.Event()
    modes: set[int] = set()

    def make_folders() -> None:
        while not stop.is_set():
            made = Path(tempfile.mkdtemp(dir=tmp_path))
            modes.add(stat.S_IMODE(made.stat().st_mode))
            made.rmdir()

    async def bind_often() -> list[int]:
        sockets = []
        for i in range(100):
            server = RefereeServer(f"unix:{tmp_path / f's{i}.sock'}")
            await server.start()
            sockets.append(stat.S_IMODE((tmp_path / f"s{i}.sock").stat().st_mode))
            await server.stop(0)
        return sockets

    maker = threading.Thread(target=make_folders)
    maker.start()
    try:
        sockets = asyncio.run(bind_often())
    finally:
        stop.set()
        maker.join()
    assert set(sockets) == {0o600}, "every socket its owner's alone"
    assert modes == {0o700}, "mkdtemp's 0700, never a mode the umask cut"


def test_a_socket_in_a_shared_folder_is_bound_privately_and_gone_after_stop(
    tmp_path: Path,
) -> None:
    """In a folder others may enter, the socket is made in a private folder beside it and
    renamed in, 0600; `stop` removes it. A file that is not a socket is never replaced, and a
    path too long for a socket is refused, both saying so."""
    from referee.server import RefereeServer

    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o755)
    config = shared / "config.toml"
    config.write_text("keep me")

    async def serve(address: str) -> int:
        server = RefereeServer(f"unix:{address}")
        await server.start()
        mode = stat.S_IMODE(os.stat(address).st_mode)
        await server.stop(0)
        return mode

    assert asyncio.run(serve(str(shared / "api.sock"))) == 0o600
    assert sorted(p.name for p in shared.iterdir()) == ["config.toml"], "socket removed, no folder"
    with pytest.raises(OSError, match="not a socket"):
        asyncio.run(serve(str(config)))
    assert config.read_text() == "keep me"
    deep = shared / ("d" * 90)
    deep.mkdir()
    with pytest.raises(OSError, match="at most 107 bytes"):
        asyncio.run(serve(str(deep / "api.sock")))
    assert list(deep.iterdir()) == []


# -- referee serve on TCP ------------------------------------------------------------------------


@pytest.fixture
def served(tmp_path: Path, certificate: tuple[Path, Path]) -> Iterator[dict[str, object]]:
    """`referee serve` on 127.0.0.1 with TLS, a bot token, an operator token and one registered
    entry; its process, port, tokens and the files the tests look at."""
    cert, key = certificate
    tokens = tmp_path / "tokens.json"
    issued = {}
    for name, extra in (("alice", ()), ("ops", ("--operator",))):
        out = cli("referee", "token", "new", name, "--tokens", str(tokens), "--json", *extra)
        assert out.returncode == 0, out.stderr
        issued[name] = json.loads(out.stdout)["token"]
    entries = tmp_path / "entries.toml"
    entries.write_text('[[entry]]\nname = "house"\nbuiltin = "greedy"\n')
    port = free_port()
    server, head = start_serve(
        "--listen",
        f"127.0.0.1:{port}",
        "--tls-cert",
        str(cert),
        "--tls-key",
        str(key),
        "--tokens",
        str(tokens),
        "--entries",
        str(entries),
        "--isolation",
        "process",
    )
    assert head.startswith("referee listening") and "RunMatch seats" in head, head
    try:
        yield {
            "server": server,
            "port": port,
            "cert": cert,
            "bot": issued["alice"],
            "operator": issued["ops"],
            "head": head,
        }
    finally:
        server.terminate()
        server.wait(10)


async def call_run_match(
    served: dict[str, object], seats: list[str], token: str | None
) -> tuple[grpc.StatusCode, str]:
    credentials = grpc.ssl_channel_credentials(Path(str(served["cert"])).read_bytes())
    async with grpc.aio.secure_channel(f"localhost:{served['port']}", credentials) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        request = referee_pb2.RunMatchRequest(
            seats=[referee_pb2.SeatSpec(entry=s) for s in seats],
            settings=referee_pb2.MatchSettings(seed=3, move_time_ms=2000),
        )
        try:
            response = await stub.RunMatch(
                request, timeout=120, metadata=operator_metadata(token) if token else None
            )
        except grpc.aio.AioRpcError as exc:
            return exc.code(), exc.details() or ""
        return grpc.StatusCode.OK, json.dumps([s.name for s in response.seats])


def test_referee_serve_runs_matches_for_its_operator_alone(
    served: dict[str, object], tmp_path: Path
) -> None:
    server = served["server"]
    assert isinstance(server, subprocess.Popen)
    marker = tmp_path / "ran"
    evil_file = tmp_path / "evil.py"
    evil_file.write_text(
        f"open({str(marker)!r}, 'w').write('pwned')\nimport sdk\n"
        "class Evil(sdk.Bot):\n    def choose_move(self, s):\n"
        "        return s.legal_moves()[0]\n"
    )
    command = f"sh -c 'touch {marker}; sleep 30'"
    wrong = str(served["operator"]).split(".")[0] + ".not-the-secret"
    before = descendants(server.pid)
    attempts = {
        "anonymous": (["random", "random"], None),
        "bot token": (["random", "random"], str(served["bot"])),
        "wrong operator": (["random", "random"], wrong),
        "command line": ([command, "random"], str(served["operator"])),
        "host path": ([str(evil_file), "random"], str(served["operator"])),
    }
    expected = {
        "anonymous": grpc.StatusCode.UNAUTHENTICATED,
        "bot token": grpc.StatusCode.PERMISSION_DENIED,
        "wrong operator": grpc.StatusCode.UNAUTHENTICATED,
        "command line": grpc.StatusCode.PERMISSION_DENIED,
        "host path": grpc.StatusCode.PERMISSION_DENIED,
    }
    for what, (seats, token) in attempts.items():
        code, details = asyncio.run(call_run_match(served, seats, token))
        assert code == expected[what], (what, code, details)
        assert descendants(server.pid) == before, f"{what}: a process was started"
    time.sleep(0.5)
    assert not marker.exists(), "nothing the caller named ran"
    code, details = asyncio.run(call_run_match(served, ["random", "random"], None))
    assert "operator token" in details
    code, details = asyncio.run(
        call_run_match(served, [command, "random"], str(served["operator"]))
    )
    assert "never names a command line or a path" in details and "--entries" in details

    code, names = asyncio.run(call_run_match(served, ["house", "random"], str(served["operator"])))
    assert code == grpc.StatusCode.OK, names
    assert json.loads(names) == ["house", "random"]
    assert "an operator token: 1 issued" in str(served["head"])


async def watch(arena: Arena, token: str | None) -> grpc.StatusCode:
    """WatchMatch of a match that never comes: DEADLINE_EXCEEDED when it was served."""
    async with grpc.aio.insecure_channel(arena.api_address) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        call = stub.WatchMatch(
            referee_pb2.WatchMatchRequest(match_id="none"),
            timeout=1,
            metadata=operator_metadata(token) if token else None,
        )
        try:
            async for _ in call:
                pass
        except grpc.aio.AioRpcError as exc:
            return exc.code()
        return grpc.StatusCode.OK


def test_watch_match_needs_the_operator_unless_it_is_public(tmp_path: Path) -> None:
    tokens = TokenFile.load(tmp_path / "tokens.json", create=True)
    operator = tokens.issue("ops", operator=True)

    async def go(public: bool) -> list[grpc.StatusCode]:
        async with Arena(listen="127.0.0.1:0", tokens=tokens, public_watch=public) as arena:
            return [await watch(arena, None), await watch(arena, operator)]

    assert asyncio.run(go(False)) == [
        grpc.StatusCode.UNAUTHENTICATED,
        grpc.StatusCode.DEADLINE_EXCEEDED,
    ]
    assert asyncio.run(go(True)) == [grpc.StatusCode.DEADLINE_EXCEEDED] * 2


def test_a_unix_socket_asks_for_an_operator_token_once_there_is_one(tmp_path: Path) -> None:
    """Bots at `process` or `none` run as the operator's user: owner-only permissions do not
    keep them off a Unix socket, an operator token does."""
    tokens = TokenFile.load(tmp_path / "tokens.json", create=True)
    tokens.issue("alice")

    async def go() -> list[grpc.StatusCode]:
        async with Arena(listen=f"unix:{tmp_path / 'ref.sock'}", tokens=tokens) as arena:
            return [await watch(arena, None), await watch(arena, operator)]

    operator = ""
    assert asyncio.run(go())[0] == grpc.StatusCode.DEADLINE_EXCEEDED  # the owner's socket
    operator = tokens.issue("ops", operator=True)
    assert asyncio.run(go()) == [grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.DEADLINE_EXCEEDED]


def test_an_api_port_with_mutual_tls_takes_a_client_certificate_of_its_ca(
    certificate: tuple[Path, Path], client_certificates: dict[str, Path]
) -> None:
    cert, key = certificate
    certs = client_certificates

    async def run_as(who: str | None, arena: Arena) -> grpc.StatusCode:
        kwargs = {"root_certificates": cert.read_bytes()}
        if who is not None:
            kwargs |= {
                "private_key": certs[f"{who}.key"].read_bytes(),
                "certificate_chain": certs[f"{who}.pem"].read_bytes(),
            }
        port = arena.api_address.rsplit(":", 1)[1]
        async with grpc.aio.secure_channel(
            f"localhost:{port}", grpc.ssl_channel_credentials(**kwargs)
        ) as channel:
            request = referee_pb2.RunMatchRequest(
                seats=[referee_pb2.SeatSpec(entry="random")] * 2,
                settings=referee_pb2.MatchSettings(seed=1),
            )
            try:
                await referee_pb2_grpc.RefereeServiceStub(channel).RunMatch(request, timeout=60)
            except grpc.aio.AioRpcError as exc:
                return exc.code()
            return grpc.StatusCode.OK

    async def go() -> list[grpc.StatusCode]:
        async with Arena(
            api=["127.0.0.1:0"],
            tls=(cert.read_bytes(), key.read_bytes()),
            client_ca=certs["ca.pem"].read_bytes(),
        ) as arena:
            return [await run_as(who, arena) for who in (None, "stranger", "operator")]

    none, stranger, operator = asyncio.run(go())
    assert none == stranger == grpc.StatusCode.UNAVAILABLE  # no TLS session at all
    assert operator == grpc.StatusCode.OK


# -- safe by default -----------------------------------------------------------------------------


def test_serve_on_a_network_address_refuses_without_tls_or_operator(
    tmp_path: Path, certificate: tuple[Path, Path]
) -> None:
    cert, key = certificate
    tokens = tmp_path / "tokens.json"
    assert cli("referee", "token", "new", "alice", "--tokens", str(tokens)).returncode == 0
    port = free_port()
    plain = cli("referee", "serve", "--listen", f"0.0.0.0:{port}", "--tokens", str(tokens))
    assert plain.returncode == 2, plain.stdout + plain.stderr
    assert "without TLS" in plain.stderr and "--insecure" in plain.stderr
    assert "no operator credential" in plain.stderr
    tls_only = cli(
        "referee",
        "serve",
        "--listen",
        f"0.0.0.0:{port}",
        "--tls-cert",
        str(cert),
        "--tls-key",
        str(key),
        "--tokens",
        str(tokens),
    )
    assert tls_only.returncode == 2
    assert "no operator credential" in tls_only.stderr and "without TLS" not in tls_only.stderr
    with socket.socket() as probe:  # neither of them ever listened
        probe.bind(("0.0.0.0", port))


def test_serve_insecure_still_refuses_anonymous_run_match(tmp_path: Path) -> None:
    port = free_port()
    server, head = start_serve(
        "--listen", f"0.0.0.0:{port}", "--insecure", "--isolation", "process"
    )
    try:
        assert "warning (--insecure)" in head and "referee listening" in head, head

        async def anonymous() -> grpc.StatusCode:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                request = referee_pb2.RunMatchRequest(
                    seats=[referee_pb2.SeatSpec(entry="random")] * 2
                )
                try:
                    await referee_pb2_grpc.RefereeServiceStub(channel).RunMatch(request, timeout=30)
                except grpc.aio.AioRpcError as exc:
                    return exc.code()
                return grpc.StatusCode.OK

        assert asyncio.run(anonymous()) == grpc.StatusCode.UNAUTHENTICATED
        assert not descendants(server.pid)
    finally:
        server.terminate()
        server.wait(10)


def test_an_arena_from_python_on_a_network_address_is_refused_as_serve_is(
    certificate: tuple[Path, Path],
) -> None:
    """The exposure rule is the referee server's, not the command's: `Arena(listen=...)` is
    refused before anything listens, with the same reasons."""
    from referee import ExposureError, Network

    cert, key = certificate
    with pytest.raises(ExposureError, match="without TLS") as plain:
        Arena(listen="0.0.0.0:0")
    assert "no operator credential" in str(plain.value)
    tls = (cert.read_bytes(), key.read_bytes())
    with pytest.raises(ExposureError, match="no operator credential") as tls_only:
        Arena(network=Network(listen="0.0.0.0:0", tls=tls))
    assert "without TLS" not in str(tls_only.value)
    assert Arena(listen="0.0.0.0:0", insecure=True).exposure_problems  # served, with warnings
    assert Arena(listen="127.0.0.1:0").exposure_problems == []  # loopback: nothing exposed
