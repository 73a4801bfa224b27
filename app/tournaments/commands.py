"""What people send a tournament (PROTOCOL.md "Tournaments"), as types; who sent it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Who:
    """A tournament socket's or request's person: a participant, the host, or a watcher."""

    participant: str | None = None
    host: bool = False


@dataclass(frozen=True, slots=True)
class Start:
    """Host: seat round one."""


@dataclass(frozen=True, slots=True)
class NextRound:
    """Host: seat the next round, once every table of this one finished."""


@dataclass(frozen=True, slots=True)
class Remove:
    """Host: withdraw a participant (they keep their past results)."""

    participant: str


@dataclass(frozen=True, slots=True)
class Withdraw:
    """A participant leaves the tournament."""


TournamentCommand = Start | NextRound | Remove | Withdraw
