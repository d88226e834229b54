"""`azul-arena play BOT`: a person against a bot in the terminal, through the real referee."""

from __future__ import annotations

import asyncio
import logging
import secrets
import threading
from pathlib import Path
from typing import Any

import typer

from referee import Termination, run_loop
from tournaments.commands.common import (
    LOGS_DIR,
    OPTION_HELP,
    RECORDS_DIR,
    WILD_ORDER_ALIAS,
    WILD_ORDER_HELP,
    Exit,
    check_plays,
    check_ruleset,
    console,
    fail,
    shell_command,
)
from tournaments.commands.groups import play_app

# "No time limit" for a person: a week per move (the wire carries milliseconds in 32 bits).
NO_LIMIT = 7 * 24 * 3600.0
HELLO_TIMEOUT = 30.0


@play_app.command("play")
def play(
    bot: str = typer.Argument(
        ..., help="The opponent: built-in name, path/bot.py[:Class] or a quoted command line"
    ),
    ruleset: str = typer.Option("azul", "--ruleset", "-r", help="ruleset name"),
    seat: int = typer.Option(0, "--seat", min=0, max=1, help="your seat: 0 moves first, 1 second"),
    time_limit: float | None = typer.Option(
        None, "--time", min=1.0, help="your seconds per move (default: no limit)"
    ),
    bot_time: float = typer.Option(1.0, "--bot-time", min=0.01, help="the bot's seconds per move"),
    seed: int | None = typer.Option(None, "--seed", "-s", help="seed of the deals"),
    name: str = typer.Option("you", "--name", help="your name in the record"),
    replay: Path | None = typer.Option(
        None, "--replay", help=f"record file (default: {RECORDS_DIR}/<id>.json)"
    ),
    option: list[str] = typer.Option([], "--option", help=OPTION_HELP),
    wild: str | None = typer.Option(None, WILD_ORDER_ALIAS, help=WILD_ORDER_HELP),
    web: bool = typer.Option(False, "--web", help="play on a board in your browser (a local page)"),
    browser: bool = typer.Option(
        True, "--browser/--no-browser", help="with --web: open the page (or only print its address)"
    ),
    port: int = typer.Option(0, "--port", min=0, max=65535, help="with --web: port (0: any free)"),
) -> None:
    """Play a game against a bot in this terminal: the board, your legal moves numbered and in
    words; answer with a number or a move in notation. You are a seat of the real referee, like
    any bot; the game is saved as a record that `replay view` opens.

    With --web the board is a page in your browser (click a tile of a factory or the centre,
    then a line of your board), served from this machine only while the game lasts.

    Example: azul-arena play greedy --seat 1
    Example: azul-arena play random --web
    """
    from referee import Arena, FaultPolicy, MatchConfig, check_entry, write_replay
    from sdk.client import play as play_seat
    from tournaments.terminal.human import HumanSeat, TableWatcher

    options = check_ruleset(ruleset, 2, option, wild)
    try:
        check_entry(bot)
        check_plays([bot], ruleset)
    except ValueError as exc:
        fail(str(exc))
    opponent = "bot" if bot == name else bot.split()[0].rsplit("/", 1)[-1][:40] or "bot"
    if opponent == name:
        opponent += "-bot"
    names = [opponent, opponent]
    names[seat] = name
    seed = seed if seed is not None else secrets.randbelow(2**31)
    limits: list[float | None] = [None, None]
    limits[seat] = time_limit or NO_LIMIT
    try:
        config = MatchConfig(
            ruleset=ruleset,
            seed=seed,
            time_per_move=bot_time,
            seat_time_per_move=tuple(limits),
            fault_policy=FaultPolicy.RANDOM,
            max_strikes=3,
            options=options,
        )
    except ValueError as exc:
        fail(str(exc))
    watcher = TableWatcher(console, ruleset, names, seed, options=options)
    seat_bot: Any = HumanSeat(console)
    on_event: Any = watcher
    table = page = None
    if web:
        from tournaments.web.play_server import open_table

        table, page, seat_bot = open_table(console, names, seat, config, port, browser)
        on_event = table.on_event

    async def go() -> Any:
        async with Arena({opponent: bot}, log_dir=LOGS_DIR) as arena:
            token = f"{secrets.token_hex(6)}.{secrets.token_hex(12)}"
            human = asyncio.ensure_future(arena.connect_remote(token, HELLO_TIMEOUT))
            await asyncio.sleep(0)  # the Arena now waits for this token's Hello
            thread = threading.Thread(
                target=play_seat,
                daemon=True,
                name="human-seat",
                args=(seat_bot, arena.address, token),
            )
            thread.start()
            workers: list[Any] = [None, None]
            workers[seat] = await human
            workers[1 - seat] = await arena.acquire(opponent)
            result = await arena.play(names, config, on_event=on_event, bots=workers)
            # The seat's stream closes with the Arena: expected now, not worth a warning.
            logging.getLogger("sdk").setLevel(logging.ERROR)
            return result

    try:
        result = run_loop(go())
    except KeyboardInterrupt:
        console.print("\ngame abandoned")
        raise typer.Exit(130) from None
    finally:
        if table is not None and table.result is None:
            table.finish({"text": "The game was abandoned."})
    path = replay or RECORDS_DIR / f"{result.match_id}.json"
    write_replay(path, result.record)
    mine = _show_result(result, names, seat, opponent, f"{ruleset}, seed {seed}", path)
    if table is not None and page is not None:
        from tournaments.web.play_server import end_page

        end_page(table, page, result, path)
    if mine.termination != Termination.OK:
        raise typer.Exit(int(Exit.FAILED))


def _show_result(
    result: Any, names: list[str], seat: int, opponent: str, title: str, path: Path
) -> Any:
    """The final table and who won; the person's own seat's result."""
    from rich.table import Table

    table = Table(title=title)
    for col in ("seat", "player", "score", "rank", "termination"):
        table.add_column(col)
    for i, s in enumerate(result.seats):
        table.add_row(str(i), names[i], str(s.score), str(s.rank), s.termination)
    console.print(table)
    mine = result.seats[seat]
    verdict = (
        "You win!"
        if mine.rank == 1 and result.ranks.count(1) == 1
        else ("A shared first place." if mine.rank == 1 else f"{opponent} wins.")
    )
    console.print(
        f"[bold]{verdict}[/] The game is saved: {path}\n"
        f"watch it again: {shell_command('azul-arena')} replay view {path} --open",
        highlight=False,
        soft_wrap=True,
    )
    return mine
