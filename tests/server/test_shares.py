"""The worker's slots shared by weight (worker/shares.py): every kind that waits gets its share
of slot time, however long its work lasts; one that had nothing to do saves up no credit; a
kind with no share has only what the others leave. No database, no bots: the scheduler alone,
driven by a simulated worker with a clock."""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.server.worker.shares import (
    ANALYSIS,
    CHALLENGE,
    DEFAULT_SHARES,
    KINDS,
    RANKED,
    TEST,
    SlotShares,
    shares_text,
)


def simulate(
    shares: dict[str, int],
    length: dict[str, float],
    seconds: float,
    slots: int = 2,
    waiting: Callable[[float], set[str]] = lambda now: set(KINDS),
) -> tuple[Counter[str], Counter[str]]:
    """A worker with `slots` slots over `seconds` of simulated time, each kind's work lasting
    `length[kind]`: how many of each kind started, and the slot-seconds each held."""
    scheduler = SlotShares(dict(shares))
    running: list[tuple[float, str, float, float]] = []  # (ends, kind, began, charged)
    started: Counter[str] = Counter()
    held: Counter[str] = Counter()
    now = 0.0
    while now < seconds:
        while len(running) < slots:
            order = scheduler.order(waiting(now))
            if not order:
                break
            kind = order[0]
            charged = scheduler.started(kind)
            heapq.heappush(running, (now + length[kind], kind, now, charged))
            started[kind] += 1
        if not running:
            now += 1.0
            continue
        ends, kind, began, charged = heapq.heappop(running)
        now = ends
        scheduler.finished(kind, ends - began, charged)
        held[kind] += ends - began
    return started, held


def fraction(held: Counter[str], kind: str) -> float:
    return held[kind] / sum(held.values())


def test_the_defaults_give_every_kind_at_least_one_slot_in_eight_while_all_wait() -> None:
    self_check = sum(DEFAULT_SHARES.values())
    assert self_check == 8
    _, held = simulate(DEFAULT_SHARES, dict.fromkeys(KINDS, 3.0), 20_000)
    for kind in (CHALLENGE, ANALYSIS, TEST):
        assert abs(fraction(held, kind) - 1 / 8) < 0.01, (kind, held)
    assert abs(fraction(held, RANKED) - 5 / 8) < 0.01, held


def test_shares_are_of_slot_time_not_of_starts() -> None:
    # An analysis lasts ten ranked games: it starts a tenth as often, and holds its share of time.
    length = {RANKED: 2.0, CHALLENGE: 2.0, ANALYSIS: 20.0, TEST: 2.0}
    started, held = simulate(DEFAULT_SHARES, length, 40_000)
    assert abs(fraction(held, ANALYSIS) - 1 / 8) < 0.01, held
    assert abs(fraction(held, RANKED) - 5 / 8) < 0.01, held
    assert started[ANALYSIS] * 8 < started[TEST], started


def test_the_ladder_takes_what_the_others_leave() -> None:
    _, held = simulate(DEFAULT_SHARES, dict.fromkeys(KINDS, 3.0), 5_000, waiting=lambda _: {RANKED})
    assert set(held) == {RANKED}
    _, held = simulate(
        DEFAULT_SHARES, dict.fromkeys(KINDS, 3.0), 20_000, waiting=lambda _: {RANKED, TEST}
    )
    assert abs(fraction(held, TEST) - 1 / 6) < 0.01, held


def test_a_kind_back_from_idle_is_served_at_once_but_saves_up_nothing() -> None:
    # Analyses wait only after an hour of ranked games: the first starts at the next free
    # slot, and from then on they get their share, not the hour they were idle.
    scheduler = SlotShares(dict(DEFAULT_SHARES))
    for _ in range(1000):
        charged = scheduler.started(scheduler.order({RANKED})[0])
        scheduler.finished(RANKED, 3.0, charged)
    picks = []
    for _ in range(40):
        kind = scheduler.order({RANKED, ANALYSIS})[0]
        picks.append(kind)
        scheduler.finished(kind, 3.0, scheduler.started(kind))
    assert picks[0] == ANALYSIS
    assert 5 <= picks.count(ANALYSIS) <= 8, picks  # 40 slots * 1/6, not a burst


def test_a_kind_with_no_share_has_only_the_slots_nobody_else_wants() -> None:
    shares = {RANKED: 5, CHALLENGE: 1, ANALYSIS: 1, TEST: 0}
    started, _ = simulate(shares, dict.fromkeys(KINDS, 3.0), 3_000)
    assert started[TEST] == 0
    started, _ = simulate(shares, dict.fromkeys(KINDS, 3.0), 3_000, waiting=lambda _: {TEST})
    assert started[TEST] > 0
    assert SlotShares(shares).order({TEST, RANKED}) == [RANKED, TEST]


def test_new_shares_apply_at_the_next_choice() -> None:
    scheduler = SlotShares(dict(DEFAULT_SHARES))
    scheduler.set_shares({RANKED: 1, TEST: 0, CHALLENGE: 0, ANALYSIS: 0})
    assert scheduler.order({TEST, RANKED}) == [RANKED, TEST]
    assert shares_text(DEFAULT_SHARES) == "ranked 5, challenge 1, analysis 1, test 1"


@settings(max_examples=60, deadline=None)
@given(
    st.fixed_dictionaries({kind: st.integers(0, 9) for kind in KINDS}).filter(
        lambda s: s[RANKED] > 0
    ),
    st.lists(st.sampled_from(KINDS), min_size=1, max_size=4, unique=True),
)
def test_no_kind_with_a_share_waits_longer_than_its_share_says(
    shares: dict[str, int], waiting_kinds: list[str]
) -> None:
    """Equal lengths, the same kinds always waiting: a kind with share w among total W is
    served at least once in every ceil(W / w) + k starts (k kinds waiting: stride
    scheduling's lag is bounded by the number of its clients)."""
    scheduler = SlotShares(dict(shares))
    waiting = set(waiting_kinds)
    total = sum(shares[k] for k in waiting)
    gaps: dict[str, int] = dict.fromkeys(waiting, 0)
    for _ in range(200):
        kind = scheduler.order(waiting)[0]
        scheduler.finished(kind, 1.0, scheduler.started(kind))
        for other in waiting:
            gaps[other] = 0 if other == kind else gaps[other] + 1
            if shares[other] > 0:
                bound = -(-total // shares[other]) + len(waiting)
                assert gaps[other] <= bound, (other, shares, waiting, gaps)
