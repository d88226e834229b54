"""The root typer app and its noun groups; command modules attach their verbs here."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="azul-arena",
    help="Azul Arena: bots play the Azul family of games under a referee; tournaments rank them.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)
bench_app = typer.Typer(
    help="Benchmarks that print their figures (engine, codec, latency, tournament, strength).",
    no_args_is_help=True,
)
replay_app = typer.Typer(
    help="Game records: verify them, view them as a page or in the terminal.", no_args_is_help=True
)
referee_app = typer.Typer(help="The referee service.", no_args_is_help=True)
tournament_app = typer.Typer(help="Run tournaments and read their results.", no_args_is_help=True)
bot_app = typer.Typer(help="Write and check bots.", no_args_is_help=True)

app.add_typer(bench_app, name="bench")
app.add_typer(replay_app, name="replay")
app.add_typer(referee_app, name="referee")
token_app = typer.Typer(help="Tokens issued to remote entries.", no_args_is_help=True)
referee_app.add_typer(token_app, name="token")
app.add_typer(tournament_app, name="tournament")
app.add_typer(bot_app, name="bot")
server_app = typer.Typer(
    help="The contest server: participants submit bots, a ladder plays "
    "them, everyone watches on the web (docs/server.md).",
    no_args_is_help=True,
)
app.add_typer(server_app, name="server")
