"""Chat between matches (during a match chat is an engine command: H-SILENT may make it cost
cards). Pure."""

from __future__ import annotations

from app.engine import Event
from app.engine.commands import Chat

from .state import Outcome


def lobby_chat(seat: int, command: Chat) -> Outcome:
    said = Event("chat", {"seat": seat, "text": command.text})
    return Outcome({"type": "chat", "text": command.text, "room": True}, [said], seat=seat)
