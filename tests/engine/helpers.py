"""Building rigged games and reading them the way a player would."""

from __future__ import annotations

from collections import Counter
from typing import Any

from app.engine import Game, RiggedDeal, parse_card, preset
from app.engine.cards import build_deck
from app.engine.commands import Command, parse_command
from app.engine.events import Event


def rigged(
    hands: list[list[str]],
    discard: str,
    draw_pile: list[str] | None = None,
    *,
    dealer: int | None = None,
    seed: int = 1,
    **rules: Any,
) -> tuple[Game, list[Event]]:
    """A game dealt exactly so. By default the last seat deals, so seat 0 plays first."""
    rules.setdefault("turn_seconds", 0)
    ruleset = preset("official", rules)
    deal = RiggedDeal(
        dealer=len(hands) - 1 if dealer is None else dealer,
        hands=tuple(tuple(parse_card(c) for c in h) for h in hands),
        discard=parse_card(discard),
        draw_pile=tuple(parse_card(c) for c in draw_pile or []),
    )
    return Game.start(len(hands), ruleset, seed=seed, deal=deal)


def cmd(message: dict[str, Any] | str, **fields: Any) -> Command:
    """A command from its wire form: ``cmd("draw")`` or ``cmd("play", card="R7")``."""
    if isinstance(message, str):
        message = {"type": message, **fields}
    return parse_command(message)


def act(game: Game, seat: int, message: str, **fields: Any) -> list[Event]:
    return game.apply(seat, cmd(message, **fields))


def hand(game: Game, seat: int) -> list[str]:
    you = game.view(seat)["you"]
    assert you is not None
    return list(you["hand"])


def counts(game: Game) -> list[int]:
    return [s["cards"] for s in game.view(None)["seats"]]


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def seen_by(events: list[Event], seat: int | None, kind: str) -> list[dict[str, Any]]:
    return [e.for_viewer(seat) for e in events if e.kind == kind]


def assert_conserved(game: Game) -> None:
    """Card conservation: draw pile + discard pile + hands is exactly the deck."""
    state = game.state
    held = Counter(state.draw_pile) + Counter(state.discard)
    for h in state.hands:
        held += Counter(h)
    assert held == Counter(build_deck(state.rules.deck))
