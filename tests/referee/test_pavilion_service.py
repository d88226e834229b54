"""RefereeService.RunMatch plays Summer Pavilion with the wild order its settings name; a
ruleset without wild colours refuses the option with INVALID_ARGUMENT."""

from __future__ import annotations

import asyncio
import json
import tempfile

import grpc
import pytest

from referee import Arena
from referee.protocol import referee_pb2, referee_pb2_grpc


async def _run(settings: referee_pb2.MatchSettings) -> referee_pb2.RunMatchResponse:
    with tempfile.TemporaryDirectory() as folder:
        return await _run_on(f"unix:{folder}/api.sock", settings)


async def _run_on(api: str, settings: referee_pb2.MatchSettings) -> referee_pb2.RunMatchResponse:
    async with Arena(api=[api]) as arena:
        async with grpc.aio.insecure_channel(arena.api_address) as channel:
            stub = referee_pb2_grpc.RefereeServiceStub(channel)
            request = referee_pb2.RunMatchRequest(
                seats=[referee_pb2.SeatSpec(entry="random"), referee_pb2.SeatSpec(entry="greedy")],
                settings=settings,
            )
            return await stub.RunMatch(request, timeout=120)


def test_run_match_plays_pavilion_with_the_wild_order_asked() -> None:
    response = asyncio.run(
        _run(referee_pb2.MatchSettings(ruleset="pavilion", seed=2, wild_order="BRPGOY"))
    )
    record = json.loads(response.record_json)
    assert record["ruleset"] == "pavilion" and record["options"] == {"wild_order": "BRPGOY"}
    assert [s.name for s in response.seats] == ["random", "greedy"]
    assert response.seats[1].rank == 1


def test_run_match_refuses_a_wild_order_for_classic_azul() -> None:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        asyncio.run(_run(referee_pb2.MatchSettings(ruleset="azul", wild_order="BRPGOY")))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "wild_order" in (caught.value.details() or "")


def test_run_match_refuses_an_unknown_ruleset_before_any_bot_starts() -> None:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        asyncio.run(_run(referee_pb2.MatchSettings(ruleset="pavillion")))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "pavilion-mono" in (caught.value.details() or "")  # the known rulesets are listed
