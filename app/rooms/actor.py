"""The room's state and everything that changes it, for the actor's loop (app/rooms/room.py):
each message of the inbox (app/rooms/messages.py) dispatched with ``match``, client and bot
commands applied to the engine, the pure handlers' outcomes (seating.py, host.py, bots.py,
chat.py) made the room's, each stored and published through the journal, and the timers."""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
import uuid
from collections.abc import Callable
from typing import Any

from app.config import Settings
from app.engine import EngineError, Event, command_to_wire
from app.engine.commands import Chat, Command, NextRound, Timeout
from app.store.base import RoomStore

from . import audience, bots, chat, host, seating
from .audience import ReactionWindow
from .codes import new_token, token_hash
from .commands import (
    AddBot,
    ChangeRules,
    ClientCommand,
    Kick,
    Leave,
    React,
    Rematch,
    StartMatch,
)
from .commands import to_wire as wire_of
from .controls import Control, Revoke
from .errors import FORBIDDEN, RATE_LIMITED, WRONG_PHASE, RoomError, too_late_or
from .hub import Viewer
from .journal import Journal
from .messages import (
    BotTurn,
    Connect,
    CountSpectators,
    Disconnect,
    HostCheck,
    IdleCheck,
    Join,
    JoinRequest,
    Message,
    SeatCommand,
    Sync,
)
from .recorder import MatchRecorder
from .state import Outcome, RoomState

log = logging.getLogger("uno.room")

Clock = Callable[[], int]
HOST_COMMANDS = (StartMatch, ChangeRules, AddBot, Kick, NextRound, Rematch)


class RoomActor:
    def __init__(self, state: RoomState, journal: Journal, store: RoomStore,
                 recorder: MatchRecorder, settings: Settings, clock: Clock,
                 post_later: Callable[[float, Message], None]) -> None:
        self.state = state  # read it; only this actor changes it
        self.journal = journal
        self._store = store
        self._recorder = recorder
        self._settings = settings
        self._clock = clock
        self._post_later = post_later
        self._viewers = 0
        self._spectators = 0  # spectator sockets, on every worker
        self._announced = 0  # the spectator count everyone last heard
        self._counting = False  # a CountSpectators is on its way
        self._watchers = 0  # numbers given to spectators so far
        self._reactions = ReactionWindow()
        self._seat_sockets: dict[str, int] = {}  # token hash -> open sockets
        self._bot_rng_made: random.Random | None = None  # made once a bot sits: 2.5 KB
        self._bots_scheduled: set[int] = set()
        self._empty_since = time.monotonic()
        self._refused_deadline: int | None = None
        self.unloaded = False  # set by an idle check that unloaded the room

    @property
    def code(self) -> str:
        return self.state.meta.code

    @property
    def _bot_rng(self) -> random.Random:
        if self._bot_rng_made is None:
            self._bot_rng_made = random.Random(self.state.meta.seed ^ 0x5EED)
        return self._bot_rng_made

    async def handle(self, message: Message) -> Any:
        """Apply one message of the inbox; its reply (or a RoomError / EngineError)."""
        match message:
            case SeatCommand(seat, command, seen, watcher):
                return await self._seat_command(seat, command, seen, watcher)
            case BotTurn(seat):
                return await self._bot_turn(seat)
            case Connect(viewer, since):
                return await self._connect(viewer, since)
            case Disconnect(viewer):
                return await self._disconnect(viewer)
            case Sync(viewer):
                journal = self.journal
                frame = journal.state_frame(self.state, viewer.seat, self._spectators)
                viewer.begin([frame], journal.seq)
                return None
            case Join(request):
                return await self._join(request)
            case HostCheck():
                return await self._apply_any(self._pass_host())
            case IdleCheck():
                return await self._idle_check()
            case CountSpectators():
                return await self._announce_spectators()

    async def _seat_command(self, seat: int | None, command: ClientCommand,
                            seen: int | None, watcher: int | None) -> None:
        match command:
            case React(emoji):
                if not self._reactions.allow(time.monotonic()):
                    raise RoomError(RATE_LIMITED, "this room has many reactions right now")
                await self._apply(audience.reaction(seat, emoji))
                return
            case Chat(text) if seat is None:
                await self.journal.publish(audience.spectator_chat(watcher, text))
                return
        if seat is None:
            raise RoomError(FORBIDDEN, "spectators may only watch, chat among themselves and "
                            "react")
        state = self.state
        if isinstance(command, HOST_COMMANDS) and state.meta.host != seat:
            raise RoomError(FORBIDDEN, f"only the host may send {wire_of(command)['type']!r}")
        match command:
            case StartMatch():
                await self._start_match(seat)
            case Rematch():
                if state.game is None or state.game.phase != "match_over":
                    raise RoomError(WRONG_PHASE, "a rematch follows a finished match")
                await self._apply_any(seating.free_stand_ins(state))
                await self._start_match(seat)
            case ChangeRules():
                await self._apply(host.change_rules(state, seat, command))
            case AddBot(target):
                await self._apply(host.add_bot(state, target, self._clock()))
            case Kick(target):
                await self._apply(host.kick(state, seat, target))
            case Leave():
                await self._apply(seating.leave(state, seat))
            case Chat() if not state.playing:
                await self._apply(chat.lobby_chat(seat, command))
            case Timeout():
                raise RoomError("bad_message", "unknown message type 'timeout'")
            case _:
                try:
                    await self.engine_command(seat, command)
                except EngineError as exc:
                    raise too_late_or(exc, seen, self.journal.seq) from None

    # -- applying ---------------------------------------------------------------------------

    async def engine_command(self, seat: int | None, command: Command) -> None:
        """Apply one command to the engine (refused: EngineError, nothing changed), then commit."""
        game = self.state.game
        if game is None or not self.state.playing:
            raise RoomError(WRONG_PHASE, "the match has not started yet")
        now = self._clock()
        events = game.apply(seat if seat is not None else 0, command, now)
        await self._commit(seat, command_to_wire(command), events, now)

    async def _commit(self, seat: int | None, command: dict[str, Any], events: list[Event],
                      now: int | None = None, meta_changed: bool = False,
                      controls: list[Control] | None = None) -> None:
        await self.journal.commit(self.state, seat, command, events,
                                   self._clock() if now is None else now, meta_changed,
                                   controls)
        self.schedule_bots()

    async def _apply(self, outcome: Outcome) -> Any:
        """Make ``outcome`` the room's: its state, then its record stored and published."""
        meta_changed = outcome.state is not None and outcome.state.meta is not self.state.meta
        if outcome.state is not None:
            self.state = outcome.state
        for control in outcome.controls:
            if isinstance(control, Revoke):  # its sockets close: they no longer count
                self._seat_sockets.pop(control.token_hash, None)
        match = self.state.meta.match
        if outcome.left_match is not None and match is not None:
            try:
                await self._recorder.left(match, outcome.left_match)
            except Exception:  # history is not worth stopping the game for
                log.exception("room %s: seat %d leaving was not recorded", self.code,
                              outcome.left_match)
        await self._commit(outcome.seat, outcome.record, outcome.events,
                           meta_changed=meta_changed, controls=outcome.controls)
        for delay, message in outcome.later:
            self._post_later(delay, message)
        return outcome.reply

    async def _apply_any(self, outcome: Outcome | None) -> None:
        if outcome is not None:
            await self._apply(outcome)

    async def _start_match(self, seat: int) -> None:
        now = self._clock()
        plan = host.plan_match(self.state, secrets.randbelow(2**52), now)
        first_seq = self.journal.seq + 1 + len(plan.events)  # the start record's: its last event's
        try:
            match = await self._recorder.start(self.state.meta, plan.seed, first_seq)
        except Exception:  # history is not worth refusing a game for
            log.exception("room %s: the match start was not recorded", self.code)
            match = uuid.uuid4().hex
        outcome = host.start_match(self.state, plan, match, seat)
        self.state = outcome.state or self.state
        await self._commit(seat, outcome.record, outcome.events, now, meta_changed=True)

    async def _bot_turn(self, seat: int) -> None:
        """Choose again now (the table may have moved on since scheduling) and play it."""
        self._bots_scheduled.discard(seat)
        command = bots.bot_move(self.state, seat, self._bot_rng)
        if command is None:
            return
        try:
            await self.engine_command(seat, command)
        except EngineError as exc:  # e.g. another seat caught the same player first
            log.debug("room %s bot %d: %s refused: %s", self.code, seat, command, exc.message)
            self.schedule_bots()

    def schedule_bots(self) -> None:
        """Give every bot that has something to do a move after its thinking time."""
        if not any(info.bot for info in self.state.meta.seats):
            return
        low, high = self._settings.bot_delay_ms
        for seat in bots.waiting_bots(self.state, self._bots_scheduled, self._bot_rng):
            self._bots_scheduled.add(seat)
            self._post_later(self._bot_rng.uniform(low, high) / 1000, BotTurn(seat))

    async def _join(self, request: JoinRequest) -> tuple[int, str]:
        player_id = await self._recorder.profile_id(request.player_key)
        token = new_token()
        seat = await self._apply(seating.join(self.state, request.name, token_hash(token),
                                              player_id))
        return seat, token

    async def _connect(self, viewer: Viewer, since: int | None) -> int | None:
        """Seat the viewer by its token (checked here, in order with kicks), mark the seat
        connected, then send its first frames."""
        seat = seating.seat_of(self.state.meta, viewer.token_hash)
        viewer.seat = seat
        self._viewers += 1
        if seat is None:
            self._watchers += 1
            viewer.watcher = self._watchers
            self._count_spectators(+1)
        hashed = viewer.token_hash
        if seat is not None and hashed is not None:
            self._seat_sockets[hashed] = self._seat_sockets.get(hashed, 0) + 1
            if not self.state.meta.seats[seat].connected:
                await self._apply(self._presence(seat, True))
            await self._apply_any(self._pass_host())
        journal = self.journal
        viewer.begin(journal.resume_frames(self.state, seat, since, self._spectators),
                     journal.seq)
        return seat

    async def _disconnect(self, viewer: Viewer) -> None:
        self._viewers -= 1
        if viewer.seat is None and viewer.token_hash is None:
            self._count_spectators(-1)
        if self._viewers == 0:
            self._empty_since = time.monotonic()
            self._post_later(self._settings.idle_seconds, IdleCheck())
        hashed = viewer.token_hash
        if hashed is None or hashed not in self._seat_sockets:
            return
        self._seat_sockets[hashed] -= 1
        if self._seat_sockets[hashed] > 0:
            return
        del self._seat_sockets[hashed]
        seat = self.state.meta.seat_of_token(hashed)
        if seat is not None:  # else kicked or left: the seat is gone already
            await self._apply(self._presence(seat, False))

    def _count_spectators(self, change: int) -> None:
        """Everyone hears how many watch, at most every WATCHING_EVERY seconds."""
        self._spectators += change
        if not self._counting:
            self._counting = True
            self._post_later(audience.WATCHING_EVERY, CountSpectators())

    async def _announce_spectators(self) -> None:
        self._counting = False
        if self._spectators != self._announced:
            self._announced = self._spectators
            await self._apply(audience.watching(self._spectators))

    def _presence(self, seat: int, connected: bool) -> Outcome:
        return seating.presence(self.state, seat, connected, self._clock(),
                                self._settings.host_grace_seconds)

    def _pass_host(self) -> Outcome | None:
        return seating.pass_host(self.state, self._clock(), self._settings.host_grace_seconds)

    # -- timers and unloading -------------------------------------------------------------

    def deadline_delay(self) -> float | None:
        game = self.state.game
        if game is None or not self.state.playing or game.deadline_ms is None:
            return None
        if game.deadline_ms == self._refused_deadline:
            return None
        return max(0.0, (game.deadline_ms - self._clock()) / 1000)

    async def on_deadline(self) -> None:
        """O-TIMER: the engine acts for the waited seat; too early (clock skew) waits again."""
        try:
            await self.engine_command(None, Timeout())
        except EngineError as exc:
            if exc.code == "too_early":
                await asyncio.sleep(0.01)
                return
            # The engine will not act on this deadline: do not spin on it.
            log.warning("room %s: timeout refused: %s", self.code, exc.message)
            game = self.state.game
            self._refused_deadline = game.deadline_ms if game else None

    async def _idle_check(self) -> None:
        """Unload a room nobody has watched for ``idle_seconds``; a finished one is closed."""
        empty_for = time.monotonic() - self._empty_since
        if self._viewers > 0 or empty_for < self._settings.idle_seconds - 0.05:
            return
        if self.state.between_matches:
            await self._store.close_room(self.code)
        else:
            await self._store.park(self.code)  # the takeover sweep leaves it be
        log.info("room %s unloaded: nobody connected for %.0f s", self.code,
                 self._settings.idle_seconds)
        self.unloaded = True

