"""The room's own rules as pure functions, without a server, a store or a clock: who may sit
where, what the host may do, when the host role passes on, when bots move. Each handler takes
the room's state and returns what to commit; the state it was given never changes."""

from __future__ import annotations

import copy
import random

import pytest

from app.engine import Event, Game, InvalidRules, preset
from app.engine.commands import Chat
from app.rooms import bots, chat, host, idle, seating
from app.rooms.commands import AddBot, Back, ChangeRules, Kick
from app.rooms.controls import Reseat, Revoke
from app.rooms.errors import RoomError
from app.rooms.messages import HostCheck
from app.rooms.meta import IN_MATCH, LOBBY, RoomMeta, SeatInfo
from app.rooms.people import Person
from app.rooms.spec import RoomSpec, SeatSpec
from app.rooms.state import Context, RoomState
from app.store.records import StartLine

RULES = preset("official", {"turn_seconds": 0}).to_dict()
HOST = Person(seat=0)
CTX = Context(now_ms=0)


def lobby(*names: str, connected: bool = True, rules: dict[str, object] | None = None,
          **meta: object) -> RoomState:
    seats = [SeatInfo(name, f"hash-{name}", connected=connected) for name in names]
    return RoomState(RoomMeta("ABCD", dict(rules or RULES), seats=seats, seed=7,
                              **meta))  # type: ignore[arg-type]


def playing(state: RoomState) -> RoomState:
    plan = host.plan_match(state, fresh_seed=11, now=0)
    started = host.start_match(state, plan, "m1", 0).state
    assert started is not None
    return started


def unchanged(state: RoomState) -> RoomMeta:
    return copy.deepcopy(state.meta)


def test_a_join_takes_the_next_seat_and_leaves_the_given_state_alone() -> None:
    state = lobby("Ann")
    before = unchanged(state)
    outcome = seating.join(state, "Bob", "hash-Bob", player_id=3)
    assert state.meta == before
    assert outcome.reply == 1 and outcome.state is not None
    assert [s.name for s in outcome.state.meta.seats] == ["Ann", "Bob"]
    assert outcome.state.meta.seats[1].player_id == 3
    assert outcome.events[0].kind == "joined" and outcome.events[0].public["seat"] == 1


def test_nobody_joins_a_running_match_or_a_full_table() -> None:
    with pytest.raises(RoomError) as running:
        seating.join(playing(lobby("Ann", "Bob")), "Cid", "h", None)
    assert running.value.code == "already_started"
    with pytest.raises(RoomError) as full:
        seating.join(lobby("Ann", "Bob", max_players=2), "Cid", "h", None)
    assert full.value.code == "room_full"


def test_joining_after_a_match_returns_the_room_to_the_lobby() -> None:
    state = playing(lobby("Ann", "Bob"))
    assert state.game is not None
    over = RoomState(state.meta, state.game)
    over.game.state.phase = "match_over"  # type: ignore[union-attr]
    joined = seating.join(over, "Cid", "h", None).state
    assert joined is not None and joined.meta.phase == LOBBY and joined.game is None


def test_leaving_the_lobby_frees_the_seat_moves_the_others_down_and_passes_the_host() -> None:
    state = lobby("Ann", "Bob", "Cid")
    outcome = seating.leave(state, 0)
    assert outcome.state is not None
    meta = outcome.state.meta
    assert [s.name for s in meta.seats] == ["Bob", "Cid"] and meta.host == 0
    assert Revoke("hash-Ann") in outcome.controls
    assert Reseat({"hash-Bob": 0, "hash-Cid": 1}) in outcome.controls
    assert outcome.events[0].private == {1: {"you": 0}, 2: {"you": 1}}


def test_leaving_a_match_hands_the_seat_and_its_cards_to_a_bot() -> None:
    state = playing(lobby("Ann", "Bob"))
    state.meta.seats[1].player_id = 5
    outcome = seating.leave(state, 1)
    assert outcome.state is not None and outcome.state.game is state.game
    assert outcome.state.meta.seats[1].bot and outcome.state.meta.seats[1].name == "Bob (bot)"
    assert outcome.left_match == 1  # the history counts the match as lost for Bob's profile
    assert outcome.controls == [Revoke("hash-Bob")]


def test_the_host_cannot_kick_itself_nor_a_bot_during_a_match() -> None:
    state = playing(lobby("Ann", "Bob"))
    with pytest.raises(RoomError) as itself:
        host.kick(state, Person(0), Kick(0), CTX)
    assert itself.value.code == "bad_target"
    replaced = seating.replace_with_bot(state, 1, "kicked").state
    assert replaced is not None
    with pytest.raises(RoomError) as bot:
        host.kick(replaced, Person(0), Kick(1), CTX)
    assert bot.value.code == "bad_target"
    with pytest.raises(RoomError) as nobody:
        host.kick(state, Person(0), Kick(7), CTX)
    assert nobody.value.code == "bad_target"


def test_o_disconnect_a_bot_replaces_a_player_only_after_abandon_seconds() -> None:
    state = playing(lobby("Ann", "Bob"))
    away = seating.presence(state, 1, False, now=1_000, host_grace=10).state
    assert away is not None
    with pytest.raises(RoomError) as early:
        host.add_bot(away, HOST, AddBot(1), Context(1_000 + 59_000))
    assert early.value.code == "too_early"
    taken = host.add_bot(away, HOST, AddBot(1), Context(1_000 + 60_000)).state
    assert taken is not None and taken.meta.seats[1].bot


def test_a_league_fixes_its_rules_and_a_preset_keeps_them() -> None:
    fixed = {"scoring": "lowest_wins", "target": 50}
    state = lobby("Ann", fixed_rules=fixed, rules={**RULES, **fixed})
    with pytest.raises(RoomError) as refused:
        host.change_rules(state, HOST, ChangeRules(rules={"target": 1}), CTX)
    assert refused.value.code == "forbidden"
    changed = host.change_rules(state, HOST, ChangeRules("house", {"target": 50}), CTX).state
    assert changed is not None
    assert (changed.meta.rules["scoring"], changed.meta.rules["target"]) == ("lowest_wins", 50)
    assert changed.meta.preset == "house" and changed.meta.rules["jump_in"] is True


def test_a_rules_change_leaves_the_state_before_it_as_it_was() -> None:
    # Copies of the meta share their rules (meta.copy): a change replaces them, never edits.
    state = idle.set_away(lobby("Ann", "Bob"), 1, True).state
    assert state is not None
    before = unchanged(state)
    changed = host.change_rules(state, HOST, ChangeRules(rules={"target": 50}), CTX).state
    assert changed is not None and changed.meta.rules["target"] == 50
    assert state.meta == before and state.meta.rules["target"] != 50


def test_rooms_of_the_same_rules_share_them_and_a_change_in_one_leaves_the_others() -> None:
    def opened(code: str) -> RoomState:
        spec = RoomSpec((SeatSpec("Ann", "hash-Ann"), SeatSpec("Bob", "hash-Bob")),
                        rules={"target": 200})
        return RoomState(spec.meta(code, 0, 1, False))

    one, two = opened("BCDF"), opened("BCDG")
    assert one.meta.rules is two.meta.rules  # one dict for the rule set (meta.shared_rules)
    before = unchanged(two)
    changed = host.change_rules(one, HOST, ChangeRules(rules={"target": 50}), CTX).state
    assert changed is not None and changed.meta.rules["target"] == 50
    assert two.meta == before and two.meta.rules["target"] == 200


def test_every_deal_plays_the_rules_the_room_has_then() -> None:
    # A rule set is built once for each distinct dict of rules (host.room_rules), never for a
    # room: a change is dealt at once, and rules that do not hold are refused at every deal.
    state = lobby("Ann", "Bob")
    first = host.plan_match(state, fresh_seed=1, now=0).game.state.rules
    assert host.plan_match(lobby("Cid", "Dee"), fresh_seed=2, now=0).game.state.rules is first
    changed = host.change_rules(state, HOST, ChangeRules(rules={"target": 50}), CTX).state
    assert changed is not None
    assert host.plan_match(changed, fresh_seed=1, now=0).game.state.rules.target == 50
    assert host.plan_match(state, fresh_seed=1, now=0).game.state.rules.target == first.target
    broken = lobby("Ann", "Bob", rules={**RULES, "target": -1})
    for _ in range(2):
        with pytest.raises(InvalidRules):
            host.plan_match(broken, fresh_seed=1, now=0)


def test_rules_change_between_matches_only() -> None:
    with pytest.raises(RoomError) as running:
        host.change_rules(playing(lobby("Ann", "Bob")), HOST, ChangeRules(rules={"jump_in": True}),
                          CTX)
    assert running.value.code == "wrong_phase"


def test_a_seeded_room_replays_its_matches_and_another_gets_a_fresh_seed_each_time() -> None:
    seeded = lobby("Ann", "Bob", seeded=True)
    assert host.plan_match(seeded, fresh_seed=999, now=0).seed == 7
    seeded.meta.matches_started = 2
    assert host.plan_match(seeded, fresh_seed=999, now=0).seed == 9
    assert host.plan_match(lobby("Ann", "Bob"), fresh_seed=999, now=0).seed == 999
    with pytest.raises(RoomError) as alone:
        host.plan_match(lobby("Ann"), fresh_seed=1, now=0)
    assert alone.value.code == "not_enough_players"


def test_starting_a_match_records_its_deal_and_counts_it() -> None:
    state = lobby("Ann", "Bob")
    plan = host.plan_match(state, fresh_seed=42, now=5)
    outcome = host.start_match(state, plan, "m9", 0)
    assert isinstance(outcome.record, StartLine)
    assert outcome.record.seed == 42 and outcome.record.match == "m9"
    assert outcome.state is not None and outcome.state.meta.phase == IN_MATCH
    assert outcome.state.meta.matches_started == 1 and isinstance(outcome.state.game, Game)
    assert outcome.events[0].kind == "match_started"


def test_the_host_role_passes_after_the_grace_to_the_next_connected_person() -> None:
    state = lobby("Ann", "Bob", "Cid")
    gone = seating.presence(state, 0, False, now=0, host_grace=10)
    assert gone.later == [(10.01, HostCheck())]
    assert gone.state is not None
    assert seating.pass_host(gone.state, now=9_000, grace_seconds=10) is None
    passed = seating.pass_host(gone.state, now=10_000, grace_seconds=10)
    assert passed is not None and passed.state is not None and passed.state.meta.host == 1
    nobody = lobby("Ann", "Bob", connected=False)
    nobody.meta.seats[0].disconnected_ms = 0
    assert seating.pass_host(nobody, now=60_000, grace_seconds=10) is None


def test_a_token_that_holds_no_seat_is_refused() -> None:
    state = lobby("Ann")
    assert seating.identify(state.meta, "hash-Ann") == Person(seat=0)
    assert seating.identify(state.meta, None) == Person()
    with pytest.raises(RoomError) as bad:
        seating.identify(state.meta, "hash-nobody")
    assert bad.value.code == "bad_token"


def test_bots_move_only_when_they_have_something_to_do_and_are_not_waited_for() -> None:
    state = lobby("Ann")
    state = seating.add_bot(state).state or state
    assert bots.waiting_bots(state, set(), random.Random(1)) == []  # lobby: nothing to do
    state = playing(state)
    assert state.game is not None
    rng = random.Random(1)
    turn = state.game.state.turn
    waiting = bots.waiting_bots(state, set(), rng)
    assert waiting == ([1] if turn == 1 else [])
    assert bots.waiting_bots(state, {1}, rng) == []
    assert bots.bot_move(state, 0, rng) is None  # Ann is a person


def test_lobby_chat_is_a_room_record_not_an_engine_command() -> None:
    outcome = chat.lobby_chat(2, Chat("hello"))
    assert outcome.record.to_command() == {"type": "chat", "text": "hello", "room": True}
    assert outcome.seat == 2 and outcome.events[0].public == {"seat": 2, "text": "hello"}


def test_o_idle_turns_that_ran_out_count_in_a_row_and_a_move_of_ones_own_ends_the_count() -> None:
    state = playing(lobby("Ann", "Bob"))
    ran_out = [Event("timed_out", {"seat": 1, "waited": "turn"})]
    once, due = idle.count_timeouts(state, ran_out)
    assert due == [] and once.meta.seats[1].timeouts == 1 and state.meta.seats[1].timeouts == 0
    twice, due = idle.count_timeouts(once, ran_out)
    assert twice.meta.seats[1].timeouts == 2
    assert due == [1]
    assert idle.acted(once, 1).meta.seats[1].timeouts == 0
    assert idle.acted(state, 1) is state  # nothing to reset: nothing stored
    slap = [Event("timed_out", {"seat": 1, "waited": "slap"})]  # the caller is not idle
    assert idle.count_timeouts(state, slap) == (state, [])
    off = playing(lobby("Ann", "Bob", rules={**RULES, "idle_timeouts": 0}))
    assert idle.count_timeouts(off, ran_out) == (off, [])


def test_o_idle_the_seat_the_table_waits_for_goes_away_when_nobody_is_there() -> None:
    state = playing(lobby("Ann", "Bob", connected=False))
    assert state.game is not None
    waited = state.game.waiting_on()
    for info in state.meta.seats:
        info.disconnected_ms = 10_000
    assert idle.gone_on_turn(state, 11_000, 5_000) == ([], 4_000)  # a blip: look again later
    assert idle.gone_on_turn(state, 15_000, 5_000) == (waited, None)
    away = idle.set_away(state, waited[0], True)
    assert away.state is not None and away.state.meta.seats[waited[0]].away
    assert idle.gone_on_turn(away.state, 15_000, 5_000) == ([], None)
    here = playing(lobby("Ann", "Bob"))
    assert idle.gone_on_turn(here, 15_000, 5_000) == ([], None)  # everyone is here
    with pytest.raises(RoomError) as not_away:
        idle.back(state, Person(seat=waited[0]), Back(), CTX)
    assert not_away.value.code == "nothing_to_do"
