"""Fuzzing the socket edge: generated frames thrown at a live room over a real socket.

    .venv/bin/python -m bench.fuzz [--frames 100000] [--database URL] [--json]

Frames (hypothesis strategies, ``frames()``): valid message shapes with wrong values, random
JSON, deep nesting, unicode and control characters, oversize frames. The room is a two-player
match; the fuzzer is its host (host commands too). After each frame a probe (``sync`` with an
id) asks for the room's state: the frame must be answered (ack, error, pong) or limited (the
socket closed with a documented code), the state must be unchanged unless the frame was
acknowledged or carried no id, and the worker must stay up. Timers are kept off (a rule that
would start one is never sent) so that "unchanged" can be seen.

Prints frames/s and how many frames got each outcome. tests/api/test_fuzz.py runs a CI-sized
number of the same frames.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import websockets
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from app.codes import CLOSES, Close

MESSAGE_TYPES = ["play", "draw", "keep", "uno", "catch", "challenge", "accept", "choose_color",
                 "give", "slap", "chat", "sync", "ping", "leave", "start", "rules", "add_bot",
                 "kick", "next_round", "pass", "react", "rematch", "timeout", "", "PLAY"]
FIELDS = ["card", "color", "target", "uno", "text", "seat", "preset", "rules", "more", "emoji",
          "seq", "id", "type"]
CARDS = ["R5", "r5", "W", "W+4", "G+2", "WS", "WC1", "WB", "BS", "YR", "ZZ", "R10", "", "R5 "]
TIMED = {"turn_seconds", "uno_slap", "five_exchange"}  # rules that start a timer: not sent
ALLOWED_CLOSES = {Close.TOO_BIG, Close.KICKED}  # oversize; "leave" (a bot takes the seat)

_scalars = (st.none() | st.booleans() | st.integers(-(2**70), 2**70)
            | st.floats(allow_nan=False, allow_infinity=False)
            | st.text(st.characters(exclude_categories=["Cs"]), max_size=20)
            | st.sampled_from(CARDS) | st.sampled_from(["R", "G", "x", "house", "crazy"]))
json_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _untimed(fields: dict[str, Any]) -> dict[str, Any]:
    rules = fields.get("rules")
    if isinstance(rules, dict):
        fields["rules"] = {k: v for k, v in rules.items() if k not in TIMED}
    return fields


shaped = st.builds(
    lambda kind, fields: {"type": kind, **_untimed(fields)},
    st.sampled_from(MESSAGE_TYPES),
    st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=6), json_values, max_size=4),
)
hostile_text = st.text(
    st.characters(categories=["Cc", "Cf", "Zl", "Zp", "Mn", "So", "Lo"]), min_size=1,
    max_size=60)


def frames() -> st.SearchStrategy[str]:
    """One frame as a client could send it (valid UTF-8; surrogates only as JSON escapes)."""
    return st.one_of(
        shaped.map(lambda m: json.dumps(m, ensure_ascii=False)),
        shaped.map(json.dumps),  # every non-ASCII character escaped
        st.builds(lambda t, i: json.dumps({"type": "chat", "text": t, "id": i}), hostile_text,
                  st.integers(0, 99)),
        st.builds(lambda n: '{"type": "chat", "text": "\\u' + f"d{n:03x}" + '", "id": 1}',
                  st.integers(0x800, 0xfff)),
        json_values.map(json.dumps),
        st.text(st.characters(exclude_categories=["Cs"]), max_size=100),
        st.integers(100, 2000).map(lambda n: "[" * n + "]" * n),
        st.integers(100, 1000).map(lambda n: '{"type": "play", "card": ' + "{\"a\": " * n
                                   + "1" + "}" * n + "}"),
        st.integers(4097, 30000).map(lambda n: json.dumps({"type": "chat", "text": "x" * n})),
    )


def _state(frames: list[dict[str, Any]]) -> dict[str, Any]:
    """The last state among ``frames``, without its clock reading."""
    states = [f["state"] for f in frames if f["type"] == "state"]
    assert states, frames
    return {k: v for k, v in states[-1].items() if k != "now_ms"}


class Table:
    """A two-player room in a match, and its host's socket (made again after a close)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.seat_url = ""  # the host's socket URL, while its seat is its own
        self.ws: Any = None
        self.state: dict[str, Any] | None = None
        self.probes = 0

    async def open(self) -> None:
        async with httpx.AsyncClient(base_url=self.url, timeout=10) as http:
            made = (await http.post("/api/rooms", json={
                "name": "Fuzz", "rules": {"turn_seconds": 0}, "public": False})).json()
            await http.post(f"/api/rooms/{made['code']}/join", json={"name": "Other"})
        ws_url = self.url.replace("http", "ws", 1)
        self.seat_url = f"{ws_url}/ws/rooms/{made['code']}?token={made['token']}"
        await self.reconnect()
        await self.ws.send('{"type": "start"}')
        self.state = await self.probe()

    async def reconnect(self) -> None:
        self.ws = await websockets.connect(self.seat_url, max_size=2**22)
        await self._until(lambda f: f["type"] == "state")

    async def _until(self, done: Any) -> list[dict[str, Any]]:
        got: list[dict[str, Any]] = []
        async with asyncio.timeout(10):
            while True:
                frame = json.loads(await self.ws.recv())
                got.append(frame)
                if done(frame):
                    return got

    async def probe(self) -> dict[str, Any]:
        """The room's state now (a ``sync`` and its ack)."""
        await self._send_probe()
        return _state(await self._until(self._probe_answered))

    async def _send_probe(self) -> None:
        self.probes += 1
        await self.ws.send(json.dumps({"type": "sync", "id": f"probe-{self.probes}"}))

    def _probe_answered(self, frame: dict[str, Any]) -> bool:
        return frame.get("id") == f"probe-{self.probes}" and frame["type"] != "state"

    async def throw(self, frame: str) -> str:
        """Send ``frame``, then a probe; the frame's outcome. AssertionError if a property
        does not hold."""
        if self.ws is None:
            if self.seat_url:
                await self.reconnect()
                self.state = await self.probe()  # its presence changed the room
            else:
                await self.open()
        before = self.state
        try:
            await self.ws.send(frame)
            await self._send_probe()
            got = await self._until(self._probe_answered)
        except websockets.ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            assert code in ALLOWED_CLOSES, f"closed {code} after {frame[:200]!r}"
            self.ws = None
            if code == Close.KICKED:
                self.seat_url = ""  # the seat is a bot's now: a new table
            return f"closed:{code}"
        probe = f"probe-{self.probes}"
        answers = [f for f in got if f["type"] in ("ack", "error", "pong") and f.get("id") != probe]
        after = self.state = _state(got)
        if answers:
            answer = answers[-1]
            if answer["type"] == "error":
                assert after == before, f"a refused frame changed the room: {frame[:200]!r}"
                return f"error:{answer['code']}"
            return str(answer["type"])
        if sum(1 for f in got if f["type"] == "state") > 1:
            return "state"  # a sync without an id
        assert after != before, f"a frame got no answer and changed nothing: {frame[:200]!r}"
        return "applied-without-id"

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


def run_frames(url: str, examples: int, per_example: int = 10) -> Counter[str]:
    """Throw ``examples`` lists of ``per_example`` generated frames; outcome counts."""
    outcomes: Counter[str] = Counter()
    table = Table(url)
    loop = asyncio.new_event_loop()

    @settings(max_examples=examples, deadline=None, database=None,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(st.lists(frames(), min_size=per_example, max_size=per_example))
    def throw_all(batch: list[str]) -> None:
        for frame in batch:
            outcomes[loop.run_until_complete(table.throw(frame))] += 1

    try:
        throw_all()
    finally:
        loop.run_until_complete(table.close())
        loop.close()
    return outcomes


def serve(database: str | None) -> tuple[Any, str]:
    from bench.server import ONE_ADDRESS_LIMITS, free_port, start_process, wait_up  # noqa: PLC0415

    port = free_port()
    db = Path(tempfile.mkdtemp()) / "fuzz.db"
    env = {"UNO_DATABASE_URL": database or f"sqlite+aiosqlite:///{db}",
           "UNO_PLAYER_RATE": "100000000", "UNO_BOT_DELAY_MS": "[600000,600000]",
           **ONE_ADDRESS_LIMITS}
    process = start_process([sys.executable, "-m", "app", "--port", str(port),
                             "--log-level", "warning"], env)
    url = f"http://127.0.0.1:{port}"
    wait_up(url, process)
    return process, url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=100_000)
    parser.add_argument("--database", help="UNO_DATABASE_URL (default: a fresh SQLite file)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    from bench.server import stop  # noqa: PLC0415

    process, url = serve(args.database)
    try:
        started = time.perf_counter()
        outcomes = run_frames(url, max(1, args.frames // 10), per_example=10)
        seconds = time.perf_counter() - started
        alive = httpx.get(f"{url}/healthz", timeout=5).status_code == 200
    finally:
        stop(process)
    thrown = sum(outcomes.values())
    report = {"frames": thrown, "seconds": round(seconds, 1),
              "frames_per_second": round(thrown / seconds), "worker_up": alive,
              "outcomes": dict(outcomes.most_common())}
    if args.json:
        print(json.dumps(report))
        return
    print(f"{thrown} frames in {seconds:.1f} s: {thrown / seconds:.0f} frames/s (each followed "
          f"by a sync probe); worker up after: {alive}")
    for outcome, count in outcomes.most_common():
        code = outcome.split(":")[-1]
        meaning = CLOSES.get(Close(int(code)), "") if outcome.startswith("closed:") and \
            code.isdigit() else ""
        print(f"  {count:>7}  {outcome}  {meaning}")
    sys.stdout.flush()
    os._exit(0 if alive else 1)


if __name__ == "__main__":
    main()
