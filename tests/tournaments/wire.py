"""A tournament driven over HTTP and WebSockets as its host and participants' phones would:
open it, join, connect, start and pair rounds until it is over; and the standings a test
computes itself from every table's match (TR-POINTS), to hold the server's against.

Participants' sockets keep them present (TR-ABSENT); at their tables nobody connects, so each
seat is played by its bot once away (O-IDLE): bots stand in for people."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import httpx
import websockets

from tests.rooms.client import Client
from tests.server_fixture import ServerProcess

ROUND_SECONDS = 40.0
# Tables of one round each, quick bots; away seats played at once.
FAST = {"UNO_AWAY_GRACE_SECONDS": "0.05", "UNO_TOURNAMENT_SECONDS": "0.2",
        "UNO_TABLE_PAUSE_SECONDS": "0.1"}


@dataclass
class Entrant:
    participant: str
    name: str
    token: str
    socket: Client | None = None


@dataclass
class Tournament:
    code: str
    host_token: str
    servers: Sequence[ServerProcess]  # participant i goes through servers[i % len]
    host: Client | None = None
    entrants: list[Entrant] = field(default_factory=list)

    def server(self, index: int) -> ServerProcess:
        return self.servers[index % len(self.servers)]

    async def http(self, method: str, path: str, index: int = 0, **body: Any
                   ) -> httpx.Response:
        async with httpx.AsyncClient(base_url=self.server(index).http_url, timeout=10) as h:
            return await h.request(method, path, json=body or None)

    async def view(self, index: int = 0) -> dict[str, Any]:
        answer = await self.http("GET", f"/api/tournaments/{self.code}", index)
        assert answer.status_code == 200, answer.text
        found: dict[str, Any] = answer.json()
        return found

    async def join(self, name: str, connect: bool = True, **body: Any) -> Entrant:
        index = len(self.entrants)
        answer = await self.http("POST", f"/api/tournaments/{self.code}/join", index,
                                 name=name, **body)
        assert answer.status_code == 200, answer.text
        entrant = Entrant(answer.json()["participant"], name, answer.json()["token"])
        self.entrants.append(entrant)
        if connect:
            entrant.socket = await socket(self.server(index), self.code, entrant.token)
            await entrant.socket.wait_for(lambda f: f["type"] == "state")
        return entrant

    async def send(self, kind: str, **fields: Any) -> None:
        assert self.host is not None
        await self.host.send({"type": kind, **fields})

    async def phase(self, *wanted: str, timeout: float = ROUND_SECONDS) -> dict[str, Any]:
        """The host's next state in one of ``wanted`` phases."""
        assert self.host is not None
        frame = await self.host.wait_for(
            lambda f: f["type"] == "state" and f["state"]["phase"] in wanted, timeout)
        state: dict[str, Any] = frame["state"]
        return state

    async def seated(self, timeout: float = ROUND_SECONDS) -> dict[str, Any]:
        """The host's next state of a round whose every table is open."""
        assert self.host is not None
        frame = await self.host.wait_for(
            lambda f: f["type"] == "state" and f["state"]["phase"] == "playing"
            and all(t["room"] for t in f["state"]["tables"]), timeout)
        state: dict[str, Any] = frame["state"]
        return state

    async def play_out(self) -> list[list[dict[str, Any]]]:
        """Start, then the next round after each, until over: each round's tables."""
        rounds = []
        await self.send("start")
        while True:
            state = await self.phase("between", "over")
            rounds.append(state["tables"])
            if state["phase"] == "over":
                return rounds
            await self.send("next_round")
            await self.phase("playing")


async def socket(server: ServerProcess, code: str, token: str | None = None) -> Client:
    query = f"?token={token}" if token else ""
    ws = await websockets.connect(f"ws://127.0.0.1:{server.port}/ws/tournaments/{code}{query}",
                                  open_timeout=10, max_size=2**22)
    return Client(ws, None, token)


async def open_tournament(servers: Sequence[ServerProcess], **settings: Any) -> Tournament:
    async with httpx.AsyncClient(base_url=servers[0].http_url, timeout=10) as http:
        made = await http.post("/api/tournaments", json={"name": "Party", "round_limit": 1,
                                                         **settings})
    assert made.status_code == 201, made.text
    tournament = Tournament(made.json()["code"], made.json()["token"], servers)
    tournament.host = await socket(servers[-1], tournament.code, tournament.host_token)
    await tournament.host.wait_for(lambda f: f["type"] == "state")
    return tournament


async def with_people(servers: Sequence[ServerProcess], people: int, **settings: Any
                      ) -> Tournament:
    tournament = await open_tournament(servers, **settings)
    await asyncio.gather(*(tournament.join(f"P{i:02d}") for i in range(people)))
    return tournament


async def table_result(server: ServerProcess, room: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.http_url, timeout=10) as http:
        summary = await http.get(f"/api/rooms/{room}")
    assert summary.status_code == 200, summary.text
    found: dict[str, Any] = summary.json()
    assert found["phase"] == "match_over" and found["result"], found
    return found


def points_of(places: Sequence[int]) -> list[Fraction]:
    """TR-POINTS, written again here: the k-th of n takes n - k, a tie shares its places'."""
    n = len(places)
    shares = []
    for place in places:
        tied = places.count(place)
        shares.append(Fraction(sum(n - k for k in range(place, place + tied)), tied))
    return shares


def expected_standings(people: Sequence[str], tables: Sequence[tuple[list[str | None],
                                                                     dict[str, Any]]]
                       ) -> list[tuple[str, Fraction, Fraction, int]]:
    """(who, points, Buchholz, card points) best first, from each table's seats (ids, None for
    a bot) and its room's summary after the match."""
    points: dict[str, Fraction] = defaultdict(Fraction)
    cards: dict[str, int] = defaultdict(int)
    mates: dict[str, list[str]] = defaultdict(list)
    for seats, summary in tables:
        result = summary["result"]
        shares = points_of(result["places"])
        for seat, who in enumerate(seats):
            if who is None:
                continue
            points[who] += shares[seat]
            cards[who] += result["scores"][seat]
            mates[who] += [m for m in seats if m is not None and m != who]
    order = {who: i for i, who in enumerate(people)}
    rows = [(who, points[who], sum((points[m] for m in mates[who]), Fraction()), cards[who])
            for who in people]
    rows.sort(key=lambda r: (-r[1], -r[2], -r[3], order[r[0]]))
    return rows
