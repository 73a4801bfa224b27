"""D-108, D-112, D-BLANK, card strings, and the RuleSet."""

from __future__ import annotations

from collections import Counter

import pytest

from app.engine import BadCommand, InvalidRules, card_text, parse_card, preset, rules_from_dict
from app.engine.cards import CARD_KINDS, build_deck


def test_d108_classic_deck_holds_108_cards() -> None:
    deck = Counter(card_text(c) for c in build_deck("classic"))
    assert sum(deck.values()) == 108
    assert deck["R0"] == 1 and deck["R7"] == 2 and deck["GS"] == 2 and deck["BR"] == 2
    assert deck["Y+2"] == 2 and deck["W"] == 4 and deck["W+4"] == 4
    assert "WS" not in deck and "WC1" not in deck


def test_d112_modern_deck_adds_shuffle_hands_and_three_customizable() -> None:
    deck = Counter(card_text(c) for c in build_deck("modern"))
    assert sum(deck.values()) == 112
    assert deck["WS"] == 1 and deck["WC1"] == deck["WC2"] == deck["WC3"] == 1


def test_d_blank_deck_adds_four_blank_cards() -> None:
    deck = Counter(card_text(c) for c in build_deck("classic_blank"))
    assert sum(deck.values()) == 112 and deck["WB"] == 4


def test_card_strings_round_trip_exactly_as_in_the_protocol() -> None:
    for card in range(CARD_KINDS):
        assert parse_card(card_text(card)) == card
    assert [card_text(parse_card(t)) for t in ("R7", "GS", "BR", "Y+2", "W+4", "WC2")] == [
        "R7",
        "GS",
        "BR",
        "Y+2",
        "W+4",
        "WC2",
    ]


@pytest.mark.parametrize("bad", ["X7", "R10", "", "W+5", 7, None])
def test_unknown_card_string_is_a_clear_error(bad: object) -> None:
    with pytest.raises(BadCommand, match="unknown card"):
        parse_card(bad)


def test_official_preset_is_the_defaults() -> None:
    rules = preset("official")
    assert rules.deck == "modern" and rules.hand_size == 7 and rules.challenge == "official"
    assert rules.scoring == "winner_takes" and rules.target == 500 and rules.uno_penalty == 2


def test_p200_defaults_its_target_to_200() -> None:
    assert rules_from_dict({"scoring": "lowest_wins"}).target == 200


def test_unknown_rule_key_is_an_error_naming_it() -> None:
    with pytest.raises(InvalidRules, match="'hand_sizes'"):
        rules_from_dict({"hand_sizes": 7})


@pytest.mark.parametrize(
    ("key", "value", "says"),
    [
        ("hand_size", 4, "between 5 and 10"),
        ("hand_size", "7", "whole number"),
        ("challenge", "sometimes", "one of official, return, off"),
        ("lone_zero_50", 1, "true or false"),
        ("custom_cards", [{"effect": "rm -rf"}] * 3, "not on the menu"),
    ],
)
def test_bad_rule_value_is_an_error_naming_the_rule(key: str, value: object, says: str) -> None:
    with pytest.raises(InvalidRules, match=says) as info:
        rules_from_dict({key: value})
    assert key in info.value.message or "custom card" in info.value.message


def test_presets_house_seeded_party_are_named_rulesets() -> None:
    house = preset("house")
    assert house.jump_in and house.stacking == "progressive" and house.seven_zero
    seeded = preset("seeded")
    assert seeded.first_card == "number_only" and seeded.challenge == "return"
    assert seeded.stacking == "deflect" and seeded.jump_in and seeded.uno_penalty == 2
    assert (
        seeded.scoring == "winner_takes"
        and preset("seeded", {"scoring": "lowest_wins"}).target == 200
    )
    party = preset("party")
    assert party.jump_in and party.stacking == "progressive" and party.seven_zero
    assert party.uno_slap and party.silent == "twos" and party.five_exchange


def test_a_room_may_change_single_toggles_of_a_preset() -> None:
    rules = preset("house", {"stacking": "mixed", "uno_penalty": 4})
    assert rules.jump_in and rules.stacking == "mixed" and rules.uno_penalty == 4


def test_tables_with_equal_rules_share_one_rule_set_and_others_get_their_own() -> None:
    """Each table's RuleSet was its own 1.3 KB: equal ones are now one object (immutable)."""
    first = rules_from_dict({"deck": "classic", "turn_seconds": 0})
    again = rules_from_dict({"turn_seconds": 0, "deck": "classic"})
    assert again is first and preset("official", {"deck": "classic", "turn_seconds": 0}) is first
    other = rules_from_dict({"deck": "classic", "turn_seconds": 20})
    assert other is not first and other.turn_seconds == 20 and first.turn_seconds == 0
    assert first.with_changes({"uno_penalty": 4}).uno_penalty == 4 and first.uno_penalty == 2


def test_blank_plus10_needs_the_blank_deck() -> None:
    with pytest.raises(InvalidRules, match="classic_blank"):
        preset("official", {"blank_plus10": True})


def test_e_custom_host_assigns_effects_and_labels_from_the_menu() -> None:
    rules = preset(
        "official",
        {
            "custom_cards": [
                {"effect": "swap_hands", "label": "Trade!"},
                {"effect": "discard_color", "label": "Purge"},
                {"effect": "pass_hands", "label": "Pass"},
            ]
        },
    )
    assert [c.effect for c in rules.custom_cards] == ["swap_hands", "discard_color", "pass_hands"]
    assert rules_from_dict(rules.to_dict()) == rules


# --- Section 8b toggles, presets crazy / teams / fast --------------------------------------

ONLINE_KEYS = {
    "skip_deflects": False,
    "revenge": False,
    "multi_play": False,
    "bomb": False,
    "forced_play": False,
    "hand_limit": 0,
    "uno_call": "official",
    "no_wild_finish": False,
    "no_draw_finish": False,
    "double_score": False,
    "elimination": False,
    "teams": False,
    "reveal_below": 0,
    "no_hints": False,
    "blitz_seconds": 0,
    "shuffle_seats": False,
    "seven_swap": "choose",
}


def test_section_8b_toggles_exist_with_their_keys_and_are_off_by_default() -> None:
    rules = preset("official").to_dict()
    assert {key: rules[key] for key in ONLINE_KEYS} == ONLINE_KEYS


def test_presets_crazy_teams_fast_are_named_rulesets() -> None:
    crazy = preset("crazy")
    assert crazy.jump_in and crazy.seven_zero and crazy.stacking == "mixed"
    assert crazy.revenge and crazy.skip_deflects and crazy.reverse_deflects
    assert crazy.multi_play and crazy.bomb
    teams = preset("teams")
    assert teams.teams and teams.to_dict() == {**preset("official").to_dict(), "teams": True}
    fast = preset("fast")
    assert fast.turn_seconds == 10 and fast.blitz_seconds == 300
    assert fast.to_dict() == {
        **preset("official").to_dict(),
        "turn_seconds": 10,
        "blitz_seconds": 300,
    }


def test_presets_official_house_seeded_party_are_unchanged_by_section_8b() -> None:
    for name in ("official", "house", "seeded", "party"):
        rules = preset(name).to_dict()
        assert {key: rules[key] for key in ONLINE_KEYS} == ONLINE_KEYS


@pytest.mark.parametrize(
    ("changes", "needs"),
    [
        ({"revenge": True}, "H-REVENGE with H-STACK"),
        ({"revenge": True, "stacking": "deflect"}, "H-REVENGE with H-STACK"),
        ({"bomb": True}, "H-BOMB with H-MULTI"),
        ({"seven_swap": "next"}, "H-SEVENNEXT with H-SEVENO"),
        ({"blank_plus10": True}, "H-PLUS10 with D-BLANK"),
        ({"elimination": True, "teams": True}, "not played with H-TEAMS"),
    ],
)
def test_a_rule_without_the_rule_it_needs_or_a_refused_combination_is_not_allowed_by_rules(
    changes: dict[str, object], needs: str
) -> None:
    with pytest.raises(InvalidRules, match=needs) as info:
        preset("official", changes)
    assert info.value.code == "not_allowed_by_rules"


@pytest.mark.parametrize(
    "changes",
    [
        {"revenge": True, "stacking": "progressive"},
        {"revenge": True, "stacking": "mixed"},
        {"bomb": True, "multi_play": True},
        {"seven_swap": "next", "seven_zero": True},
        {"elimination": True},
        {"teams": True},
    ],
)
def test_a_rule_with_the_rule_it_needs_is_allowed(changes: dict[str, object]) -> None:
    rules = preset("official", changes)
    assert rules_from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(
    ("key", "value"),
    [("uno_call", "loud"), ("seven_swap", "all"), ("hand_limit", -1), ("reveal_below", 1.5)],
)
def test_a_bad_value_of_a_section_8b_key_is_still_bad_rules(key: str, value: object) -> None:
    with pytest.raises(InvalidRules, match=key) as info:
        rules_from_dict({key: value})
    assert info.value.code == "bad_rules"


def test_h_unocall_off_turns_u_center_off_too() -> None:
    rules = preset("party", {"uno_call": "off"})
    assert rules.uno_call == "off" and not rules.uno_slap


def test_every_compatible_toggle_at_once_is_allowed() -> None:
    rules = preset("crazy", {**EVERYTHING, "teams": False, "elimination": True})
    assert rules.elimination and rules.bomb and rules.hand_limit == 15


EVERYTHING: dict[str, object] = {
    "draw_until_playable": True,
    "must_play_drawn": True,
    "lone_zero_50": True,
    "five_exchange": True,
    "silent": "twos",
    "color_wheel": True,
    "play_to_last": True,
    "shrinking_hands": True,
    "misplay_penalty": 1,
    "uno_slap": True,
    "forced_play": True,
    "hand_limit": 15,
    "uno_call": "strict",
    "no_wild_finish": True,
    "no_draw_finish": True,
    "double_score": True,
    "reveal_below": 3,
    "no_hints": True,
    "blitz_seconds": 120,
    "shuffle_seats": True,
    "seven_swap": "next",
}
