"""The Summer Pavilion family: `pavilion` (coloured stars) and `pavilion-mono` (Variant #1).

A fast core (ints, bitmasks and the tables of `tables`) behind the readable API of `Game`; the
layout of the private fields is described in `tables`. Every decision is a move: take tiles,
place one tile (star, space, colour, how many wild tiles pay), pass naming the tiles kept, and
choose each bonus tile from the supply. Every chance outcome (the initial supply, each round's
deal, each supply refill) is kept in the history, so that a record replays exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Self, cast

from referee.engine import bag, rng
from referee.engine.bag import ONE, packed_total
from referee.engine.errors import EngineError, IllegalMoveError, RecordError
from referee.engine.game import (
    BLANK,
    OVER,
    TAKE,
    Blank,
    Game,
    fresh_seed,
    ranks_from_keys,
)
from referee.engine.pavilion.display import render_pavilion
from referee.engine.pavilion.moves import (
    BONUS_MOVE,
    CENTRE,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    MAX_KEPT,
    MOVES_BY_TEXT,
    N_COLOURS,
    PASS_MOVE,
    PLACE_MOVE,
    TAKE_MOVE,
    PavilionMove,
    letters,
    parse_move,
)
from referee.engine.pavilion.record import read_pavilion_header
from referee.engine.pavilion.rulesets import PavilionRuleset, pavilion_ruleset
from referee.engine.pavilion.state import pavilion_from_state
from referee.engine.pavilion.tables import (
    ALL_COLOURS,
    BONUS,
    BONUS_GROUPS,
    COLOUR_STAR_BONUS,
    MULTICOLOUR_STAR_BONUS,
    ONE3,
    PASS_KEYS,
    PLACE_KEYS,
    PLAY,
    POPCOUNT6,
    ROUNDS,
    RUN,
    STANDARD_WILD_ORDER,
    STAR_COLOURS,
    START_SCORE,
    STRUCTURES_AT,
    SUPPLY_SPACES,
    TAKE_GROUPS,
    TILES_PER_COLOUR,
    TILES_PER_FACTORY,
    build_pass_group,
    build_place_group,
    check_wild_order,
    colours_of_factory,
    colours_of_packed,
    number_masks,
    pass_key,
)
from referee.engine.record import RECORD_FORMAT, first_moves, play_rounds
from referee.engine.rulesets import FACTORIES_FOR_PLAYERS, Ruleset

# Move groups, per table of space numbers (one per side of the board), built as they are met.
_PLACE_TABLES: dict[tuple[tuple[int, ...], ...], list[tuple[PavilionMove, ...] | None]] = {}
_PASS_GROUPS: Final[list[tuple[PavilionMove, ...] | None]] = [None] * PASS_KEYS
# Per side of the board and per wild order, computed once (a bot rebuilds a game at every move).
_NUMBER_MASKS: dict[tuple[tuple[int, ...], ...], tuple[tuple[int, int], ...]] = {}
_WILDS: dict[str, tuple[int, ...]] = {}


def _place_table(numbers: tuple[tuple[int, ...], ...]) -> list[tuple[PavilionMove, ...] | None]:
    table = _PLACE_TABLES.get(numbers)
    if table is None:
        table = [None] * PLACE_KEYS
        _PLACE_TABLES[numbers] = table
    return table


class PavilionGame(Game):
    """A game of Summer Pavilion. Create one with `new_game("pavilion", ...)`."""

    family = "pavilion"

    __slots__ = (
        "_allowed",
        "_bag",
        "_centre",
        "_chance",
        "_depot",
        "_factories",
        "_filled",
        "_first_player",
        "_hands",
        "_history",
        "_initial_supply",
        "_kept",
        "_marker_holder",
        "_marker_in_centre",
        "_mono",
        "_number_masks",
        "_numbers",
        "_passed",
        "_place_groups",
        "_refill_next",
        "_rng",
        "_round_scores",
        "_scores",
        "_src_colours",
        "_star_cells",
        "_star_colours",
        "_supply",
        "_wilds",
        "bonus_owed",
        "phase",
        "players",
        "round",
        "round_starter",
        "ruleset",
        "turn",
        "wild",
        "wild_order",
    )

    ruleset: Ruleset
    players: int
    turn: int
    round: int
    phase: str
    round_starter: int
    wild_order: str
    wild: int
    bonus_owed: int
    _mono: bool
    _numbers: tuple[tuple[int, ...], ...]
    _number_masks: tuple[tuple[int, int], ...]
    _place_groups: list[tuple[PavilionMove, ...] | None]
    _wilds: tuple[int, ...]
    _factories: list[int]
    _centre: int
    _src_colours: list[int]
    _marker_in_centre: bool
    _marker_holder: int
    _supply: list[int]
    _bag: int
    _depot: int
    _scores: list[int]
    _hands: list[int]
    _kept: list[int]
    _passed: int
    _filled: list[int]
    _star_cells: list[int]
    _star_colours: list[int]
    _allowed: list[int]
    _rng: int
    _chance: tuple[str, list[list[int]], list[list[str]]] | None
    _refill_next: int
    _history: list[tuple[list[int], list[str], list[str]]] | None
    _initial_supply: str
    _round_scores: list[tuple[int, ...]]
    _first_player: int

    def __init__(
        self,
        ruleset: str | Ruleset | Blank = "pavilion",
        players: int = 2,
        seed: int | None = None,
        first_player: int = 0,
        *,
        wild_order: str = STANDARD_WILD_ORDER,
        chance: tuple[str, list[list[int]], list[list[str]]] | None = None,
    ) -> None:
        """A new game. `seed` makes the chance outcomes reproducible; `chance` gives them instead
        (the initial supply, each round's factories as factory codes, each round's supply
        refills in order, e.g. from a record: see `from_record`)."""
        if ruleset is BLANK:
            return  # copy() and from_state() fill in every field themselves
        rules = pavilion_ruleset(cast(str | Ruleset, ruleset))
        rules.check_players(players)
        if not 0 <= first_player < players:
            raise EngineError(f"first_player must be a seat from 0 to {players - 1}")
        self.ruleset = rules
        self.players = players
        self._set_rules(rules, check_wild_order(wild_order))
        self.round = 0
        self.phase = TAKE
        self.turn = first_player
        self.round_starter = first_player
        self._first_player = first_player
        self.wild = -1
        self.bonus_owed = 0
        self._factories = [0] * FACTORIES_FOR_PLAYERS[players]
        self._centre = 0
        self._src_colours = [0] * (CENTRE + 1)
        self._marker_in_centre = True
        self._marker_holder = -1
        self._supply = [-1] * SUPPLY_SPACES
        self._bag = sum(TILES_PER_COLOUR << (8 * c) for c in range(N_COLOURS))
        self._depot = 0
        self._scores = [START_SCORE] * players
        self._hands = [0] * players
        self._kept = [0] * players
        self._passed = 0
        self._filled = [0] * players
        self._star_cells = [0] * (7 * players)
        self._star_colours = [0] * (7 * players)
        self._allowed = [0] * (7 * players)
        for p in range(players):
            for star in range(7):
                self._allowed[7 * p + star] = self._star_allowed(p, star)
        self._rng = rng.seed_state(fresh_seed() if seed is None else seed)
        self._chance = chance
        self._refill_next = 0
        self._history = []
        self._round_scores = []
        # Setup: the supply first, then round 1's factories (the rulebook's order).
        if chance is not None:
            drawn = self._recorded_draw(chance[0], SUPPLY_SPACES, "the initial supply")
        else:
            drawn = self._random_draw(SUPPLY_SPACES)
        self._supply = drawn + [-1] * (SUPPLY_SPACES - len(drawn))
        self._initial_supply = "".join(COLOUR_LETTERS[c] for c in drawn)
        self._start_round()

    def _set_rules(self, rules: PavilionRuleset, wild_order: str) -> None:
        self._mono = rules.monochrome_stars
        self._numbers = rules.space_numbers
        masks = _NUMBER_MASKS.get(rules.space_numbers)
        if masks is None:
            masks = number_masks(rules.space_numbers)
            _NUMBER_MASKS[rules.space_numbers] = masks
        self._number_masks = masks
        self._place_groups = _place_table(rules.space_numbers)
        self.wild_order = wild_order
        wilds = _WILDS.get(wild_order)
        if wilds is None:
            wilds = tuple(COLOUR_LETTERS.index(ch) for ch in wild_order)
            _WILDS[wild_order] = wilds
        self._wilds = wilds

    # ------------------------------------------------------------------ public surface
    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._scores)

    @property
    def round_scores(self) -> list[tuple[int, ...]]:
        """Scores after each finished round's play phase, before the end-of-game scoring."""
        return list(self._round_scores)

    @property
    def first_player(self) -> int:
        return self._first_player

    @property
    def options(self) -> dict[str, str]:
        """The game's options other than the ruleset (stored in its record)."""
        return {"wild_order": self.wild_order}

    def hand(self, seat: int) -> str:
        """The tiles next to `seat`'s board, as letters in colour order."""
        return letters(self._hands[seat])

    def legal_moves(self) -> tuple[PavilionMove, ...]:
        phase = self.phase
        if phase is TAKE:
            wild = self.wild
            moves: tuple[PavilionMove, ...] = ()
            src = self._src_colours
            for s in range(len(self._factories)):
                m = src[s]
                if m:
                    moves += TAKE_GROUPS[(s * 6 + wild) * 64 + m]
            m = src[CENTRE]
            if m:
                moves += TAKE_GROUPS[(CENTRE * 6 + wild) * 64 + m]
            return moves
        if phase is PLAY:
            return self._placements() + self._passes()
        if phase is BONUS:
            return BONUS_GROUPS[self._supply_colours()]
        return ()

    def _placements(self) -> tuple[PavilionMove, ...]:
        p = self.turn
        hand = self._hands[p]
        if not hand:
            return ()
        wild = self.wild
        n_wild = (hand >> (8 * wild)) & 255
        wv = n_wild if n_wild < 5 else 5
        filled = self._filled[p]
        groups = self._place_groups
        allowed = self._allowed
        base = 7 * p
        moves: tuple[PavilionMove, ...] = ()
        for star in range(7):
            a = allowed[base + star]
            if not a:
                continue
            empty = ~(filled >> (6 * star)) & 63
            for c in range(N_COLOURS):
                if not a >> c & 1:
                    continue
                have = (hand >> (8 * c)) & 255
                if not have:
                    continue
                key = (((star * 6 + c) * 64 + empty) * 7 + (have if have < 6 else 6)) * 7 + (
                    6 if c == wild else wv
                )
                found = groups[key]
                if found is None:
                    found = build_place_group(self._numbers, key)
                    groups[key] = found
                if found:
                    moves += found
        return moves

    def _passes(self) -> tuple[PavilionMove, ...]:
        key = pass_key(self._hands[self.turn])
        found = _PASS_GROUPS[key]
        if found is None:
            found = build_pass_group(key)
            _PASS_GROUPS[key] = found
        return found

    def _supply_colours(self) -> int:
        mask = 0
        for c in self._supply:
            if c >= 0:
                mask |= 1 << c
        return mask

    def parse_move(self, text: object) -> PavilionMove:
        return parse_move(text)

    @classmethod
    def moves_by_notation(cls) -> Mapping[str, PavilionMove]:
        return MOVES_BY_TEXT

    def is_legal(self, move: Any) -> bool:
        return isinstance(move, PavilionMove) and self._why_illegal(move) is None

    def push(self, move: PavilionMove) -> None:
        """Apply `move`. Illegal moves raise IllegalMoveError and leave the game unchanged."""
        try:
            kind = move.kind
        except AttributeError:
            raise TypeError(
                f"push() takes a move from legal_moves() or parse_move(), not "
                f"{type(move).__name__}; push_notation(text) takes text"
            ) from None
        why = self._why_illegal(move)
        if why is not None:
            raise IllegalMoveError(why[0], why[1], move)
        if self._history is not None:
            self._history[-1][1].append(move._text)
        if kind == TAKE_MOVE:
            self._push_take(move)
        elif kind == PLACE_MOVE:
            self._push_place(move)
        elif kind == PASS_MOVE:
            self._push_pass(move)
        else:
            self._push_bonus(move)

    # ------------------------------------------------------------------ the four decisions
    def _push_take(self, move: PavilionMove) -> None:
        p = self.turn
        s = move.source
        c = move.colour
        wild = self.wild
        if s == CENTRE:
            centre = self._centre
            n = (centre >> (8 * c)) & 255 if c != wild else 1
            w = 1 if c != wild and (centre >> (8 * wild)) & 255 else 0
            taken = n * ONE[c] + w * ONE[wild]
            self._centre = centre - taken
            self._src_colours[CENTRE] = colours_of_packed(self._centre)
            if self._marker_in_centre:
                # The first to take from the centre takes the token and loses a point per tile.
                self._marker_in_centre = False
                self._marker_holder = p
                score = self._scores[p] - n - w
                self._scores[p] = score if score > 0 else 0
        else:
            code = self._factories[s]
            n = (code >> (3 * c)) & 7 if c != wild else 1
            w = 1 if c != wild and (code >> (3 * wild)) & 7 else 0
            rest = code - n * ONE3[c] - w * ONE3[wild]
            taken = n * ONE[c] + w * ONE[wild]
            self._factories[s] = 0
            self._src_colours[s] = 0
            if rest:
                centre = self._centre
                for k in range(N_COLOURS):
                    centre += ((rest >> (3 * k)) & 7) << (8 * k)
                self._centre = centre
                self._src_colours[CENTRE] = colours_of_packed(centre)
        self._hands[p] += taken
        if any(self._src_colours):
            self.turn = p + 1 if p + 1 < self.players else 0
        else:
            self._start_play()

    def _push_place(self, move: PavilionMove) -> None:
        p = self.turn
        star = move.star
        space = move.space
        c = move.colour
        w = move.wilds
        wild = self.wild
        cost = self._numbers[star][space]
        # Pay: the tiles of the colour and the wild tiles; one is placed, the rest go to the depot.
        paid = (cost - w) * ONE[c] + w * ONE[wild]
        self._hands[p] -= paid
        self._depot += paid - ONE[c]
        i = 7 * p + star
        filled = self._filled[p] | (1 << (6 * star + space))
        self._filled[p] = filled
        self._star_cells[i] |= (c + 1) << (3 * space)
        self._star_colours[i] |= 1 << c
        self._allowed[i] = self._star_allowed(p, star)
        self._scores[p] += RUN[((filled >> (6 * star)) & 63) * 6 + space]
        owed = 0
        for bits, tiles in STRUCTURES_AT[6 * star + space]:
            if filled & bits == bits:
                owed += tiles
        if owed and any(x >= 0 for x in self._supply):
            self.bonus_owed = owed
            self.phase = BONUS
        else:
            self._next_play_turn()

    def _push_bonus(self, move: PavilionMove) -> None:
        supply = self._supply[:]
        supply[supply.index(move.colour)] = -1  # the first space that holds the colour
        self._supply = supply
        self._hands[self.turn] += ONE[move.colour]
        self.bonus_owed -= 1
        if self.bonus_owed and any(x >= 0 for x in supply):
            return
        # Bonus tiles not in the supply are lost; the supply is refilled before the next turn.
        self.bonus_owed = 0
        self.phase = PLAY
        self._refill_supply()
        self._next_play_turn()

    def _push_pass(self, move: PavilionMove) -> None:
        p = self.turn
        hand = self._hands[p]
        discarded = hand - move.keep
        n = packed_total(discarded)
        self._depot += discarded
        self._kept[p] = move.keep
        self._hands[p] = 0
        score = self._scores[p] - n
        self._scores[p] = score if score > 0 else 0
        self._passed |= 1 << p
        if self._passed == (1 << self.players) - 1:
            self._end_round()
        else:
            self._next_play_turn()

    # ------------------------------------------------------------------ round structure
    def _star_allowed(self, p: int, star: int) -> int:
        """The colours that may still go on `star` of seat `p` (0 once it is full)."""
        i = 7 * p + star
        bits = (self._filled[p] >> (6 * star)) & 63
        if bits == 63:
            return 0
        colours = self._star_colours[i]
        if not self._mono:
            return 1 << STAR_COLOURS[star] if star else ALL_COLOURS & ~colours
        n = POPCOUNT6[bits]
        if n <= 1:
            return ALL_COLOURS  # empty, or one tile: single-coloured or multicoloured still open
        if POPCOUNT6[colours] == 1:
            return colours  # single-coloured
        return ALL_COLOURS & ~colours  # multicoloured

    def _next_play_turn(self) -> None:
        p = self.turn
        n = self.players
        for _ in range(n):
            p = p + 1 if p + 1 < n else 0
            if not self._passed >> p & 1:
                self.turn = p
                return
        raise AssertionError("no seat left to play")  # pragma: no cover - the caller checks

    def _start_play(self) -> None:
        self.phase = PLAY
        self.turn = self._marker_holder if self._marker_holder >= 0 else self.round_starter

    def _start_round(self) -> None:
        self.round += 1
        self.wild = self._wilds[self.round - 1]
        if self._marker_holder >= 0:
            self.round_starter = self._marker_holder
        self.turn = self.round_starter
        self._marker_holder = -1
        self._marker_in_centre = True
        self._passed = 0
        self.phase = TAKE
        for p in range(self.players):
            # The tiles kept on the corners join the others, ready for this round.
            self._hands[p] += self._kept[p]
            self._kept[p] = 0
        self._deal()
        if not any(self._src_colours):
            self._start_play()  # bag and depot were empty: nothing to take this round

    def _end_round(self) -> None:
        self._round_scores = [*self._round_scores, tuple(self._scores)]
        if self.round >= ROUNDS:
            self._end_game()
        else:
            self._start_round()

    def _end_game(self) -> None:
        scores = self._scores[:]
        for p in range(self.players):
            scores[p] = max(0, scores[p] + self.end_bonus(p) - packed_total(self._kept[p]))
            self._depot += self._kept[p]
            self._kept[p] = 0
        self._scores = scores
        self.phase = OVER
        self.turn = -1

    def end_bonus(self, seat: int) -> int:
        """The end-of-game bonus `seat`'s board earns now: full stars and covered numbers."""
        filled = self._filled[seat]
        bonus = 0
        for star in range(7):
            if (filled >> (6 * star)) & 63 != 63:
                continue
            colours = self._star_colours[7 * seat + star]
            if self._mono:
                single = POPCOUNT6[colours] == 1
                bonus += (
                    COLOUR_STAR_BONUS[colours.bit_length() - 1]
                    if single
                    else MULTICOLOUR_STAR_BONUS
                )
            else:
                bonus += COLOUR_STAR_BONUS[STAR_COLOURS[star]] if star else MULTICOLOUR_STAR_BONUS
        for bits, points in self._number_masks:
            if filled & bits == bits:
                bonus += points
        return bonus

    def ranks(self) -> tuple[int, ...]:
        """1 = best; equal scores share the rank (Summer Pavilion has no tie-break)."""
        return ranks_from_keys([(s,) for s in self._scores])

    # ------------------------------------------------------------------ chance
    def _random_draw(self, count: int) -> list[int]:
        """Draw up to `count` tiles from the bag, refilling it from the depot when it runs out;
        fewer when both are empty."""
        self._rng = rng.step(self._rng)
        drawn, self._bag, self._depot = bag.draw(
            self._bag, self._depot, rng.words(self._rng, count), count
        )
        return drawn

    def _recorded_draw(self, text: str, count: int, what: str) -> list[int]:
        """Take the recorded tiles `text` (up to `count`) out of the bag, pouring the depot in
        when the bag runs out, checking that the bag could have given them."""
        drawn = []
        for ch in text:
            c = COLOUR_LETTERS.find(ch)
            if c < 0:
                raise RecordError(f"{what}: {ch!r} is not a tile colour (use P G O Y B R)")
            drawn.append(c)
        self._bag, self._depot = bag.take(
            self._bag,
            self._depot,
            drawn,
            count,
            what=what,
            refill_name="depot",
            colour_names=COLOUR_NAMES,
            round=self.round or None,  # the initial supply is drawn before round 1
        )
        return drawn

    def _deal(self) -> None:
        """Fill the factories: from the recorded deal when replaying, else from the bag."""
        n_factories = len(self._factories)
        chance = self._chance
        if chance is not None:
            self._check_refills_used()
        if chance is not None and self.round <= len(chance[1]):
            codes = chance[1][self.round - 1]
            if len(codes) != n_factories:
                raise RecordError(
                    f"{len(codes)} factories recorded; {self.players} players use {n_factories}",
                    round=self.round,
                )
            text = ""
            for code in codes:
                text += "".join(
                    COLOUR_LETTERS[c] * ((code >> (3 * c)) & 7) for c in range(N_COLOURS)
                )
                if (
                    sum((code >> (3 * c)) & 7 for c in range(N_COLOURS)) < TILES_PER_FACTORY
                    and code != codes[-1]
                    and any(codes[codes.index(code) + 1 :])
                ):
                    raise RecordError(
                        "a factory holds fewer than 4 tiles although a later one was filled",
                        round=self.round,
                    )
            try:
                self._recorded_draw(text, n_factories * TILES_PER_FACTORY, "the deal")
            except RecordError as exc:
                raise RecordError(exc.reason, round=self.round) from None
            codes = list(codes)
        else:
            drawn = self._random_draw(n_factories * TILES_PER_FACTORY)
            codes = [0] * n_factories
            for k, c in enumerate(drawn):
                codes[k // TILES_PER_FACTORY] += ONE3[c]
        self._factories = codes
        self._centre = 0
        src = [0] * (CENTRE + 1)
        for f, code in enumerate(codes):
            src[f] = colours_of_factory(code)
        self._src_colours = src
        self._refill_next = 0
        if self._history is not None:
            self._history.append((codes[:], [], []))

    def _check_refills_used(self) -> None:
        """A replay at the start of a round (or its end): the previous round used every refill
        its record lists."""
        chance = self._chance
        k = self.round - 1  # the round that just ended
        if chance is None or not 1 <= k <= len(chance[2]):
            return
        listed = len(chance[2][k - 1])
        if self._refill_next < listed:
            raise RecordError(
                f"{listed} supply refills recorded but only {self._refill_next} were needed",
                round=k,
            )

    def _refill_supply(self) -> None:
        """Fill the supply's empty spaces from the bag, left to right (after a bonus turn)."""
        empty = [k for k, c in enumerate(self._supply) if c < 0]
        chance = self._chance
        if chance is not None:
            refills = chance[2][self.round - 1] if self.round <= len(chance[2]) else []
            if self._refill_next >= len(refills):
                raise RecordError(
                    f"the supply is refilled after this move, but the record lists "
                    f"only {len(refills)} refills for this round"
                )
            text = refills[self._refill_next]
            drawn = self._recorded_draw(text, len(empty), "the supply refill")
        else:
            drawn = self._random_draw(len(empty))
        self._refill_next += 1
        supply = self._supply[:]
        for k, c in zip(empty, drawn, strict=False):
            supply[k] = c
        self._supply = supply
        if self._history is not None:
            self._history[-1][2].append("".join(COLOUR_LETTERS[c] for c in drawn))

    # ------------------------------------------------------------------ errors
    def _why_illegal(self, move: PavilionMove) -> tuple[str, str] | None:
        """The rule `move` breaks now and why, or None: one check per kind of move, in the
        rulebook's order."""
        phase = self.phase
        kind = move.kind
        if phase is OVER:
            return "game-over", "the game is over"
        if kind == TAKE_MOVE:
            return self._why_take_illegal(move)
        if kind == BONUS_MOVE:
            return self._why_bonus_illegal(move)
        if phase is not PLAY:
            if phase is BONUS:
                return "bonus-owed", (
                    f"take {self.bonus_owed} more bonus tile(s) from the supply "
                    "first (e.g. 'bonus:P')"
                )
            return "not-placement", "it is the acquisition phase: take tiles (e.g. '3G')"
        if kind == PASS_MOVE:
            return self._why_pass_illegal(move)
        return self._why_place_illegal(move)

    def _why_take_illegal(self, move: PavilionMove) -> tuple[str, str] | None:
        phase = self.phase
        if phase is not TAKE:
            return "not-acquisition", f"it is the {phase} phase, not the acquisition phase"
        s = move.source
        c = move.colour
        if s != CENTRE and s >= len(self._factories):
            return "no-such-factory", (
                f"there are only {len(self._factories)} factories with {self.players} players"
            )
        held = self._src_colours[s]
        where = "the centre" if s == CENTRE else f"factory {s + 1}"
        if not held >> c & 1:
            return "source-lacks-colour", f"{where} holds no {COLOUR_NAMES[c]} tile"
        if c == self.wild and held != 1 << c:
            return "wild-taken-alone", (
                f"{COLOUR_NAMES[c]} is wild this round: take another "
                "colour (one wild tile comes with it)"
            )
        return None

    def _why_bonus_illegal(self, move: PavilionMove) -> tuple[str, str] | None:
        if self.phase is not BONUS:
            return "no-bonus-owed", "no bonus tile is owed: bonus tiles follow a placement"
        if move.colour not in self._supply:
            return "supply-lacks-colour", f"the supply holds no {COLOUR_NAMES[move.colour]} tile"
        return None

    def _why_pass_illegal(self, move: PavilionMove) -> tuple[str, str] | None:
        hand = self._hands[self.turn]
        keep = move.keep
        for c in range(N_COLOURS):
            if (keep >> (8 * c)) & 255 > (hand >> (8 * c)) & 255:
                return "keeps-not-held", f"the player holds fewer {COLOUR_NAMES[c]} tiles"
        if move.n_keep > MAX_KEPT:  # pragma: no cover - no such move exists
            return "too-many-kept", f"a player keeps at most {MAX_KEPT} tiles"
        return None

    def _why_place_illegal(self, move: PavilionMove) -> tuple[str, str] | None:
        p = self.turn
        star, space, c = move.star, move.space, move.colour
        if self._filled[p] >> (6 * star + space) & 1:
            return "space-taken", f"space {space + 1} of star {star} is already covered"
        if not self._allowed[7 * p + star] >> c & 1:
            return "colour-refused", self._refusal(p, star, c)
        return self._why_unpaid(move, self._numbers[star][space])

    def _why_unpaid(self, move: PavilionMove, cost: int) -> tuple[str, str] | None:
        """Whether the hand pays for a placement of `cost` tiles as the move says it does."""
        hand, wild = self._hands[self.turn], self.wild
        space, c, w = move.space, move.colour, move.wilds
        have = (hand >> (8 * c)) & 255
        if c == wild:
            if w:
                return "wild-pays-for-wild", (
                    f"{COLOUR_NAMES[c]} is wild: it pays for its own space alone (no '+N')"
                )
            if have < cost:
                return "too-few-tiles", (
                    f"space {space + 1} costs {cost} tiles; the player "
                    f"holds {have} {COLOUR_NAMES[c]}"
                )
            return None
        if w >= cost:
            return "no-colour-tile", (
                f"space {space + 1} costs {cost}: at least one "
                f"{COLOUR_NAMES[c]} tile pays, so at most {cost - 1} wild"
            )
        if have < cost - w:
            return "too-few-tiles", (
                f"space {space + 1} costs {cost} tiles: {cost - w} "
                f"{COLOUR_NAMES[c]} and {w} wild; the player holds {have} "
                f"{COLOUR_NAMES[c]}"
            )
        if (hand >> (8 * wild)) & 255 < w:
            return "too-few-wild", (
                f"the player holds {(hand >> (8 * wild)) & 255} wild "
                f"({COLOUR_NAMES[wild]}) tiles, not {w}"
            )
        return None

    def _refusal(self, p: int, star: int, c: int) -> str:
        colour = COLOUR_NAMES[c]
        if (self._filled[p] >> (6 * star)) & 63 == 63:
            return f"star {star} is full"
        if not self._mono:
            if star:
                return f"star {star} takes only {COLOUR_NAMES[STAR_COLOURS[star]]} tiles"
            return f"the centre star already holds a {colour} tile (six different colours)"
        if POPCOUNT6[self._star_colours[7 * p + star]] == 1:
            return f"star {star} is single-coloured: only its colour may go there"
        return f"star {star} is multicoloured and already holds a {colour} tile"

    # ------------------------------------------------------------------ the game as a whole
    def copy(self, stack: bool = False) -> Self:
        g = type(self)(BLANK)
        g.ruleset = self.ruleset
        g.players = self.players
        g.turn = self.turn
        g.round = self.round
        g.phase = self.phase
        g.round_starter = self.round_starter
        g.wild_order = self.wild_order
        g.wild = self.wild
        g.bonus_owed = self.bonus_owed
        g._mono = self._mono
        g._numbers = self._numbers
        g._number_masks = self._number_masks
        g._place_groups = self._place_groups
        g._wilds = self._wilds
        g._factories = self._factories[:]
        g._centre = self._centre
        g._src_colours = self._src_colours[:]
        g._marker_in_centre = self._marker_in_centre
        g._marker_holder = self._marker_holder
        g._supply = self._supply  # replaced, never changed in place
        g._bag = self._bag
        g._depot = self._depot
        g._scores = self._scores[:]
        g._hands = self._hands[:]
        g._kept = self._kept[:]
        g._passed = self._passed
        g._filled = self._filled[:]
        g._star_cells = self._star_cells[:]
        g._star_colours = self._star_colours[:]
        g._allowed = self._allowed[:]
        g._rng = self._rng
        g._chance = self._chance
        g._refill_next = self._refill_next
        g._initial_supply = self._initial_supply
        g._round_scores = self._round_scores
        g._first_player = self._first_player
        g._history = (
            [(f, m[:], r[:]) for f, m, r in self._history]
            if stack and self._history is not None
            else None
        )
        return g

    def record(self, players: list[str] | None = None) -> dict[str, Any]:
        """The game as a record (docs/engine.md). Needs the history: not on `copy(stack=False)`."""
        if self._history is None:
            raise EngineError("this copy was made without its history: use copy(stack=True)")
        out: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "ruleset": self.ruleset.name,
            "players": list(players) if players else self.players,
            "first_player": self._first_player,
            "options": self.options,
            "supply": self._initial_supply,
            "rounds": [
                {
                    "factories": [_factory_letters(code) for code in f],
                    "moves": list(m),
                    "refills": list(r),
                }
                for f, m, r in self._history
            ],
            "round_scores": [list(s) for s in self._round_scores],
        }
        if self.phase is OVER:
            out["final_scores"] = list(self._scores)
        return out

    @classmethod
    def from_record(cls, record: dict[str, Any], upto: int | None = None) -> Self:
        """Replay a pavilion record from its recorded chance outcomes, checking every move
        (RecordError says where it went wrong); with `upto`, its first `upto` moves only (the
        refills of the moves left out then stay unused)."""
        header = read_pavilion_header(record)
        try:
            game = cls(
                header.ruleset,
                header.players,
                seed=0,
                first_player=header.first_player,
                wild_order=header.wild_order,
                chance=(header.supply, header.deals, header.refills),
            )
        except RecordError as exc:
            raise RecordError(exc.reason, round=exc.round or 1) from None
        play_rounds(game, first_moves(header.moves, upto))
        if upto is not None:
            return game
        game.round += 1  # check the last round played as if the next one started
        try:
            game._check_refills_used()
        finally:
            game.round -= 1
        return game

    def to_state(self) -> dict[str, Any]:
        boards = []
        for p in range(self.players):
            boards.append(
                {
                    "score": self._scores[p],
                    "stars": [_star_letters(self._star_cells[7 * p + s]) for s in range(7)],
                    "tiles": letters(self._hands[p]),
                    "kept": letters(self._kept[p]),
                    "passed": bool(self._passed >> p & 1),
                    "has_marker": p == self._marker_holder,
                }
            )
        return {
            "ruleset": self.ruleset.name,
            "players": self.players,
            "round": self.round,
            "turn": self.turn,
            "phase": self.phase,
            "round_starter": self.round_starter,
            "wild_order": self.wild_order,
            "wild": COLOUR_LETTERS[self.wild],
            "factories": [_factory_letters(code) for code in self._factories],
            "centre": letters(self._centre),
            "marker_in_centre": self._marker_in_centre,
            "supply": "".join(COLOUR_LETTERS[c] if c >= 0 else "." for c in self._supply),
            "bag": letters(self._bag),
            "depot": letters(self._depot),
            "bonus_owed": self.bonus_owed,
            "boards": boards,
        }

    @classmethod
    def from_state(cls, state: dict[str, Any], seed: int | None = None) -> Self:
        return pavilion_from_state(cls, state, seed)

    def rebuild_derived(self) -> None:
        """Recompute what follows from the board (after from_state filled the fields)."""
        self._allowed = [self._star_allowed(p, s) for p in range(self.players) for s in range(7)]

    def __str__(self) -> str:
        return render_pavilion(self.to_state())

    def __repr__(self) -> str:
        return (
            f"<PavilionGame {self.ruleset.name} players={self.players} round={self.round} "
            f"phase={self.phase} turn={self.turn} scores={list(self._scores)}>"
        )


def _factory_letters(code: int) -> str:
    return "".join(COLOUR_LETTERS[c] * ((code >> (3 * c)) & 7) for c in range(N_COLOURS))


def _star_letters(cells: int) -> str:
    return "".join(
        COLOUR_LETTERS[((cells >> (3 * k)) & 7) - 1] if (cells >> (3 * k)) & 7 else "."
        for k in range(6)
    )
