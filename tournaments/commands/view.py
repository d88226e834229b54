"""`replay view` (a game as one self-contained HTML page) and `replay show` (in the terminal)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from tournaments.commands.common import Exit, console, err_console, fail
from tournaments.commands.groups import replay_app


def read_game(record_file: Path | None, db: Path | None, game: str | None) -> dict[str, Any]:
    """The record named on the command line: a file, or a game of a tournament database."""
    from referee.engine import RecordError, load_record

    if (record_file is None) == (db is None):
        fail("give a record file, or --db FILE --game ID")
    if record_file is not None:
        if game is not None:
            fail("--game goes with --db, not with a record file")
        try:
            return load_record(record_file)
        except RecordError as exc:
            fail(str(exc))
    assert db is not None
    if game is None:
        fail("--db needs --game ID (the ids are in `azul-arena tournament export --csv`)")
    from tournaments.store import Store, StoreError

    try:
        with Store.open(db, create=False) as store:
            record = store.replay(str(game))
    except StoreError as exc:
        fail(str(exc))
    if record is None:
        fail(f"{db} holds no finished game {game!r}")
    return record  # type: ignore[return-value]


def default_output(record_file: Path | None, db: Path | None, game: str | None) -> Path:
    """Next to the input: game.json -> game.html, a db's game -> <db>-<game>.html."""
    if record_file is not None:
        return record_file.with_suffix(".html")
    assert db is not None
    return db.with_name(f"{db.stem}-{game}.html")


def write_page(path: Path, text: str, what: str) -> None:
    if path.is_dir():
        fail(f"-o {path} is a directory; give a file name")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {what} to {path}: {exc.strerror or exc}")


def open_in_browser(path: Path) -> None:
    import webbrowser

    if not webbrowser.open(path.resolve().as_uri()):
        err_console.print(f"no browser found here: open {path} yourself")


RecordArg = Annotated[Path | None, typer.Argument(
    metavar="[GAME]", help="A record file (JSON), as `match` and `play` write them.")]
DbOpt = Annotated[Path | None, typer.Option(
    "--db", help="A tournament database: take the game from it (with --game).")]
GameOpt = Annotated[str | None, typer.Option(
    "--game", help="The game's id in --db (e.g. p0-g1).")]


@replay_app.command("view")
def view(
    record_file: RecordArg = None,
    db: DbOpt = None,
    game: GameOpt = None,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="The HTML file to write (default: next to the input).")] = None,
    open_it: Annotated[bool, typer.Option("--open", help="Open it in a browser.")] = False,
) -> None:
    """Write a game as one self-contained HTML page (no network needed): step through it, play
    it at a chosen speed, follow the scores; `#move=N` in the address points at a move.

    Example: [bold]azul-arena replay view azul-arena-replays/3f2a.json --open[/]
    """
    from referee.engine import EngineError
    from tournaments.web.replay_page import viewer_html

    record = read_game(record_file, db, game)
    try:
        text = viewer_html(record)
    except (EngineError, ValueError, KeyError, TypeError, IndexError) as exc:
        fail(f"cannot draw this game: {exc}", Exit.FAILED)
    path = output or default_output(record_file, db, game)
    write_page(path, text, "the replay page")
    console.print(f"wrote {path}", highlight=False, soft_wrap=True)
    if open_it:
        open_in_browser(path)


@replay_app.command("show")
def show(
    record_file: RecordArg = None,
    db: DbOpt = None,
    game: GameOpt = None,
    move: Annotated[int | None, typer.Option(
        "--move", "-m", help="Show the table after this many moves (default: the end).")] = None,
) -> None:
    """Print the table at one move of a game, in colour, with who moved and how.

    Example: [bold]azul-arena replay show game.json --move 23[/]
    """
    from rich.markup import escape

    from referee.engine import EngineError
    from tournaments.families import view_for

    record = read_game(record_file, db, game)
    try:
        family = view_for(str(record.get("ruleset")))
        states, moves = family.replay_states(record)
    except (EngineError, NotImplementedError, ValueError, KeyError, TypeError) as exc:
        fail(f"cannot replay this game: {exc}", Exit.FAILED)
    n = len(moves) if move is None else move
    if not 0 <= n <= len(moves):
        fail(f"--move {move}: this game has moves 0 to {len(moves)}")
    names = record["players"] if isinstance(record.get("players"), list) else None
    if n > 0:
        before = states[n - 1]
        who = names[before["turn"]] if names else f"seat {before['turn']}"
        console.print(f"move {n} of {len(moves)}: [bold]{escape(who)}[/] {moves[n - 1]} "
                      f"({escape(family.describe(before, moves[n - 1]))})", highlight=False)
    else:
        console.print(f"start of the game ({len(moves)} moves)")
    console.print(family.board(states[n], names))
