"""A tournament run from a shell: the live view, SIGINT/SIGTERM and the event loop around the
domain's `run_tournament` (which has none of them).

`play_in_terminal` is what `tournament run` and `demo` call; `until_signal` is the signal part
alone, for a caller with a watcher of its own (a contest's final run by hand).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console

from referee import run_loop
from tournaments.domain.progress import OnProgress
from tournaments.domain.runner import PlayFn, RunSummary
from tournaments.domain.schedule import ScheduledGame
from tournaments.domain.store import Store
from tournaments.domain.tournament import TournamentConfig, run_tournament
from tournaments.terminal.live import LiveProgress

if TYPE_CHECKING:
    from tournaments.domain.cluster import ClusterOptions


def play_in_terminal(  # noqa: PLR0913  # run_tournament's options, and the terminal's
    store: Store,
    config: TournamentConfig,
    games: list[ScheduledGame],
    concurrency: int,
    console: Console,
    *,
    log_dir: Path | None = None,
    live: bool = True,
    player: PlayFn | None = None,
    cluster: ClusterOptions | None = None,
) -> RunSummary:
    """Play `games` with a live view on `console` (plain progress lines when it is no terminal,
    or when not `live`) until they are done or a signal stops them: then the summary says which
    signal (`RunSummary.interrupted`) and the games not played stay pending."""
    progress: OnProgress = LiveProgress(console, plain=None if live else True)
    run = run_tournament(
        store,
        config,
        games,
        concurrency=concurrency,
        player=player,
        on_progress=progress,
        log_dir=log_dir,
        cluster=cluster,
    )
    return run_loop(until_signal(run))


async def until_signal(run: Coroutine[Any, Any, RunSummary]) -> RunSummary:
    """Await `run`; SIGINT or SIGTERM cancels it, and the summary then names the signal.

    Cancelled, the games in flight are abandoned (they stay pending), the Arena closes (bots
    ended, temporary folders removed) and what was committed stays committed. A second signal
    while closing is ignored. Off the main thread the signals keep their default behaviour.
    """
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    caught: list[int] = []

    def on_signal(signum: int) -> None:
        if not caught:
            caught.append(signum)
            task.cancel()

    installed = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, on_signal, sig)
            installed.append(sig)
        except (NotImplementedError, RuntimeError, ValueError):
            pass  # not the main thread: the default behaviour stays
    try:
        return await run
    except asyncio.CancelledError:
        if not caught:
            raise
        task.uncancel()
        return RunSummary(interrupted=caught[0])
    finally:
        for sig in installed:
            with contextlib.suppress(Exception):
                loop.remove_signal_handler(sig)
