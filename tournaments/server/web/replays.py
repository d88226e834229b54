"""A played game's replay viewer, made once and kept: replaying a record through the engine is
a good part of a game page's time, and a played game's record never changes. What a user is
shown depends on the seats whose details they may read and on the game's analysis, so those
are part of the key."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

KEPT = 32  # viewers kept in a process: a typical game's is 50-100 KB, the longest's 600 KB

T = TypeVar("T")
_kept: OrderedDict[Hashable, Any] = OrderedDict()
_lock = threading.Lock()


def kept(key: Hashable, make: Callable[[], T]) -> T:
    """What `make()` returns for `key`, made at its first use and kept among the latest `KEPT`
    used (an exception from `make` is raised and nothing is kept)."""
    with _lock:
        if key in _kept:
            _kept.move_to_end(key)
            return _kept[key]  # type: ignore[no-any-return]
    value = make()  # outside the lock: two first views of one game may both make it, once each
    with _lock:
        _kept[key] = value
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return value
