"""Adaptive, Swiss and graded schedules in the store: the next round, from the results stored
so far.

`Rounds.next_games()` is all a runner needs: the pending games of the current round if there
are any (a resumed run finishes the round it was in), else the next round, built from every
finished game folded in schedule order and written to the store before it is returned, else
nothing (the tournament is over). Nothing else goes in, so a run that was killed and resumed
schedules exactly what an uninterrupted one would have, and a pairing never depends on which
game of a round happened to finish first.

A graded schedule grades every entry against a few fixed ones, its graders (a contest's staff
bots), then ranks the others among themselves: its first rounds are each entry's gauntlet of
the graders (`schedule.grading_groups`), every group a seat rotation on the round's deal, so
every entry meets them on the same deals; the rounds after are adaptive among the entries
other than the graders, within the games left. Its cost is linear in the entries.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from tournaments.domain.pairing import Field, adaptive_round, swiss_round
from tournaments.domain.schedule import (
    ScheduledGame,
    ScheduleError,
    count_graded,
    grading_groups,
    round_games,
)
from tournaments.domain.store import GameStore

SCHEDULES = ("round-robin", "adaptive", "swiss")
ROUND_KINDS = ("adaptive", "swiss", "graded")  # the schedules built round by round


def games_for(entries: int, min_games: int, players: int) -> int:
    """The games in all for `entries` to play `min_games` each, in whole seat rotations."""
    need = -(-entries * min_games // players)  # seats needed / seats per game
    return need + (-need) % players


def graded_games(
    entries: int, graders: int, players: int, games_per_pairing: int, ranking: int
) -> int:
    """The games in all of a graded tournament: `entries` besides its `graders`, each playing
    every group of graders `games_per_pairing` times, then `ranking` games each among
    themselves (none when they are too few for one game)."""
    among = games_for(entries, ranking, players) if entries >= players else 0
    return count_graded(entries, graders, players, games_per_pairing) + among


@dataclass(frozen=True)
class RoundPlan:
    """How an adaptive, Swiss or graded tournament goes on: `games` in all (adaptive, graded)
    or `rounds` rounds (Swiss), groups of `players`, each entry at least `min_games` games
    (adaptive, graded). Graded: every entry but the `graders` first plays each group of
    `players - 1` of them `games_per_pairing` times (whole seat rotations)."""

    kind: str
    players: int
    seed: int
    games: int | None = None
    rounds: int | None = None
    min_games: int = 0
    graders: tuple[str, ...] = ()
    games_per_pairing: int = 0

    @property
    def grading_rounds(self) -> int:
        """The rounds of the grading stage, one deal each (none but in a graded plan)."""
        return self.games_per_pairing // self.players if self.kind == "graded" else 0

    def check(self, entries: int, names: Collection[str] = ()) -> None:
        """Refuse a plan that cannot be played, saying why (`ScheduleError`); `names`, the
        entries' when known, must hold a graded plan's graders."""
        if self.kind not in ROUND_KINDS:
            raise ScheduleError(f"schedule {self.kind!r} is not adaptive, swiss or graded")
        if self.players not in (2, 3, 4):
            raise ScheduleError(f"players must be 2, 3 or 4, not {self.players}")
        if entries < self.players:
            raise ScheduleError(
                f"a {self.players}-player {self.kind} tournament needs at "
                f"least {self.players} entries"
            )
        if self.kind == "swiss":
            if not self.rounds or self.rounds < 1:
                raise ScheduleError("a Swiss tournament needs --rounds R (at least 1)")
            return
        if self.kind == "graded":
            self._check_graded(entries, names)
            return
        if not self.games or self.games < self.players:
            raise ScheduleError(f"an adaptive tournament needs --games N (at least {self.players})")
        if self.games % self.players:
            raise ScheduleError(
                f"--games {self.games} is not a multiple of --players "
                f"{self.players}: every group plays a full seat rotation"
            )
        need = -(-entries * self.min_games // self.players)  # seats needed / seats per game
        if need > self.games:
            raise ScheduleError(
                f"--games {self.games} is too few for {entries} entries to play --min-games "
                f"{self.min_games} each; give at least --games "
                f"{games_for(entries, self.min_games, self.players)}"
            )

    def _check_graded(self, entries: int, names: Collection[str]) -> None:
        players, graders = self.players, len(self.graders)
        if graders < players - 1 or len(set(self.graders)) != graders:
            raise ScheduleError(
                f"a {players}-player graded tournament needs at least {players - 1} distinct "
                f"graders (the entries the others are graded against), not {graders}"
            )
        missing = [g for g in self.graders if names and g not in names]
        if missing:
            raise ScheduleError(f"graders not among the entries: {', '.join(missing)}")
        if self.games_per_pairing < players or self.games_per_pairing % players:
            raise ScheduleError(
                f"a graded tournament plays each group against the graders whole seat "
                f"rotations: {self.games_per_pairing} games is not a multiple of {players}"
            )
        teams = entries - graders
        if teams < 1:
            raise ScheduleError("a graded tournament needs an entry besides its graders")
        grading = count_graded(teams, graders, players, self.games_per_pairing)
        games = self.games or 0
        if games < grading or (games - grading) % players:
            raise ScheduleError(
                f"a graded tournament of {teams} entries plays {grading} grading games: its "
                f"games in all are those and whole seat rotations after them, not {games}"
            )
        if games > grading and teams < players:
            raise ScheduleError(
                f"{teams} entries besides the graders cannot play {players}-player games among "
                f"themselves: {grading} games in all (the grading alone)"
            )


class Rounds:
    """The round-by-round schedule of one store (see the module docstring)."""

    def __init__(self, store: GameStore, plan: RoundPlan) -> None:
        self.store = store
        self.plan = plan
        self.field = Field(plan.seed)
        self._folded = 0  # games with a smaller index are in `field`

    def _fold(self) -> None:
        for g in self.store.games(done_only=True, since=self._folded):
            self.field.add(g.game.game_id, [s.entry for s in g.seats], [s.rank for s in g.seats])
            self._folded = g.game.index + 1

    def active(self) -> list[str]:
        """The entries paired from now on: all, less the removed ones."""
        removed = self.store.removed_entries()
        return [e.name for e in self.store.entries() if e.name not in removed]

    def ranked(self) -> list[str]:
        """The active entries ranked among themselves: all but a graded plan's graders."""
        return [n for n in self.active() if n not in self.plan.graders]

    def groups(self, round_no: int, scheduled: int) -> list[tuple[str, ...]]:
        """The groups of round `round_no`, given `scheduled` games already in the schedule."""
        plan = self.plan
        if plan.kind == "swiss":
            if round_no >= (plan.rounds or 0):
                return []
            return swiss_round(self.active(), plan.players, self.field)
        if round_no < plan.grading_rounds:  # no result changes them: only the deal does
            return grading_groups(self.ranked(), plan.graders, plan.players)
        budget = ((plan.games or 0) - scheduled) // plan.players
        if budget <= 0:
            return []
        return adaptive_round(self.ranked(), plan.players, self.field, plan.min_games)[:budget]

    def next_games(self) -> list[ScheduledGame]:
        """The games to play now: the current round's pending ones, or a new round (stored
        before it is returned), or [] when the tournament is over."""
        pending = self.store.pending_games()
        if pending:
            return pending
        self._fold()
        index, group, round_no = self.store.schedule_end()
        # The games in the schedule, not the next index: withdrawn games left gaps.
        groups = self.groups(round_no, self.store.counts()[1])
        if not groups:
            return []
        games = round_games(groups, round_no, index, group, self.plan.seed)
        self.store.add_games(games)
        return games

    def total_games(self) -> int:
        """How many games the whole tournament will have, as far as can be told now."""
        if self.plan.kind != "swiss":
            return self.plan.games or 0
        done_rounds = self.store.schedule_end()[2]
        per_round = (len(self.active()) // self.plan.players) * self.plan.players
        return self.store.counts()[1] + max(0, (self.plan.rounds or 0) - done_rounds) * per_round
