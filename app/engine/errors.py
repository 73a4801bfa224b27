"""Errors the engine raises. Each carries a PROTOCOL.md error code; the socket edge turns it into
an ``error`` frame. A refused command never changes the game.

    EngineError            code: str, message: str
    ├── BadCommand         bad_message: the command itself is malformed (unknown card or color)
    ├── InvalidRules       bad_rules: an unknown rule key or a bad value, named in the message;
    │                      not_allowed_by_rules: toggles that do not go together, a rule set
    │                      without the rule it needs, or a table size a rule does not fit
    └── RuleError          a well-formed command the rules refuse now (not_your_turn, ...)
"""

from __future__ import annotations

from typing import Final


class EngineError(Exception):
    code = "error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class BadCommand(EngineError):
    code = "bad_message"


class InvalidRules(EngineError):
    code = "bad_rules"


class RuleError(EngineError):
    """Refused by the rules; ``code`` says why (see docs/protocol.md for the full list)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, code)


# Error codes the engine uses (PROTOCOL.md's, plus a few precise ones of our own).
NOT_YOUR_TURN: Final = "not_your_turn"
ILLEGAL_PLAY: Final = "illegal_play"
NOT_IN_HAND: Final = "not_in_hand"
TOO_LATE: Final = "too_late"
TOO_EARLY: Final = "too_early"
FORBIDDEN: Final = "forbidden"
NOT_ALLOWED_BY_RULES: Final = "not_allowed_by_rules"
DECISION_PENDING: Final = "decision_pending"
BAD_TARGET: Final = "bad_target"
NEED_COLOR: Final = "color_required"
WRONG_PHASE: Final = "wrong_phase"
NOT_CATCHABLE: Final = "not_catchable"
NOTHING_TO_DO: Final = "nothing_to_do"
MUST_PLAY: Final = "must_play"  # H-FORCED (and H-HANDLIMIT): a playable card is held
