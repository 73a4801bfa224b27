"""A reload keeps the seat; a dropped socket comes back with ``since`` and misses nothing; bad
tokens and unknown rooms get clear words."""

from __future__ import annotations

from playwright.sync_api import Page, WebSocket, expect

from .conftest import PageFactory, Server, shot

DEAL = {
    "dealer": 1,
    "hands": [["R1", "R2", "G3", "B4", "Y5"], ["R6", "G7", "B8", "Y9", "G1"]],
    "discard": "R9",
    "draw_pile": ["B1", "B2", "B3"],
}


def started_room(server: Server) -> tuple[str, str, str]:
    """A two-seat room with the rigged deal: (code, host token, guest token). O-IDLE is off:
    Bea's page is not open in every test, and a bot would take her turns."""
    room = server.post("/api/rooms", {"name": "Ann", "deal": DEAL,
                                      "rules": {"turn_seconds": 0, "idle_timeouts": 0}})
    guest = server.post(f"/api/rooms/{room['code']}/join", {"name": "Bea"})
    return room["code"], room["token"], guest["token"]


def open_table(page: Page, server: Server, code: str) -> None:
    page.goto(f"{server.url}/#/room/{code}")
    expect(page.get_by_test_id("connection")).to_have_text("Connected")


def test_a_reload_keeps_the_seat(new_page: PageFactory, server: Server) -> None:
    code, host_token, _ = started_room(server)
    ann = new_page(seat=(code, host_token, 0))
    open_table(ann, server, code)
    ann.get_by_role("button", name="Start the game").click()
    expect(ann.locator("ul.hand button.card")).to_have_count(5)
    ann.locator('ul.hand button[data-card="R1"]').click()
    expect(ann.locator("ul.hand button.card")).to_have_count(4)

    ann.reload()
    expect(ann.get_by_test_id("connection")).to_have_text("Connected")
    expect(ann.locator("ul.hand button.card")).to_have_count(4)
    expect(ann.locator('li.seat[data-seat="1"] .seat-count')).to_have_text("5 cards")
    expect(ann.get_by_test_id("turn-status")).to_have_text("Bea's turn")
    expect(ann.get_by_role("button", name="Join")).to_have_count(0)


def test_a_dropped_socket_resumes_with_since(new_page: PageFactory, server: Server) -> None:
    code, host_token, guest_token = started_room(server)
    ann = new_page(seat=(code, host_token, 0))
    bea = new_page(seat=(code, guest_token, 1))
    sockets: list[str] = []
    bea.on("websocket", lambda ws: _remember(sockets, ws))
    open_table(ann, server, code)
    open_table(bea, server, code)
    ann.get_by_role("button", name="Start the game").click()
    expect(bea.locator("ul.hand button.card")).to_have_count(5)

    # Bea's connection goes away; Ann plays meanwhile; Bea comes back and catches up.
    bea.evaluate("window.unoTable.connection.close()")
    ann.locator('ul.hand button[data-card="R2"]').click()
    expect(ann.get_by_test_id("turn-status")).to_have_text("Bea's turn")
    bea.evaluate("window.unoTable.connection.connect()")
    expect(bea.get_by_test_id("connection")).to_have_text("Connected")
    expect(bea.locator(".log-list")).to_contain_text("Ann played Red 2.")
    expect(bea.get_by_test_id("turn-status")).to_have_text("Your turn")
    assert "since=" in sockets[-1], sockets

    # A drop the page did not ask for: it reconnects by itself and play goes on.
    with bea.expect_websocket():
        bea.evaluate("window.unoTable.connection.dropForTest()")
    expect(bea.get_by_test_id("connection")).to_have_text("Connected")
    bea.locator('ul.hand button[data-card="R6"]').click()
    expect(ann.locator(".log-list")).to_contain_text("Bea played Red 6.")
    assert len(sockets) >= 3 and "since=" in sockets[-1], sockets


def _remember(sockets: list[str], ws: WebSocket) -> None:
    sockets.append(ws.url)


def test_a_bad_token_says_so_and_offers_to_join_or_watch(
    new_page: PageFactory, server: Server
) -> None:
    code, _, _ = started_room(server)
    page = new_page(seat=(code, "not-a-real-token", 0))
    page.goto(f"{server.url}/#/room/{code}")
    expect(page.get_by_test_id("connection")).to_have_text(
        "Your seat token is not valid for this room (or the seat was taken away). "
        "Join again or watch."
    )
    expect(page.get_by_role("link", name="Watch")).to_be_visible()
    shot(page, "bad-token")


def test_an_unknown_room_says_so(new_page: PageFactory, server: Server) -> None:
    page = new_page()
    page.goto(f"{server.url}/#/watch/ZZZZ")
    expect(page.get_by_test_id("connection")).to_have_text("There is no room with the code ZZZZ.")
    page.locator(".table-bar").get_by_role("link", name="Play").click()
    expect(page.get_by_role("heading", name="Create a room")).to_be_visible()


def test_a_catch_window_survives_a_reload_and_closes_when_play_goes_on(
    new_page: PageFactory, server: Server
) -> None:
    deal = {"dealer": 1, "hands": [["R1", "R2"], ["G5", "G6", "G7"]], "discard": "R9",
            "draw_pile": ["B3"]}
    room = server.post("/api/rooms", {"name": "Ann", "deal": deal, "rules": {"turn_seconds": 0}})
    guest = server.post(f"/api/rooms/{room['code']}/join", {"name": "Bea"})
    ann = new_page(seat=(room["code"], room["token"], 0))
    bea = new_page(seat=(room["code"], guest["token"], 1))
    open_table(ann, server, room["code"])
    open_table(bea, server, room["code"])
    ann.get_by_role("button", name="Start the game").click()
    ann.locator('ul.hand button[data-card="R1"]').click()  # no UNO
    catch = bea.get_by_role("button", name="Catch Ann: they did not say UNO")
    expect(catch).to_be_visible()
    bea.reload()
    expect(catch).to_be_visible()
    bea.get_by_role("button", name="Draw", exact=True).click()  # Bea acts: the window closes
    expect(bea.locator("ul.hand button.card")).to_have_count(4)
    expect(bea.locator("button.catch")).to_have_count(0)
