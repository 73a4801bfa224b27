"""Bots at a room's table, and the bot that plays an away seat (O-IDLE): the policy
(app.engine.bots) chooses, the room adds a human-like delay (``waiting_bots`` says which seats
need a move scheduled), and the move goes through the same engine path as a person's. Pure: the
RNG is the room's, passed in."""

from __future__ import annotations

import random
from collections.abc import Set

from app.engine import Command
from app.engine.bots import choose_command

from .state import RoomState


def waiting_bots(state: RoomState, scheduled: Set[int], rng: random.Random) -> list[int]:
    """Bot seats that have something to do now and no move scheduled yet."""
    game = state.game
    if game is None or not state.playing:
        return []
    return [seat for seat, info in enumerate(state.meta.seats)
            if (info.bot or info.away) and seat not in scheduled and seat < game.state.players
            and choose_command(game, seat, rng) is not None]


def bot_move(state: RoomState, seat: int, rng: random.Random) -> Command | None:
    """The bot's move now (the table may have moved on since it was scheduled), or None."""
    game = state.game
    info = state.meta.seats[seat] if seat < len(state.meta.seats) else None
    if game is None or not state.playing or info is None or not (info.bot or info.away):
        return None
    return choose_command(game, seat, rng)
