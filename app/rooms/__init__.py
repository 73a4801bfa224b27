"""Rooms: one actor per room, the registry of this worker's rooms, and its connection hub."""

from .errors import RoomError, RoomNotFound, RoomUnavailable
from .handle import RoomHandle
from .hub import Hub, Viewer
from .registry import RoomRegistry
from .room import Room

__all__ = ["Hub", "Room", "RoomError", "RoomHandle", "RoomNotFound", "RoomRegistry",
           "RoomUnavailable", "Viewer"]
