"""Events: what happened, with a public part for everyone and private parts for single seats.

An event is JSON-safe as built (card strings, seat numbers), so the room can store and publish it
as is. A connection sees ``public`` merged with its own seat's ``private`` part and nothing else;
``for_viewer`` is the one place that merge happens.
"""

from __future__ import annotations

from typing import Any, Final

JSON = Any


class Event:
    """Treat as immutable, its dicts too, and never put the game's own lists in one: the engine
    shares some events (a plain turn's) between games, and a room keeps its recent events and
    encodes them again for a socket that resumes (tests/engine/test_simulation.py holds them
    unchanged). A plain class with slots rather than a dataclass: built several times per
    command, and its constructor is then native code in the compiled engine too."""

    __slots__ = ("kind", "private", "public")

    def __init__(
        self,
        kind: str,
        public: dict[str, JSON],
        private: dict[int, dict[str, JSON]] | None = None,
    ) -> None:
        self.kind = kind
        self.public = public
        self.private = private

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (self.kind, self.public, self.private) == (other.kind, other.public, other.private)

    __hash__ = None  # type: ignore[assignment]  # equal by value and mutable, as the dataclass was

    def __repr__(self) -> str:
        return f"Event(kind={self.kind!r}, public={self.public!r}, private={self.private!r})"

    def for_viewer(self, seat: int | None) -> dict[str, JSON]:
        """The event as ``seat`` may see it (``None``: a spectator)."""
        private = self.private
        extra = private.get(seat) if private is not None and seat is not None else None
        if extra:
            return {"kind": self.kind, **self.public, **extra}
        return {"kind": self.kind, **self.public}

    def to_dict(self) -> dict[str, JSON]:
        return {
            "kind": self.kind,
            "public": self.public,
            "private": {str(seat): part for seat, part in (self.private or {}).items()},
        }

    @staticmethod
    def from_dict(data: dict[str, JSON]) -> Event:
        private = {int(seat): part for seat, part in (data.get("private") or {}).items()}
        return Event(data["kind"], data["public"], private or None)


# Event kinds (the "kind" field on the wire).
ROUND_STARTED: Final = "round_started"  # private: each seat's dealt hand
FIRST_CARD: Final = "first_card"  # the first discard turned (and any Wild Draw Four returned)
PLAYED: Final = "played"
DREW: Final = "drew"  # public: seat, count, reason; private: the cards
KEPT: Final = "kept"
TURN: Final = "turn"  # whose turn it is now (after skips and reverses)
SKIPPED: Final = "skipped"
REVERSED: Final = "reversed"
COLOR_CHOSEN: Final = "color_chosen"
CHALLENGED: Final = "challenged"  # public: verdict; private to the challenger: the offender's hand
UNO_CALLED: Final = "uno_called"
CAUGHT: Final = "caught"
CATCH_OPEN: Final = "catch_open"  # O-WINDOW: the grace after a seat's second-to-last card ended
FALSE_CATCH: Final = "false_catch"
RESHUFFLED: Final = "reshuffled"
HANDS_SHUFFLED: Final = "hands_shuffled"  # private: each seat's new hand
HANDS_PASSED: Final = "hands_passed"  # private: each seat's new hand
HANDS_SWAPPED: Final = "hands_swapped"  # private: the two seats' new hands
DISCARDED: Final = "discarded"
CUSTOM_EFFECT: Final = "custom_effect"
CHAT: Final = "chat"
TIMED_OUT: Final = "timed_out"
ROUND_OVER: Final = "round_over"  # public: every hand, points, totals
MATCH_OVER: Final = "match_over"
JUMPED_IN: Final = "jumped_in"  # H-JUMPIN: the next "played" event was out of turn
MISPLAY: Final = "misplay"  # H-MISPLAY: an illegal play attempt cost cards
EXCHANGE_STARTED: Final = "exchange_started"  # H-FIVE
GAVE: Final = "gave"  # H-FIVE: one side chose its card (private to it)
EXCHANGED: Final = "exchanged"  # H-FIVE: private to each side: what it gave and received
SILENCE: Final = "silence"  # H-SILENT: chat closed (active) or open again
SLAP_STARTED: Final = "slap_started"  # U-CENTER
SLAPPED: Final = "slapped"
SLAP_OVER: Final = "slap_over"  # the losers draw 2
REFILLED: Final = "refilled"  # H-SEVEN-ROUNDS
WENT_OUT: Final = "went_out"  # H-LAST: the round goes on without this seat
BLOCKED: Final = "blocked"  # no progress is possible: the round ends, the lowest hand wins
# Section 8b.
PASSED: Final = "passed"  # H-HANDLIMIT: a player at the hand limit with nothing to play passed
BOMB: Final = "bomb"  # H-BOMB: three or more cards at once; every other player draws 1
REVEALED: Final = "revealed"  # H-REVEAL: a hand shown to everyone (hand: null when no longer)
CLOCK_OVER: Final = "clock_over"  # H-BLITZ: the round's clock ran out; winners: fewest cards
ELIMINATED: Final = "eliminated"  # H-ELIM: a seat left the match at the round's end
