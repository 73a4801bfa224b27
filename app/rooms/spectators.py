"""Named spectators: a person who watches under a token of their own keeps one identity (an id
and a name) across reconnects and workers. Pure."""

from __future__ import annotations

from app.engine import Event
from app.store.records import SpectatorNamed

from .errors import BANNED, ROOM_CROWDED, RoomError
from .people import Spectator
from .state import Outcome, RoomState


def watch(state: RoomState, name: str | None, token_hash: str, player_id: int | None,
          device: str | None, limit: int, present: frozenset[str] = frozenset()) -> Outcome:
    """A new named spectator (everyone hears of them: a ``spectator_named`` event, which
    gives the record its seq); the reply is their id. At most ``limit`` are kept: past it the
    longest-known one who is neither connected (``present``: token hashes) nor queued makes
    room, and with none such the room is crowded."""
    if state.meta.audience.banned(None, player_id, device):
        raise RoomError(BANNED, "the host banned you from this room", 403)
    meta = state.meta.copy()
    audience = meta.audience
    if len(audience.spectators) >= limit:
        idle = [s for s in audience.spectators
                if s.token_hash not in present and s.id not in audience.queue]
        if not idle:
            raise RoomError(ROOM_CROWDED, "this room has as many spectators as it takes", 409)
        audience.spectators.remove(idle[0])
    spectator = Spectator(audience.next_id, name, token_hash, player_id, device)
    audience.next_id += 1
    audience.spectators.append(spectator)
    named = Event("spectator_named", {"spectator": spectator.id, "name": name})
    return Outcome(SpectatorNamed(spectator.id, name), [named],
                   state=RoomState(meta, state.game), reply=spectator.id)
