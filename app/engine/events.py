"""Events: what happened, with a public part for everyone and private parts for single seats.

An event is JSON-safe as built (card strings, seat numbers), so the room can store and publish it
as is. A connection sees ``public`` merged with its own seat's ``private`` part and nothing else;
``for_viewer`` is the one place that merge happens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

JSON = Any


@dataclass(slots=True)
class Event:
    """Treat as immutable (not frozen only because frozen construction costs twice as much)."""

    kind: str
    public: dict[str, JSON]
    private: dict[int, dict[str, JSON]] | None = None

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
ROUND_STARTED = "round_started"  # private: each seat's dealt hand
FIRST_CARD = "first_card"  # the first discard turned (and any Wild Draw Four returned)
PLAYED = "played"
DREW = "drew"  # public: seat, count, reason; private: the cards
KEPT = "kept"
TURN = "turn"  # whose turn it is now (after skips and reverses)
SKIPPED = "skipped"
REVERSED = "reversed"
COLOR_CHOSEN = "color_chosen"
CHALLENGED = "challenged"  # public: verdict; private to the challenger: the offender's hand
UNO_CALLED = "uno_called"
CAUGHT = "caught"
FALSE_CATCH = "false_catch"
RESHUFFLED = "reshuffled"
HANDS_SHUFFLED = "hands_shuffled"  # private: each seat's new hand
HANDS_PASSED = "hands_passed"  # private: each seat's new hand
HANDS_SWAPPED = "hands_swapped"  # private: the two seats' new hands
DISCARDED = "discarded"
CUSTOM_EFFECT = "custom_effect"
CHAT = "chat"
TIMED_OUT = "timed_out"
ROUND_OVER = "round_over"  # public: every hand, points, totals
MATCH_OVER = "match_over"
JUMPED_IN = "jumped_in"  # H-JUMPIN: the next "played" event was out of turn
MISPLAY = "misplay"  # H-MISPLAY: an illegal play attempt cost cards
EXCHANGE_STARTED = "exchange_started"  # H-FIVE
GAVE = "gave"  # H-FIVE: one side chose its card (private to it)
EXCHANGED = "exchanged"  # H-FIVE: private to each side: what it gave and received
SILENCE = "silence"  # H-SILENT: chat closed (active) or open again
SLAP_STARTED = "slap_started"  # U-CENTER
SLAPPED = "slapped"
SLAP_OVER = "slap_over"  # the losers draw 2
REFILLED = "refilled"  # H-SEVEN-ROUNDS
WENT_OUT = "went_out"  # H-LAST: the round goes on without this seat
BLOCKED = "blocked"  # no progress is possible: the round ends, the lowest hand wins
