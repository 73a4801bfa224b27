"""The room's state and everything that changes it, for the actor's loop (app/rooms/room.py):
each message of the inbox (app/rooms/messages.py) dispatched with ``match``; a person's command
checked and applied as the command table says (app/rooms/command_table.py): by the engine, or by
a pure handler whose decision is made the room's here, stored and published through the
journal; the timers; and the database going away (``StoreWait``). People coming and going are
the door's (app/rooms/door.py), through ``apply``."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Callable
from typing import Any

from app.config import Settings
from app.engine import EngineError
from app.engine.commands import Command, NextRound, Timeout
from app.store.base import RoomStore
from app.store.errors import StoreUnavailable
from app.store.records import EngineLine, Line

from . import approval, bots, idle
from .audience import ReactionWindow
from .command_table import COMMANDS, Decision, Engine, sender_of
from .commands import Back, ClientCommand
from .controls import Control, Revoke
from .door import Door
from .errors import RATE_LIMITED, WRONG_PHASE, RoomError, too_late_or
from .host import StartPlan, plan_match, start_match
from .hub import person_of
from .journal import Journal
from .messages import (
    AwayCheck,
    BotTurn,
    Connect,
    CountSpectators,
    Disconnect,
    HostCheck,
    IdleCheck,
    Join,
    Message,
    RequestCheck,
    SeatCommand,
    StartTable,
    StoreBack,
    Sync,
    TableNextRound,
    Watch,
)
from .people import Person
from .presence import BotThinking
from .rebuild import rebuilt_state
from .recorder import MatchRecorder
from .state import Context, Notice, Outcome, RoomState, ToEngine
from .store_wait import StoreWait

log = logging.getLogger("uno.room")

Clock = Callable[[], int]


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
        self.wait = StoreWait(store)
        self.door = Door(self, recorder, settings, clock, post_later)
        self.presence = self.door.presence
        self._bots = BotThinking(state.meta.seed)
        self._reactions = ReactionWindow()
        self._refused_deadline: int | None = None
        self.unloaded = False  # set by an idle check that unloaded the room

    @property
    def code(self) -> str:
        return self.state.meta.code

    @property
    def spectators(self) -> int:
        return self.door.spectators

    async def handle(self, message: Message) -> Any:
        """Apply one message of the inbox; its reply (or a RoomError / EngineError)."""
        match message:
            case SeatCommand(person, command, seen):
                return await self._seat_command(person, command, seen)
            case BotTurn(seat):
                return await self._bot_turn(seat)
            case Connect(viewer, since):
                return await self.door.connect(viewer, since)
            case Disconnect(viewer):
                return await self.door.disconnect(viewer)
            case Sync(viewer):
                if self.wait.tainted:  # ahead of its store: nothing of it may be shown yet
                    self.wait.check(self._clock())
                journal = self.journal
                viewer.begin([journal.state_frame(self.state, person_of(viewer),
                                                  self.spectators)], journal.seq)
                return None
            case Join(request):
                return await self.door.join(request)
            case Watch(request):
                return await self.door.watch(request)
            case HostCheck():
                return await self._apply_any(self.door.pass_host())
            case AwayCheck():
                return await self._away_if_gone()
            case IdleCheck():
                return await self._idle_check()
            case StartTable():
                return await self._start_table()
            case TableNextRound():
                return await self._table_next_round()
            case CountSpectators():
                return await self.door.announce_spectators()
            case RequestCheck(request):
                return await self._apply_any(approval.lapse(self.state, request, self._clock()))
            case StoreBack():
                return await self._store_back()

    async def _seat_command(self, person: Person, command: ClientCommand,
                            seen: int | None) -> None:
        spec = COMMANDS.spec_of(command)
        spec.permit(sender_of(self.state.meta, person))
        if spec.room_rate and not self._reactions.allow(time.monotonic()):
            raise RoomError(RATE_LIMITED, "this room has many reactions right now")
        seat = person.seat
        if seat is not None and self.state.meta.seats[seat].away and not isinstance(command, Back):
            await self.apply(idle.set_away(self.state, seat, False))  # O-IDLE: back at once
        if isinstance(spec.applies, Engine):
            await self._engine_for(person, command, seen)  # type: ignore[arg-type]
        else:
            await self._decide(spec.applies(self.state, person, command, self._context()),
                               person, seen)

    async def _decide(self, decision: Decision, person: Person, seen: int | None) -> Any:
        match decision:
            case Outcome():
                return await self.apply(decision)
            case ToEngine(command):
                await self._engine_for(person, command, seen)
            case Notice(control):
                await self.journal.publish(control)
            case StartPlan():
                await self._start_match(decision)
        return None

    async def _engine_for(self, person: Person, command: Command, seen: int | None) -> None:
        try:
            await self.engine_command(person.seat, command)
        except EngineError as exc:
            raise too_late_or(exc, seen, self.journal.seq) from None

    def _context(self) -> Context:
        return Context(self._clock(), self._settings.host_grace_seconds)

    # -- applying ---------------------------------------------------------------------------

    async def engine_command(self, seat: int | None, command: Command) -> None:
        """Apply one command to the engine (refused: EngineError, nothing changed), then commit."""
        game = self.state.game
        if game is None or not self.state.playing:
            raise RoomError(WRONG_PHASE, "the match has not started yet")
        now = self._clock()
        self.wait.check(now)  # before the engine changes anything
        events = game.apply(seat if seat is not None else 0, command, now)
        # O-IDLE: turns that ran out count; a person's own move ends the count.
        before = self.state
        due: list[int] = []
        if isinstance(command, Timeout):
            self.state, due = idle.count_timeouts(self.state, events)
        else:
            self.state = idle.acted(self.state, seat)
        await self._commit(seat, EngineLine(command), events, now,
                           meta_changed=self.state.meta is not before.meta)
        for away in due:
            await self.apply(idle.set_away(self.state, away, True))
        if self.state.meta.tournament is not None and game.phase == "round_over":
            self.next_round_later()

    def next_round_later(self) -> None:
        """A tournament's table has no host to deal its next round: it does, after a pause
        for everyone to see the round's result."""
        self._post_later(self._settings.table_pause_seconds, TableNextRound())

    async def _table_next_round(self) -> None:
        game = self.state.game
        if self.state.meta.tournament is not None and game is not None and (
                game.phase == "round_over"):
            await self.engine_command(None, NextRound())

    async def _commit(self, seat: int | None, record: Line, events: list[Any],
                      now: int | None = None, meta_changed: bool = False,
                      controls: list[Control] | None = None) -> None:
        try:
            await self.journal.commit(self.state, seat, record.to_command(), events,
                                      self._clock() if now is None else now, meta_changed,
                                      controls)
        except StoreUnavailable:  # stored or not, it went nowhere: reloaded once back
            raise self.wait.failed(self._clock()) from None
        await self._away_if_gone()
        await self._apply_any(self.door.fill_seats())
        self.schedule_bots()

    async def apply(self, outcome: Outcome) -> Any:
        """Make ``outcome`` the room's: its state, then its record stored and published."""
        self.wait.check(self._clock())  # before anything changes
        meta_changed = outcome.state is not None and outcome.state.meta is not self.state.meta
        if outcome.state is not None:
            self.state = outcome.state
        for control in outcome.controls:
            if isinstance(control, Revoke):  # its sockets close: they no longer count
                self.presence.forget(control.token_hash)
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
        if outcome.welcome is not None:  # O-APPROVAL: the waiting sockets get the table
            hashed, person = outcome.welcome
            await self.door.welcome(hashed, person)
        return outcome.reply

    async def _apply_any(self, outcome: Outcome | None) -> None:
        if outcome is not None:
            await self.apply(outcome)

    async def _start_match(self, start: StartPlan) -> None:
        self.wait.check(self._clock())
        if start.before is not None:
            await self.apply(start.before)
        plan = start.plan
        now = self._clock()
        first_seq = self.journal.seq + 1 + len(plan.events)  # the start record's: its last event's
        try:
            match = await self._recorder.start(self.state.meta, plan.seed, first_seq)
        except Exception:  # history is not worth refusing a game for
            log.exception("room %s: the match start was not recorded", self.code)
            match = uuid.uuid4().hex
        outcome = start_match(self.state, plan, match, start.seat)
        self.state = outcome.state or self.state
        await self._commit(start.seat, outcome.record, outcome.events, now, meta_changed=True)

    async def _bot_turn(self, seat: int) -> None:
        """Choose again now (the table may have moved on since scheduling) and play it."""
        self._bots.scheduled.discard(seat)
        command = bots.bot_move(self.state, seat, self._bots.rng)
        if command is None:
            return
        try:
            await self.engine_command(seat, command)
        except EngineError as exc:  # e.g. another seat caught the same player first
            log.debug("room %s bot %d: %s refused: %s", self.code, seat, command, exc.message)
            self.schedule_bots()

    def schedule_bots(self) -> None:
        """Give every bot that has something to do a move after its thinking time."""
        if not BotThinking.any_bot(self.state):
            return
        thinking = self._bots
        low, high = self._settings.bot_delay_ms
        for seat in bots.waiting_bots(self.state, thinking.scheduled, thinking.rng):
            thinking.scheduled.add(seat)
            self._post_later(thinking.rng.uniform(low, high) / 1000, BotTurn(seat))

    async def _away_if_gone(self) -> None:
        """O-DISCONNECT: a waited person gone for the reconnect grace is played by a bot; one
        gone for less is looked at again when the grace is over."""
        grace_ms = int(self._settings.away_grace_seconds * 1000)
        due, again = idle.gone_on_turn(self.state, self._clock(), grace_ms)
        for seat in due:
            await self.apply(idle.set_away(self.state, seat, True))
        if again is not None:
            self._post_later(again / 1000 + 0.01, AwayCheck())

    # -- timers and unloading -------------------------------------------------------------

    def deadline_delay(self) -> float | None:
        game = self.state.game
        if game is None or not self.state.playing or game.deadline_ms is None:
            return None
        if game.deadline_ms == self._refused_deadline or not self.wait.ok:
            return None  # no clock runs while the room waits for its database
        return max(0.0, (self.wait.deadline(game.deadline_ms) - self._clock()) / 1000)

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

    async def _start_table(self) -> None:
        """TR-TABLES: a tournament's table needs no host to begin; once only."""
        state = self.state
        if state.meta.tournament is None or state.meta.matches_started or not state.between_matches:
            return
        ctx = self._context()
        await self._start_match(StartPlan(plan_match(state, ctx.fresh_seed(), ctx.now_ms), 0))

    async def _idle_check(self) -> None:
        """Unload a room nobody has watched for ``idle_seconds``; a finished one is closed. A
        tournament's table plays on with nobody watching (its away seats' bots finish it)."""
        presence = self.presence
        if presence.viewers > 0 or presence.idle_for() < self._settings.idle_seconds - 0.05:
            return
        if self.state.meta.tournament is not None and not self.state.between_matches:
            self._post_later(self._settings.idle_seconds, IdleCheck())
            return
        try:
            if self.state.between_matches:
                await self._store.close_room(self.code)
            else:
                await self._store.park(self.code)  # the takeover sweep leaves it be
        except StoreUnavailable:  # unloaded once the database can say so
            self._post_later(self._settings.idle_seconds, IdleCheck())
            return
        log.info("room %s unloaded: nobody connected for %.0f s", self.code,
                 self._settings.idle_seconds)
        self.unloaded = True

    async def _store_back(self) -> None:
        """The database is back: a room whose write failed reloads from it (what its sockets
        have seen: events go out only once stored); then the turn that waited gets its time
        back, seats say who is here, and bots and timers carry on."""
        wait = self.wait
        if wait.tainted:
            try:
                stored = await self._store.load_room(self.code)
            except StoreUnavailable:
                return  # away again: the next StoreBack tries again
            if stored is None:
                self.unloaded = True  # closed meanwhile (by another worker)
                return
            state, seq, history = rebuilt_state(stored, self._clock(), self.journal.format,
                                                sockets_died=False)
            self.state = state
            self.journal.restart(seq, history)
            wait.tainted = False
            log.info("room %s reloaded at seq %d after the database came back", self.code, seq)
        game = self.state.game
        wait.back(self._clock(), game.deadline_ms if game is not None else None)
        await self.door.reconcile()
        await self._away_if_gone()
        self.schedule_bots()
