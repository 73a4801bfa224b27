"""What a player notices of deploys and of the database going away: a client that saw another
build reloads itself between matches, never during one; a `store_unavailable` answer shows a
calm banner until the next accepted state. The server's side (a real restart with another
UNO_BUILD, Postgres stopped) is tested in tests/cluster and tests/store; here Playwright's
WebSocket routing stands between page and server, passing every frame through and changing
only what the test names."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page, WebSocketRoute, expect

from .conftest import PageFactory, Server
from .test_access import MATCH


class Relay:
    """Forward every frame both ways; `build` rewrites state.build on the way to the page."""

    def __init__(self) -> None:
        self.build: str | None = None
        self.routes: list[WebSocketRoute] = []

    def __call__(self, ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()
        self.routes.append(ws)
        ws.on_message(upstream.send)
        upstream.on_message(lambda message: ws.send(self.rewrite(message)))

    def rewrite(self, message: str | bytes) -> str | bytes:
        if self.build is None or not isinstance(message, str):
            return message
        frame: dict[str, Any] = json.loads(message)
        if frame.get("type") == "state" and "build" in frame.get("state", {}):
            frame["state"]["build"] = self.build
            return json.dumps(frame)
        return message

    def inject(self, frame: dict[str, Any]) -> None:
        self.routes[-1].send(json.dumps(frame))


def table_page(new_page: PageFactory, server: Server, relay: Relay, code: str,
               token: str) -> Page:
    page = new_page(seat=(code, token, 0))
    page.route_web_socket(re.compile(r"/ws/rooms/"), relay)
    page.goto(f"{server.url}/#/room/{code}")
    return page


def test_a_new_build_reloads_the_page_after_the_match_not_during_it(
        new_page: PageFactory, server: Server) -> None:
    room = server.post("/api/rooms", {"name": "Ann", "deal": MATCH,
                                      "rules": {"turn_seconds": 0, "target": 1}})
    code = room["code"]
    server.post(f"/api/rooms/{code}/join", {"name": "Bea"})
    relay = Relay()
    ann = table_page(new_page, server, relay, code, room["token"])
    ann.locator('button[data-key="start"]').click()
    expect(ann.locator('ul.hand button[data-card="R1"]')).to_be_visible()
    ann.evaluate("window.sameDocument = true")

    # The server now names another build, mid-match: the page stays as it is.
    relay.build = "build-B"
    ann.evaluate("window.unoTable.requestSync()")
    ann.wait_for_timeout(1000)
    assert ann.evaluate("window.sameDocument === true")
    # The match ends: now the page loads the new client, and comes back to its seat.
    ann.locator('ul.hand button[data-card="R1"]').click()
    ann.wait_for_function("window.sameDocument === undefined")
    expect(ann.get_by_test_id("connection")).to_have_text(re.compile("Connected"))
    expect(ann.get_by_test_id("podium")).to_be_visible()
    ann.evaluate("window.sameDocument = true")
    ann.wait_for_timeout(800)
    assert ann.evaluate("window.sameDocument === true"), "reloaded again for the same build"


def test_a_lobby_reloads_at_once_for_a_new_build(new_page: PageFactory, server: Server) -> None:
    room = server.post("/api/rooms", {"name": "Ann"})
    relay = Relay()
    ann = table_page(new_page, server, relay, room["code"], room["token"])
    expect(ann.locator(".lobby-seats")).to_contain_text("Ann")
    ann.evaluate("window.sameDocument = true")
    relay.build = "build-C"
    ann.evaluate("window.unoTable.requestSync()")
    ann.wait_for_function("window.sameDocument === undefined")
    expect(ann.locator(".lobby-seats")).to_contain_text("Ann")


def test_a_database_outage_shows_a_calm_banner_until_play_goes_on(
        new_page: PageFactory, server: Server) -> None:
    room = server.post("/api/rooms", {"name": "Ann"})
    relay = Relay()
    ann = table_page(new_page, server, relay, room["code"], room["token"])
    expect(ann.locator(".lobby-seats")).to_contain_text("Ann")
    relay.inject({"type": "error", "code": "store_unavailable",
                  "message": "the database cannot take this command now"})
    banner = ann.get_by_test_id("store-banner")
    expect(banner).to_have_text("The table is waiting for its database; nothing was lost.")
    expect(ann.get_by_test_id("live-polite")).to_contain_text("waiting for its database")
    ann.evaluate("window.unoTable.requestSync()")  # the next state the server accepts
    expect(banner).to_have_count(0)
