"""The league screen lists every league on the server, not only those this browser made."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from .conftest import PageFactory, Server, shot


def test_a_league_made_on_another_browser_is_listed(new_page: PageFactory, server: Server) -> None:
    tag = uuid.uuid4().hex[:6]
    # The host makes a league on their own device.
    host = new_page()
    host.goto(f"{server.url}/#/leagues")
    host.get_by_label("League name").fill(f"Host league {tag}")
    host.get_by_label("Scoring").select_option("lowest_wins")
    host.get_by_label("Target points").fill("300")
    host.get_by_role("button", name="Create league").click()
    expect(host).to_have_url(re.compile(r"#/league/\d+$"))
    league = host.url.rsplit("/", 1)[1]

    # A player on another device (nothing in its storage) sees it in the list, newest first.
    player = new_page()
    player.goto(f"{server.url}/#/leagues")
    listing = player.locator("section.league-list")
    expect(listing.get_by_role("heading", name="All leagues")).to_be_visible()
    row = listing.locator(f'tr[data-league="{league}"]')
    expect(row).to_contain_text(f"Host league {tag}")
    expect(row).to_contain_text("Lowest wins")
    expect(row.locator("td").nth(1)).to_have_text("300")  # target
    expect(row.locator("td").nth(2)).to_have_text("0")  # matches
    expect(listing.locator("tbody tr").first).to_have_attribute("data-league", league)
    shot(player, "leagues-list")

    # ... can open it, and can pick it when creating a room.
    row.get_by_role("link", name=f"Host league {tag}").click()
    expect(player).to_have_url(re.compile(rf"#/league/{league}$"))
    expect(player.get_by_role("heading", name=f"Host league {tag}")).to_be_visible()
    player.goto(f"{server.url}/#/")
    expect(player.locator(f'#create-league option[value="{league}"]')).to_have_text(
        f"Host league {tag}"
    )


def test_the_league_list_pages_with_show_more(new_page: PageFactory, server: Server) -> None:
    tag = uuid.uuid4().hex[:6]
    oldest = server.post("/api/leagues", {"name": f"Oldest {tag}", "scoring": "winner_takes"})
    for n in range(20):
        server.post("/api/leagues", {"name": f"Newer {tag} {n}", "scoring": "winner_takes"})
    page = new_page()
    page.goto(f"{server.url}/#/leagues")
    listing = page.locator("section.league-list")
    expect(listing.locator("tbody tr").first).to_contain_text(f"Newer {tag} 19")
    expect(listing.locator("tbody tr")).to_have_count(20)
    expect(listing.get_by_text(f"Oldest {tag}")).to_have_count(0)
    more = listing.get_by_role("button", name="Show more")
    more.click()
    expect(listing.locator(f'tr[data-league="{oldest["id"]}"]')).to_contain_text(f"Oldest {tag}")
    for _ in range(10):  # other tests' leagues may fill more pages: on to the end
        if not more.is_visible():
            break
        count = listing.locator("tbody tr").count()
        more.click()
        expect(listing.locator("tbody tr")).not_to_have_count(count)
    expect(more).to_be_hidden()
    ids = [int(r) for r in listing.locator("tbody tr").evaluate_all(
        "rows => rows.map(r => r.dataset.league)")]
    assert ids == sorted(ids, reverse=True) and len(set(ids)) == len(ids)  # newest first, once
