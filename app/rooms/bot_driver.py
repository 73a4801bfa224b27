"""Bots at a room's table: the policy (app.engine.bots) chooses, the room adds a human-like
delay, and the move goes through the same engine path as a person's."""

from __future__ import annotations

import logging
import random
from typing import TYPE_CHECKING

from app.engine import EngineError
from app.engine.bots import choose_command

from .items import Item
from .meta import LOBBY

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger("uno.bots")


class BotDriver:
    def __init__(self, room: Room, rng: random.Random) -> None:
        self.room = room
        self.rng = rng
        self.waiting: set[int] = set()  # bot seats with a move already scheduled

    def schedule(self) -> None:
        """Give every bot that has something to do a move after its thinking time."""
        room = self.room
        game = room.game
        if game is None or room.meta.phase == LOBBY or room.stopped:
            return
        low, high = room.settings.bot_delay_ms
        for seat, info in enumerate(room.meta.seats):
            if not info.bot or seat in self.waiting or seat >= game.state.players:
                continue
            if choose_command(game, seat, self.rng) is None:
                continue
            self.waiting.add(seat)
            room.later(self.rng.uniform(low, high) / 1000, Item("bot", seat=seat))

    async def act(self, seat: int | None) -> None:
        """Choose again now (the table may have moved on since scheduling) and play it."""
        assert seat is not None
        self.waiting.discard(seat)
        room = self.room
        game = room.game
        if game is None or room.meta.phase == LOBBY or not room.meta.seats[seat].bot:
            return
        command = choose_command(game, seat, self.rng)
        if command is None:
            return
        try:
            await room.engine_command(seat, command)
        except EngineError as exc:  # e.g. another seat caught the same player first
            log.debug("room %s bot %d: %s refused: %s", room.code, seat, command, exc.message)
            self.schedule()
