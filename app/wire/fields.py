"""Field types shared by the socket's messages and the HTTP bodies: strict, bounded, and made of
safe text (``text``). Cards and colors are read by the engine's own parsers."""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    StrictBool,
    StrictInt,
)

from app.engine import Card, EngineError, card_text, parse_card, parse_color
from app.engine.cards import Color, color_text

from .text import SafeText, safe_text

MAX_ID = 64
MAX_DB_ID = 2**53  # ids and seeds: exact in JavaScript, and within a BIGINT


def _engine_value(parse: Any) -> PlainValidator:
    def validate(value: object) -> Any:
        try:
            return parse(value)
        except EngineError as exc:
            raise ValueError(exc.message) from None

    return PlainValidator(validate)


def _card_text(value: object) -> str:
    return card_text(parse_card(value))


# Read as the engine's values; written back (``model_dump(mode="json")``) as the wire's strings.
CardField = Annotated[Card, _engine_value(parse_card),
                      PlainSerializer(card_text, when_used="json")]
ColorField = Annotated[Color, _engine_value(parse_color),
                       PlainSerializer(color_text, when_used="json")]
CardText = Annotated[str, _engine_value(_card_text)]  # the card string, normalized
Seat = Annotated[StrictInt, Field(ge=0, le=9)]
PersonId = Annotated[StrictInt, Field(ge=1, le=2**31)]  # a spectator's or a join request's id
BAD_ID = (f"'id' must be a string of 1 to {MAX_ID} characters or a whole number from -2^53 "
          "to 2^53")


def message_id(value: object) -> str | int:
    """A message's ``id``: what the client matches its ``ack`` or ``error`` by."""
    if isinstance(value, str) and 1 <= len(value) <= MAX_ID:
        return safe_text(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_DB_ID:
        return value
    raise ValueError(BAD_ID)


MessageId = Annotated[str | int, PlainValidator(message_id)]
# A secret key or token as the server hands them out (URL-safe base64).
Secret = Annotated[str, Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_-]+$")]


class CustomCard(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    effect: SafeText
    label: Annotated[SafeText, Field(max_length=40)] | None = None


RuleValue = StrictBool | StrictInt | SafeText | Annotated[list[CustomCard], Field(max_length=3)]
# Rule toggles as a client sends them; the engine checks names and values (``bad_rules``).
Rules = Annotated[dict[Annotated[SafeText, Field(max_length=40)], RuleValue],
                  Field(max_length=64)]

_DIGITS = re.compile(r"[0-9]{1,16}")


def whole_number(value: object) -> int:
    """An id as a JSON number, or as ASCII digits (``str.isdigit`` says yes to "²" too)."""
    if isinstance(value, str):
        if not _DIGITS.fullmatch(value):
            raise ValueError("expected a whole number")
        return int(value)
    return value  # type: ignore[return-value]  # StrictInt checks it next


def parse_id(value: str) -> int | None:
    """A path's or query's id: 1 to 2**53 in ASCII digits; None for anything else."""
    if not _DIGITS.fullmatch(value):
        return None
    number = int(value)
    return number if 1 <= number <= MAX_DB_ID else None


DbId = Annotated[StrictInt, BeforeValidator(whole_number), Field(ge=1, le=MAX_DB_ID)]


def _plain_rules(rules: dict[str, Any]) -> dict[str, Any]:
    return {key: [c.model_dump(exclude_none=True) for c in value] if isinstance(value, list)
            else value for key, value in rules.items()}


PlainRules = Annotated[Rules, AfterValidator(_plain_rules)]
__all__ = ["CardField", "CardText", "ColorField", "DbId", "MessageId", "PersonId", "PlainRules",
           "Rules",
           "Seat", "Secret", "StrictBool", "parse_id"]
