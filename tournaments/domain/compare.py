"""A compare: NEW against BASE in duplicate pairs until a sequential test decides (`bot compare`).

A pair is one deal played twice, NEW and BASE exchanging their seats; with 3 or 4 players the
other seats hold filler entries (the same in both games) and the two seats NEW and BASE take
turn about from pair to pair, so over the pairs they meet in every relative position. Both
games of a pair give each seat the same bot seed (tournaments/domain/arena.py: seeds keyed by the
deal), so two bots that choose alike play alike and only where they differ do the games part.

The test reads each game two ways and decides on one (`statistic`, tournaments/domain/sprt.py): the
rank, 1 when NEW ranks above BASE, 1/2 level, 0 below (`wdl`, the default: a pair's outcome is
its two games' mean, the pentanomial model), or the point margin, NEW's score minus BASE's
(`margin`: a pair's outcome is its two margins). Both are tallied and shown.

The compare lives in a tournament store like any tournament: its config (with a `compare`
key: the test's settings) and entries first, then the pairs in batches, each batch scheduled
once the one before it is played, until the test is decided or `max_games` are scheduled. The
test reads the pairs in their order and stops at the first that takes the log-likelihood ratio
out of its bounds; pairs played after it (a batch plays to its end) are stored but not
counted. So a compare run again with the same seed decides at the same pair whatever the
concurrency, and a killed one resumes where it was (`CompareRounds.next_games`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from tournaments.domain.schedule import ScheduledGame, deal_seed
from tournaments.domain.sprt import PAIR_VALUES, MarginSprt, Sprt, SprtSettings, pair_index
from tournaments.domain.store import SeatOutcome, Store
from tournaments.domain.tournament import ConfigMismatch, TournamentConfig, settle

# The seats NEW and BASE take in pair k: SEAT_PAIRS[players][k % len]; every pair of seats
# once per cycle, so neither keeps a neighbour's advantage over the other.
SEAT_PAIRS = {
    2: ((0, 1),),
    3: ((0, 1), (1, 2), (0, 2)),
    4: ((0, 1), (2, 3), (1, 2), (0, 3), (0, 2), (1, 3)),
}
VERDICTS = ("H1", "H0", "inconclusive")
STATISTICS = ("wdl", "margin")  # what the test decides on (the first: the default)


@dataclass(frozen=True)
class CompareSpec:
    """Who is compared and how: entry names, the test, the games at most, the fillers' spec."""

    new: str
    base: str
    settings: SprtSettings = field(default_factory=SprtSettings)
    max_games: int = 2000
    fill: str | None = None  # 3-4 players: the fillers' entry spec
    statistic: str = "wdl"  # wdl or margin (tournaments/domain/sprt.py)

    def to_json(self) -> dict[str, Any]:
        return {
            "new": self.new,
            "base": self.base,
            **asdict(self.settings),
            "max_games": self.max_games,
            "fill": self.fill,
            "statistic": self.statistic,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CompareSpec:
        settings = SprtSettings(
            float(data["elo0"]), float(data["elo1"]), float(data["alpha"]), float(data["beta"])
        )
        return cls(
            data["new"],
            data["base"],
            settings,
            int(data["max_games"]),
            data.get("fill"),
            data.get("statistic", "wdl"),  # a compare stored before margins decided on ranks
        )


def pair_games(
    spec: CompareSpec, fillers: Sequence[str], players: int, pair: int, first: int, seed: int
) -> list[ScheduledGame]:
    """The two games of pair number `pair`, indexed from `first` (see the module docstring)."""
    a, b = SEAT_PAIRS[players][pair % len(SEAT_PAIRS[players])]
    games = []
    for k, (x, y) in enumerate(((spec.new, spec.base), (spec.base, spec.new))):
        rest = iter(fillers)
        seats = tuple(x if s == a else y if s == b else next(rest) for s in range(players))
        games.append(
            ScheduledGame(
                index=first + k,
                game_id=f"c{pair}-{k}",
                seats=seats,
                seed=deal_seed(seed, pair),
                group=pair,
                deal=pair,
                rotation=k,
            )
        )
    return games


def new_score(seats: Sequence[SeatOutcome], new: str, base: str) -> float:
    """NEW's score in one game against BASE: 1 ranked above it, 1/2 level, 0 below."""
    ranks = {s.entry: s.rank for s in seats}
    if ranks[new] == ranks[base]:
        return 0.5
    return 1.0 if ranks[new] < ranks[base] else 0.0


def new_margin(seats: Sequence[SeatOutcome], new: str, base: str) -> float:
    """NEW's point margin in one game: its score minus BASE's."""
    scores = {s.entry: s.score for s in seats}
    return float(scores[new] - scores[base])


@dataclass
class CompareResult:
    """Where the test stands (or ended): what `--json` prints, keys stable."""

    verdict: str  # H1, H0 or inconclusive (so far)
    llr: float
    bounds: tuple[float, float]
    games: int  # the games the test counted (the pairs', up to its decision)
    pairs: int
    wins: int
    draws: int
    losses: int
    pair_outcomes: list[int]  # pentanomial: pairs scoring 0, 1/4, 1/2, 3/4, 1
    elo: float
    elo_ci: tuple[float, float]
    games_played: int  # every finished game, counted or not
    statistic: str = "wdl"  # what decided: wdl or margin
    margin: float = 0.0  # NEW's mean point margin a game
    margin_sd: float = 0.0  # the spread of one game's margin
    pair_correlation: float | None = None  # of a pair's two margins (-1: they cancel)
    wdl_elo: float = 0.0  # the Elo of NEW's wins, draws and losses (the pentanomial estimate)
    wdl_elo_ci: tuple[float, float] = (-1200.0, 1200.0)

    @property
    def decided(self) -> bool:
        return self.verdict != "inconclusive"

    def llr_against_bounds(self) -> str:
        """'LLR 2.97 >= 2.94' (H1), 'LLR -2.95 <= -2.94' (H0), else 'LLR 0.51 in (-2.94, 2.94)'."""
        lower, upper = self.bounds
        if self.verdict == "H1":
            return f"LLR {self.llr:.2f} >= {upper:.2f}"
        if self.verdict == "H0":
            return f"LLR {self.llr:.2f} <= {lower:.2f}"
        return f"LLR {self.llr:.2f} in ({lower:.2f}, {upper:.2f})"

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["llr"] = round(self.llr, 4)
        data["bounds"] = [round(x, 4) for x in self.bounds]
        data["elo"] = round(self.elo, 2)
        data["elo_ci"] = [round(x, 2) for x in self.elo_ci]
        data["wdl_elo"] = round(self.wdl_elo, 2)
        data["wdl_elo_ci"] = [round(x, 2) for x in self.wdl_elo_ci]
        data["margin"] = round(self.margin, 3)
        data["margin_sd"] = round(self.margin_sd, 3)
        if self.pair_correlation is not None:
            data["pair_correlation"] = round(self.pair_correlation, 3)
        return data


class CompareTally:
    """The games of a compare as they finish, in any order; the test reads them in pair order
    (incrementally: each pair is counted once)."""

    def __init__(self, spec: CompareSpec) -> None:
        self.spec = spec
        # pair -> {game in pair: NEW's score and margin}
        self.scores: dict[int, dict[int, tuple[float, float]]] = {}
        self.played = 0
        self.test = Sprt(spec.settings, PAIR_VALUES)  # on ranks (wdl)
        self.margins = MarginSprt(spec.settings, per=2)
        self.counted = 0  # pairs read by the test
        self.wdl = [0, 0, 0]
        self.verdict: str | None = None

    def add(self, game: ScheduledGame, seats: Sequence[SeatOutcome]) -> None:
        """Count one finished game (once: a game seen twice counts once)."""
        games = self.scores.setdefault(game.group, {})
        if game.rotation not in games:
            self.played += 1
        games[game.rotation] = (
            new_score(seats, self.spec.new, self.spec.base),
            new_margin(seats, self.spec.new, self.spec.base),
        )
        self._advance()

    def _advance(self) -> None:
        while self.verdict is None and len(self.scores.get(self.counted, {})) == 2:
            (first, m1), (second, m2) = self.scores[self.counted][0], self.scores[self.counted][1]
            for score in (first, second):
                self.wdl[0 if score == 1.0 else 1 if score == 0.5 else 2] += 1
            by_ranks = self.test.add(pair_index(first, second))
            by_margins = self.margins.add((m1, m2))
            self.verdict = by_margins if self.spec.statistic == "margin" else by_ranks
            self.counted += 1

    def result(self) -> CompareResult:
        wdl_elo, wdl_low, wdl_high = self.test.estimate()
        deciding: Sprt | MarginSprt = self.margins if self.spec.statistic == "margin" else self.test
        elo, low, high = deciding.estimate()
        return CompareResult(
            verdict=self.verdict or "inconclusive",
            llr=deciding.llr,
            bounds=self.spec.settings.bounds(),
            games=2 * self.counted,
            pairs=self.counted,
            wins=self.wdl[0],
            draws=self.wdl[1],
            losses=self.wdl[2],
            pair_outcomes=list(self.test.counts),
            elo=elo,
            elo_ci=(low, high),
            games_played=self.played,
            statistic=self.spec.statistic,
            margin=self.margins.mean_margin(),
            margin_sd=self.margins.spread() if self.counted else 0.0,
            pair_correlation=self.margins.correlation(),
            wdl_elo=wdl_elo,
            wdl_elo_ci=(wdl_low, wdl_high),
        )


class CompareRounds:
    """The compare's schedule in the store: a batch of `batch` pairs at a time, while the test
    is undecided and `max_games` allows (a `tournaments.domain.tournament.RoundSource`)."""

    def __init__(self, store: Store, config: TournamentConfig, spec: CompareSpec, batch: int):
        self.store = store
        self.config = config
        self.spec = spec
        self.batch = max(1, batch)
        self.tally = CompareTally(spec)
        self._folded = 0
        names = [e.name for e in store.entries()]
        self.fillers = [n for n in names if n not in (spec.new, spec.base)]

    def fold(self) -> CompareTally:
        """The tally with every game stored so far."""
        for g in self.store.games(done_only=True, since=self._folded):
            self.tally.add(g.game, g.seats)
            self._folded = g.game.index + 1
        return self.tally

    def next_games(self) -> list[ScheduledGame]:
        pending = self.store.pending_games()
        if pending:
            return pending
        if self.fold().verdict is not None:
            return []
        first, pair, _ = self.store.schedule_end()
        pairs = min(self.batch, self.spec.max_games // 2 - pair)
        if pairs <= 0:
            return []
        assert self.config.seed is not None
        games = [
            g
            for k in range(pair, pair + pairs)
            for g in pair_games(
                self.spec,
                self.fillers,
                self.config.players,
                k,
                first + 2 * (k - pair),
                self.config.seed,
            )
        ]
        self.store.add_games(games)
        return games

    def total_games(self) -> int:
        return max(self.spec.max_games // 2 * 2, self.store.counts()[1])


def stored_spec(store: Store) -> CompareSpec | None:
    """The compare a store holds, or None when it holds a tournament of another kind."""
    data = (store.config() or {}).get("compare")
    return None if data is None else CompareSpec.from_json(data)


def prepare_compare(
    store: Store, config: TournamentConfig, spec: CompareSpec, batch: int
) -> tuple[CompareRounds, list[ScheduledGame]]:
    """Store the compare (first run) or check the store holds this one (resume: its seed,
    isolation and clock are taken); the schedule and the games to play now. Raises
    `tournaments.domain.tournament.ConfigMismatch` when the store holds something else."""
    config.schedule = "compare"
    _check_stored(store, spec)
    if not settle(store, config, compare_json(config, spec)):
        store.write_schedule(compare_json(config, spec), config.entries, [])
    rounds = CompareRounds(store, config, spec, batch)
    return rounds, rounds.next_games()


def _check_stored(store: Store, spec: CompareSpec) -> None:
    """Refuse a store holding another compare, naming what differs; a stored compare asked
    again with another --max-games (to go on after an undecided end, or to stop sooner) takes
    the new budget: it decides nothing else."""
    stored = store.config()
    if stored is None or "compare" not in stored:
        return  # a new store, or a tournament: `settle` says what differs
    # A compare stored before the margin statistic decided on ranks: say so, as a value.
    stored["compare"].setdefault("statistic", "wdl")
    wanted = spec.to_json()
    diffs = [
        f"{_option(key)} (stored {_word(stored['compare'].get(key))}, asked {_word(value)})"
        for key, value in wanted.items()
        if key != "max_games" and stored["compare"].get(key) != value
    ]
    if diffs:
        raise ConfigMismatch(
            f"{store.path} holds another compare: {'; '.join(diffs)}. Run the same command "
            "to resume it, or give another --db."
        )
    if stored["compare"] != wanted:  # the new budget, or the statistic written out
        stored["compare"]["max_games"] = spec.max_games
        store.set_meta("config", json.dumps(stored, sort_keys=True))


def _option(key: str) -> str:
    return key.upper() if key in ("new", "base") else f"--{key.replace('_', '-')}"


def _word(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else repr(value)


def compare_json(config: TournamentConfig, spec: CompareSpec) -> dict[str, Any]:
    """The config a compare stores: the tournament's, its schedule `compare`, and the test."""
    data = config.to_json()
    for key in ("games", "rounds", "min_games", "gauntlet", "games_per_pairing"):
        data.pop(key, None)  # a compare's schedule follows from the test
    data["compare"] = spec.to_json()
    return data
