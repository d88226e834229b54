"""`azul-arena replay analyse`: every decision of a game valued by the strongest engine at hand
(tournaments/domain/analysis): the best move, the points the played one lost, a label; a table, an
annotated record (`-o`) the viewer draws, or `--json`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Final

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from tournaments.commands.common import (
    ClusterSecurity,
    Exit,
    cluster_options,
    console,
    err_console,
    fail,
    print_json,
)
from tournaments.commands.groups import replay_app
from tournaments.commands.replay import DbOpt, read_game
from tournaments.domain.analysis import DEFAULT_BUDGET

# Analysed, but some decisions not valued: not OK (0), yet no bad record (1) or arguments (2).
NOT_ALL_VALUED: Final = 3

# The label's colour and symbol, as chess annotates moves (the viewer uses the same).
LABEL_STYLE = {
    "inaccuracy": ("yellow", "?!"),
    "mistake": ("dark_orange", "?"),
    "blunder": ("red", "??"),
}


def _names(record: dict[str, Any]) -> list[str]:
    players = record.get("players")
    if isinstance(players, list):
        return [str(p) for p in players]
    return [f"seat {i}" for i in range(int(players or 0))]


def _label(label: str | None) -> str:
    if label is None:
        return ""
    colour, symbol = LABEL_STYLE[label]
    return f"[{colour}]{symbol} {label}[/]"


def print_analysis(title: str, record: dict[str, Any], analysis: dict[str, Any]) -> None:
    """The table of decisions (move, played, best, points lost, label) and each seat's summary."""
    names = _names(record)
    table = Table(title=escape(title), title_justify="left")
    for name, justify in (("move", "right"), ("player", "left"), ("played", "left"),
                          ("best", "left"), ("lost", "right"), ("label", "left"),
                          ("how", "left")):  # fmt: skip
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for m in analysis["moves"]:
        if m.get("not_valued"):
            table.add_row(str(m["ply"] + 1), escape(names[m["seat"]]), escape(m["played"]),
                          "", "", "", "[red]not valued[/]")  # fmt: skip
            continue
        same = m["best"] == m["played"]
        table.add_row(
            str(m["ply"] + 1),
            escape(names[m["seat"]]),
            f"{m['played']} ({m['value_played']:+.1f})",
            "" if same else f"{m['best']} ({m['value_best']:+.1f})",
            f"{m['loss']:.1f}" if m["loss"] else "",
            _label(m["label"]),
            "exact" if m["exact"] else "search",
        )
    console.print(table)
    for m in analysis["moves"]:
        if m.get("not_valued"):
            console.print(f"move {m['ply'] + 1} not valued: {escape(m['not_valued'])}",
                          highlight=False, soft_wrap=True)  # fmt: skip
    summary = Table(title="summary (points: expected final score margin)", title_justify="left")
    for name in ("player", "decisions", "mean loss", "inaccuracies", "mistakes", "blunders",
                 "accuracy"):  # fmt: skip
        summary.add_column(name, justify="left" if name == "player" else "right")
    unvalued = any(s["not_valued"] for s in analysis["summary"])
    if unvalued:
        summary.add_column("not valued", justify="right")
    for s in analysis["summary"]:
        if not s["decisions"] and not s["not_valued"]:
            continue
        valued = s["decisions"] > 0
        summary.add_row(
            escape(names[s["seat"]]),
            str(s["decisions"]),
            f"{s['mean_loss']:.2f}" if valued else "",
            str(s["inaccuracy"]),
            str(s["mistake"]),
            str(s["blunder"]),
            f"{s['accuracy']:.1f}" if valued else "",
            *([str(s["not_valued"])] if unvalued else []),
        )
    console.print(summary)


def _games(
    files: list[Path] | None, db: Path | None, games: list[str] | None
) -> list[tuple[str, dict[str, Any]]]:
    """(name, record) of each game the command line names."""
    if files and db is not None:
        fail("give record files, or --db FILE --game ID, not both")
    if db is not None:
        if not games:
            fail("--db needs --game ID (the ids are in `azul-arena tournament export --csv`)")
        return [(f"{db.name}:{g}", read_game(None, db, g)) for g in games]
    if games:
        fail("--game goes with --db, not with record files")
    if not files:
        fail("give a record file, or --db FILE --game ID")
    return [(str(f), read_game(f, None, None)) for f in files]


def _check_seat(seat: int | None, records: list[tuple[str, dict[str, Any]]]) -> None:
    for name, record in records:
        players = len(_names(record))
        if seat is not None and not 0 <= seat < players:
            fail(f"--seat {seat}: {name} has seats 0 to {players - 1}")


def _write(output: Path, games: list[tuple[str, dict[str, Any]]], blocks: list[Any]) -> None:
    """The annotated records: one to the file `output`, several into the folder `output`."""
    from referee import write_replay
    from tournaments.domain.analysis.game import annotate

    try:
        if len(games) == 1:
            if output.is_dir():
                fail(f"-o {output} is a folder; give a file name for one game")
            paths = [write_replay(output, annotate(games[0][1], blocks[0]))]
        else:
            output.mkdir(parents=True, exist_ok=True)
            paths = [
                write_replay(output / f"{Path(name).stem.replace(':', '-')}.analysed.json",
                             annotate(record, block))
                for (name, record), block in zip(games, blocks, strict=True)
            ]  # fmt: skip
    except OSError as exc:
        fail(f"cannot write the annotated record to {output}: {exc.strerror or exc}")
    for path in paths:
        err_console.print(f"wrote {path}", highlight=False, soft_wrap=True)


def _save(db: Path, ids: list[str], blocks: list[Any]) -> None:
    """Each analysis into its game's record in the tournament database `db`."""
    from tournaments.domain.store import Store, StoreError

    try:
        with Store.open(db, create=False) as store:
            for game_id, block in zip(ids, blocks, strict=True):
                store.save_analysis(game_id, block)
    except StoreError as exc:
        fail(str(exc), Exit.FAILED)
    err_console.print(f"saved {len(ids)} analyses in {db}", highlight=False, soft_wrap=True)


@replay_app.command("analyse")
def analyse_cmd(
    files: Annotated[
        list[Path] | None,
        typer.Argument(metavar="[GAME]...", help="Record files (JSON), as `match` writes them."),
    ] = None,
    db: DbOpt = None,
    game: Annotated[
        list[str] | None,
        typer.Option("--game", help="A game's id in --db (repeat it for several games)."),
    ] = None,
    budget: Annotated[
        int,
        typer.Option(min=1, help="Simulations per decision where the exact search does not reach."),
    ] = DEFAULT_BUDGET,
    seed: Annotated[
        int, typer.Option(help="Seed of the search: the same seed, the same values.")
    ] = 0,
    seat: Annotated[
        int | None, typer.Option("--seat", min=0, help="Analyse this seat's decisions only.")
    ] = None,
    workers: Annotated[
        int, typer.Option(min=1, help="Processes sharing the decisions (the same results).")
    ] = 1,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            metavar="tls://HOST:8786",
            help="Value the decisions on this Dask scheduler's workers (docs/cluster.md; the "
            "same results).",
        ),
    ] = None,
    cluster_security: ClusterSecurity = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="Write the annotated record here (a folder for several games): "
            "`replay view` draws its analysis.",
        ),
    ] = None,
    save: Annotated[
        bool,
        typer.Option(
            "--save",
            help="With --db: keep each analysis in the database's record of the game (the "
            "report then shows each entry's accuracy, its replays the analysis).",
        ),
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object per game (moves, summary) per line.")
    ] = False,
) -> None:
    """Analyse games move by move: the engine's best move at each decision, the points the
    played move lost (expected final score margin, best minus played), and a label:
    inaccuracy (?!), mistake (?), blunder (??). Near a round's end the rest of the round is
    searched in full ("exact"). Each seat's accuracy (100: the engine's move every time).
    Every ruleset, 2-4 players. A decision the engine fails to value is marked "not valued"
    with the reason (the table, --json, -o) and the rest of the analysis stands.

    Example: [bold]azul-arena replay analyse game.json --seat 1 -o game.analysed.json[/]

    Then: [bold]azul-arena replay view game.analysed.json --open[/] (the evaluation chart,
    the labels and each move's best).

    Several games of a tournament, kept for its report: [bold]azul-arena replay analyse
    --db t.db --game p0-g1 --game p0-g2 --workers 2 --save[/]

    A term's games on the class's Dask cluster: [bold]azul-arena replay analyse games/*.json
    -o analysed/ --cluster tls://head:8786 --cluster-security certs/[/]

    Exit codes: 0 every decision valued, 1 a record that does not replay (nothing analysed),
    2 bad arguments (or a cluster that cannot be used, as for `tournament run`), 3 analysed
    but some decisions not valued.
    """
    from referee.engine import EngineError, RecordError
    from tournaments.domain.analysis.batch import analyse_games
    from tournaments.domain.cluster import ClusterError

    if cluster is not None and workers > 1:
        fail("give --cluster (a Dask scheduler's workers) or --workers (processes here), not both")
    remote = cluster_options(cluster, None, 1, cluster_security)
    if save and db is None:
        fail("--save keeps the analysis in a tournament database: it goes with --db FILE --game ID")
    games = _games(files, db, game)
    _check_seat(seat, games)
    seats = None if seat is None else [seat]
    records = [record for _name, record in games]
    live = err_console.is_terminal and not as_json
    progress = Progress(
        TextColumn("analysing"), BarColumn(), MofNCompleteColumn(), TextColumn("decisions"),
        TimeRemainingColumn(), console=err_console, transient=True, disable=not live,
    )  # fmt: skip
    task = progress.add_task("analyse", total=None)
    try:
        with progress:
            blocks = analyse_games(
                records, budget, seed, seats, workers,
                lambda done, total: progress.update(task, completed=done, total=total), remote,
            )  # fmt: skip
    except ClusterError as exc:  # nothing analysed: as `tournament run` says it
        fail(str(exc))
    except (RecordError, EngineError, NotImplementedError, ValueError) as exc:
        # A decision's own failure is in its block (not_valued): this is the record's.
        fail(f"cannot analyse this game: its record does not replay: {exc}", Exit.FAILED)
    if output is not None:
        _write(output, games, blocks)
    if save and db is not None and game:
        _save(db, game, blocks)
    for (name, record), block in zip(games, blocks, strict=True):
        if as_json:
            print_json({"game": name, **block})
        else:
            print_analysis(name, record, block)
    unvalued = sum(s["not_valued"] for block in blocks for s in block["summary"])
    if unvalued:
        err_console.print(
            f"{unvalued} decision(s) not valued (marked so, with the reason): the others stand",
            highlight=False,
            soft_wrap=True,
        )
        raise typer.Exit(NOT_ALL_VALUED)
