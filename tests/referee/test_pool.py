"""The bot pool's books (referee.pool): held, busy and idle per entry, and the rule that ends
the least recently used idle process past the cap."""

from __future__ import annotations

from referee import BotPool, Slot


def test_held_idle_and_busy_per_entry() -> None:
    pool: BotPool[Slot] = BotPool()
    a1, a2, b = Slot("a"), Slot("a"), Slot("b")
    for slot in (a1, a2, b):
        pool.add(slot)
    assert (pool.held("a"), pool.busy("a"), pool.idle("a")) == (2, 2, 0)
    pool.put_back(a1)
    assert (pool.held("a"), pool.busy("a"), pool.idle("a")) == (2, 1, 1)
    assert pool.take("a") is a1 and pool.take("a") is None
    with pool.starting("c"):
        assert pool.held("c") == 1 and pool.live() == 4
    pool.drop(b)
    assert pool.held("b") == 0 and pool.live() == 2


def test_past_the_cap_the_least_recently_used_idle_one_goes_and_never_a_busy_one() -> None:
    pool: BotPool[Slot] = BotPool(max_processes=2)
    a, b, c = Slot("a"), Slot("b"), Slot("c")
    for slot in (a, b, c):
        pool.add(slot)
    assert pool.evict() is None  # all busy: over the cap rather than stall a game
    pool.put_back(b)
    pool.put_back(a)  # b has been idle longer
    assert pool.evict() is b
    assert pool.evict() is None  # two live: they fit
    assert pool.evict(extra=1) is a  # the owner counts one more (the Arena's warm standby)
    assert pool.live() == 1 and pool.held("c") == 1
