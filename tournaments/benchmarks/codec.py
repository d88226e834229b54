"""What the public state of a move request costs on the wire (`azul-arena bench codec`)."""

from __future__ import annotations

from typing import Any

from referee.engine import Game
from referee.protocol import bot_pb2
from referee.protocol.codec import decode_state, encode_state
from tournaments.benchmarks.engine import per_call_us, sample_positions


def encode_request(state: dict[str, Any]) -> bytes:
    request = bot_pb2.MoveRequest()
    encode_state(state, request.state)
    return request.SerializeToString()  # type: ignore[no-any-return]


def run_codec_bench(ruleset: str, players: int, positions: int, seed: int) -> dict[str, Any]:
    """Per-call times over positions from every stage of random games, in microseconds."""
    games = sample_positions(ruleset, players, positions, seed)
    states = {id(g): g.to_state() for g in games}
    messages = {
        id(g): bot_pb2.MoveRequest.FromString(encode_request(states[id(g)])).state for g in games
    }
    payloads = {id(g): encode_request(states[id(g)]) for g in games}

    def codec(game: Game) -> None:  # the codec alone: dict -> message -> dict
        decode_state(encode_state(states[id(game)]))

    def wire(game: Game) -> None:  # the whole way: game -> bytes (referee), bytes -> dict (bot)
        decode_state(bot_pb2.MoveRequest.FromString(encode_request(game.to_state())).state)

    return {
        "ruleset": ruleset,
        "players": players,
        "positions": len(games),
        "encode_decode_us": per_call_us(games, codec),
        "encode_us": per_call_us(games, lambda g: encode_state(states[id(g)])),
        "decode_us": per_call_us(games, lambda g: decode_state(messages[id(g)])),
        "to_state_us": per_call_us(games, lambda g: g.to_state()),
        "wire_us": per_call_us(games, wire),
        "from_state_us": per_call_us(games, lambda g: Game.from_state(states[id(g)])),
        "state_bytes": round(sum(map(len, payloads.values())) / len(payloads), 1),
    }
