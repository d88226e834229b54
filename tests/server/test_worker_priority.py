"""The ladder worker below the web site (settings.LADDER_NICE, referee/priority.py): a real
worker's bots run at its niceness, in sessions of their own kept as low, and play their games
without a fault; the thread that started the worker keeps its own priority."""

from __future__ import annotations

import os
import threading
import time
from typing import Any

from django.test import TransactionTestCase

from referee import niceness, session_niceness
from referee.priority import process_tree
from tests.server.helpers import participant, passed_version, run_worker_until
from tournaments.server.contests.models import Contest
from tournaments.server.ladder.models import Game, Seat
from tournaments.server.worker.loop import LadderWorker

NICE = 7  # not the default (10), so that the setting is seen to be the one applied


def _nice_of(pid: int) -> int | None:
    """The nice value of process `pid` (proc(5): field 19), None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[16])
    except (OSError, ValueError, IndexError):
        return None


class Sightings:
    """Every process under this test's process seen while a worker runs: when first seen, and
    its nice value and its session's at the last look."""

    def __init__(self) -> None:
        self.before = set(process_tree(os.getpid()))
        self.first: dict[int, float] = {}
        self.last: dict[int, tuple[float, int, int | None]] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._look, daemon=True)

    def _look(self) -> None:
        while not self._stop.wait(0.02):
            now = time.monotonic()
            for pid in process_tree(os.getpid()):
                if pid in self.before:
                    continue
                nice = _nice_of(pid)
                if nice is None:
                    continue
                self.first.setdefault(pid, now)
                self.last[pid] = (now, nice, session_niceness(pid))

    def __enter__(self) -> Sightings:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)


class WorkerPriorityTests(TransactionTestCase):
    def setUp(self) -> None:
        contest = Contest.current()
        Contest.objects.filter(pk=contest.pk).update(ruleset="azul-mini", time_per_move=0.2)
        for name in ("ann", "ben"):
            _, who = participant(name)
            passed_version(who)

    def test_the_games_bots_run_at_the_ladders_niceness_in_sessions_as_low(self) -> None:
        worker = LadderWorker(concurrency=1, validate=False, poll=0.05, nice=NICE)
        began = time.monotonic()
        done = Game.objects.filter(status=Game.DONE)
        stats: list[Any] = []
        mine = niceness()

        def enough() -> bool:  # games played, by bots that lived past their sessions' follow-up
            return done.count() >= 2 and time.monotonic() - began > 3

        def work() -> None:  # a thread of its own: the worker lowers the thread it runs on
            stats.append(run_worker_until(worker, enough, 90))

        with Sightings() as seen:
            runner = threading.Thread(target=work)
            runner.start()
            runner.join(120)
        self.assertTrue(stats, "the worker did not end")
        self.assertEqual(stats[0].infrastructure_failures, 0, stats[0])
        self.assertGreaterEqual(done.count(), 2, stats[0])
        self.assertEqual(niceness(), mine, "the test's own thread keeps its priority")
        self.assertTrue(seen.last, "no process of the worker's was seen")
        niced = {pid: nice for pid, (_, nice, _) in seen.last.items()}
        self.assertEqual(set(niced.values()), {NICE}, niced)
        # A session opened as a bot started (its own, and the sandbox's inside it) is set to
        # the worker's niceness within its first second.
        settled = {
            pid: session
            for pid, (at, _, session) in seen.last.items()
            if session is not None and at - seen.first[pid] > 1.5
        }
        if session_niceness(os.getpid()) is not None:  # a kernel with autogroups
            self.assertTrue(settled, seen.last)
            self.assertEqual(set(settled.values()), {NICE}, settled)
        # The games are played without a fault at that priority.
        faults = Seat.objects.filter(game__in=done).exclude(termination="ok")
        self.assertFalse(faults.exists(), list(faults.values_list("termination", flat=True)))
