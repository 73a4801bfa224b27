"""The engine's public face: start a match, apply commands, see views, snapshot and restore.

game, events = Game.start(players=4, rules=preset("official"), seed=7)
events = game.apply(seat, Play(card, color), now_ms)     # or raises EngineError
game.view(seat)          # None: a spectator
game.legal_commands(seat); game.waiting_on(); game.deadline_ms
"""

from __future__ import annotations

from typing import Any

from . import decisions, turns, uno
from . import events as ev
from .cards import Card
from .commands import (
    Accept,
    CallUno,
    Catch,
    Challenge,
    Chat,
    ChooseColor,
    Command,
    Draw,
    Keep,
    NextRound,
    Play,
    Timeout,
)
from .errors import NOT_ALLOWED_BY_RULES, WRONG_PHASE, EngineError, RuleError
from .events import Event
from .rules import RuleSet
from .setup import RiggedDeal, new_match, start_round
from .state import MATCH_OVER, PLAYING, ROUND_OVER, GameState, restore, snapshot
from .view import legal_commands, playable_cards, view, waiting_on


class Game:
    __slots__ = ("_waited", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._waited = self._waited_key()

    @classmethod
    def start(
        cls,
        players: int,
        rules: RuleSet,
        seed: int,
        deal: RiggedDeal | None = None,
        now_ms: int = 0,
    ) -> tuple[Game, list[Event]]:
        state, events = new_match(players, rules, seed, deal)
        state.now_ms = now_ms
        game = cls(state)
        game._arm_timer()
        return game, events

    @classmethod
    def restore(cls, data: dict[str, Any]) -> Game:
        state = restore(data)
        game = cls(state)
        return game

    def snapshot(self) -> dict[str, Any]:
        return snapshot(self.state)

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def deadline_ms(self) -> int | None:
        """When the room should send ``Timeout`` (O-TIMER); None: no timer runs."""
        return self.state.deadline_ms

    def waiting_on(self) -> list[int]:
        return waiting_on(self.state)

    def view(self, seat: int | None) -> dict[str, Any]:
        return view(self.state, seat)

    def playable(self, seat: int) -> list[Card]:
        """The cards ``seat`` may play now on its turn (T-MATCH), one per kind."""
        return playable_cards(self.state, seat)

    def legal_commands(self, seat: int) -> list[Command]:
        return legal_commands(self.state, seat)

    def apply(self, seat: int, command: Command, now_ms: int | None = None) -> list[Event]:
        """Apply ``seat``'s command; a refused command raises EngineError and changes nothing."""
        state = self.state
        if now_ms is not None and now_ms != state.now_ms:
            previous = state.now_ms
            state.now_ms = now_ms
            try:
                return self._apply(seat, command)
            except EngineError:
                state.now_ms = previous  # a refused command leaves no trace, not even its time
                raise
        return self._apply(seat, command)

    def _apply(self, seat: int, command: Command) -> list[Event]:
        state = self.state
        out: list[Event] = []
        if isinstance(command, Chat):
            out.append(Event(ev.CHAT, {"seat": seat, "text": command.text}))
            return out
        if isinstance(command, NextRound):
            if state.phase != ROUND_OVER:
                raise RuleError(WRONG_PHASE, "the next round starts when a round is over")
            state.phase = PLAYING
            start_round(state, out)
        elif state.phase != PLAYING:
            over = "the match is over" if state.phase == MATCH_OVER else "the round is over"
            raise RuleError(WRONG_PHASE, over)
        elif isinstance(command, Play):
            turns.play(state, seat, command, out)
        elif isinstance(command, Draw):
            turns.draw(state, seat, out)
        else:
            _dispatch(state, seat, command, out)
        state.version += 1
        if state.rules.turn_seconds:
            key = self._waited_key()
            if key != self._waited:
                self._waited = key
                self._arm_timer()
        elif state.phase != PLAYING:
            state.deadline_ms = None
        return out

    def _waited_key(self) -> tuple[str, int, str]:
        state = self.state
        pending = state.pending
        if pending is not None:
            return state.phase, pending.seat, pending.kind
        return state.phase, state.turn, ""

    def _arm_timer(self) -> None:
        state = self.state
        seconds = state.rules.turn_seconds
        if state.phase == PLAYING and seconds:
            state.deadline_ms = state.now_ms + seconds * 1000
        else:
            state.deadline_ms = None


def _dispatch(state: GameState, seat: int, command: Command, out: list[Event]) -> None:
    """The less frequent commands (Play and Draw take the fast path in ``Game.apply``)."""
    if isinstance(command, Keep):
        turns.keep(state, seat, out)
    elif isinstance(command, CallUno):
        uno.call_uno(state, seat, out)
    elif isinstance(command, Catch):
        uno.catch(state, seat, command.target, out)
    elif isinstance(command, Challenge):
        decisions.challenge(state, seat, out)
    elif isinstance(command, Accept):
        decisions.accept(state, seat, out)
    elif isinstance(command, ChooseColor):
        decisions.choose_color(state, seat, command.color, out)
    elif isinstance(command, Timeout):
        decisions.timeout(state, out)
    else:  # Give, Slap: house rules these rules do not play
        name = type(command).__name__
        raise RuleError(NOT_ALLOWED_BY_RULES, f"{name} is not part of these rules")
