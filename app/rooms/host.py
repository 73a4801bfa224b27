"""The host's commands: start a match (or a rematch), change the rules, seat bots, kick. Pure:
each handler takes the room's state, the sender, the command and the context, and returns what
to commit (or refuses, deciding nothing).

Starting a match takes two steps around the history's I/O: the handler deals it (a
``StartPlan``), the actor records it (and gets its id), ``start_match`` makes the outcome."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import orjson

from app.engine import Event, Game, InvalidRules, RiggedDeal, RuleSet, preset, rules_from_dict
from app.jsonwire import compact_json
from app.store.records import RulesChanged, StartLine

from . import seating
from .commands import AddBot, ChangeRules, Kick, Rematch, StartMatch
from .errors import BAD_DEAL, BAD_SEAT, FORBIDDEN, TOO_EARLY, WRONG_PHASE, RoomError
from .meta import IN_MATCH
from .people import Person
from .state import Context, Outcome, RoomState


def check_seat(state: RoomState, seat: int) -> int:
    if not 0 <= seat < len(state.meta.seats):
        raise RoomError(BAD_SEAT, f"there is no seat {seat}")
    return seat


def room_rules(rules: dict[str, Any]) -> RuleSet:
    """A room's rules (its meta's dict) as the engine's RuleSet, checked and built once for
    each distinct dict: a worker's tables play a few, and building one (48 fields checked,
    then looked up in the engine's cache by a hash and a compare of them all) cost every
    deal 94 us, where the dict's JSON and a look-up cost 4 (timeit)."""
    return _built_rules(compact_json(rules))


@functools.lru_cache(maxsize=256)
def _built_rules(rules_json: str) -> RuleSet:
    return rules_from_dict(orjson.loads(rules_json))


@dataclass(frozen=True, slots=True)
class MatchPlan:
    """A match dealt and not yet started: its seed, whether the rigged deal was used, the
    game and the engine's first events."""

    seed: int
    rigged: bool
    game: Game
    events: list[Event]


@dataclass(frozen=True, slots=True)
class StartPlan:
    """Start the planned match for ``seat`` once the history gave it an id; ``before``: what
    to commit first (a rematch frees the seats of players who left)."""

    plan: MatchPlan
    seat: int
    before: Outcome | None = None


def plan_match(state: RoomState, fresh_seed: int, now: int) -> MatchPlan:
    """Deal the next match. A room made with a seed replays every match (match k: seed + k);
    otherwise the match is dealt from ``fresh_seed``, a secret drawn for it alone, so no
    finished match's seed tells the next deal."""
    meta = state.meta
    if not state.between_matches:
        raise RoomError(WRONG_PHASE, "a match is running already")
    players = len(meta.seats)
    if players < 2:
        raise RoomError("not_enough_players", "S-PLAYERS: a match needs at least 2 players")
    rules = room_rules(meta.rules)
    deal = None
    if meta.deal is not None and meta.matches_started == 0:
        try:
            deal = RiggedDeal.parse(meta.deal, players, rules.deck)
        except InvalidRules as exc:
            raise RoomError(BAD_DEAL, exc.message) from exc
    seed = meta.seed + meta.matches_started if meta.seeded else fresh_seed
    game, events = Game.start(players, rules, seed, deal, now)
    return MatchPlan(seed, deal is not None, game, events)


def _seat(person: Person) -> int:
    assert person.seat is not None  # the table lets only the host's seat send these
    return person.seat


def start(state: RoomState, person: Person, command: StartMatch, ctx: Context) -> StartPlan:
    """In the lobby, or after a match: a new one with the same seats."""
    return StartPlan(plan_match(state, ctx.fresh_seed(), ctx.now_ms), _seat(person))


def rematch(state: RoomState, person: Person, command: Rematch, ctx: Context) -> StartPlan:
    """After a match: the seats of players who left (their bots) are freed, then a new one."""
    if state.game is None or state.game.phase != "match_over":
        raise RoomError(WRONG_PHASE, "a rematch follows a finished match")
    freed = seating.free_stand_ins(state)
    table = freed.state if freed is not None and freed.state is not None else state
    return StartPlan(plan_match(table, ctx.fresh_seed(), ctx.now_ms), _seat(person), freed)


def start_match(state: RoomState, plan: MatchPlan, match: str, seat: int) -> Outcome:
    meta = state.meta.copy()
    meta.match = match
    meta.matches_started += 1
    meta.phase = IN_MATCH
    players = len(meta.seats)
    started = Event("match_started", {"match": match, "players": players, "rules": meta.rules,
                                      **seating.seats_public(meta)})
    record = StartLine(players, plan.seed, meta.rules, meta.deal if plan.rigged else None,
                       match)
    return Outcome(record, [started, *plan.events], seat=seat,
                   state=RoomState(meta, plan.game))


def change_rules(state: RoomState, person: Person, command: ChangeRules,
                 ctx: Context) -> Outcome:
    """Between matches; what a league fixes stays (``forbidden`` to change it)."""
    meta = state.meta
    if not state.between_matches:
        raise RoomError(WRONG_PHASE, "rules change between matches only")
    fixed = meta.fixed_rules or {}
    overruled = sorted(k for k, v in command.rules.items() if k in fixed and fixed[k] != v)
    if overruled:
        raise RoomError(FORBIDDEN, f"this room plays for a league, which fixes "
                        f"{', '.join(repr(k) for k in overruled)}")
    if command.preset is not None:
        rules = preset(command.preset, {**command.rules, **fixed})
    else:
        rules = room_rules(meta.rules).with_changes(command.rules)
    meta = meta.copy()
    if command.preset is not None:
        meta.preset = command.preset
    meta.rules = rules.to_dict()
    changed = Event("rules_changed", {"preset": meta.preset, "rules": meta.rules})
    return Outcome(RulesChanged(command.preset, command.rules), [changed], seat=person.seat,
                   state=RoomState(meta, state.game))


def add_bot(state: RoomState, person: Person, command: AddBot, ctx: Context) -> Outcome:
    """Between matches: a bot takes a new seat. During a match, with ``seat``: a bot replaces a
    player disconnected for longer than ``abandon_seconds`` (O-DISCONNECT)."""
    seat = command.seat
    if seat is not None and not state.between_matches:
        target = check_seat(state, seat)
        info = state.meta.seats[target]
        if info.bot:
            raise RoomError(BAD_SEAT, f"seat {target} is a bot already")
        abandon_ms = int(state.meta.rules.get("abandon_seconds", 60)) * 1000
        gone_since = info.disconnected_ms
        if info.connected or gone_since is None or ctx.now_ms - gone_since < abandon_ms:
            raise RoomError(
                TOO_EARLY, f"seat {target} may be replaced once disconnected for "
                f"{abandon_ms // 1000} s (O-DISCONNECT)"
            )
        return seating.replace_with_bot(state, target, "abandoned")
    if not state.between_matches:
        raise RoomError(WRONG_PHASE, "bots take new seats between matches; name a 'seat' to "
                        "replace an abandoned player")
    return seating.add_bot(state)


def kick(state: RoomState, person: Person, command: Kick, ctx: Context) -> Outcome:
    target = check_seat(state, command.seat)
    if target == person.seat:
        raise RoomError(BAD_SEAT, "the host cannot kick their own seat: send 'leave'")
    if state.between_matches:
        return seating.remove_seat(state, target, "kicked")
    if state.meta.seats[target].bot:
        raise RoomError(BAD_SEAT, f"seat {target} is a bot; bots stay until the match ends")
    return seating.replace_with_bot(state, target, "kicked")
