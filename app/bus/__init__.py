"""Publish/subscribe and leases behind one small interface (DESIGN.md "Rooms across workers")."""

from .base import Bus, BusStatus, Handler, Unsubscribe
from .memory import InProcessBus

__all__ = ["Bus", "BusStatus", "Handler", "InProcessBus", "Unsubscribe"]
