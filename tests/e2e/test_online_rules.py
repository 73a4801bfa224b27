"""Section 8b at the table (RULES.md), and O-LEGAL: the client offers exactly the moves the
server lists (``you.legal``) and guesses no rule itself; under H-NOHINTS it highlights nothing."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Locator, Page, expect

from .conftest import PageFactory, Server, shot

NAMES = ["Ann", "Bea", "Cid", "Dan"]


def seated(new_page: PageFactory, server: Server, deal: dict[str, Any],
           rules: dict[str, Any], preset: str | None = None, people: int | None = None
           ) -> tuple[str, list[Page]]:
    """A room with the rigged deal and one connected page per person (the first is the host)."""
    body: dict[str, Any] = {"name": NAMES[0], "deal": deal, "rules": rules}
    if preset:
        body["preset"] = preset
    room = server.post("/api/rooms", body)
    code = room["code"]
    count = len(deal["hands"]) if people is None else people
    tokens = [room["token"]] + [
        server.post(f"/api/rooms/{code}/join", {"name": name})["token"]
        for name in NAMES[1:count]
    ]
    pages = [new_page(seat=(code, token, seat)) for seat, token in enumerate(tokens)]
    for page in pages:
        page.goto(f"{server.url}/#/room/{code}")
        expect(page.get_by_test_id("connection")).to_have_text("Connected")
    return code, pages


def start(host: Page) -> None:
    host.get_by_role("button", name="Start the game").click()


def card(page: Page, text: str) -> Locator:
    return page.locator(f'ul.hand button.card[data-card="{text}"]')


def hand(page: Page) -> Locator:
    return page.locator("ul.hand button.card")


def highlighted(page: Page) -> set[str]:
    cards = page.locator("ul.hand button.card.playable, ul.hand button.card.jump-in")
    return {c.get_attribute("data-card") or "" for c in cards.all()}


def listed_plays(page: Page) -> set[str]:
    """The plays in the legal list the page holds (as the server last sent it)."""
    plays: list[str] = page.evaluate(
        "window.unoTable.model.legal.filter((c) => c.type === 'play').map((c) => c.card)")
    return set(plays)


def expect_my_turn(page: Page) -> None:
    expect(page.get_by_test_id("turn-status")).to_have_text("Your turn")


def test_the_client_offers_what_the_server_lists(new_page: PageFactory, server: Server) -> None:
    """O-LEGAL with H-FORCED and H-STACK: a client copy of T-MATCH would offer Bea her Red 3
    against a pending Draw Two and a Draw button to Ann; the server lists neither."""
    deal = {"dealer": 1, "hands": [["R1", "G5", "B2", "W", "W+4", "Y3", "R+2"],
                                   ["G+2", "R3", "B7", "Y+2"]],
            "discard": "R5", "draw_pile": ["B1", "B3", "B4", "B6"]}
    _, (ann, bea) = seated(new_page, server, deal,
                           {"turn_seconds": 0, "forced_play": True, "stacking": "progressive"})
    flown = "window.__flown = 0; new MutationObserver((ms) => ms.forEach((m) => m.addedNodes"
    flown += ".forEach((n) => { if (n.classList?.contains('flying-card')) window.__flown++; })))"
    flown += ".observe(document.body, {childList: true});"
    ann.evaluate(flown)
    bea.emulate_media(reduced_motion="reduce")
    bea.evaluate(flown)
    start(ann)
    expect_my_turn(ann)
    expected = {"R1", "G5", "W", "W+4", "R+2"}
    expect(ann.locator("ul.hand button.card.playable")).to_have_count(len(expected))
    assert highlighted(ann) == expected == listed_plays(ann)
    for text in ("B2", "Y3"):
        expect(card(ann, text)).to_be_disabled()
    # H-FORCED: Ann holds playable cards, so the server lists no draw, and no Draw is offered.
    expect(ann.get_by_role("button", name="Draw", exact=True)).to_have_count(0)
    expect(ann.locator(".draw-pile button")).to_have_count(0)
    assert not highlighted(bea)
    for button in hand(bea).all():
        expect(button).to_be_disabled()
    shot(ann, "legal-highlights")

    card(ann, "R+2").click()
    expect(bea.locator(".prompt.stack")).to_contain_text("2 cards are coming your way")
    # Only the Draw Twos answer the stack (H-STACK), as the server lists; Red 3 matches by
    # color, but that is not an answer to a stack.
    expect(bea.locator("ul.hand button.card.playable")).to_have_count(2)
    assert highlighted(bea) == {"G+2", "Y+2"} == listed_plays(bea)
    expect(card(bea, "R3")).to_be_disabled()
    expect(bea.get_by_role("button", name="Draw", exact=True)).to_have_count(0)
    expect(bea.locator(".prompt.stack").get_by_role("button", name="Take 2")).to_be_visible()
    shot(bea, "legal-stack")
    card(bea, "G+2").click()
    expect(ann.locator(".prompt.stack")).to_contain_text("4 cards are coming your way")
    assert highlighted(ann) == set() == listed_plays(ann)  # no Draw Two left to answer with
    ann.locator(".prompt.stack").get_by_role("button", name="Take 4").click()
    expect(hand(ann)).to_have_count(10)
    # The cards moved (hand to pile, pile to hand) on Ann's page, and not on Bea's, which asks
    # for reduced motion.
    assert ann.evaluate("window.__flown") >= 1
    assert bea.evaluate("window.__flown") == 0


def test_no_hints_highlights_nothing_and_the_server_judges(
    new_page: PageFactory, server: Server
) -> None:
    """H-NOHINTS: nothing is highlighted, any card may be tried, a wrong one is refused."""
    deal = {"dealer": 1, "hands": [["R1", "G7", "B2"], ["Y3", "Y4", "G9"]], "discard": "R5",
            "draw_pile": ["B1", "B3"]}
    _, (ann, bea) = seated(new_page, server, deal, {"turn_seconds": 0, "no_hints": True})
    start(ann)
    expect_my_turn(ann)
    expect(hand(ann)).to_have_count(3)
    assert listed_plays(ann) == set()
    expect(ann.locator("ul.hand button.card.playable")).to_have_count(0)
    for text in ("R1", "G7", "B2"):
        expect(card(ann, text)).to_be_enabled()
    expect(ann.get_by_role("button", name="Draw", exact=True)).to_be_visible()
    expect(ann.get_by_text("No hints at this table")).to_be_visible()
    for button in hand(bea).all():
        expect(button).to_be_disabled()  # not Bea's turn
    shot(ann, "no-hints")
    card(ann, "B2").click()
    expect(ann.locator(".notice .error")).to_contain_text(
        "That card does not match the discard pile.")
    expect(hand(ann)).to_have_count(3)
    card(ann, "R1").click()
    expect(hand(ann)).to_have_count(2)
    expect(bea.get_by_test_id("turn-status")).to_have_text("Your turn")
    expect(bea.locator("ul.hand button.card.playable")).to_have_count(0)


def test_a_crazy_round_through_the_ui(new_page: PageFactory, server: Server) -> None:
    """The `crazy` preset: three 5s at once (H-MULTI) are a bomb (H-BOMB); a Draw Two answered
    by a Wild Draw Four counts twice (H-REVENGE, mixed stacking); a Skip passes the 10 on
    (H-SKIPDEFLECT); Ann goes out."""
    deal = {"dealer": 2,
            "hands": [["G5", "B5", "Y5", "BS", "B1"], ["B+2", "R8", "Y9"], ["W+4", "G9", "B9"]],
            "discard": "R5",
            "draw_pile": ["G2", "G3", "Y1", "Y2", "Y3", "Y4", "Y6", "Y7", "Y8", "G1", "G4", "G6"]}
    _, (ann, bea, cid) = seated(new_page, server, deal, {"turn_seconds": 0}, preset="crazy")
    start(ann)
    expect_my_turn(ann)
    assert highlighted(ann) == {"G5", "B5", "Y5"}
    followers: list[str] = ann.evaluate(
        "window.unoTable.model.followers('G5')")
    assert sorted(followers) == ["B5", "Y5"]

    # Several cards at once: the first, then the others in the order they go down.
    card(ann, "G5").click()
    prompt = ann.get_by_test_id("multi-prompt")
    expect(prompt).to_be_visible()
    expect(card(ann, "Y5")).to_have_class(re.compile(r"\bcan-add\b"))
    expect(card(ann, "BS")).to_be_disabled()
    card(ann, "Y5").click()
    card(ann, "B5").click()
    expect(prompt).to_contain_text("Green 5 → Yellow 5 → Blue 5")
    shot(ann, "crazy-multi-select")
    prompt.get_by_role("button", name="Play 3 cards").click()
    expect(ann.locator(".log-list")).to_contain_text(
        "Ann (you) played Green 5, Yellow 5, Blue 5 at once.")
    expect(ann.locator(".log-list")).to_contain_text("Bomb! Ann (you) played 3 cards")
    expect(hand(ann)).to_have_count(2)
    expect(hand(bea)).to_have_count(4)  # everyone else drew 1
    expect(ann.get_by_test_id("current-color")).to_have_text("Color: blue")

    # Bea: Draw Two; Cid answers with a Wild Draw Four: 2 + 2 x 4 = 10 (H-REVENGE).
    expect_my_turn(bea)
    card(bea, "B+2").click()
    expect(cid.locator(".prompt.stack")).to_contain_text("2 cards are coming your way")
    assert highlighted(cid) == {"W+4"}
    card(cid, "W+4").click()
    cid.get_by_role("dialog", name=re.compile("Choose a color")).get_by_role(
        "button", name="blue").click()
    stack = ann.locator(".prompt.stack")
    expect(stack).to_contain_text("10 cards are coming your way")
    expect(stack.get_by_role("button", name="Challenge")).to_be_visible()
    assert highlighted(ann) == {"BS"}  # H-SKIPDEFLECT: a Skip of the current color
    shot(ann, "crazy-stack-10")

    # Ann calls UNO (answering a stack is her own turn) and passes the 10 on with her Skip.
    ann.get_by_role("button", name="UNO!").click()
    expect(ann.locator(".log-list")).to_contain_text("Ann (you) called UNO!")
    card(ann, "BS").click()
    bea_stack = bea.locator(".prompt.stack")
    expect(bea_stack).to_contain_text("10 cards are coming your way")
    expect(bea_stack.get_by_role("button", name="Challenge")).to_have_count(0)
    bea_stack.get_by_role("button", name="Take 10").click()
    expect(hand(bea)).to_have_count(13)

    expect_my_turn(cid)
    card(cid, "B9").click()  # Green 9 may follow: the choice is offered, Cid plays one
    cid.get_by_test_id("multi-prompt").get_by_role("button", name="Play this card").click()
    expect_my_turn(ann)
    card(ann, "B1").click()
    results = bea.locator("section.results")
    expect(results.get_by_role("heading", name="Round 1 is over")).to_be_visible()
    expect(results).to_contain_text("Ann won the round")
    shot(bea, "crazy-round-over")


def test_a_teams_match_through_the_ui(new_page: PageFactory, server: Server) -> None:
    """H-TEAMS: Ann and her partner (a bot opposite) against Bea and another bot; Ann goes out
    and her team wins the match (target 1) with the opponents' cards."""
    deal = {"dealer": 3,
            "hands": [["R1", "W"], ["R2", "G3", "G4"], ["R3", "G6", "G7", "G8"],
                      ["R4", "B6", "B7", "B8"]],
            "discard": "R5", "draw_pile": ["Y1", "Y2", "Y3", "Y4"]}
    _, (ann, bea) = seated(new_page, server, deal, {"turn_seconds": 0, "target": 1},
                           preset="teams", people=2)
    for _ in range(2):
        ann.get_by_role("button", name="Add a bot").click()
    expect(ann.locator(".lobby-seats li")).to_have_count(4)
    expect(ann.locator(".lobby-seats li").nth(2)).to_contain_text("Team 1")
    expect(bea.locator(".lobby-seats li").nth(3)).to_contain_text("Team 2")
    expect(ann.get_by_text("Teams: seats 1, 3, 5… play against seats 2, 4, 6…")).to_be_visible()
    shot(ann, "teams-lobby")
    start(ann)

    expect_my_turn(ann)
    partner = ann.locator('li.seat[data-seat="2"]')
    expect(partner).to_have_class(re.compile(r"\bteam-0\b"))
    expect(partner.locator(".badge.partner")).to_have_text("partner")
    expect(ann.locator('li.seat[data-seat="1"]')).to_have_class(re.compile(r"\bteam-1\b"))
    expect(ann.locator('li.seat[data-seat="1"] .badge.partner')).to_have_count(0)
    shot(ann, "teams-table")
    ann.get_by_role("button", name="UNO!").click()
    card(ann, "R1").click()
    expect_my_turn(bea)
    card(bea, "R2").click()
    expect_my_turn(ann)  # both bots played a red number
    card(ann, "W").click()
    ann.get_by_role("dialog", name=re.compile("Choose a color")).get_by_role(
        "button", name="red").click()

    results = bea.locator("section.results")
    expect(results.get_by_role("heading", name="Match over")).to_be_visible()
    expect(results.locator(".results-winner")).to_have_text("Team 1 won the match!")
    podium = results.get_by_test_id("podium")
    first = podium.locator(".podium-step.place-1")
    expect(first).to_contain_text("Team 1")
    expect(first).to_contain_text("Ann & Bot 1")
    expect(first).to_contain_text("28 pts")  # Bea's 3 + 4 and Bot 2's 6 + 7 + 8
    expect(podium.locator(".podium-step.place-2")).to_contain_text("Bea (you) & Bot 2")
    team_scores = results.get_by_test_id("team-scores")
    expect(team_scores.locator(".team-score.team-0")).to_contain_text("28 pts")
    expect(team_scores.locator(".team-score.team-1")).to_contain_text("0 pts")
    expect(bea.locator(".log-list")).to_contain_text("Match over: Team 1 won.")
    shot(bea, "teams-match-over")

    # The replay knows the teams too.
    results.get_by_role("link", name="Match results and replay").click()
    summary = bea.locator(".match-summary")
    expect(summary.locator(".team-score.team-0")).to_contain_text("Ann & Bot 1")
    expect(summary.locator(".team-score.team-0")).to_contain_text("28 pts")
    bea.get_by_role("button", name="End").click()
    expect(bea.locator(".replay-board .results-winner")).to_have_text("Team 1 won the match!")
    expect(bea.locator('.replay-board li.seat[data-seat="2"] .badge.team-0')).to_be_visible()


def test_hand_limit_shown_hands_round_clock_and_elimination(
    new_page: PageFactory, server: Server
) -> None:
    """H-HANDLIMIT (pass), H-REVEAL (a small hand on its seat), H-BLITZ (the round's clock),
    H-ELIM (the most cards leave the match)."""
    deal = {"dealer": 2, "hands": [["G1", "G2", "B3"], ["R6", "G6"], ["Y1", "Y2", "Y3", "Y4"]],
            "discard": "R5", "draw_pile": ["B1", "B2", "B4", "B6"]}
    _, (ann, bea, cid) = seated(new_page, server, deal, {
        "turn_seconds": 0, "hand_limit": 3, "reveal_below": 3, "blitz_seconds": 300,
        "elimination": True})
    start(ann)
    expect_my_turn(ann)
    # At the limit with nothing to play: Pass, and no Draw.
    expect(ann.get_by_role("button", name="Pass")).to_be_visible()
    expect(ann.get_by_role("button", name="Draw", exact=True)).to_have_count(0)
    # Bea's two cards are shown to everyone, spectators' view included.
    shown = ann.locator('li.seat[data-seat="1"] .seat-hand .card')
    expect(shown).to_have_count(2)
    expect(cid.locator('li.seat[data-seat="1"] .seat-hand .card')).to_have_count(2)
    expect(bea.get_by_text("Your hand is small enough to be shown to everyone.")).to_be_visible()
    clock = ann.get_by_test_id("round-clock")
    expect(clock).to_contain_text(re.compile(r"Round clock [45]:\d\d"))
    shot(ann, "hand-limit-reveal-clock")
    ann.get_by_role("button", name="Pass").click()
    expect(cid.locator(".log-list")).to_contain_text("Ann passed (hand limit).")

    expect_my_turn(bea)
    bea.get_by_role("button", name="UNO!").click()
    card(bea, "R6").click()
    expect(shown).to_have_count(1)
    expect_my_turn(cid)
    cid.get_by_role("button", name="Pass").click()
    expect_my_turn(ann)
    ann.get_by_role("button", name="Pass").click()
    expect_my_turn(bea)
    card(bea, "G6").click()

    # Bea went out; of the others Cid holds the most cards: he leaves the match.
    results = ann.locator("section.results")
    expect(results).to_contain_text("Cid leaves the match.")
    expect(results.locator(".badge.eliminated")).to_have_count(1)
    ann.get_by_role("button", name="Deal the next round").click()
    expect(ann.get_by_text("Round 2", exact=True)).to_be_visible()
    out = ann.locator('li.seat[data-seat="2"]')
    expect(out).to_have_class(re.compile(r"\beliminated\b"))
    expect(out.locator(".badge.eliminated")).to_have_text("eliminated")
    expect(out.locator(".seat-count")).to_have_text("0 cards")
    shot(ann, "eliminated-seat")


def test_the_rules_form_groups_every_rule_and_shows_refusals(
    new_page: PageFactory, server: Server
) -> None:
    page = new_page()
    page.goto(f"{server.url}/#/")
    page.get_by_label("Your name").fill("Mina")
    page.get_by_text("Adjust single rules").click()
    legends = page.locator(".create fieldset.rule-group legend")
    expect(legends).to_have_text(["Deck and deal", "Cards and stacking", "Turns and drawing",
                                  "UNO calls", "Scoring and match", "Table and teams", "Timers"])
    page.get_by_label("Rules preset").select_option("crazy")
    expect(page.get_by_text("House rules plus mixed and revenge stacking")).to_be_visible()
    for label in ("Several cards at once", "Bomb", "Revenge stacking", "Skip deflects"):
        expect(page.get_by_label(label, exact=True)).to_be_checked()
    for about in ("Play two or more number cards of the same number in one turn.",
                  "Each round has a clock; when it runs out the fewest cards win (0: off).",
                  "Playable cards are not highlighted: find them yourself."):
        expect(page.get_by_text(about)).to_be_visible()
    # A combination the server refuses (H-BOMB needs H-MULTI) is explained in its words.
    page.get_by_label("Several cards at once", exact=True).uncheck()
    page.get_by_role("button", name="Create room").click()
    error = page.locator(".create .form-error")
    expect(error).to_contain_text("The rules of this room do not allow that.")
    expect(error).to_contain_text("'bomb' needs 'multi_play'")
    shot(page, "rules-groups-refused")
    # The teams preset makes a table of four.
    page.get_by_label("Rules preset").select_option("teams")
    expect(page.get_by_label("Seats", exact=True)).to_have_value("4")
    page.get_by_role("button", name="Create room").click()
    expect(page).to_have_url(re.compile(r"#/room/[A-Z0-9]+$"))
    expect(page.locator(".lobby-seats li").first).to_contain_text("Team 1")
