"""A bot's log as its pages show it: line by line, the exception that ended it marked, so an
author sees why at a glance (the log box opens at its end: base.html)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from tournaments.server.ladder import logs
from tournaments.server.ladder.models import Seat
from tournaments.server.submissions.validation import tail

# The line a Python traceback ends with: `ValueError: oops`, `KeyboardInterrupt`, a dotted name.
_EXCEPTION = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt|Warning)\b")
_STARTS = ("Traceback (most recent call last):", "choose_move raised")
LOG_LINES = 400  # a seat's log as its page and the API show it: its last lines
LOG_BYTES = 256 * 1024  # ... and at most this much of its end
# A terminal's colour and cursor codes: dropped, as a terminal would not print them.
_TERMINAL_CODES = re.compile(
    r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]"
)
# What a log line may not do to the page: control characters, and the bidirectional controls
# that would show a line's text in another order than the bot wrote it. Shown as escapes.
_HIDDEN = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def shown(line: str) -> str:
    """A log line as a page shows it: colour codes dropped, other control characters as
    escapes (`\\x07`, `\\u202e`), so that what the page shows is what the bot wrote."""
    line = _TERMINAL_CODES.sub("", line)
    return _HIDDEN.sub(lambda m: m.group(0).encode("unicode_escape").decode("ascii"), line)


def marked_lines(text: str) -> list[tuple[str, bool]]:
    """The lines of `text`, each with whether it belongs to the last traceback in it (from its
    first line to the exception's line)."""
    lines = [shown(line) for line in text.splitlines()]
    hot = [False] * len(lines)
    end = next((i for i in range(len(lines) - 1, -1, -1) if _EXCEPTION.match(lines[i])), None)
    if end is None:
        return list(zip(lines, hot, strict=True))
    start = end
    for i in range(end, max(-1, end - 80), -1):
        if any(marker in lines[i] for marker in _STARTS):
            start = i
            break
    for i in range(start, end + 1):
        hot[i] = True
    return list(zip(lines, hot, strict=True))


def why_empty(path: Path | None, deleted: datetime | None = None) -> str:
    """Why a seat's log shows no line, in words: the contest's retention deleted it (`deleted`:
    the game's `logs_deleted`), the bot wrote nothing, or there is no file to read (`path`: its
    own file, `ladder.logs.readable`; None when the game stored none of its own)."""
    if deleted is not None:
        return (
            f"no longer kept: the contest keeps its bots' logs for a time, and this game's were "
            f"deleted on {deleted:%Y-%m-%d}"
        )
    if path is None:
        return (
            "the server kept no log of this seat (its bot never started, or the game is older "
            "than logs kept per game)"
        )
    if not path.exists():
        return "its log file is no longer in the server's data folder"
    return "its bot wrote nothing in this game (nothing on its standard output or error)"


@dataclass(frozen=True)
class SeatLog:
    """A seat's log as its page and the API show it."""

    text: str  # its last LOG_LINES lines, "" when there are none
    reason: str  # why the seat's game ended for it, in words
    empty: str  # why `text` is empty, in words; "" when it is not


def read_seat_log(seat: Seat, record: dict[str, Any] | None, deleted: datetime | None) -> SeatLog:
    """`seat`'s log (`record`: its game's record; `deleted`: the game's `logs_deleted`)."""
    path = logs.readable(seat.log, seat.game_id, seat.seat)  # only its own file (ladder.logs)
    text = tail(path, LOG_LINES, LOG_BYTES) if path else ""
    reason = logs.seat_reason(record, seat.seat, seat.termination)
    return SeatLog(text, reason, "" if text else why_empty(path, deleted))
