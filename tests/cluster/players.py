"""Players of a test cluster, as browsers: each seat's socket through one worker (or, when that
one is down, the next that answers, as a load balancer would), a chat line every ``CHAT_EVERY``
seconds, reconnecting with ``since``; rooms made across three workers; and ``play_through``,
which plays while something happens to the cluster and checks that every acknowledged move is
in the rooms' logs in Postgres and every client is back in its seat."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from dataclasses import dataclass, field

import httpx

from bench.storm import stored_chats
from bench.wsclient import ConnectionClosedError, LeanSocket, connect
from tests.server_fixture import ServerProcess

from .cluster import Cluster

ROOMS = 30
CHAT_EVERY = 1.0  # seconds between one client's moves (jittered)
BACK_WITHIN = 30.0  # seconds after the event: every client has a move acknowledged again


@dataclass
class Player:
    """One seat's socket through one worker, as a browser: a chat line every ``CHAT_EVERY`` s
    (each with its own id and text), a reconnect with ``since`` when the socket closes, then a
    ``sync`` whose answer seats it again."""

    code: str
    seat: int
    token: str
    worker: ServerProcess
    others: list[ServerProcess] = field(default_factory=list)  # tried when ``worker`` is down
    every: float = CHAT_EVERY  # seconds between its moves (jittered)
    ws: LeanSocket | None = None
    last_seq: int = 0
    seated: bool = False  # the last state said this socket holds its seat
    sent: dict[str, tuple[str, float]] = field(default_factory=dict)  # id -> (text, sent at)
    acked: list[tuple[float, float]] = field(default_factory=list)  # (sent at, latency)
    lines: set[str] = field(default_factory=set)  # texts the server acknowledged
    closes: list[float] = field(default_factory=list)
    seated_at: list[float] = field(default_factory=list)  # states that seated it again
    heard: set[str] = field(default_factory=set)  # this seat's lines seen as events
    early_acks: int = 0  # acks that came before their line's event (the protocol forbids it)
    _n: int = 0

    def on_text(self, raw: str) -> None:
        frame = json.loads(raw)
        if isinstance(frame.get("seq"), int):
            self.last_seq = max(self.last_seq, frame["seq"])
        kind = frame.get("type")
        if kind == "state":
            you = frame["state"].get("you") or {}
            self.seated = you.get("seat") == self.seat
            if self.seated:
                self.seated_at.append(time.monotonic())
        elif kind == "event" and frame["event"].get("kind") == "chat":
            self.heard.add(frame["event"].get("text", ""))
        elif kind == "ack" and frame.get("id") in self.sent:
            line, sent_at = self.sent.pop(frame["id"])
            self.early_acks += line not in self.heard
            self.lines.add(line)
            self.acked.append((sent_at, time.monotonic() - sent_at))

    def on_close(self) -> None:
        self.ws = None
        self.seated = False
        self.closes.append(time.monotonic())

    async def open(self) -> None:
        """Connect (with ``since``) through its worker, or, as a load balancer would, through
        the next one that answers."""
        since = f"&since={self.last_seq}" if self.last_seq else ""
        for worker in (self.worker, *self.others):
            try:
                self.ws = await connect(f"ws://127.0.0.1:{worker.port}/ws/rooms/{self.code}"
                                        f"?token={self.token}{since}", self.on_text,
                                        timeout=10, on_close=self.on_close)
                break
            except OSError:
                continue
        else:
            raise OSError("no worker answers")
        self.ws.send('{"type": "sync", "id": "back"}')  # its answer: a state with the seat

    async def play(self, until: float) -> None:
        await asyncio.sleep(random.uniform(0, self.every))
        while time.monotonic() < until:
            if self.ws is None:
                try:
                    await self.open()
                except (OSError, TimeoutError, ConnectionClosedError):
                    await asyncio.sleep(0.1)
                    continue
            self._n += 1
            mid, line = f"m{self._n}", f"{self.code}.{self.seat}.{self._n}"
            self.sent[mid] = (line, time.monotonic())
            try:
                assert self.ws is not None
                self.ws.send(json.dumps({"type": "chat", "text": line, "id": mid}))
            except ConnectionClosedError:
                self.ws = None
            await asyncio.sleep(self.every * random.uniform(0.7, 1.3))

    def first_ack_after(self, moment: float) -> float | None:
        return min((sent + latency for sent, latency in self.acked if sent >= moment),
                   default=None)


async def make_rooms(cluster: Cluster, rooms: int = ROOMS, every: float = CHAT_EVERY
                     ) -> list[Player]:
    """``rooms`` rooms in a match, each made on worker ``i % 3`` (its owner) with seat ``s``
    joined and connected through worker ``i + s``."""
    workers = cluster.workers
    players: list[Player] = []
    async with httpx.AsyncClient(timeout=30) as http:
        async def room(index: int) -> list[Player]:
            owner = workers[index % 3]
            made = (await http.post(f"{owner.http_url}/api/rooms", json={
                "name": "Ann", "rules": {"turn_seconds": 0}})).json()
            code, tokens = made["code"], [made["token"]]
            for seat in (1, 2):
                joined = await http.post(
                    f"{workers[(index + seat) % 3].http_url}/api/rooms/{code}/join",
                    json={"name": f"P{seat}"})
                assert joined.status_code == 200, joined.text
                tokens.append(joined.json()["token"])
            return [Player(code, seat, tokens[seat], workers[(index + seat) % 3],
                           [w for w in workers if w is not workers[(index + seat) % 3]], every)
                    for seat in range(3)]

        for group in await asyncio.gather(*(room(i) for i in range(rooms))):
            players += group
    for player in players:
        await player.open()
    async with asyncio.timeout(20):
        while not all(p.seated for p in players):
            await asyncio.sleep(0.05)
    for host in players[::3]:  # every room in a match
        assert host.ws is not None
        host.ws.send('{"type": "start", "id": "start"}')
    return players


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def longest_gap(players: list[Player], start: float, end: float) -> float:
    """The longest time any table went without an acknowledged move between ``start`` and
    ``end``."""
    by_room: dict[str, list[float]] = {}
    for p in players:
        by_room.setdefault(p.code, []).extend(sent + latency for sent, latency in p.acked)
    gaps = [0.0]
    for moments in by_room.values():
        inside = sorted(t for t in moments if start <= t <= end)
        points = [start, *inside, end]
        gaps.append(max(b - a for a, b in itertools.pairwise(points)))
    return max(gaps)


async def play_through(cluster: Cluster, players: list[Player], event: str,
                       happen: object, back_within: float = BACK_WITHIN) -> None:
    """Play, make ``happen`` happen (a blocking callable, run in a thread), play on until every
    client has a move acknowledged again; then check and print the figures."""
    assert callable(happen)
    end = time.monotonic() + 3600
    playing = [asyncio.create_task(p.play(end)) for p in players]
    try:
        await asyncio.sleep(2.0)
        started = time.monotonic()
        detail = await asyncio.to_thread(happen)
        over = time.monotonic()  # the event's own end (a deploy's last worker back)
        async with asyncio.timeout(back_within):
            while any(p.first_ack_after(over) is None or not p.seated for p in players):
                await asyncio.sleep(0.05)
        recovered = max(p.first_ack_after(over) or 0.0 for p in players) - started
        await asyncio.sleep(1.0)
        ended = time.monotonic()
    finally:
        for task in playing:
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)
        for player in players:
            if player.ws is not None:
                player.ws.close()
    await asyncio.sleep(0.5)  # a line is stored before its ack: nothing left in flight
    stored = await stored_chats(cluster.database_url)
    acked = {line for p in players for line in p.lines}
    assert acked - stored == set(), f"{len(acked - stored)} acknowledged moves lost"
    assert sum(p.early_acks for p in players) == 0  # an ack follows its events, always
    during = sorted(latency for p in players for sent, latency in p.acked
                    if started <= sent <= started + recovered)
    p99 = during[min(len(during) - 1, int(len(during) * 0.99))] if during else 0.0
    moved = [p for p in players if any(started <= c < ended for c in p.closes)]
    out = [min((t for t in p.seated_at if t > c), default=ended) - c
           for p in moved for c in p.closes if started <= c < ended]
    gap = longest_gap(players, started, started + recovered)
    print(f"\n{event} ({detail}): {len(moved)} of {len(players)} sockets closed and back in "
          f"their seats, the longest {max(out, default=0.0):.2f} s out of it; every client had "
          f"a move acknowledged after it within {recovered:.2f} s of its start (one move every "
          f"{players[0].every:.0f} s each); move p99 meanwhile {ms(p99)} over {len(during)} "
          f"moves; the longest gap a table saw {gap:.2f} s; "
          f"{len(acked)} moves acknowledged, 0 lost")
