"""`azul-arena bench codec`: what the public state of a move request costs on the wire."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.table import Table

from referee.engine import Game
from referee.protocol import bot_pb2
from referee.protocol.codec import decode_state, encode_state
from tournaments.commands.bench_engine import per_call_us, sample_positions
from tournaments.commands.common import Exit, check_ruleset, console, fail, print_json
from tournaments.commands.groups import bench_app


def _encode(state: dict[str, Any]) -> bytes:
    request = bot_pb2.MoveRequest()
    encode_state(state, request.state)
    return request.SerializeToString()  # type: ignore[no-any-return]


def run_codec_bench(ruleset: str, players: int, positions: int, seed: int) -> dict[str, Any]:
    """Per-call times over positions from every stage of random games, in microseconds."""
    games = sample_positions(ruleset, players, positions, seed)
    states = {id(g): g.to_state() for g in games}
    messages = {id(g): bot_pb2.MoveRequest.FromString(_encode(states[id(g)])).state
                for g in games}
    payloads = {id(g): _encode(states[id(g)]) for g in games}

    def codec(game: Game) -> None:  # the codec alone: dict -> message -> dict
        decode_state(encode_state(states[id(game)]))

    def wire(game: Game) -> None:  # the whole way: game -> bytes (referee), bytes -> dict (bot)
        decode_state(bot_pb2.MoveRequest.FromString(_encode(game.to_state())).state)

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


@bench_app.command("codec")
def bench_codec(
    ruleset: Annotated[str, typer.Option(help="Ruleset of the positions.")] = "azul",
    players: Annotated[int, typer.Option(help="Players per game (2-4).")] = 2,
    positions: Annotated[int, typer.Option(help="Positions sampled from random games.")] = 500,
    seed: Annotated[int, typer.Option(help="Seed of the random games.")] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON object for scripts.")] = False,
) -> None:
    """The public state of a move request through the codec (referee.protocol.codec), per call
    over positions from every stage of random games: encode + decode of the state dict
    (`encode_decode_us`, the target is under 40 us), each half, the engine's to_state(), the
    whole way from the referee's game to the bot's dict through the bytes (`wire_us`), and the
    bot-side game rebuild (from_state, which the SDK does only when a bot uses its state).

    Example: azul-arena bench codec --ruleset pavilion --json
    """
    check_ruleset(ruleset, players)
    if positions < 1:
        fail("--positions must be at least 1")
    result = run_codec_bench(ruleset, players, positions, seed)
    if json_out:
        print_json(result)
        raise typer.Exit(int(Exit.OK))
    table = Table(title=f"codec: {ruleset}, {players} players, {result['positions']} positions "
                        f"(one core; {result['state_bytes']:.0f} bytes of state per request)")
    table.add_column("measure")
    table.add_column("per call", justify="right")
    table.add_column("target", justify="right")
    table.add_row("encode + decode (state dict -> GameState -> dict)",
                  f"{result['encode_decode_us']:.1f} us", "< 40 us")
    table.add_row("  encode_state", f"{result['encode_us']:.1f} us", "")
    table.add_row("  decode_state", f"{result['decode_us']:.1f} us", "")
    table.add_row("game.to_state()", f"{result['to_state_us']:.1f} us", "")
    table.add_row("game -> bytes -> dict (to_state, encode, serialize, parse, decode)",
                  f"{result['wire_us']:.1f} us", "")
    table.add_row("Game.from_state (the bot's rebuild, on first use)",
                  f"{result['from_state_us']:.1f} us", "")
    console.print(table)
