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
