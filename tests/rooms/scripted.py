"""Scripted players: the simplest legal policy, decided from the player's own state view."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .client import Client, Frame

TURN_ACTIONS = frozenset({"accept", "choose_color", "play", "keep", "draw"})


def decide(state: Frame, avoid: frozenset[str] = frozenset(), call_uno: bool = True
           ) -> dict[str, Any] | None:
    """The move for this viewer now, or None: the first of its legal moves (O-LEGAL: the
    server's list, no rule guessed here) that acts on its own turn, never a card in ``avoid``.
    Accepts a Wild Draw Four, colors wilds red, calls UNO with its second-to-last card."""
    if state["phase"] != "playing":
        return None
    me = state["you"]["seat"]
    pending = state["pending"]
    if (pending["seat"] if pending is not None else state["turn"]) != me:
        return None  # no jump-ins: only the turn's own moves
    legal = [move for move in state["you"]["legal"] if move["type"] in TURN_ACTIONS]
    types = {move["type"] for move in legal}
    if "accept" in types:
        return {"type": "accept"}
    if "choose_color" in types:
        return {"type": "choose_color", "color": "R"}
    for move in legal:
        if move["type"] == "play" and move["card"] not in avoid:
            return _play(move["card"], len(state["you"]["hand"]), call_uno)
    for kind in ("keep", "draw"):
        if kind in types:
            return {"type": kind}
    return None


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
