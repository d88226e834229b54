"""Where a ladder game's bot logs are: one file per game and seat, named by the server's ids
(`logs/games/<game id>/seat-<n>.log` in the data folder), holding that seat's bot output of that
game alone (the referee copies it there as the game ends: `referee.Arena.play(seat_logs=...)`;
for a game played on a Dask cluster, the worker that played it sends its copy back and the ladder
worker writes it here: `tournaments.domain.cluster.cluster_player(seat_logs=...)`). Nothing in the
path comes from a participant, so no two seats ever share a file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings

from tournaments.domain.schedule import ScheduledGame


def game_folder(game_id: int) -> Path:
    """The folder of game `game_id`'s seat logs: the only place its log pages read."""
    return Path(settings.HOME) / "logs" / "games" / str(int(game_id))


def seat_log(game_id: int, seat: int) -> Path:
    return game_folder(game_id) / f"seat-{int(seat)}.log"


def seat_logs(game: ScheduledGame) -> list[Path]:
    """The seats' log files of a ladder game the worker plays (its `game_id`: the Game's pk)."""
    return [seat_log(int(game.game_id), i) for i in range(len(game.seats))]


def readable(stored: str, game_id: int, seat: int) -> Path | None:
    """A seat's stored log path (`Seat.log`) when it is that seat's own file of its game, the
    only file its log page reads; else None (a path stored before logs were per game, a
    process's log that held other games, another seat's file, anything elsewhere)."""
    if not stored:
        return None
    own = seat_log(game_id, seat).resolve()
    return own if Path(stored).resolve() == own else None


def seat_reason(record: dict[str, Any] | None, seat: int, termination: str) -> str:
    """Why a seat of a game ended as it did, in the words `match` and `bot check` use: its
    termination and its last fault's detail (a crash: the exception and the line of the bot's
    code), from the game's record; the termination alone when the record says no more."""
    detail = next(
        (
            str(f.get("detail") or "")
            for f in reversed(_faults(record))
            if isinstance(f, dict) and f.get("seat") == seat
        ),
        "",
    )
    if termination == "ok" or not detail:
        return termination
    return f"{termination}: {detail}"


def details_hidden(record: dict[str, Any], seats: set[int]) -> dict[str, Any]:
    """`record` as a viewer who may read the logs of `seats` only is shown it: the other seats'
    faults keep their kind and ply but not their detail. A crash's detail is the bot's own
    exception and line of code, a dead process's the last line it printed: its log, which
    only its team and the organisers read (`seat_log`)."""
    faults = _faults(record)
    if not faults:
        return record
    shown = [
        f if not isinstance(f, dict) or f.get("seat") in seats else {**f, "detail": ""}
        for f in faults
    ]
    return {**record, "referee": {**record["referee"], "faults": shown}}


def _faults(record: dict[str, Any] | None) -> list[Any]:
    """The faults a game's record lists (`referee.faults`), or none where it has no such list
    (a record from before they were kept, or a malformed one)."""
    referee = (record or {}).get("referee")
    faults = referee.get("faults") if isinstance(referee, dict) else None
    return faults if isinstance(faults, list) else []
