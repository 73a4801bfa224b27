"""Who is at a room now, as its actor counts them: the sockets of each person (by token hash),
the anonymous spectators, when the room was last empty, and how many watch as last announced;
and the bots' thinking. Nothing here is stored: every socket dies with the worker that held
it, and after a failover the people reconnect."""

from __future__ import annotations

import random
import time

from .people import Audience
from .state import RoomState


class Presence:
    def __init__(self) -> None:
        self._sockets: dict[str, int] = {}  # token hash -> open sockets
        self.viewers = 0  # every socket, anonymous ones included
        self.anonymous = 0
        self._numbered = 0  # numbers given to anonymous spectators so far
        self.empty_since = time.monotonic()
        self.announced = 0  # the spectator count everyone last heard
        self.counting = False  # a count is due to be announced

    def opened(self, token_hash: str | None) -> bool:
        """A socket opened; True if it is its person's first (None: anonymous)."""
        self.viewers += 1
        if token_hash is None:
            self.anonymous += 1
            return False
        count = self._sockets.get(token_hash, 0) + 1
        self._sockets[token_hash] = count
        return count == 1

    def number(self) -> int:
        """A number for a new anonymous spectator (the number its chat lines carry)."""
        self._numbered += 1
        return self._numbered

    def closed(self, token_hash: str | None, anonymous: bool) -> bool:
        """A socket closed; True if it was its person's last. ``anonymous``: it was counted
        as an anonymous spectator when it opened."""
        self.viewers -= 1
        if self.viewers == 0:
            self.empty_since = time.monotonic()
        if anonymous:
            self.anonymous -= 1
        if token_hash is None or token_hash not in self._sockets:
            return False  # the person was sent away meanwhile (``forget``)
        self._sockets[token_hash] -= 1
        if self._sockets[token_hash] > 0:
            return False
        del self._sockets[token_hash]
        return True

    def forget(self, token_hash: str) -> None:
        """The person was sent away: their sockets close and no longer count."""
        self._sockets.pop(token_hash, None)

    def present(self, token_hash: str) -> bool:
        return token_hash in self._sockets

    def connected(self) -> frozenset[str]:
        return frozenset(self._sockets)

    def spectators(self, audience: Audience) -> int:
        """Spectator sockets on every worker: anonymous ones and named spectators'."""
        return self.anonymous + sum(self._sockets.get(s.token_hash, 0)
                                    for s in audience.spectators)

    def idle_for(self) -> float:
        return time.monotonic() - self.empty_since if self.viewers == 0 else 0.0


class BotThinking:
    """The bots' moves scheduled and the room's bot randomness (made once a bot sits: a
    ``random.Random`` is 2.5 KB)."""

    def __init__(self, seed: int) -> None:
        self._seed = seed
        self._rng: random.Random | None = None
        self.scheduled: set[int] = set()

    @property
    def rng(self) -> random.Random:
        if self._rng is None:
            self._rng = random.Random(self._seed ^ 0x5EED)
        return self._rng

    @staticmethod
    def any_bot(state: RoomState) -> bool:
        """Does a bot play any seat (a bot's own, or an away one)?"""
        for info in state.meta.seats:  # noqa: SIM110 (no generator: asked after every move)
            if info.bot or info.away:
                return True
        return False
