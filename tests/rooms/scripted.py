"""Scripted players: the simplest legal policy, decided from the player's own state view."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .client import Client, Frame


def playable(card: str, top: str, color: str | None) -> bool:
    if card.startswith("W"):
        return True
    if color is not None and card[0] == color:
        return True
    return not top.startswith("W") and card[1:] == top[1:]


def decide(state: Frame, avoid: frozenset[str] = frozenset(), call_uno: bool = True
           ) -> dict[str, Any] | None:
    """The move for this viewer now, or None. Never plays a card in ``avoid``."""
    me = state["you"]["seat"]
    hand: list[str] = state["you"]["hand"]
    pending = state["pending"]
    if state["phase"] != "playing":
        return None
    if pending is not None:
        if pending["seat"] != me:
            return None
        if pending["kind"] == "challenge":
            return {"type": "accept"}
        if pending["kind"] == "choose_color":
            return {"type": "choose_color", "color": "R"}
        if pending["kind"] == "play_drawn":
            card = pending["card"]
            if card in avoid:
                return {"type": "keep"}
            return _play(card, len(hand), call_uno)
        return None
    if state["turn"] != me:
        return None
    for card in hand:
        if card not in avoid and playable(card, state["top"], state["color"]):
            return _play(card, len(hand), call_uno)
    return {"type": "draw"}


def _play(card: str, hand_size: int, call_uno: bool) -> dict[str, Any]:
    move: dict[str, Any] = {"type": "play", "card": card}
    if card.startswith("W"):
        move["color"] = "R"
    if hand_size == 2 and call_uno:
        move["uno"] = True
    return move


async def play_until_round_over(
    players: list[Client], avoid: dict[int, frozenset[str]] | None = None, limit: int = 2000
) -> None:
    """Every scripted player acts when the table waits for them, until a round ends."""
    avoid = avoid or {}
    for _ in range(limit):
        moved = False
        seq = -1  # the oldest state a decision was made on: wait for anything newer
        for client in players:
            state = await client.state()
            seq = state["seq"] if seq < 0 else min(seq, state["seq"])
            if state["phase"] != "playing":
                return
            move = decide(state, avoid.get(client.seat or 0, frozenset()))
            if move is not None:
                answer = await client.cmd(move.pop("type"), **move)
                assert answer["type"] == "ack" or answer["code"] in (
                    "not_your_turn", "nothing_to_do", "decision_pending"), answer
                moved = True
        if not moved:  # waiting for bots (or a timer): give them a moment
            try:
                await players[0].wait_for(_event_after(seq), 5)
            except TimeoutError:
                state = await players[0].state()
                raise AssertionError(f"the table stalled: {state}") from None
    raise AssertionError("the round did not end")


def _event_after(seq: int) -> Callable[[Frame], bool]:
    return lambda f: f["type"] == "event" and f["seq"] > seq
