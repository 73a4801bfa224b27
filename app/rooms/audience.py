"""The audience: spectators chat among themselves (never with the players: no coaching from the
stands), anyone at the table or watching may send a reaction, and everyone sees how many watch.
Pure, apart from ``ReactionWindow``, the room's own count of recent reactions."""

from __future__ import annotations

from bisect import bisect_right

from app.engine import Event
from app.jsonwire import compact_json
from app.store.records import Reacted, Watching

from .commands import React
from .controls import SpectatorChat
from .meta import RoomMeta
from .people import Person
from .state import Context, Outcome, RoomState

REACTIONS_PER_SECOND = 10  # per room: a crowd's reactions past this are refused (rate_limited)
WATCHING_EVERY = 1.0  # seconds: the spectator count is announced at most this often


def spectator_chat(meta: RoomMeta, person: Person, text: str) -> SpectatorChat:
    """A spectator's line, as the other spectators' sockets get it (outside the room's seq:
    it is not part of the game, and players never see it): a named spectator's id and name,
    or an anonymous one's number."""
    named = None if person.spectator is None else meta.audience.spectator(person.spectator)
    if named is not None:
        return SpectatorChat(compact_json({"type": "spectator_chat", "spectator": named.id,
                                           "name": named.name, "text": text}))
    return SpectatorChat(compact_json({"type": "spectator_chat", "spectator": person.watcher,
                                       "name": None, "text": text}))


def react(state: RoomState, person: Person, command: React, ctx: Context) -> Outcome:
    """``emoji`` from a seat or a spectator (``seat`` null), floating over every table."""
    seat = person.seat
    return Outcome(Reacted(command.emoji),
                   [Event("reaction", {"seat": seat, "emoji": command.emoji})], seat=seat)


def watching(spectators: int) -> Outcome:
    return Outcome(Watching(spectators), [Event("spectators", {"spectators": spectators})])


class ReactionWindow:
    """The reactions of the last second, to keep a room's rate under REACTIONS_PER_SECOND."""

    def __init__(self) -> None:
        self._times: list[float] = []  # a deque's first block is 760 bytes, per room

    def allow(self, now: float) -> bool:
        times = self._times
        if times and times[0] <= now - 1.0:
            del times[:bisect_right(times, now - 1.0)]
        if len(times) >= REACTIONS_PER_SECOND:
            return False
        times.append(now)
        return True
