"""The sampled value of a position's moves where the rest of the round is too large to search
in full: playouts to the round's end, spent by sequential halving.

Each candidate move is played, then the round is played out by a quick policy for every seat
(the expert bot's playouts: the best immediate gain of a few random moves) and the seat to
move's margin at the round's end (`bots.expert.values.leaf_values`, bonuses projected) is
averaged. The budget is spent by sequential halving (Karnin, Koren and Somekh, 2013): equal
shares to every move, then to the better half, and so on, so that the moves in contention get
most of the playouts. The played move is never halved away: its value is measured as well as
the best one's. Playout j of every move uses the same random numbers (common random numbers),
so two moves are compared on the same futures and their difference is less noisy than either.
"""

from __future__ import annotations

import math
import random
from typing import Any

from bots.expert.values import leaf_values
from sdk.helpers import move_gains
from tournaments.analysis.exact import margins

SAMPLE = 3  # the playout policy's choice: the best immediate gain of this many random moves


def sampled_values(
    state: Any, moves: list[Any], kept: set[int], budget: int, seed: int
) -> tuple[list[float], int]:
    """The mean margin of the seat to move after each of `moves`, from about `budget` playouts
    in all, and the index of the best move (by the playouts' means among the moves that lasted
    to the last halving). `kept`: indexes of moves never dropped (the played one)."""
    totals = [0.0] * len(moves)
    counts = [0] * len(moves)
    alive = list(range(len(moves)))
    stages = max(1, math.ceil(math.log2(len(moves))))
    done = 0
    for stage in range(stages):
        share = max(1, (budget // stages) // len(alive))
        for j in range(share):
            future = seed * 1_000_003 + stage * 10_007 + j  # the same for every move (CRN)
            for i in alive:
                totals[i] += _playout(state, moves[i], future)
                counts[i] += 1
                done += 1
        if len(alive) <= 2 or stage == stages - 1:
            break
        alive.sort(key=lambda i: -totals[i] / counts[i])
        half = alive[: max(2, math.ceil(len(alive) / 2))]
        alive = half + [i for i in alive if i in kept and i not in half]
    means = [t / c if c else float("-inf") for t, c in zip(totals, counts, strict=True)]
    best = max(alive, key=lambda i: means[i])
    return means, best


def _playout(state: Any, move: Any, seed: int) -> float:
    """`move`, then the round played out by the quick policy: the mover's margin at its end."""
    rng = random.Random(seed)
    me, round_no = state.turn, state.round
    if state.family == "classic":  # no chance within a round: the position itself
        sim = state.copy()
    else:  # refills to come: a bag order of its own, rebuilt from the public state
        sim = state.from_state(state.to_state(), rng.getrandbits(63))
    sim.push(move)
    choice = rng.choice
    while sim.round == round_no and not sim.is_over():
        legal = sim.legal_moves()
        if len(legal) == 1:
            sim.push(legal[0])
            continue
        sampled = [choice(legal) for _ in range(SAMPLE)]
        gains = move_gains(sim, sampled)
        sim.push(sampled[gains.index(max(gains))])
    return margins(leaf_values(sim))[me]
