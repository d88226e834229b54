"""Tournament schedules: which entries meet, in which seats, on which deal.

Fairness comes from *seat rotation over shared deals*: the games of one group are played in
blocks of `players` games that share one deal seed, each block rotating the seats so every entry
of the group sits in every seat once on the very same tiles. Seat advantage (the first player's
head start) and deal luck then cancel out within a block. With 3 or 4 players each deal also
takes the next of the group's orders around the table (`seat_orders`): who takes tiles just
before an entry shapes what it can take, and a fixed order would seat one entry always after the
same other (in Summer Pavilion with 4 players that moved a bot's mean rank by up to 0.9,
docs/notes/more-players.md, "Who sits after whom"). Every group uses the same sequence of deal
seeds, so the whole field faces the same deals (as in duplicate bridge).

A schedule is a pure function of its arguments, so a resumed run rebuilds exactly the schedule
stored in the database, game ids and seeds included.
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

# Past this the schedule is not something one database or one evening can hold.
MAX_GAMES = 2_000_000


class ScheduleError(ValueError):
    """A schedule that cannot be built (too few entries, too many games, bad options)."""


@dataclass(frozen=True)
class ScheduledGame:
    """One game of the schedule.

    `index` orders the schedule (ratings are computed in this order, whatever order the games
    finished in); `game_id` is stable across runs; `seats` are entry names in seat order; `seed`
    is the deal seed; `group`/`deal`/`rotation` say where the game sits in the rotation scheme.
    """

    index: int
    game_id: str
    seats: tuple[str, ...]
    seed: int
    group: int
    deal: int
    rotation: int


def deal_seed(tournament_seed: int, deal: int) -> int:
    """The engine seed of deal number `deal`: a hash, so nearby tournament seeds differ fully."""
    digest = hashlib.sha256(f"azul-arena/deal/{tournament_seed}/{deal}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFF_FFFF


def round_robin_groups(names: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every pair (2 players) or every group of `players` entries, in a stable order."""
    return list(itertools.combinations(names, players))


def gauntlet_groups(hero: str, names: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """`hero` against the field: every group of `players - 1` other entries, hero in seat 0."""
    field = [n for n in names if n != hero]
    return [(hero, *rest) for rest in itertools.combinations(field, players - 1)]


def grading_groups(
    entries: Sequence[str], graders: Sequence[str], players: int
) -> list[tuple[str, ...]]:
    """Each of `entries` against the graders: its own gauntlet of them (`gauntlet_groups`),
    the entry in seat 0 with every group of `players - 1` graders, and no other entry."""
    return [g for e in entries for g in gauntlet_groups(e, [e, *graders], players)]


def count_graded(n_entries: int, n_graders: int, players: int, games_per_group: int) -> int:
    """How many games `grading_groups` make, each group played `games_per_group` times:
    linear in the entries, as a gauntlet each."""
    return n_entries * count_games(n_graders + 1, players, games_per_group, True)


def count_games(n_entries: int, players: int, games_per_group: int, gauntlet: bool) -> int:
    """How many games a schedule will have, computed without building it."""
    if gauntlet:
        groups = math.comb(n_entries - 1, players - 1)
    else:
        groups = math.comb(n_entries, players)
    return groups * games_per_group


def seat_orders(group: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The group's orders around the table, rotations aside: its first entry's seat fixed, the
    others in every order ((players - 1)! of them: 1 with 2 players, 2 with 3, 6 with 4), the
    group's own order first."""
    first, rest = group[0], group[1:]
    return [(first, *others) for others in itertools.permutations(rest)]


def seating(orders: list[tuple[str, ...]], deal: int, rotation: int) -> tuple[str, ...]:
    """The seats of a group's game: deal `deal` takes the next of its `orders` (`seat_orders`),
    rotated by `rotation`. Over (players - 1)! deals of `players` games each, every entry sits
    in every seat and just after every other entry equally often."""
    order = orders[deal % len(orders)]
    return order[rotation:] + order[:rotation]


def build_schedule(
    names: Sequence[str],
    players: int,
    games_per_group: int,
    seed: int,
    gauntlet: str | None = None,
) -> list[ScheduledGame]:
    """Build the whole schedule.

    Game `g` of a group uses deal `g // players` and rotation `g % players`, so
    `games_per_group` should be a multiple of `players` for the seat advantage to cancel fully,
    and of 6 (3 players) or 24 (4) for every order around the table to come equally often
    (`seating`; group k starts at its k-th order, so that even one deal a group does not seat
    the field in the order of its names).
    Games are ordered round by round (game 0 of every group, then game 1, ...), so a tournament
    stopped half way has spread its games over the whole field, not finished half the groups.
    """
    if players not in (2, 3, 4):
        raise ScheduleError(f"players must be 2, 3 or 4, not {players}")
    if games_per_group < 1:
        raise ScheduleError("games per pairing must be at least 1")
    if len(set(names)) != len(names):
        raise ScheduleError("entry names must be unique")
    if gauntlet is not None:
        if gauntlet not in names:
            raise ScheduleError(f"gauntlet entry {gauntlet!r} is not among the entries")
        if len(names) < players:
            raise ScheduleError(f"a {players}-player gauntlet needs at least {players} entries")
    elif len(names) < players:
        raise ScheduleError(f"a {players}-player round-robin needs at least {players} entries")
    total = count_games(len(names), players, games_per_group, gauntlet is not None)
    if total > MAX_GAMES:
        raise ScheduleError(
            f"this schedule has {total:,} games (limit {MAX_GAMES:,}); use fewer entries, "
            "fewer games per pairing, 2 players, or a gauntlet"
        )
    groups = (
        gauntlet_groups(gauntlet, names, players)
        if gauntlet is not None
        else round_robin_groups(names, players)
    )
    return list(_games(groups, players, games_per_group, seed))


def _games(
    groups: list[tuple[str, ...]], players: int, games_per_group: int, seed: int
) -> Iterator[ScheduledGame]:
    index = 0
    for g in range(games_per_group):
        deal, rotation = divmod(g, players)
        dseed = deal_seed(seed, deal)
        for gi, group in enumerate(groups):
            # Orders made game by game, not kept per group: 100 MB less at 1.8 million games.
            yield ScheduledGame(
                index=index,
                game_id=f"p{gi}-g{g}",
                seats=seating(seat_orders(group), deal + gi, rotation),
                seed=dseed,
                group=gi,
                deal=deal,
                rotation=rotation,
            )
            index += 1


def round_games(
    groups: Sequence[tuple[str, ...]], round_no: int, first_index: int, first_group: int, seed: int
) -> list[ScheduledGame]:
    """One round of an adaptive or Swiss tournament: each group plays a full seat rotation,
    and every group of the round plays the round's deal (deal number = round number).

    Game ids are `r<round>-p<group in round>-g<rotation>`; indexes and group numbers go on
    from `first_index` and `first_group`, so the schedule grows in one order.
    """
    dseed = deal_seed(seed, round_no)
    games = []
    index = first_index
    for k, group in enumerate(groups):
        orders = seat_orders(group)
        for rotation in range(len(group)):
            games.append(
                ScheduledGame(
                    index=index,
                    game_id=f"r{round_no}-p{k}-g{rotation}",
                    seats=seating(orders, round_no + first_group + k, rotation),
                    seed=dseed,
                    group=first_group + k,
                    deal=round_no,
                    rotation=rotation,
                )
            )
            index += 1
    return games
