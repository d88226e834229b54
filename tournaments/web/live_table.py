"""A person at a table in a web page: the seat the referee asks, and what the page polls.

`LiveTable` follows one game (a copy of the referee's game, fed by the match's events) and holds
the person's pending question: the legal moves the engine listed. The page reads `snapshot()`
(JSON) and answers with `submit(text)`; only a move the engine listed is accepted, so nothing the
browser sends is trusted. `WebSeat` is the SDK bot of that seat: its `choose_move` publishes the
question and waits for the answer, as `HumanSeat` waits for the keyboard. The offline page
(`play --web`) and the contest server's play page both use these.
"""

from __future__ import annotations

import queue
import threading
from typing import Any

from referee import MatchEvent, MovePlayed, SeatFaulted
from referee.engine import RULESETS, new_game
from sdk import Bot
from tournaments.families import view_for
from tournaments.web.replay_page import frame

# The page shows this many of the latest moves (the whole game is in the record afterwards).
SHOWN_PLIES = 12
MOVE_TEXT_LIMIT = 16


def outcome(names: list[str], scores: list[int], ranks: list[int]) -> dict[str, Any]:
    """The end of a game as a page says it: who won (or who shared first place) and the
    scores, in words, with the scores and ranks for the page to tell the person how they did."""
    table = ", ".join(f"{n} {s}" for n, s in zip(names, scores, strict=True))
    first = [n for n, r in zip(names, ranks, strict=True) if r == 1]
    said = f"{first[0]} wins" if len(first) == 1 else f"{' and '.join(first)} share first place"
    return {"text": f"{said}: {table}.", "scores": list(scores), "ranks": list(ranks)}


class MoveRejected(ValueError):
    """The page's answer is not a move the engine listed (or it is not the person's turn)."""


class LiveTable:
    """One game as a page shows it while it is played; thread-safe (the referee's loop, the
    seat's thread and the page's requests all touch it)."""

    def __init__(
        self,
        ruleset: str,
        names: list[str],
        seat: int,
        seed: int,
        options: dict[str, str] | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.names = list(names)
        self.seat = seat
        self.view = view_for(ruleset)
        self.game = new_game(ruleset, len(names), seed=seed, first_player=0, **(options or {}))
        self.plies: list[dict[str, Any]] = []
        self.notes: list[str] = []
        self.result: dict[str, Any] | None = None
        self._lock = threading.Lock()
        self._legal: list[str] | None = None
        self._asked: dict[str, Any] | None = None
        self._answers: queue.Queue[str] = queue.Queue()
        # Set once a page has been sent the result (the local server's handler sets it after
        # writing the answer): the local server may stop after that.
        self.result_seen = threading.Event()

    # -------------------------------------------------------------- the referee's side
    def on_event(self, event: MatchEvent) -> None:
        """The match's events (the Arena's `on_event`): each move is played on the copy."""
        with self._lock:
            if isinstance(event, MovePlayed):
                before = self.game.to_state()
                words = self.view.describe(before, event.move)
                self.game.push(self.game.parse_move(event.move))
                self.plies.append(
                    {
                        "ply": event.ply,
                        "seat": event.seat,
                        "move": event.move,
                        "words": words,
                        "sub": bool(event.substituted),
                    }
                )
            elif isinstance(event, SeatFaulted):
                self.notes.append(f"{self.names[event.seat]}: {event.fault} {event.detail}".strip())

    def finish(self, result: dict[str, Any]) -> None:
        """The game is over (or could not be played): what the page says at the end."""
        with self._lock:
            self.result = result
            self._legal = None
        self._answers.put("")  # wake a seat still waiting (an abandoned game)

    # -------------------------------------------------------------- the seat's side
    def ask(self, state: dict[str, Any], legal: list[str], wait: float) -> str | None:
        """Publish the question (the position and its legal moves); the person's answer, or
        None if none came within `wait` seconds or the game ended."""
        with self._lock:
            while not self._answers.empty():  # an answer to an older question is stale
                self._answers.get_nowait()
            self._asked, self._legal = state, list(legal)
        try:
            answer = self._answers.get(timeout=max(0.0, min(wait, threading.TIMEOUT_MAX)))
        except queue.Empty:
            answer = None
        with self._lock:
            self._asked, self._legal = None, None
        return answer or None

    # -------------------------------------------------------------- the page's side
    def submit(self, text: Any) -> str:
        """The person's move, as the page sent it: accepted only if it is one the engine listed
        for the pending question (MoveRejected says why not)."""
        if not isinstance(text, str) or not text.strip() or len(text) > MOVE_TEXT_LIMIT:
            raise MoveRejected("send a move in notation, such as 1B3 (a short text)")
        move = text.strip().upper()
        with self._lock:
            if self.result is not None:
                raise MoveRejected("the game is over")
            if self._legal is None:
                raise MoveRejected("it is not your turn: wait for the bot's move")
            legal = {m.upper(): m for m in self._legal}
            if move not in legal:
                raise MoveRejected(f"{move} is not a legal move here; pick one of the listed moves")
            self._legal = None  # one answer per question
            self._answers.put(legal[move])
            return legal[move]

    def snapshot(self) -> dict[str, Any]:
        """What the page draws now: the position, whose turn, the person's legal moves in
        notation and in words, the latest moves, and the result once the game is over."""
        with self._lock:
            state = self._asked if self._asked is not None else self.game.to_state()
            legal = self._legal or []
            return {
                "family": self.view.family,
                "ruleset": self.ruleset,
                "layout": self.view.layout(self.ruleset),
                "names": self.names,
                "seat": self.seat,
                "ply": len(self.plies),
                "frame": frame(state),
                "your_turn": bool(legal),
                "legal": [{"move": m, "words": self.view.describe(state, m)} for m in legal],
                "plies": self.plies[-SHOWN_PLIES:],
                "notes": self.notes[-SHOWN_PLIES:],
                "result": self.result,
            }


PERSON_RESERVE = 0.5  # seconds a person's seat keeps back for its answer's way to the referee


class WebSeat(Bot):
    """The person's seat: the referee asks it like any bot; it asks the page through a
    `LiveTable` and answers with the person's move (the first legal move if none comes in the
    seat's time, so the seat stays in step with the referee)."""

    name = "human"
    version = "1"
    rulesets = tuple(RULESETS)

    def __init__(self, table: LiveTable) -> None:
        super().__init__()
        self.table = table

    def choose_move(self, state: Any) -> Any:
        game = getattr(state, "game", state)
        legal = list(game.legal_moves())
        by_text = {str(m): m for m in legal}
        # Until shortly before the deadline, so that the move played for the person when none
        # comes arrives in time: a late one is a strike and the bot author's warning. A bot's
        # 30 ms reserve is too little on a loaded machine (a quarter second late was seen), and
        # a person loses nothing by a few tenths: PERSON_RESERVE, at most 40% of a short move.
        reserve = min(PERSON_RESERVE, 0.4 * self.clock.move_time)
        answer = self.table.ask(
            game.to_state(), list(by_text), self.clock.budget(fraction=1.0, reserve=reserve)
        )
        return by_text.get(answer or "", legal[0])
