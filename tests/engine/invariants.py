"""Invariants checked after every step of the property tests and the simulation."""

from __future__ import annotations

import dataclasses
import functools
import random
from typing import Any

from app.engine import EngineError, Game, rules_from_dict
from app.engine.bots import choose_command
from app.engine.cards import CARD_RANK, CARD_TEXT, build_deck
from app.engine.commands import Command, NextRound, Play, Timeout, command_to_wire
from app.engine.events import Event
from app.engine.rules import CUSTOM_EFFECTS, TEAM_SIZES, RuleSet
from app.engine.table import previous_seat

# Public fields that may name cards: what is on the table, a finished round's hands, a hand
# H-REVEAL shows to everyone.
PUBLIC_CARD_FIELDS = {
    "played": {"card", "more"},
    "revealed": {"hand"},
    "jumped_in": {"card"},
    "misplay": {"card"},
    "first_card": {"card", "returned"},
    "round_over": {"hands"},
    "discarded": {"cards"},
}
CARD_WORDS = {"hand", "hands", "cards", "card", "returned", "gave", "received", "more"}


def check_conservation(game: Game) -> None:
    state = game.state
    held = list(state.draw_pile) + state.discard
    for hand in state.hands:
        held += hand
    assert sorted(held) == _sorted_deck(state.rules.deck), "card conservation broken"


@functools.cache
def _sorted_deck(deck: str) -> list[int]:
    return sorted(build_deck(deck))


def check_waiting(game: Game) -> None:
    """Exactly one seat is waited on while playing, and it has a legal command (no deadlock)."""
    waited = game.waiting_on()
    if game.phase == "playing":
        pending = game.view(None)["pending"]
        several = pending is not None and pending["kind"] in ("slap", "exchange")
        assert len(waited) == 1 or (several and waited), waited
        for seat in waited:
            assert game.legal_commands(seat), f"deadlock: nothing for seat {seat}"
    else:
        assert waited == []


def check_view(game: Game, seat: int | None) -> None:
    """A seat's view holds exactly its own hand; nobody else's hand (but those H-REVEAL shows
    to everyone), nor another's drawn card."""
    state = game.state
    view = game.view(seat)
    if seat is None:
        assert view["you"] is None
    else:
        assert sorted(view["you"]["hand"]) == sorted(CARD_TEXT[c] for c in state.hands[seat])
        check_legal(game, seat, view["you"]["legal"])
    pending = view["pending"]
    if pending is not None and pending["seat"] != seat:
        assert "card" not in pending
    limit = state.rules.reveal_below
    for entry in view["seats"]:
        s = entry["seat"]
        shown = limit and game.phase == "playing" and len(state.hands[s]) < limit
        shown = shown and s not in state.eliminated
        if shown:
            assert sorted(entry["hand"]) == sorted(CARD_TEXT[c] for c in state.hands[s])
        else:
            assert entry["hand"] is None, "a hand shown that H-REVEAL does not show"
        assert entry["eliminated"] == (s in state.eliminated)
        if s in state.eliminated and game.phase == "playing":
            assert entry["cards"] == 0 and entry["out"]
        assert entry["team"] == (s % 2 if state.rules.teams else None)
    assert sorted(view["order"]) == list(range(state.players))
    if state.rules.teams:
        scores = view["seats"]
        assert all(scores[s]["score"] == scores[s % 2]["score"] for s in range(state.players))


def check_legal(game: Game, seat: int, wire: list[dict[str, Any]]) -> None:
    """O-LEGAL is ``legal_commands`` in compact form: one play per card (no color, target or
    call), the longest ``more`` of each card once, every other command as the client sends it;
    H-NOHINTS: no plays."""
    commands = [c for c in game.legal_commands(seat) if not isinstance(c, NextRound)]
    plays = [c for c in commands if isinstance(c, Play)]
    expected: list[dict[str, Any]] = []
    if not game.state.rules.no_hints:
        for card in sorted({p.card for p in plays}):
            expected.append({"type": "play", "card": CARD_TEXT[card]})
            more = max((p.more for p in plays if p.card == card), key=len)
            if more:
                texts = [CARD_TEXT[c] for c in more]
                expected.append({"type": "play", "card": CARD_TEXT[card], "more": texts})
    for command in commands:
        if isinstance(command, Play):
            continue
        message = command_to_wire(command)
        if message["type"] == "choose_color":
            message = {"type": "choose_color"}
            if message in expected:
                continue
        expected.append(message)
    assert wire == expected, (wire, expected)


def check_events(game: Game, events: list[Event]) -> None:
    """No card leaks into a public part; private parts go only to the seat they concern."""
    for event in events:
        allowed = PUBLIC_CARD_FIELDS.get(event.kind, set())
        leaked = (CARD_WORDS & set(event.public)) - allowed
        assert not leaked, f"{event.kind} shows {leaked} to everyone"
        if event.kind == "revealed" and event.public["hand"] is not None:
            assert len(event.public["hand"]) < game.state.rules.reveal_below
        for seat, part in (event.private or {}).items():
            if event.kind == "drew":
                assert seat == event.public["seat"]
            elif event.kind == "challenged":
                assert seat == event.public["seat"], "the reveal goes to the challenger only"
            assert set(part) <= CARD_WORDS


def check_all(game: Game, events: list[Event], rng: random.Random) -> None:
    check_conservation(game)
    check_waiting(game)
    check_events(game, events)
    check_view(game, None)
    for seat in {*game.waiting_on(), rng.randrange(game.state.players)}:
        check_view(game, seat)


HOUSE_TOGGLES: dict[str, list[Any]] = {
    "jump_in": [True],
    "seven_zero": [True],
    "stacking": ["progressive", "mixed", "deflect"],
    "reverse_deflects": [True],
    "five_exchange": [True],
    "silent": ["twos", "wilds"],
    "color_wheel": [True],
    "blank_plus10": [True],
    "play_to_last": [True],
    "shrinking_hands": [True],
    "misplay_penalty": [1, 2],
    "uno_slap": [True],
    "draw_until_playable": [True],
    "must_play_drawn": [True],
    "lone_zero_50": [True],
    # Section 8b.
    "skip_deflects": [True],
    "revenge": [True],
    "multi_play": [True],
    "bomb": [True],
    "forced_play": [True],
    "hand_limit": [9, 14],
    "uno_call": ["strict", "off"],
    "no_wild_finish": [True],
    "no_draw_finish": [True],
    "double_score": [True],
    "elimination": [True],
    "teams": [True],
    "reveal_below": [2, 4],
    "no_hints": [True],
    "blitz_seconds": [60, 240],
    "shuffle_seats": [True],
    "seven_swap": ["next"],
}


GROWTH = (
    "revenge",
    "blank_plus10",
    "no_wild_finish",
    "no_draw_finish",
    "shrinking_hands",
    "play_to_last",
)


def random_rules(rng: random.Random, players: int) -> RuleSet:
    """Official modes at random, then house toggles: none, some, or all of them at once."""
    scoring = rng.choice(["winner_takes", "lowest_wins", "lazy"])
    target = {
        "winner_takes": rng.choice([100, 200, 500]),
        "lowest_wins": rng.choice([50, 100, 200]),
    }
    rules: dict[str, Any] = {
        "deck": rng.choice(["modern", "classic", "classic_blank"]),
        "first_card": rng.choice(["official", "number_only"]),
        "challenge": rng.choice(["official", "return", "off"]),
        "scoring": scoring,
        "target": target.get(scoring, rng.randint(1, 3)),
        "hand_size": rng.choice([5, 7, 10]) if players <= 8 else 7,
        "uno_penalty": rng.choice([2, 4]),
        "false_catch_penalty": rng.choice([0, 0, 2]),
        "turn_seconds": rng.choice([0, 30]),
        "uno_grace_ms": rng.choice([0, 0, 500]),
        "custom_cards": [
            {"effect": rng.choice(CUSTOM_EFFECTS), "label": "custom"} for _ in range(3)
        ],
    }
    mix = rng.random()
    for key, values in HOUSE_TOGGLES.items():
        if mix > 0.95 or (mix > 0.5 and rng.random() < 0.3):  # all at once, or some
            rules[key] = rng.choice(values)
    if rules.get("blank_plus10"):
        rules["deck"] = "classic_blank"
    # The rules a toggle needs (RULES.md "with H-X"), and what goes together.
    if rules.get("revenge") and rules.get("stacking") not in ("progressive", "mixed"):
        rules["stacking"] = rng.choice(["progressive", "mixed"])
    if rules.get("bomb"):
        rules["multi_play"] = True
    if rules.get("seven_swap"):
        rules["seven_zero"] = True
    if rules.get("teams") and rules.get("elimination"):  # not together: one of them
        del rules[rng.choice(["teams", "elimination"])]
    if rules.get("teams") and players not in TEAM_SIZES:
        del rules["teams"]
    if rules.get("shrinking_hands") or rules.get("play_to_last") or rules.get("elimination"):
        # Rounds of many "outs" are long by design: keep them to a size a test can afford.
        rules["hand_size"] = 5
        rules["target"] = {"winner_takes": 100, "lowest_wins": 50}.get(scoring, 1)
    # Rounds where hands may grow without end (draw cards piling up, last cards that may not
    # finish, refills) and matches of many rounds (H-ELIM) play on a clock, as online tables
    # do (H-BLITZ; this table's time runs a second a move): random players may otherwise pass
    # a huge hand round and round for ever.
    growth = sum(bool(rules.get(key)) for key in GROWTH)
    if growth >= 2 or (growth and rules.get("elimination")):
        rules["blitz_seconds"] = rng.choice([240, 900])
    return rules_from_dict(rules)


def try_apply(game: Game, seat: int, command: Command, now_ms: int) -> list[Event] | None:
    """Apply, or check that a refused command changed nothing."""
    before = game.snapshot()
    try:
        return game.apply(seat, command, now_ms)
    except EngineError:
        assert game.snapshot() == before, f"refused {command} changed the game"
        return None


def random_step(game: Game, rng: random.Random, now_ms: int) -> tuple[list[Event], int]:
    """One step of a lively table: mostly the waited seat's legal moves, sometimes UNO calls,
    catches, timeouts and wrong commands from anyone."""
    players = game.state.players
    roll = rng.random()
    if game.phase == "round_over":
        return game.apply(rng.randrange(players), _next_round(), now_ms), now_ms
    if roll < 0.05 and game.deadline_ms is not None:
        now_ms = max(now_ms, game.deadline_ms)
        return game.apply(0, Timeout(), now_ms), now_ms
    if roll < 0.15:
        seat = rng.randrange(players)
        options = game.legal_commands(seat)
        if options:
            return game.apply(seat, rng.choice(options), now_ms), now_ms
    if roll < 0.18:
        seat = rng.randrange(players)
        waited = game.waiting_on()[0]
        wrong = rng.choice(game.legal_commands(waited))
        events = try_apply(game, seat, wrong, now_ms)
        if events is not None:
            return events, now_ms
    seat = game.waiting_on()[0]
    if roll < 0.9:  # a bot's move: tables of players who try to win end sooner
        bot_move = choose_command(game, seat, rng)
        if bot_move is not None:
            return game.apply(seat, bot_move, now_ms), now_ms + 1000
    options = game.legal_commands(seat)
    plays: list[Command] = [c for c in options if isinstance(c, Play)]
    wise = [c for c in plays if not _trades_down(game, seat, c)]
    if plays and rng.random() < 0.9:  # a table that mostly plays, so rounds end
        options = wise or plays
    command = rng.choice(options)
    if isinstance(command, Play):
        command = _sensible(game, seat, command, rng)
    return game.apply(seat, command, now_ms), now_ms + 1000


def _trades_down(game: Game, seat: int, command: Command) -> bool:
    """Would this H-SEVENO play hand us a bigger hand than ours?"""
    if not isinstance(command, Play) or not game.state.rules.seven_zero:
        return False
    state = game.state
    rank = CARD_RANK[command.card]
    mine = len(state.hands[seat]) - 1
    if rank == 7:
        return all(
            len(h) > mine for s, h in enumerate(state.hands) if s != seat and not state.out[s]
        )
    if rank == 0:
        return len(state.hands[previous_seat(state, seat)]) > mine
    return False


def _sensible(game: Game, seat: int, command: Play, rng: random.Random) -> Play:
    """Random, but not self-defeating: most players remember UNO, and nobody trades their hand
    for a bigger one (otherwise random tables with hand swaps may never end)."""
    hands = game.state.hands
    if command.target is not None:
        five = CARD_RANK[command.card] == 5
        fewest = min(
            (
                s
                for s in range(len(hands))
                if s != seat and not game.state.out[s] and (hands[s] or not five)
            ),
            key=lambda s: len(hands[s]),
        )
        if len(hands[fewest]) < len(hands[seat]) or five:
            command = dataclasses.replace(command, target=fewest)
    left = len(hands[seat]) - 1 - len(command.more)
    if left == 1 and game.state.rules.uno_call == "official" and rng.random() < 0.8:
        command = dataclasses.replace(command, uno=True)
    return command


def _next_round() -> Command:
    return NextRound()


def play_match(seed: int, checks: bool = True, max_steps: int = 200_000,
               events_stay: bool = False) -> dict[str, Any]:
    """A random match played to its end; with ``events_stay``, every event the engine made is
    then checked to read as it did when it was made (rooms keep events and encode them again
    for a socket that resumes: one holding a list the game later changes would lie)."""
    rng = random.Random(seed)
    players = rng.randint(2, 10)
    rules = random_rules(rng, players)
    game, events = Game.start(players, rules, seed=seed)
    made: list[tuple[Event, str]] = []
    if checks:
        check_all(game, events, rng)
    now_ms = 0
    for _ in range(max_steps):
        if events_stay:
            made += [(event, repr(event)) for event in events]
        if game.phase == "match_over":
            changed = [(then, repr(event)) for event, then in made if repr(event) != then]
            assert not changed, changed[0]
            state = game.state
            return {"players": players, "rounds": state.rounds_played, "rules": rules.to_dict()}
        events, now_ms = random_step(game, rng, now_ms)
        if checks:
            check_all(game, events, rng)
    raise AssertionError(f"match {seed} did not end in {max_steps} steps")
