"""replay commands: check game records against the rules."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from referee.engine import EngineError, RecordError, load_record, verify
from tournaments.commands.common import Exit, console, print_json
from tournaments.commands.groups import replay_app


def _error_json(error: RecordError | None, path: Path) -> dict[str, Any] | None:
    if error is None:
        return None
    reason = str(error.reason)
    if error.rule and reason.endswith(f" [{error.rule}]"):
        reason = reason[: -len(f" [{error.rule}]")]
    if reason.startswith(f"{path}: "):
        reason = reason[len(f"{path}: "):]
    return {"round": error.round, "move_number": error.move_number, "move": error.move,
            "reason": reason, "rule": error.rule}


def check_file(path: Path) -> dict[str, Any]:
    """Verify one record file; never raises for a bad file (the result says what is wrong)."""
    result: dict[str, Any] = {"file": str(path), "ok": False, "complete": False,
                              "round_scores": [], "final_scores": None, "error": None,
                              "mismatches": []}
    try:
        record = load_record(path)
        verdict = verify(record)
    except RecordError as exc:
        result["error"] = _error_json(exc, path)
        return result
    except (EngineError, ValueError, TypeError, KeyError, IndexError, RecursionError) as exc:
        # Anything the engine did not foresee still becomes a one-line error, not a traceback.
        result["error"] = {"round": None, "move_number": None, "move": None,
                           "reason": f"unreadable record ({type(exc).__name__}: {exc})",
                           "rule": None}
        return result
    result.update(ok=verdict.ok, complete=verdict.complete, round_scores=verdict.round_scores,
                  final_scores=verdict.final_scores, error=_error_json(verdict.error, path),
                  mismatches=list(verdict.mismatches))
    return result


def _where(error: dict[str, Any]) -> str:
    parts = []
    if error.get("round") is not None:
        parts.append(f"round {error['round']}")
    if error.get("move_number") is not None:
        parts.append(f"move {error['move_number']}")
    if error.get("move") is not None:
        parts.append(repr(error["move"]))
    return ", ".join(parts)


def _print_human(result: dict[str, Any]) -> None:
    name = result["file"]
    error = result["error"]
    if error is not None:
        where = _where(error)
        rule = f" [{error['rule']}]" if error.get("rule") else ""
        console.print(f"[bold red]FAIL[/] {escape(name)}: {escape(where + ': ' if where else '')}"
                      f"{escape(error['reason'] + rule)}", highlight=False, soft_wrap=True)
        return
    if result["ok"]:
        status = "[bold green]OK[/]" + ("" if result["complete"] else " (game not finished)")
        console.print(f"{status} {escape(name)}", highlight=False, soft_wrap=True)
    else:
        console.print(f"[bold red]FAIL[/] {escape(name)}", highlight=False, soft_wrap=True)
        for text in result["mismatches"]:
            console.print(f"  {escape(text)}", highlight=False, soft_wrap=True)
    rounds = result["round_scores"]
    if rounds:
        seats = len(rounds[0])
        table = Table(show_edge=False, pad_edge=False, box=None)
        table.add_column("round", justify="right")
        for s in range(seats):
            table.add_column(f"seat {s}", justify="right")
        for k, scores in enumerate(rounds, 1):
            table.add_row(str(k), *(str(v) for v in scores))
        if result["final_scores"] is not None:
            table.add_row("final", *(str(v) for v in result["final_scores"]), style="bold")
        console.print(table)


@replay_app.command("verify")
def verify_cmd(
    files: Annotated[list[Path], typer.Argument(help="Record files (JSON) to replay and check.")],
    as_json: Annotated[bool, typer.Option("--json",
                                          help="One JSON object per line per file.")] = False,
) -> None:
    """Replay each record: report the first illegal move (file, round, move, why) and the scores
    after each round (classic: its wall-tiling; pavilion: its play phase) and at the end. Exit 0
    if every file verifies, 1 otherwise.

    Example: azul-arena replay verify azul-arena-replays/*.json --json
    """
    all_ok = True
    for path in files:
        result = check_file(path)
        all_ok = all_ok and result["ok"]
        if as_json:
            print_json(result)
        else:
            _print_human(result)
    raise typer.Exit(int(Exit.OK if all_ok else Exit.FAILED))
