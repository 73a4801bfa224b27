"""The room actor: one asyncio task per room applies everything that changes the room, one item
at a time in arrival order, stores it, then publishes its events with a room-wide gap-free seq.

Everything goes through the inbox: client commands, joins, connects (so a connection's first
state and the events after it never overlap or leave a gap), bot moves, timers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from app.bus import Bus
from app.config import Settings
from app.engine import EngineError, Event, Game, command_to_wire
from app.engine.commands import Chat, Command, NextRound, Timeout
from app.jsonwire import compact_json
from app.store.base import RoomRecord, RoomStore
from app.store.errors import Fenced

from . import host, lobby
from .bot_driver import BotDriver
from .commands import AddBot, ChangeRules, ClientCommand, Kick, Leave, StartMatch, to_wire
from .errors import FORBIDDEN, WRONG_PHASE, RoomError, RoomUnavailable
from .hub import CLOSE_RELOAD, EncodedEvent, encode_event, room_topic
from .items import Item
from .meta import LOBBY, RoomMeta
from .metrics import METRICS
from .recorder import MatchRecorder, NoRecorder
from .views import state_view

log = logging.getLogger("uno.room")

Clock = Callable[[], int]

# Commands only the host may send.
HOST_COMMANDS = (StartMatch, ChangeRules, AddBot, Kick, NextRound)

# Refusals that mean "the table moved on" when the client acted on an older seq.
_STALE_CODES = frozenset({"not_your_turn", "not_catchable", "nothing_to_do", "illegal_play"})


def too_late_or(exc: EngineError, seen: int | None, seq: int) -> EngineError | RoomError:
    """A command carrying the ``seq`` its sender had seen, refused because events came after
    it, is answered ``too_late`` (the race was lost) instead of the engine's code."""
    if exc.code in _STALE_CODES and seen is not None and seen < seq:
        return RoomError("too_late", f"too late: {exc.message} (the table moved on after "
                         f"seq {seen})")
    return exc


def wall_clock_ms() -> int:
    return int(time.time() * 1000)


class Room:
    def __init__(
        self,
        meta: RoomMeta,
        store: RoomStore,
        bus: Bus,
        settings: Settings,
        clock: Clock = wall_clock_ms,
        game: Game | None = None,
        seq: int = 0,
        history: list[EncodedEvent] | None = None,
        recorder: MatchRecorder | None = None,
    ) -> None:
        self.code = meta.code
        self.meta = meta
        self.game = game
        self.seq = seq
        self.store = store
        self.bus = bus
        self.settings = settings
        self.clock = clock
        self.history: deque[EncodedEvent] = deque(history or (), settings.keep_events)
        self.recorder: MatchRecorder = recorder or NoRecorder()
        self.inbox: asyncio.Queue[Item] = asyncio.Queue()
        self.viewers = 0
        self.seat_connections: dict[str, int] = {}  # token hash -> open sockets
        self.bots = BotDriver(self, random.Random(meta.seed ^ 0x5EED))
        self.records_since_snapshot = 0
        self.stopped = False
        self.empty_since = time.monotonic()
        self._refused_deadline: int | None = None
        self.on_stop: Callable[[Room], None] | None = None
        self.lease_generation: int | None = None  # many workers: the lease it runs under here
        self._task: asyncio.Task[None] | None = None

    # -- outside API (called from HTTP and socket handlers) -----------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"room {self.code}")
        self.bots.schedule()
        self.later(self.settings.idle_seconds, Item("idle_check"))

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def ask(self, item: Item) -> Any:
        """Queue ``item`` and wait for its result (or its RoomError / EngineError)."""
        if self.stopped:
            raise RoomUnavailable()
        item.future = asyncio.get_running_loop().create_future()
        self.inbox.put_nowait(item)
        return await item.future

    def later(self, delay: float, item: Item) -> None:
        asyncio.get_running_loop().call_later(max(0.0, delay), self._post, item)

    def _post(self, item: Item) -> None:
        if not self.stopped:
            self.inbox.put_nowait(item)

    # -- the actor loop -------------------------------------------------------------------------

    async def _run(self) -> None:
        try:
            while True:
                delay = self._timer_delay()
                try:
                    async with asyncio.timeout(delay):
                        item = await self.inbox.get()
                except TimeoutError:
                    await self._on_deadline()
                    continue
                await self._handle(item)
                if self.stopped:
                    return
        except asyncio.CancelledError:
            raise
        except Fenced as exc:  # another worker took the room over: it is no longer ours
            log.warning("%s; this worker stops running it", exc.message)
            await self._shut(CLOSE_RELOAD, "the room moved to another worker: reconnect")
        except Exception:
            log.exception("room %s failed; it will reload from the store", self.code)
            await self._shut(CLOSE_RELOAD, "the room is reloading: reconnect and resume")
        finally:
            self.stopped = True
            self._fail_waiting()

    async def _handle(self, item: Item) -> None:
        try:
            result = await self._dispatch(item)
        except (EngineError, RoomError) as exc:
            METRICS.error(exc.code)
            if item.future is not None and not item.future.done():
                item.future.set_exception(exc)
            return
        except Exception:
            # The store failed (or a bug): the engine may be ahead of the store, so this room
            # object is finished; the registry reloads the room from the store on next use.
            if item.future is not None and not item.future.done():
                item.future.set_exception(RoomUnavailable())
            raise
        if item.future is not None and not item.future.done():
            item.future.set_result(result)
        if item.kind in ("command", "bot"):
            METRICS.command_done(time.perf_counter() - item.arrived)

    async def _dispatch(self, item: Item) -> Any:
        kind = item.kind
        if kind == "command":
            assert item.command is not None
            return await self._client_command(item.seat, item.command, item.seen)
        if kind == "bot":
            return await self.bots.act(item.seat)
        if kind == "connect":
            assert item.viewer is not None
            return await lobby.connect(self, item.viewer, item.since)
        if kind == "disconnect":
            assert item.viewer is not None
            return await lobby.disconnect(self, item.viewer)
        if kind == "sync":
            assert item.viewer is not None
            item.viewer.begin([self.state_frame(item.viewer.seat)], self.seq)
            return None
        if kind == "join":
            assert item.join is not None
            return await lobby.join(self, item.join)
        if kind == "host_check":
            return await host.pass_host_if_gone(self)
        if kind == "idle_check":
            return await self._idle_check()
        raise RoomError("bad_message", f"unknown room item {kind!r}")

    async def _client_command(self, seat: int | None, command: ClientCommand,
                              seen: int | None) -> None:
        if seat is None:
            raise RoomError(FORBIDDEN, "spectators may only watch")
        if isinstance(command, HOST_COMMANDS):
            if self.meta.host != seat:
                raise RoomError(FORBIDDEN, "only the host may send "
                                f"{to_wire(command)['type']!r}")
            await host.command(self, seat, command)
        elif isinstance(command, Chat):
            await lobby.chat(self, seat, command)
        elif isinstance(command, Leave):
            await lobby.leave(self, seat)
        elif isinstance(command, Timeout):
            raise RoomError("bad_message", "unknown message type 'timeout'")
        else:
            try:
                await self.engine_command(seat, command)
            except EngineError as exc:
                raise too_late_or(exc, seen, self.seq) from None

    # -- applying, storing, publishing ----------------------------------------------------------

    async def engine_command(self, seat: int | None, command: Command) -> None:
        """Apply one command to the engine (refused: EngineError, nothing changed), then commit."""
        game = self.game
        if game is None or self.meta.phase == LOBBY:
            raise RoomError(WRONG_PHASE, "the match has not started yet")
        if isinstance(command, NextRound | Timeout) and seat is not None and seat != self.meta.host:
            raise RoomError(FORBIDDEN, "only the host deals the next round")
        now = self.clock()
        events = game.apply(seat if seat is not None else 0, command, now)
        await self.commit(seat, command_to_wire(command), events, now)

    async def commit(
        self,
        seat: int | None,
        command: dict[str, Any],
        events: list[Event],
        now: int | None = None,
        meta_changed: bool = False,
        controls: list[dict[str, Any]] | None = None,
    ) -> None:
        """Store the record, then publish its events (and any control messages) in seq order."""
        stamped: list[tuple[int, Event]] = []
        for event in events:
            self.seq += 1
            stamped.append((self.seq, event))
        record = RoomRecord(
            self.seq,
            seat,
            command,
            self.clock() if now is None else now,
            [{**e.to_dict(), "seq": s} for s, e in stamped],
        )
        storing = time.perf_counter()
        await self.store.append(self.code, record, self.meta.to_dict() if meta_changed else None)
        METRICS.commits.observe(time.perf_counter() - storing)
        topic = room_topic(self.code)
        encoded = [encode_event(seq, event) for seq, event in stamped]
        self.history.extend(encoded)
        if encoded:  # one message for the commit: fewer to send, pass on and read everywhere
            await self.bus.publish(topic, {"events": encoded})
        for control in controls or ():
            await self.bus.publish(topic, control)
        if self.meta.match is not None:
            await self._record_history(self.meta.match, stamped)
        self.records_since_snapshot += 1
        if self.game is not None and (
            self.records_since_snapshot >= self.settings.snapshot_every
            or command.get("type") in ("start", "next_round")
        ):
            await self.store.save_snapshot(self.code, self.seq, self.game.snapshot())
            self.records_since_snapshot = 0
        self.bots.schedule()

    async def _record_history(self, match: str, stamped: list[tuple[int, Event]]) -> None:
        """Rounds and match results go to the history; its failure never stops the game."""
        for _seq, event in stamped:
            try:
                if event.kind == "round_over":
                    await self.recorder.round_over(match, event.public)
                elif event.kind == "match_over":
                    await self.recorder.match_over(match, event.public, self.seq)
            except Exception:
                log.exception("room %s: history of match %s not recorded", self.code, match)

    # -- views and timers -----------------------------------------------------------------------

    def state_frame(self, seat: int | None) -> str:
        view = state_view(self.meta, self.game, seat, self.seq)
        return compact_json({"type": "state", "seq": self.seq, "state": view})

    def _timer_delay(self) -> float | None:
        game = self.game
        if game is None or self.meta.phase == LOBBY or game.deadline_ms is None:
            return None
        if game.deadline_ms == self._refused_deadline:
            return None
        return max(0.0, (game.deadline_ms - self.clock()) / 1000)

    async def _on_deadline(self) -> None:
        """O-TIMER: the engine acts for the waited seat; too early (clock skew) waits again."""
        try:
            await self.engine_command(None, Timeout())
        except EngineError as exc:
            if exc.code == "too_early":
                await asyncio.sleep(0.01)
                return
            # The engine will not act on this deadline: do not spin on it.
            log.warning("room %s: timeout refused: %s", self.code, exc.message)
            self._refused_deadline = self.game.deadline_ms if self.game else None

    async def _idle_check(self) -> None:
        """Unload a room nobody has watched for ``idle_seconds``; a finished one is closed."""
        empty_for = time.monotonic() - self.empty_since
        if self.viewers > 0 or empty_for < self.settings.idle_seconds - 0.05:
            return
        game = self.game
        finished = game is None or self.meta.phase == LOBBY or game.phase == "match_over"
        if finished:
            await self.store.close_room(self.code)
        else:
            await self.store.park(self.code)  # the takeover sweep leaves it be
        log.info("room %s unloaded: nobody connected for %.0f s", self.code,
                 self.settings.idle_seconds)
        await self._shut(None, "")

    async def _shut(self, close: int | None, reason: str) -> None:
        self.stopped = True
        if close is not None:
            await self.bus.publish(
                room_topic(self.code), {"control": "closed", "close": close, "reason": reason}
            )
        if self.on_stop is not None:
            self.on_stop(self)

    def _fail_waiting(self) -> None:
        while not self.inbox.empty():
            item = self.inbox.get_nowait()
            if item.future is not None and not item.future.done():
                item.future.set_exception(RoomUnavailable())


__all__ = ["Room", "wall_clock_ms"]
