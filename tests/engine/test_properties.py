"""Hypothesis stateful tests: any sequence of commands from anyone keeps every invariant."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from app.engine import EngineError, Game
from app.engine.cards import COLORS
from app.engine.commands import (
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

from .invariants import check_all, random_rules


class TableMachine(RuleBasedStateMachine):
    """A table where any seat may send any command at any time; most are legal moves."""

    game: Game

    @initialize(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 10))
    def deal(self, seed: int, players: int) -> None:
        self.rng = random.Random(seed)
        self.now_ms = 0
        self.game, events = Game.start(players, random_rules(self.rng, players), seed=seed)
        check_all(self.game, events, self.rng)

    @rule(pick=st.integers(0, 10**6))
    def waited_seat_plays_a_legal_move(self, pick: int) -> None:
        if self.game.phase == "match_over":
            return
        seat = self.game.waiting_on()[0] if self.game.phase == "playing" else 0
        options = self.game.legal_commands(seat)
        self._send(seat, options[pick % len(options)], must_apply=True)

    @rule(
        seat=st.integers(0, 9),
        card=st.integers(0, 58),
        color=st.sampled_from([None, *COLORS]),
        aim=st.one_of(st.none(), st.integers(0, 9)),
        uno=st.booleans(),
    )
    def anyone_plays_anything(
        self, seat: int, card: int, color: int | None, aim: int | None, uno: bool
    ) -> None:
        self._send(seat % self.game.state.players, Play(card, color, aim, uno))

    @rule(
        seat=st.integers(0, 9),
        rank=st.integers(0, 9),
        colors=st.lists(st.sampled_from(COLORS), min_size=2, max_size=4),
        aim=st.one_of(st.none(), st.integers(0, 9)),
        uno=st.booleans(),
    )
    def anyone_plays_several_cards(
        self, seat: int, rank: int, colors: list[int], aim: int | None, uno: bool
    ) -> None:
        """H-MULTI: several number cards of one number (or, one time in ten, of two)."""
        cards = [color * 13 + rank for color in colors]
        if rank == 9:
            cards[-1] -= 1
        self._send(seat % self.game.state.players, Play(cards[0], None, aim, uno, tuple(cards[1:])))

    @rule(
        seat=st.integers(0, 9),
        kind=st.sampled_from(
            [
                Draw(),
                Keep(),
                Pass(),
                CallUno(),
                Challenge(),
                Accept(),
                NextRound(),
                Timeout(),
                Slap(),
            ]
        ),
    )
    def anyone_sends_a_simple_command(self, seat: int, kind: Command) -> None:
        self._send(seat % self.game.state.players, kind)

    @rule(seat=st.integers(0, 9), aim=st.integers(0, 9))
    def anyone_catches_anyone(self, seat: int, aim: int) -> None:
        players = self.game.state.players
        self._send(seat % players, Catch(aim % players))

    @rule(seat=st.integers(0, 9), color=st.sampled_from(COLORS))
    def anyone_chooses_a_color(self, seat: int, color: int) -> None:
        self._send(seat % self.game.state.players, ChooseColor(color))

    @rule(seat=st.integers(0, 9), card=st.integers(0, 58))
    def anyone_gives_any_card(self, seat: int, card: int) -> None:
        self._send(seat % self.game.state.players, Give(card))

    @rule(seat=st.integers(0, 9), text=st.sampled_from(["hi", "gg", "uno!"]))
    def anyone_chats(self, seat: int, text: str) -> None:
        self._send(seat % self.game.state.players, Chat(text))

    @rule(ms=st.integers(0, 60_000))
    def time_passes(self, ms: int) -> None:
        self.now_ms += ms

    def _send(self, seat: int, command: Command, must_apply: bool = False) -> None:
        before = self.game.snapshot()
        try:
            events = self.game.apply(seat, command, self.now_ms)
        except EngineError as error:
            assert not must_apply, f"legal {command} refused: {error.message}"
            assert self.game.snapshot() == before, f"refused {command} changed the game"
            return
        check_all(self.game, events, self.rng)

    @invariant()
    def a_snapshot_rebuilds_the_same_game(self) -> None:
        if hasattr(self, "game"):
            assert Game.restore(self.game.snapshot()).snapshot() == self.game.snapshot()


TableMachine.TestCase.settings = settings(
    max_examples=150,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_any_command_sequence_keeps_the_invariants = TableMachine.TestCase
