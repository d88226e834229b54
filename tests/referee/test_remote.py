"""Remote bots: the referee over TCP with TLS, tokens issued per entry, one use at a time."""

from __future__ import annotations

import asyncio
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

from referee import Arena, MatchConfig
from referee.tokens import TokenFile
from tests.referee.test_matches import assert_finished

ROOT = Path(__file__).resolve().parents[2]


def issue(tokens: Path, name: str) -> str:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "tournaments.cli",
            "referee",
            "token",
            "new",
            name,
            "--tokens",
            str(tokens),
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    return str(json.loads(out.stdout)["token"])


async def remote_bot(port: int, token: str, ca: Path | None) -> asyncio.subprocess.Process:
    argv = [
        sys.executable,
        "-m",
        "sdk.run",
        "bots.random_bot:RandomBot",
        "--referee",
        f"localhost:{port}",
        "--token",
        token,
    ]
    if ca is not None:
        argv += ["--tls-ca", str(ca)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return await asyncio.create_subprocess_exec(
        *argv, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )


def test_a_remote_entry_with_its_token_over_tls(
    tmp_path: Path, certificate: tuple[Path, Path]
) -> None:
    cert, key = certificate
    tokens = tmp_path / "tokens.json"
    token = issue(tokens, "alice")
    assert token.startswith("alice.") and token.split(".", 1)[1] not in tokens.read_text()
    assert stat.S_IMODE(tokens.stat().st_mode) == 0o600, "the tokens file is its owner's"

    async def go() -> tuple[object, bytes, bytes, bytes, int | None]:
        async with Arena(
            ["random"],
            listen="127.0.0.1:0",
            tls=(cert.read_bytes(), key.read_bytes()),
            tokens=TokenFile.load(tokens),
        ) as arena:
            assert arena.server is not None
            port = arena.server.port
            alice = await remote_bot(port, token, cert)  # connects before its match: it waits
            worker = await arena.connect_remote("alice", timeout=30)
            twin = await remote_bot(port, token, cert)  # the same token, while in use
            wrong = await remote_bot(port, "alice.not-the-secret", cert)
            plain = await remote_bot(port, token, None)  # no TLS: no connection at all
            outs = [(await asyncio.wait_for(p.communicate(), 60))[0] for p in (twin, wrong)]
            result = await arena.play(
                ["alice", "random"],
                MatchConfig(seed=4),
                bots=[worker, await arena.acquire("random")],
            )
            plain.kill()
            plain_out = (await plain.communicate())[0]
            alice.terminate()
            await alice.wait()
            return result, outs[0], outs[1], plain_out, twin.returncode

    result, twin_out, wrong_out, plain_out, twin_code = asyncio.run(go())
    assert_finished(result, 2)  # type: ignore[arg-type]
    assert [s.termination for s in result.seats] == ["ok", "ok"]  # type: ignore[attr-defined]
    assert twin_code == 3 and b"in use by another connection" in twin_out
    assert b"unknown or wrong token" in wrong_out
    assert b"connected" not in plain_out


def test_serve_refuses_half_a_tls_pair_and_a_missing_tokens_file(
    tmp_path: Path, certificate: tuple[Path, Path]
) -> None:
    cli = [sys.executable, "-m", "tournaments.cli", "referee", "serve", "--listen", "127.0.0.1:0"]
    out = subprocess.run(
        [*cli, "--tls-cert", str(certificate[0])], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 2 and "--tls-key" in out.stderr
    out = subprocess.run(
        [*cli, "--tokens", str(tmp_path / "none.json")], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 2 and "referee token new" in out.stderr
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "tournaments.cli",
            "referee",
            "token",
            "new",
            "a.b",
            "--tokens",
            str(tmp_path / "t.json"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and "no dot" in out.stderr


def test_closing_an_arena_with_a_remote_stream_open_leaves_no_task_behind() -> None:
    """A remote seat (as a browser game's person: the SDK in a thread) is still connected
    when its Arena closes: once `close()` returns, grpc's tasks for that stream have ended, so a
    caller that closes its loop at once (asyncio.run) cancels none of them (which made grpc
    print a CancelledError traceback from `_schedule_rpc_coro`)."""
    import secrets
    import threading

    from bots.random_bot import RandomBot
    from sdk.client import play

    async def go() -> list[str]:
        async with Arena({}, isolation="none") as arena:
            token = f"{secrets.token_hex(6)}.{secrets.token_hex(12)}"
            seat = asyncio.ensure_future(arena.connect_remote(token, 30))
            await asyncio.sleep(0)
            threading.Thread(
                target=play, args=(RandomBot(), arena.address, token), daemon=True
            ).start()
            await seat
        mine = asyncio.current_task()
        return [t.get_name() for t in asyncio.all_tasks() if t is not mine and not t.done()]

    assert asyncio.run(go()) == []
