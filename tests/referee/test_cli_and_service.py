"""The `azul-arena match` command and the referee's own gRPC API (RunMatch, health, reflection)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from referee import Arena
from referee.protocol import referee_pb2, referee_pb2_grpc

BOTS = Path(__file__).parent / "bots"


def test_match_command_json_and_replay(tmp_path: Path) -> None:
    replay = tmp_path / "game.json"
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "tournaments.cli",
            "match",
            "random",
            str(BOTS / "exiter.py"),
            "--seed",
            "5",
            "--json",
            "--replay",
            str(replay),
            "--log-dir",
            str(tmp_path / "logs"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [s["termination"] for s in data["seats"]] == ["ok", "crash"]
    assert data["ranks"] == [1, 2] and len(data["scores"]) == 2
    assert data["seats"][1]["strikes"] == 1
    saved = json.loads(replay.read_text())
    assert saved["players"][0] == "random" and saved["referee"]["faults"][0]["fault"] == "crash"
    assert Path(data["seats"][0]["log"]).is_file()


def test_run_match_over_grpc_with_health_and_reflection(tmp_path: Path) -> None:
    async def go() -> tuple[referee_pb2.RunMatchResponse, int, int]:
        async with Arena(api=[f"unix:{tmp_path / 'api.sock'}"]) as arena:
            async with grpc.aio.insecure_channel(arena.api_address) as channel:
                health = await health_pb2_grpc.HealthStub(channel).Check(
                    health_pb2.HealthCheckRequest(service="azul_arena.v1.RefereeService")
                )
                stub = referee_pb2_grpc.RefereeServiceStub(channel)
                request = referee_pb2.RunMatchRequest(
                    seats=[
                        referee_pb2.SeatSpec(entry="random"),
                        referee_pb2.SeatSpec(entry="random"),
                    ],
                    settings=referee_pb2.MatchSettings(seed=4),
                    match_id="m1",
                )
                run = asyncio.ensure_future(stub.RunMatch(request, timeout=60))
                events = [
                    e
                    async for e in stub.WatchMatch(
                        referee_pb2.WatchMatchRequest(match_id="m1"), timeout=60
                    )
                ]
                response = await run
                from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

                refl = reflection_pb2_grpc.ServerReflectionStub(channel)
                listed = [
                    r
                    async for r in refl.ServerReflectionInfo(
                        iter([reflection_pb2.ServerReflectionRequest(list_services="")])
                    )
                ]
                names = {s.name for s in listed[0].list_services_response.service}
                assert "azul_arena.v1.RefereeService" in names
            return response, health.status, len(events)

    response, status, n_events = asyncio.run(go())
    assert status == health_pb2.HealthCheckResponse.SERVING
    assert [s.termination for s in response.seats] == [1, 1]  # TERMINATION_OK
    record = json.loads(response.record_json)
    moves = sum(len(r["moves"]) for r in record["rounds"])
    assert n_events == moves + 2  # started, every move, ended


def test_the_welcome_promises_quiet_while_a_bot_thinks() -> None:
    from referee.protocol import PROTOCOL_VERSION, bot_pb2

    async def go() -> bot_pb2.ConnectResponse:
        async with Arena() as arena:
            assert arena.server is not None
            arena.server.hub.expect("remote.secret")
            async with grpc.aio.insecure_channel(arena.address) as channel:
                call = channel.stream_stream(
                    "/azul_arena.v1.BotService/Connect",
                    request_serializer=bot_pb2.ConnectRequest.SerializeToString,
                    response_deserializer=bot_pb2.ConnectResponse.FromString,
                )()
                await call.write(
                    bot_pb2.ConnectRequest(
                        hello=bot_pb2.Hello(
                            protocol_version=PROTOCOL_VERSION, bot_name="raw", token="remote.secret"
                        )
                    )
                )
                first = await asyncio.wait_for(call.read(), 10)
                call.cancel()
                return first

    welcome = asyncio.run(go()).welcome
    assert welcome.protocol_version == 1 and welcome.quiet_while_thinking
