"""The compliance run of one entry (what `bot check` and the contest server's validation do):
handshake, answers within the time limit, only legal moves, 2-4 players, every ruleset it claims,
all through the real referee path (bot processes, the sandbox, gRPC) against random bots."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee import run_loop

# A freshly launched bot's first answer includes its warm-up (lazy imports): without an
# allowance one slow first move can cascade into strikes (a late reply then counts as malformed).
FIRST_MOVE_ALLOWANCE = 1.0


@dataclass
class Check:
    name: str
    passed: bool
    detail: str = ""


@dataclass
class CheckReport:
    entry: str
    rulesets: list[str]
    checks: list[Check] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return bool(self.checks) and all(c.passed for c in self.checks)

    def as_dict(self) -> dict[str, Any]:
        return {
            "entry": self.entry,
            "passed": self.passed,
            "rulesets": self.rulesets,
            "checks": [
                {"name": c.name, "passed": c.passed, "detail": c.detail} for c in self.checks
            ],
        }


def declared(rulesets: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """What a bot's Hello lists, as (the rulesets to check it on, the names no ruleset has): the
    listed rulesets it knows, or every classic one when it knows none."""
    from referee.engine import RULESETS, rulesets_played

    return rulesets_played(rulesets), [r for r in rulesets if r not in RULESETS]


async def _check_games(
    entry: str,
    rulesets: list[str] | None,
    games: int,
    time_per_move: float,
    grace: float,
    isolation: str | None = None,
    log_dir: Path | None = None,
) -> tuple[list[str], list[str], list[tuple[str, int, Any]]]:
    """Play the bot (seat rotating) against random bots: every ruleset x 2, 3, 4 players. With
    no `rulesets`, those the bot declares in its Hello. Returns the rulesets, the unknown names
    the bot declared, and each game's (ruleset, players, the bot's SeatResult)."""
    from referee import Arena, MatchConfig

    out = []
    unknown: list[str] = []
    async with Arena([entry, "random"], isolation=isolation, log_dir=log_dir) as arena:
        if rulesets is None:
            said = await arena.declared_rulesets(entry)
            # A bot that does not start fails the handshake check on its first game.
            rulesets, unknown = declared(said or ()) if said is not None else (["azul"], [])
        game_no = 0
        for ruleset in rulesets:
            for players in (2, 3, 4):
                for _ in range(games):
                    seat = game_no % players
                    seats = ["random"] * players
                    seats[seat] = entry
                    config = MatchConfig(
                        ruleset=ruleset,
                        seed=1000 + game_no,
                        time_per_move=time_per_move,
                        grace=grace,
                        first_move_allowance=FIRST_MOVE_ALLOWANCE,
                        fault_policy="forfeit",
                    )
                    result = await arena.play(seats, config)
                    out.append((ruleset, players, result.seats[seat]))
                    game_no += 1
    return rulesets, unknown, out


def run_check(
    entry: str,
    games: int = 1,
    time_per_move: float = 0.5,
    grace: float = 0.05,
    rulesets: list[str] | None = None,
    isolation: str | None = None,
    log_dir: Path | None = None,
) -> CheckReport:
    """Check `entry` through the real referee path; see `bot check`. The bots' logs go to
    `log_dir` (default: a temporary folder)."""
    from referee import check_entry

    report = CheckReport(entry, list(rulesets or []))
    try:
        check_entry(entry)
    except ValueError as exc:
        report.checks.append(Check("launch", False, str(exc)))
        return report
    began = time.monotonic()
    report.rulesets, unknown, seats = run_loop(
        _check_games(entry, rulesets, games, time_per_move, grace, isolation, log_dir)
    )
    first = seats[0][2]
    # No name: the bot never said Hello (the referee played its seat without it).
    handshake = first.termination not in ("no_hello", "version_mismatch", "bad_token") and not (
        first.termination in ("crash", "malformed") and (first.moves == 0 or not first.bot_name)
    )
    report.checks.append(
        Check(
            "launch and handshake",
            handshake,
            f"said Hello as {first.bot_name!r}"
            if handshake
            else f"{first.termination}: {first.detail or 'no detail'}"
            + ("" if first.log_path in first.detail else f"; see the log {first.log_path}"),
        )
    )
    if not handshake:
        return report
    if unknown:
        report.checks.append(
            Check(
                "declares known rulesets",
                False,
                f"its Hello lists {', '.join(unknown)}, which no ruleset is",
            )
        )

    def faults(kinds: tuple[str, ...], which: list[Any]) -> int:
        return sum(s.faults.get(k, 0) for _, _, s in which for k in kinds)

    timeouts = faults(("timeout",), seats)
    slowest = max(s.move_time_total / max(1, s.moves) for _, _, s in seats)
    report.checks.append(
        Check(
            f"answers within {time_per_move:g} s (+{grace:g} s grace)",
            timeouts == 0,
            f"{timeouts} timeouts in {len(seats)} games"
            if timeouts
            else f"slowest game average {slowest * 1e3:.1f} ms/move",
        )
    )
    illegal = faults(("illegal", "malformed"), seats)
    report.checks.append(
        Check(
            "only legal moves",
            illegal == 0,
            f"{illegal} illegal or malformed answers"
            if illegal
            else f"{sum(s.moves for _, _, s in seats)} moves, all legal",
        )
    )
    for players in (2, 3, 4):
        mine = [s for _, p, s in seats if p == players]
        bad = [s for s in mine if s.termination != "ok"]
        report.checks.append(
            Check(
                f"survives {players}-player games",
                not bad,
                ", ".join(sorted({s.termination for s in bad}))
                if bad
                else f"{len(mine)} completed",
            )
        )
    for ruleset in report.rulesets:
        mine = [s for r, _, s in seats if r == ruleset]
        bad = [s for s in mine if s.termination != "ok"]
        report.checks.append(
            Check(
                f"plays {ruleset}",
                not bad,
                ", ".join(sorted({s.termination for s in bad}))
                if bad
                else f"{len(mine)} games, mean score {sum(s.score for s in mine) / len(mine):.1f}",
            )
        )
    report.checks.append(Check("finished", True, f"{time.monotonic() - began:.1f} s"))
    return report
