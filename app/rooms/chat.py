"""Chat: between matches a line to the room; during a match an engine command (H-SILENT may
make it cost cards); from a spectator a line to the other spectators only (never to a player:
no coaching from the stands). Pure."""

from __future__ import annotations

from app.engine import Event
from app.engine.commands import Chat
from app.store.records import LobbyChat

from .audience import spectator_chat
from .people import Person
from .state import Context, Notice, Outcome, RoomState, ToEngine


def said(state: RoomState, person: Person, command: Chat,
         ctx: Context) -> Outcome | ToEngine | Notice:
    if person.seat is None:
        return Notice(spectator_chat(state.meta, person, command.text))
    if state.playing:
        return ToEngine(command)
    return lobby_chat(person.seat, command)


def lobby_chat(seat: int, command: Chat) -> Outcome:
    said_ = Event("chat", {"seat": seat, "text": command.text})
    return Outcome(LobbyChat(command.text), [said_], seat=seat)
