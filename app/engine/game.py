"""The engine's public face: start a match, apply commands, see views, snapshot and restore.

game, events = Game.start(players=4, rules=preset("official"), seed=7)
events = game.apply(seat, Play(card, color), now_ms)     # or raises EngineError
game.view(seat, now_ms)  # None: a spectator
game.legal_wire(seat)    # O-LEGAL: what the seat may send now, as wire messages
game.legal_commands(seat); game.waiting_on(); game.deadline_ms
"""

from __future__ import annotations

from typing import Any, Final

from . import decisions, house, multiplay, reveal, turns, uno
from .blocked import check_blocked
from .cards import Card
from .clock import next_deadline
from .commands import (
    Accept,
    CallUno,
    Catch,
    Challenge,
    Chat,
    ChooseColor,
    Command,
    Draw,
    Give,
    Keep,
    NextRound,
    Pass,
    Play,
    Slap,
    Timeout,
)
from .drawing import draw, keep, pass_turn
from .errors import (
    DECISION_PENDING,
    NOT_ALLOWED_BY_RULES,
    WRONG_PHASE,
    EngineError,
    RuleError,
)
from .events import Event
from .legal import legal_commands, legal_wire, playable_cards
from .rules import RuleSet
from .setup import RiggedDeal, new_match, start_round
from .state import EXCHANGE, MATCH_OVER, PLAYING, ROUND_OVER, GameState, restore, snapshot
from .table import MATCHES
from .view import view, waiting_on


class Game:
    __slots__ = ("_waited", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        # The wait the timer was armed for; read only under timed rules (see apply).
        self._waited = self._waited_key() if state.rules.timed else _UNTIMED

    @classmethod
    def start(
        cls,
        players: int,
        rules: RuleSet,
        seed: int,
        deal: RiggedDeal | None = None,
        now_ms: int = 0,
    ) -> tuple[Game, list[Event]]:
        """A new match; InvalidRules (``not_allowed_by_rules``) when the rules do not fit the
        number of players (H-TEAMS)."""
        state, events = new_match(players, rules, seed, deal, now_ms)
        game = cls(state)
        game._arm_timer()
        if rules.reveal_below:
            reveal.announce(state, events)
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
        """When the room should send ``Timeout``; None: no timer runs. The earliest of the turn's
        deadline (O-TIMER, the view's ``deadline_ms``), the round's end (H-BLITZ, the view's
        ``clock_ends_ms``) and the end of an UNO catch grace (O-WINDOW)."""
        state = self.state
        if state.clock_ends_ms is None and not state.catch_open_ms:
            return state.deadline_ms
        return next_deadline(state)

    def waiting_on(self) -> list[int]:
        return waiting_on(self.state)

    def view(self, seat: int | None, now_ms: int | None = None) -> dict[str, Any]:
        """The table as ``seat`` sees it (None: a spectator). ``now_ms``, the room's clock now,
        only fills ``clock`` (H-BLITZ: milliseconds left on the round's clock); without it
        ``clock`` is None and ``clock_ends_ms`` (on the same clock as ``deadline_ms``) says
        when the round ends."""
        return view(self.state, seat, now_ms)

    def legal_wire(self, seat: int) -> list[dict[str, Any]]:
        """O-LEGAL: what ``seat`` may send now, as PROTOCOL.md messages without ``id``: a play
        names its card only (the client adds ``color``, ``target``, ``uno``); H-MULTI lists a
        play with every card that may follow it as ``more``; H-NOHINTS lists no plays."""
        return legal_wire(self.state, seat)

    def playable(self, seat: int) -> list[Card]:
        """The cards ``seat`` may play now on its turn (T-MATCH), one per kind."""
        state = self.state
        if state.pending is not None or state.turn != seat or not state.rules.plain_play:
            return playable_cards(state, seat)
        if state.phase != PLAYING or state.slap is not None:
            return []
        # legal.playable_cards' commonest case (a plain turn, plain rules), inline: a call less
        # before every turn. No comprehension, for the reason given there.
        mask = MATCHES[state.discard[-1] * 4 + state.color]
        kinds: list[Card] = []
        for card in state.hands[seat]:
            if mask[card] and card not in kinds:
                kinds.append(card)
        kinds.sort()
        return kinds

    def legal_commands(self, seat: int) -> list[Command]:
        return legal_commands(self.state, seat)

    def apply(self, seat: int, command: Command, now_ms: int | None = None) -> list[Event]:
        """Apply ``seat``'s command; a refused command raises EngineError and changes nothing."""
        state = self.state
        if now_ms is not None and now_ms != state.now_ms:
            previous = state.now_ms
            state.now_ms = now_ms
            try:
                return self.apply(seat, command)
            except EngineError:
                state.now_ms = previous  # a refused command leaves no trace, not even its time
                raise
        out: list[Event] = []
        turns_before = state.turns_started
        if type(command) is Play and state.slap is None and state.phase == PLAYING:
            if command.more:
                multiplay.play_several(state, seat, command, out)
            else:
                turns.play(state, seat, command, out)  # the hot path first
        elif type(command) is Draw and state.slap is None and state.phase == PLAYING:
            draw(state, seat, out)
        elif isinstance(command, Chat):
            house.chat(state, seat, command.text, out)
            if len(out) == 1:
                return out  # a plain chat line changes nothing in the game
        elif isinstance(command, NextRound):
            if state.phase != ROUND_OVER:
                raise RuleError(WRONG_PHASE, "the next round starts when a round is over")
            state.phase = PLAYING
            start_round(state, out)
        elif state.phase != PLAYING:
            over = "the match is over" if state.phase == MATCH_OVER else "the round is over"
            raise RuleError(WRONG_PHASE, over)
        elif state.slap is not None and not isinstance(command, _DURING_SLAP):
            raise RuleError(DECISION_PENDING, "U-CENTER: every other player slaps first")
        else:
            _dispatch(state, seat, command, out)
        if state.silence_since >= 0:
            house.after_command(state, out)
        if (not state.draw_pile or state.positions) and state.turns_started != turns_before:
            check_blocked(state, out)  # only a new turn can repeat a position
        state.version += 1
        if state.rules.watched:
            rules = state.rules
            if rules.reveal_below:
                reveal.announce(state, out)
            if rules.timed:
                key = self._waited_key()
                if key != self._waited:
                    self._waited = key
                    self._arm_timer()
            elif state.phase != PLAYING:
                state.deadline_ms = None
        elif state.phase != PLAYING:
            state.deadline_ms = None
        return out

    def _waited_key(self) -> tuple[str, tuple[int, ...], int]:
        """Changes whenever a new wait begins, also when the same seat plays again."""
        state = self.state
        if state.slap is not None:
            return state.phase, tuple(state.slap.seats), -1
        return state.phase, tuple(waiting_on(state)), state.turns_started

    def _arm_timer(self) -> None:
        """O-TIMER: a new wait began. Slaps and exchanges are always timed."""
        state = self.state
        rules = state.rules
        pending = state.pending
        seconds = rules.turn_seconds
        if state.slap is not None:
            seconds = rules.slap_seconds
        elif pending is not None and pending.kind == EXCHANGE:
            seconds = seconds or EXCHANGE_SECONDS
        if state.phase == PLAYING and seconds:
            state.deadline_ms = state.now_ms + seconds * 1000
        else:
            state.deadline_ms = None


_UNTIMED: Final[tuple[str, tuple[int, ...], int]] = ("", (), -1)
EXCHANGE_SECONDS: Final = 30  # H-FIVE: the exchange is timed even when turns are not
_DURING_SLAP = (Slap, Catch, CallUno, Timeout)


def _dispatch(state: GameState, seat: int, command: Command, out: list[Event]) -> None:
    """The less frequent commands (Play and Draw take the fast path in ``Game.apply``)."""
    if isinstance(command, Keep):
        keep(state, seat, out)
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
    elif isinstance(command, Give):
        if not state.rules.five_exchange:
            raise RuleError(NOT_ALLOWED_BY_RULES, "H-FIVE exchanges are not part of these rules")
        house.give(state, seat, command.card, out)
    elif isinstance(command, Slap):
        if not state.rules.uno_slap:
            raise RuleError(NOT_ALLOWED_BY_RULES, "U-CENTER slaps are not part of these rules")
        house.slap(state, seat, out)
    elif isinstance(command, Pass):
        pass_turn(state, seat, out)
