"""After the table: a guest profile, a league and its standings, a player's match history and
the replay of a finished match."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from .conftest import PageFactory, Server, shot


def test_profile_league_history_and_replay(new_page: PageFactory, server: Server) -> None:
    ann = new_page()
    ann.goto(f"{server.url}/#/")
    ann.get_by_label("Your name").fill("Ann")
    ann.get_by_role("button", name="Save").click()
    expect(ann.get_by_text("Saved. Your results now count for Ann.")).to_be_visible()
    profile = json.loads(ann.evaluate("localStorage.getItem('uno.profile')"))
    assert profile["key"] and profile["id"]

    # A league where one won round wins a match.
    ann.get_by_role("link", name="Leagues").click()
    ann.get_by_label("League name").fill("Friday night")
    ann.get_by_label("Target points").fill("1")
    ann.get_by_role("button", name="Create league").click()
    expect(ann).to_have_url(re.compile(r"#/league/\d+$"))
    league = ann.url.rsplit("/", 1)[1]
    expect(ann.get_by_role("heading", name="Friday night")).to_be_visible()

    # A short rigged match in that league, counted for Ann's profile.
    deal = {"dealer": 1, "hands": [["R1", "R2"], ["R7", "B7"]], "discard": "R5",
            "draw_pile": []}
    room = server.post("/api/rooms", {"name": "Ann", "player_key": profile["key"],
                                      "league": league, "deal": deal,
                                      "rules": {"turn_seconds": 0}})
    bea = server.post(f"/api/rooms/{room['code']}/join", {"name": "Bea"})
    bea_page = new_page(seat=(room["code"], bea["token"], 1))
    ann.evaluate(
        "([code, token]) => localStorage.setItem('uno.seat.' + code,"
        " JSON.stringify({token, seat: 0}))",
        [room["code"], room["token"]],
    )
    ann.goto(f"{server.url}/#/room/{room['code']}")
    bea_page.goto(f"{server.url}/#/room/{room['code']}")
    expect(bea_page.get_by_test_id("connection")).to_have_text("Connected")
    ann.get_by_role("button", name="Start the game").click()
    ann.get_by_role("button", name="UNO!").click()
    ann.locator('ul.hand button[data-card="R1"]').click()
    bea_page.locator('ul.hand button[data-card="R7"]').click()
    ann.locator('ul.hand button[data-card="R2"]').click()
    results = ann.locator("section.results")
    expect(results.get_by_role("heading", name="Match over")).to_be_visible()
    expect(results).to_contain_text("Ann won the match!")
    expect(ann.get_by_role("button", name="Rematch")).to_be_enabled()
    expect(bea_page.get_by_text("Waiting for the host to start a rematch.")).to_be_visible()
    shot(ann, "match-over")

    # The match page: the summary and a replay to step through.
    ann.get_by_role("link", name="Match results and replay").click()
    expect(ann.get_by_role("heading", name=re.compile(r"Replay of match"))).to_be_visible()
    expect(ann.locator(".match-summary")).to_contain_text("Ann won the match!")
    ann.get_by_role("button", name="Next").click()
    expect(ann.locator(".replay-step")).to_contain_text("Step 1 of")
    ann.get_by_role("button", name="End").click()
    expect(ann.locator(".replay-board section.results")).to_contain_text("Ann won the match!")
    ann.get_by_role("button", name="Start").click()
    for _ in range(6):
        ann.get_by_role("button", name="Next").click()
    expect(ann.locator(".replay-hands .mini-hand .card").first).to_be_visible()
    shot(ann, "replay")

    # Ann's history lists it as won; the league counts it under both scoring systems.
    ann.get_by_role("link", name="My matches").click()
    row = ann.locator("table.history tbody tr").first
    expect(row).to_contain_text("Ann, Bea")
    expect(row).to_contain_text("won")
    ann.goto(f"{server.url}/#/league/{league}")
    first = ann.locator("table.standings tbody tr").first
    expect(first).to_contain_text("Ann")
    expect(first.locator("td").nth(2)).to_have_text("1")  # wins
    ann.get_by_role("button", name="Lowest total wins (200 loses)").click()
    expect(ann.locator("table.standings thead")).to_contain_text("Losses")
    shot(ann, "league")
