"""A contest's final tournament as rows of the server's database.

Its games are the ladder's `Game` rows (kind `final`) with their `Seat`s, so the pages, the
logs, the export and the log retention treat them as every other game; what a tournament keeps
beyond a ladder game (its run key and entries, each game's place in the schedule, its seats'
faults) is here. `finals.store` reads and writes them as the tournament domain's store, which
`run_tournament` plays and resumes, and `build_report` ranks.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from tournaments.server.contests.models import Contest
from tournaments.server.ladder.models import Game


class Final(models.Model):
    """A contest's final: its run key and its entries, written with its schedule before its
    first game (`tournaments.domain.tournament.prepare`)."""

    contest = models.OneToOneField(
        Contest, on_delete=models.CASCADE, related_name="final_tournament"
    )
    config = models.JSONField(help_text="the tournament's run key, as `tournament run` stores it")
    # [[name, spec], ...] in entry order, a late entry's [name, spec, {memory, env}].
    entries = models.JSONField(default=list)
    entry_changes = models.JSONField(default=list, blank=True)
    created = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"final of {self.contest}"


class FinalGame(models.Model):
    """A final's game: its place in the schedule (`tournaments.domain.schedule.ScheduledGame`)
    and what the tournament keeps of it that a ladder game does not."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="in_final"
    )
    final = models.ForeignKey(Final, on_delete=models.CASCADE, related_name="games")
    index = models.PositiveIntegerField(help_text="its place in the schedule")
    name = models.CharField(max_length=64, help_text="the schedule's name of it (its game_id)")
    entries = models.JSONField(help_text="the seats' entries, in seat order")
    group = models.PositiveIntegerField()
    deal = models.PositiveIntegerField()
    rotation = models.PositiveSmallIntegerField()
    cpus = models.PositiveIntegerField(null=True, blank=True, help_text="the host's CPUs")
    # Per seat, in seat order, once played: {"strikes": n, "faults": {kind: count}}.
    faults = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["final", "index"]
        constraints = [
            models.UniqueConstraint(fields=["final", "index"], name="one_game_per_place"),
            models.UniqueConstraint(fields=["final", "name"], name="one_game_per_name"),
        ]
        verbose_name = "final's game"

    def __str__(self) -> str:
        return f"{self.name} of the {self.final}"
