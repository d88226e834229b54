"""Adaptive and Swiss schedules in the store: the next round, from the results stored so far.

`Rounds.next_games()` is all a runner needs: the pending games of the current round if there
are any (a resumed run finishes the round it was in), else the next round, built from every
finished game folded in schedule order and written to the store before it is returned, else
nothing (the tournament is over). Nothing else goes in, so a run that was killed and resumed
schedules exactly what an uninterrupted one would have, and a pairing never depends on which
game of a round happened to finish first.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.pairing import Field, adaptive_round, swiss_round
from tournaments.schedule import ScheduledGame, ScheduleError, round_games
from tournaments.store import Store

SCHEDULES = ("round-robin", "adaptive", "swiss")


@dataclass(frozen=True)
class RoundPlan:
    """How an adaptive or Swiss tournament goes on: `games` in all (adaptive) or `rounds`
    rounds (Swiss), groups of `players`, each entry at least `min_games` games (adaptive)."""

    kind: str
    players: int
    seed: int
    games: int | None = None
    rounds: int | None = None
    min_games: int = 0

    def check(self, entries: int) -> None:
        """Refuse a plan that cannot be played, saying why (`ScheduleError`)."""
        if self.kind not in ("adaptive", "swiss"):
            raise ScheduleError(f"schedule {self.kind!r} is not adaptive or swiss")
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
                f"{self.min_games} each; give at least --games {need + (-need) % self.players}"
            )


class Rounds:
    """The round-by-round schedule of one store (see the module docstring)."""

    def __init__(self, store: Store, plan: RoundPlan) -> None:
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

    def groups(self, round_no: int, scheduled: int) -> list[tuple[str, ...]]:
        """The groups of round `round_no`, given `scheduled` games already in the schedule."""
        plan = self.plan
        if plan.kind == "swiss":
            if round_no >= (plan.rounds or 0):
                return []
            return swiss_round(self.active(), plan.players, self.field)
        budget = ((plan.games or 0) - scheduled) // plan.players
        if budget <= 0:
            return []
        return adaptive_round(self.active(), plan.players, self.field, plan.min_games)[:budget]

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
        if self.plan.kind == "adaptive":
            return self.plan.games or 0
        done_rounds = self.store.schedule_end()[2]
        per_round = (len(self.active()) // self.plan.players) * self.plan.players
        return self.store.counts()[1] + max(0, (self.plan.rounds or 0) - done_rounds) * per_round
