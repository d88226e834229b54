"""A bot's log as its pages show it: line by line, the exception that ended it marked, so an
author sees why at a glance (the log box opens at its end: base.html)."""

from __future__ import annotations

import re

# The line a Python traceback ends with: `ValueError: oops`, `KeyboardInterrupt`, a dotted name.
_EXCEPTION = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt|Warning)\b")
_STARTS = ("Traceback (most recent call last):", "choose_move raised")


def marked_lines(text: str) -> list[tuple[str, bool]]:
    """The lines of `text`, each with whether it belongs to the last traceback in it (from its
    first line to the exception's line)."""
    lines = text.splitlines()
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
