"""The room actor's shell: one asyncio task per room takes its inbox one message at a time, in
arrival order, and hands each to the ``RoomActor`` (app/rooms/actor.py), which alone changes the
room. ``Room`` is this worker's implementation of the one room interface (``RoomHandle``):
every method is a message to the inbox, so a connection's first state and the events after it
never overlap or leave a gap, and two racing commands apply one after the other.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from app.bus import Bus
from app.codes import Close
from app.config import Settings
from app.engine import EngineError
from app.mailbox import Inbox
from app.store.base import RoomStore
from app.store.errors import NotOwner

from .actor import Clock, RoomActor
from .commands import ClientCommand
from .controls import Closed
from .errors import RoomError, RoomUnavailable
from .hub import Viewer
from .journal import Journal, Stamped
from .messages import (
    Admission,
    AwayCheck,
    BotTurn,
    Connect,
    Disconnect,
    Drained,
    Envelope,
    Granted,
    IdleCheck,
    Join,
    JoinRequest,
    Message,
    SeatCommand,
    StartTable,
    StoreBack,
    Sync,
    Watch,
    WatchRequest,
)
from .metrics import METRICS
from .people import Person
from .recorder import MatchRecorder, NoRecorder
from .state import RoomState
from .views import summary

log = logging.getLogger("uno.room")


def wall_clock_ms() -> int:
    return int(time.time() * 1000)


class Room:
    """This worker's room: a ``RoomHandle`` whose every method is a message to its actor."""

    def __init__(self, state: RoomState, store: RoomStore, bus: Bus, settings: Settings,
                 clock: Clock = wall_clock_ms, seq: int = 0,
                 history: list[Stamped] | None = None,
                 recorder: MatchRecorder | None = None) -> None:
        recorder = recorder or NoRecorder()
        journal = Journal(state.meta.code, store, bus, recorder, settings, seq, history)
        self._actor = RoomActor(state, journal, store, recorder, settings, clock, self._later)
        self._idle_seconds = settings.idle_seconds
        self._inbox: Inbox[Envelope] = Inbox()
        self._stopped = False
        self._task: asyncio.Task[None] | None = None
        self.on_stop: Callable[[Room], None] | None = None  # the registry's, once
        self.lease_generation: int | None = None  # many workers: the lease it runs under

    # -- the room interface (RoomHandle) ---------------------------------------------------

    @property
    def code(self) -> str:
        return self._actor.code

    @property
    def stopped(self) -> bool:
        return self._stopped

    @property
    def seq(self) -> int:
        """The seq of the room's last event."""
        return self._actor.journal.seq

    @property
    def state(self) -> RoomState:
        """The room's state now (read it; only the actor changes it)."""
        return self._actor.state

    async def connect(self, viewer: Viewer, since: int | None = None) -> Admission:
        admitted: Admission = await self._ask(Connect(viewer, since))
        return admitted

    async def sync(self, viewer: Viewer) -> None:
        await self._ask(Sync(viewer))

    async def command(self, person: Person, command: ClientCommand,
                      seen: int | None = None, applied: Callable[[], None] | None = None) -> None:
        await self._ask(SeatCommand(person, command, seen, applied))

    async def join(self, request: JoinRequest) -> Granted:
        joined: Granted = await self._ask(Join(request))
        return joined

    async def watch(self, request: WatchRequest) -> Granted:
        watching: Granted = await self._ask(Watch(request))
        return watching

    def disconnect(self, viewer: Viewer) -> None:
        self._post(Disconnect(viewer))

    def store_back(self) -> None:
        """The database is back: the room carries on (its timers, bots, people's presence)."""
        self._post(StoreBack())

    async def summary(self) -> dict[str, Any]:
        return self.listing(self._actor.spectators)

    def listing(self, spectators: int) -> dict[str, Any]:
        """The room's public summary now, with ``spectators`` as the count to show."""
        state = self._actor.state
        return summary(state.meta, state.game, spectators)

    def command_then(self, message: SeatCommand,
                     done: Callable[[asyncio.Future[Any]], None]) -> None:
        """Queue ``message`` at once (no task, no turn of the event loop); ``done`` is called
        with its future (the cluster answers forwarded commands so)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        future.add_done_callback(done)
        if self._stopped:
            future.set_exception(RoomUnavailable())
        else:
            self._inbox.put(Envelope(message, future))

    # -- life ---------------------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"room {self.code}")
        self._actor.schedule_bots()
        self._later(self._idle_seconds, IdleCheck())
        meta = self._actor.state.meta
        if meta.tournament is not None and not meta.matches_started:
            self._post(StartTable())
        # Loaded or taken over: a waited seat nobody reconnects to is played by its bot after
        # the reconnect grace (O-IDLE), not after the turn's whole clock.
        self._post(AwayCheck())
        game = self._actor.state.game
        if meta.tournament is not None and game is not None and game.phase == "round_over":
            self._actor.next_round_later()

    async def drain(self) -> None:
        """Take nothing more in (a message from now on: RoomUnavailable, "moving"), finish
        what was taken in, every write of it stored, and stop: the room may then run
        elsewhere."""
        if self._task is None or self._stopped:
            return
        self._stopped = True
        self._inbox.put(Envelope(Drained()))
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _ask(self, message: Message) -> Any:
        """Queue ``message`` and wait for its result (or its RoomError / EngineError)."""
        if self._stopped:
            raise RoomUnavailable()
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._inbox.put(Envelope(message, future))
        return await future

    def _post(self, message: Message) -> None:
        if not self._stopped:
            self._inbox.put(Envelope(message))

    def _later(self, delay: float, message: Message) -> None:
        asyncio.get_running_loop().call_later(max(0.0, delay), self._post, message)

    # -- the loop -------------------------------------------------------------------------------

    async def _run(self) -> None:
        actor = self._actor
        try:
            while True:
                envelope = await self._inbox.get_within(actor.deadline_delay())
                if envelope is None:
                    await actor.on_deadline()
                    continue
                if isinstance(envelope.message, Drained):
                    return
                await self._handle(envelope)
                # Not kept (its command, person and future) while the room waits for the next.
                del envelope
                if actor.unloaded:
                    await self._shut(None, "")
                    return
        except asyncio.CancelledError:
            raise
        except NotOwner as exc:  # another worker took the room over: it is no longer ours
            log.warning("%s; this worker stops running it", exc.message)
            await self._shut(Close.RELOAD, "the room moved to another worker: reconnect")
        except Exception:
            log.exception("room %s failed; it will reload from the store", self.code)
            await self._shut(Close.RELOAD, "the room is reloading: reconnect and resume")
        finally:
            self._stopped = True
            self._inbox.close()
            self._fail_waiting()

    async def _handle(self, envelope: Envelope) -> None:
        future = envelope.future
        try:
            result = await self._actor.handle(envelope.message)
        except (EngineError, RoomError) as exc:
            METRICS.error(exc.code)
            if future is not None and not future.done():
                future.set_exception(exc)
            return
        except Exception:
            # The store failed (or a bug): the engine may be ahead of the store, so this room
            # object is finished; the registry reloads the room from the store on next use.
            if future is not None and not future.done():
                future.set_exception(RoomUnavailable())
            raise
        message = envelope.message
        if isinstance(message, SeatCommand) and message.applied is not None:
            message.applied()
        if future is not None and not future.done():
            future.set_result(result)
        if isinstance(message, SeatCommand | BotTurn):
            METRICS.command_done(time.perf_counter() - envelope.arrived)

    async def _shut(self, close: int | None, reason: str) -> None:
        self._stopped = True
        if close is not None:
            await self._actor.journal.publish(Closed(close, reason))
        if self.on_stop is not None:
            self.on_stop(self)

    def _fail_waiting(self) -> None:
        for envelope in self._inbox.take_all():
            future = envelope.future
            if future is not None and not future.done():
                future.set_exception(RoomUnavailable())


__all__ = ["Room", "wall_clock_ms"]
