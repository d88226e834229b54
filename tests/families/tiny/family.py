"""The azul-tiny engine and its descriptor: 2 seats, one factory of 4 tiles, 3 colours, a wall
of 3 spaces (one per colour).

A move takes every tile of one colour from the factory (`FR`: the rest go to the centre) or
from the centre (`CR`). Tiles of a colour whose wall space is empty fill it and score one point
each; tiles of a colour already on the wall cost a point each. A round ends when the factory
and the centre are empty; the game ends after 3 rounds, or when a wall is full.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Self

from referee.engine import OVER, TAKE, Family, Game, IllegalMoveError, NotationError, Ruleset
from referee.engine.errors import RecordError
from referee.engine.game import ranks_from_keys
from referee.engine.record import RECORD_FORMAT, first_moves, play_rounds, read_common

COLOURS = "RGB"
TILES_PER_COLOUR = 6
FACTORY_SIZE = 4
NOTATION = {f"{src}{c}": f"{src}{c}" for src in "FC" for c in COLOURS}
RULESET = Ruleset("azul-tiny", "tiny", "Azul Tiny", "A toy family for tests.", 2, 2, 3)


class TinyGame(Game):
    """A game of azul-tiny; moves are their notation (strings)."""

    family = "tiny"

    def __init__(
        self,
        ruleset: str = "azul-tiny",
        players: int = 2,
        seed: int | None = None,
        first_player: int = 0,
        *,
        deals: list[str] | None = None,
        colours: str = COLOURS,
    ) -> None:
        RULESET.check_players(players)
        self.ruleset, self.players, self.phase = RULESET, players, TAKE
        self.round, self.turn, self.round_starter = 0, first_player, first_player
        self.factory, self.centre = "", ""
        self.walls = ["." * len(COLOURS) for _ in range(players)]
        self._scores = [0] * players
        self._round_scores: list[tuple[int, ...]] = []
        self.first_player = first_player
        bag = [c for c in colours for _ in range(TILES_PER_COLOUR)]
        random.Random(seed).shuffle(bag)
        self.bag = "".join(bag)
        self._deals = list(deals) if deals is not None else None
        self._history: list[tuple[str, list[str]]] = []
        self._start_round()

    def _start_round(self) -> None:
        if self._deals is not None:
            if self.round >= len(self._deals):
                raise RecordError(f"round {self.round + 1}'s factory is not recorded")
            self.factory = self._deals[self.round]
            for c in self.factory:
                self.bag = self.bag.replace(c, "", 1)
        else:
            self.factory, self.bag = self.bag[:FACTORY_SIZE], self.bag[FACTORY_SIZE:]
        self.round += 1
        self.turn = self.round_starter
        self._history.append((self.factory, []))

    # --- moves -----------------------------------------------------------------------------
    def legal_moves(self) -> tuple[str, ...]:
        if self.phase == OVER:
            return ()
        return tuple(
            f"{src}{c}"
            for src, tiles in (("F", self.factory), ("C", self.centre))
            for c in COLOURS
            if c in tiles
        )

    def parse_move(self, text: object) -> str:
        move = str(text).strip().upper()
        if move not in NOTATION:
            raise NotationError(f"{text!r} is not an azul-tiny move (F or C, then R G or B)")
        return move

    @classmethod
    def moves_by_notation(cls) -> Mapping[str, Any]:
        return NOTATION

    def push(self, move: Any) -> None:
        if move not in self.legal_moves():
            raise IllegalMoveError("take", "not legal now", move)
        src, colour = move[0], move[1]
        taken = (self.factory if src == "F" else self.centre).count(colour)
        if src == "F":
            self.centre += self.factory.replace(colour, "")
            self.factory = ""
        else:
            self.centre = self.centre.replace(colour, "")
        k, wall = COLOURS.index(colour), self.walls[self.turn]
        if wall[k] == ".":
            self.walls[self.turn] = wall[:k] + colour + wall[k + 1 :]
            self._scores[self.turn] += taken
        else:
            self._scores[self.turn] -= taken
        self._history[-1][1].append(move)
        self.turn = (self.turn + 1) % self.players
        if not self.factory and not self.centre:
            self._end_round()

    def _end_round(self) -> None:
        self._round_scores.append(tuple(self._scores))
        done = any("." not in w for w in self.walls) or len(self.bag) < FACTORY_SIZE
        if done or self.round >= RULESET.max_rounds:
            self.phase = OVER
            return
        self.round_starter = (self.round_starter + 1) % self.players
        self._start_round()

    # --- the game as a whole ---------------------------------------------------------------
    def copy(self, stack: bool = False) -> Self:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.walls, other._scores = list(self.walls), list(self._scores)
        other._round_scores = list(self._round_scores)
        other._history = [(f, list(m)) for f, m in self._history] if stack else []
        return other

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._scores)

    @property
    def round_scores(self) -> list[tuple[int, ...]]:
        return list(self._round_scores)

    def ranks(self) -> tuple[int, ...]:
        return ranks_from_keys([(s,) for s in self._scores])

    def to_state(self) -> dict[str, Any]:
        return {
            "ruleset": RULESET.name,
            "players": self.players,
            "round": self.round,
            "turn": self.turn,
            "phase": self.phase,
            "round_starter": self.round_starter,
            "factories": [self.factory],
            "centre": self.centre,
            "marker_in_centre": False,
            "bag": "".join(sorted(self.bag)),
            "boards": [
                {"score": s, "has_marker": False, "wall": w}
                for s, w in zip(self._scores, self.walls, strict=True)
            ],
        }

    @classmethod
    def from_state(cls, state: dict[str, Any], seed: int | None = None) -> Self:
        game = cls(players=state["players"], seed=seed)
        game.round, game.turn, game.phase = state["round"], state["turn"], state["phase"]
        game.round_starter = state["round_starter"]
        game.factory, game.centre = state["factories"][0], state["centre"]
        bag = list(state["bag"])
        random.Random(seed).shuffle(bag)
        game.bag = "".join(bag)
        game.walls = [b["wall"] for b in state["boards"]]
        game._scores = [b["score"] for b in state["boards"]]
        return game

    def record(self, players: list[str] | None = None) -> dict[str, Any]:
        names = players or [f"seat {i}" for i in range(self.players)]
        return {
            "format": RECORD_FORMAT,
            "ruleset": RULESET.name,
            "players": names,
            "first_player": self.first_player,
            "rounds": [{"factory": f, "moves": list(m)} for f, m in self._history],
            "round_scores": [list(s) for s in self._round_scores],
            "final_scores": list(self._scores) if self.phase == OVER else None,
        }

    @classmethod
    def from_record(cls, record: dict[str, Any], upto: int | None = None) -> Self:
        header = read_common(record, "tiny")
        deals = [str(rnd.get("factory", "")) for rnd in header.rounds]
        game = cls(players=header.players, first_player=header.first_player, deals=deals)
        play_rounds(game, first_moves([list(r["moves"]) for r in header.rounds], upto))
        return game


TINY = Family("tiny", TinyGame, (RULESET,), view="tests.families.tiny.view")
