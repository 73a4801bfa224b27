"""Live tables under load: N rooms of 4 client bots over real sockets, one action per seat per
``--interval`` seconds, against the real server (SQLite, in-process bus) in its own process,
with the compiled engine as ``scripts/serve.sh`` serves it (``--engine sources``: without).

    .venv/bin/python -m bench.server [--rooms 500] [--seconds 30] [--interval 3]
                                     [--engine compiled|sources] [--ws direct,stock]
                                     [--repeat N] [--json]

Prints sockets held, actions/s, action-to-last-recipient latency p50/p99 (from sending a move
to the moment the last of the room's 4 sockets has its first event) of the moves sent in the
measured window, where the slowest 1 % were sent (a few 100 ms windows: stalls; many: a server
slow throughout), the server's RSS and CPU per action (three places: the target's 2x is within
the second's rounding), and apart, the moves of the warm-up before it (every table starting
within one interval). The same load then runs against a bare ``websockets`` broadcast server
(no game, no database) to show the transport's own cost; the ratios compare the two. With
``--repeat N`` the game server and the bare one take turns N times, each turn's ratios (p99,
CPU) printed; ``--ws direct,stock`` runs the game server under each WebSocket protocol in turn
(ours, and uvicorn's own) and prints the server's CPU per action under each. The clients are
``bench.wsclient``'s lean sockets, all in this process.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import websockets

from bench.wsclient import ConnectionClosedError, LeanSocket, connect

ROOT = Path(__file__).resolve().parent.parent
RULES = {"turn_seconds": 0, "deck": "classic", "challenge": "off"}
# Players do not all think for exactly as long. With one fixed wait after each move, the tables
# a stall held up all moved again together a wait later, and again after that: sends per 20 ms
# had twice the spread of independent players', and an autocorrelation of 0.8 at one wait.
THINK_JITTER = 0.5


# Every benchmark client comes from 127.0.0.1: the limits per client address would see one
# client opening thousands of sockets and rooms.
ONE_ADDRESS_LIMITS = {
    "UNO_MAX_ROOMS": "100000",
    "UNO_ROOMS_PER_MINUTE": "1000000",
    "UNO_TOKENS_PER_MINUTE": "1000000",
    "UNO_EMPTY_ROOMS_PER_CLIENT": "1000000",
    "UNO_SOCKETS_PER_CLIENT": "1000000",
    "UNO_SOCKETS_PER_ADDRESS": "1000000",
    "UNO_CLIENT_RATE": "100000000",
    "UNO_ADDRESS_RATE": "100000000",
}


def engine_env(engine: str) -> dict[str, str]:
    """The server's engine as ``scripts/serve.sh`` gives it: ``compiled`` (built once per change
    of the sources into .venv/engine-build, as serve.sh does) or ``sources``."""
    if engine == "sources":
        return {}
    from app.engine._build import cached  # noqa: PLC0415 (only when compiling)

    return {"UNO_ENGINE_BUILD": str(cached(Path(".venv/engine-build")))}


def game_command(module: str, port: int, *args: str) -> list[str]:
    """``python -m module`` (the app, or a bench's wrapper of it) serving the game as the
    benchmarks load it: on ``port``, warnings only, frames of 4 KB at most."""
    return [sys.executable, "-m", module, *args, "--port", str(port), "--log-level", "warning",
            "--ws-max-size", "4096"]


def game_env(folder: Path, engine: str, database: str | None = None) -> dict[str, str]:
    """Its settings: ``database`` (a URL; by default a SQLite file in ``folder``), the load's
    one address allowed all its rooms and sockets, ``engine`` as ``engine_env`` gives it."""
    return {"UNO_DATABASE_URL": database or f"sqlite+aiosqlite:///{folder / 'bench.db'}",
            **ONE_ADDRESS_LIMITS, **engine_env(engine)}


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))


def free_port() -> int:
    import socket  # noqa: PLC0415

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status")
    if not status.exists():
        return float("nan")
    for line in status.read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


# What a seat's legal moves (O-LEGAL) may hold on its own turn, in the order a bench player
# picks them: it never guesses a rule, it takes the server's list.
TURN_ACTIONS = ("choose_color", "accept", "play", "keep", "draw")


class Seat:
    """One client socket that follows the table from its own events."""

    def __init__(self, room: BenchRoom, seat: int) -> None:
        self.room = room
        self.seat = seat
        self.ws: LeanSocket | None = None
        self.hand_size = 0
        self.legal: list[dict[str, Any]] = []  # what the server says this seat may send now
        self.last_seq = 0

    def on_frame(self, raw: str | bytes) -> None:
        now = time.perf_counter()
        frame = json.loads(raw)
        seq = frame.get("seq")
        if seq is not None:
            self.last_seq = seq
            self.room.arrived(self, seq, now)
        kind = frame["type"]
        if kind == "state":
            state = frame["state"]
            you = state["you"]
            self.hand_size = len(you["hand"]) if you else 0
            self.legal = you["legal"] if you else []
            self.room.from_state(state)
        elif kind == "event":
            legal = frame.get("legal")
            if legal is not None:
                self.legal = legal
            self.on_event(frame["event"])
        elif kind == "error":  # the table moved on without this client noticing: resync
            self.room.desync = True
            self.room.errors.append(frame.get("message", ""))
            self.room.target = None
            self.room.done.set()

    def on_event(self, event: dict[str, Any]) -> None:
        kind = event["kind"]
        room = self.room
        if kind == "round_started":
            self.hand_size = len(event.get("hand", []))
            room.phase = "playing"
        elif kind in ("played", "drew") and event.get("seat") == self.seat:
            self.hand_size = event["cards_left"]
        if self.seat == 0:  # one seat keeps the shared table facts
            room.on_public(event)


# One measured move: when it was sent and its latency to the last of the room's sockets.
Move = tuple[float, float]


class BenchRoom:
    def __init__(self, code: str, tokens: list[str], results: list[Move],
                 warmup: list[Move] | None = None) -> None:
        self.code = code
        self.tokens = tokens
        self.seats = [Seat(self, s) for s in range(len(tokens))]
        self.results = results
        self.warmup = warmup  # the moves sent before the window, if wanted
        self.phase = "lobby"
        self.desync = False
        self.errors: list[str] = []
        self.target: int | None = None
        self.sent_at = 0.0
        self.actor = 0  # the seat whose move is awaited
        self.arrivals = [0.0] * len(tokens)  # each seat's latency for that move
        self.deliveries: list[tuple[int, list[float]]] | None = None  # (actor, arrivals) sink
        self.got: set[int] = set()
        self.last_at = 0.0
        self.done = asyncio.Event()
        # Moves sent before this moment are the warm-up's, even if answered in the window (at
        # 1,500 rooms, the tables all starting at once: seconds).
        self.counted_from = 0.0

    def from_state(self, state: dict[str, Any]) -> None:
        self.phase = state["phase"]
        self.desync = False

    def on_public(self, event: dict[str, Any]) -> None:
        if event["kind"] in ("round_over", "match_over"):
            self.phase = event["kind"]

    def arrived(self, seat: Seat, seq: int, now: float) -> None:
        if self.target is not None and seq >= self.target and seat.seat not in self.got:
            self.got.add(seat.seat)
            self.last_at = now
            self.arrivals[seat.seat] = now - self.sent_at
            if len(self.got) < len(self.seats):
                return
            if self.sent_at >= self.counted_from:
                self.results.append((self.sent_at, self.last_at - self.sent_at))
                if self.deliveries is not None:
                    self.deliveries.append((self.actor, list(self.arrivals)))
            elif self.warmup is not None:
                self.warmup.append((self.sent_at, self.last_at - self.sent_at))
            self.target = None
            self.done.set()

    def next_move(self) -> tuple[Seat, dict[str, Any]] | None:
        if self.phase in ("round_over", "match_over", "lobby"):
            return self.seats[0], {"type": "next_round" if self.phase == "round_over" else "start"}
        for kind in TURN_ACTIONS:
            for seat in self.seats:
                move = next((m for m in seat.legal if m["type"] == kind), None)
                if move is not None:
                    return seat, self._complete(seat, move)
        return None

    @staticmethod
    def _complete(actor: Seat, move: dict[str, Any]) -> dict[str, Any]:
        """A legal move as sent: a color for a wild or a color choice, UNO with the
        second-to-last card."""
        move = dict(move)
        if move["type"] == "choose_color" or move.get("card", "").startswith("W"):
            move["color"] = "R"
        if move["type"] == "play":
            move["uno"] = actor.hand_size == 2
        return move

    async def drive(self, interval: float, until: float, jitter: float = THINK_JITTER) -> None:
        """A move ``interval / 4`` seconds after the last one arrived, on average (one per seat
        per ``interval``), each wait drawn within +-``jitter`` of that."""
        await asyncio.sleep(random.random() * interval)
        pause = interval / len(self.seats)
        while time.perf_counter() < until:
            await asyncio.sleep(pause * random.uniform(1 - jitter, 1 + jitter))
            if self.desync:
                self.desync = False
                with contextlib.suppress(ConnectionClosedError):
                    opened(self.seats[0]).send('{"type":"sync"}')
                continue
            move = self.next_move()
            if move is None:
                continue
            actor, message = move
            try:
                self.send_move(actor, message)
            except ConnectionClosedError:
                return  # counted as a lost socket in the figures
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(5):
                    await self.done.wait()
            self.target = None

    def send_move(self, actor: Seat, message: dict[str, Any]) -> None:
        """Send ``actor``'s move, timed until all the room's sockets have its first event
        (``done`` is set then)."""
        self.actor = actor.seat
        self.got.clear()
        self.done.clear()
        self.target = actor.last_seq + 1
        self.sent_at = time.perf_counter()
        opened(actor).send(json.dumps(message))


def opened(seat: Seat) -> LeanSocket:
    assert seat.ws is not None, "connect the seat first"
    return seat.ws


async def connect_seat(seat: Seat, url: str) -> None:
    seat.ws = await connect(url, seat.on_frame)


def seat_url(ws_base: str, seat: Seat) -> str:
    """``seat``'s socket on the game server at ``ws_base``, with its token."""
    room = seat.room
    return f"{ws_base}/ws/rooms/{room.code}?token={room.tokens[seat.seat]}"


async def connect_tables(tables: list[BenchRoom], url: Callable[[Seat], str]) -> None:
    """Every seat of ``tables`` connected to ``url(seat)``, 25 tables at a time."""
    for start in range(0, len(tables), 25):
        batch = [s for t in tables[start:start + 25] for s in t.seats]
        await asyncio.gather(*(connect_seat(s, url(s)) for s in batch))


def close_all(tables: list[BenchRoom]) -> None:
    for table in tables:
        for seat in table.seats:
            if seat.ws is not None:
                seat.ws.close()


def answered(response: httpx.Response) -> dict[str, Any]:
    """The JSON body of a successful setup request; the server's own error otherwise."""
    if response.is_error:
        raise RuntimeError(f"{response.request.method} {response.request.url.path}: "
                           f"{response.status_code} {response.text}")
    body: dict[str, Any] = response.json()
    return body


async def bench_table(http: httpx.AsyncClient, i: int) -> tuple[str, list[str]]:
    """Room number ``i``: made by its first player, joined by three more; its code and the
    four seats' tokens."""
    made = answered(await http.post("/api/rooms", json={
        "name": f"p{i}a", "rules": RULES, "public": False}))
    tokens = [made["token"]]
    for n in "bcd":
        joined = await http.post(f"/api/rooms/{made['code']}/join", json={"name": f"p{i}{n}"})
        tokens.append(answered(joined)["token"])
    return made["code"], tokens


async def uno_rooms(base: str, count: int) -> list[tuple[str, list[str]]]:
    rooms = []
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as http:
        async def one(i: int) -> tuple[str, list[str]]:
            for attempt in range(3):
                try:
                    return await table(i)
                except (httpx.ReadError, httpx.RemoteProtocolError):
                    # A pooled connection the server closed as it was reused (keep-alive
                    # timeout): start a new table; the half-made one is left unused.
                    if attempt == 2:
                        raise
            raise AssertionError("unreachable")

        async def table(i: int) -> tuple[str, list[str]]:
            return await bench_table(http, i)

        for start in range(0, count, 50):
            rooms += await asyncio.gather(*(one(i) for i in range(start, min(count, start + 50))))
    return rooms


@dataclass(frozen=True)
class WindowHooks:
    """Called by ``run_load``: ``idle`` once every socket is connected and before anyone moves,
    ``start`` and ``end`` as the measured window starts and ends (bench/instructions.py)."""

    idle: Callable[[], Awaitable[None]]
    start: Callable[[], Awaitable[None]]
    end: Callable[[], Awaitable[None]]


async def run_load(ws_base: str, rooms: list[tuple[str, list[str]]], seconds: float,
                   interval: float, bare: bool, jitter: float = THINK_JITTER,
                   server_pid: int | None = None, metrics: str | None = None,
                   hooks: WindowHooks | None = None) -> dict[str, Any]:
    """Drive ``rooms`` and measure; with ``server_pid``, that process's CPU per action too, and
    with ``metrics`` (the server's base URL), what its /metrics say of the window."""
    results: list[Move] = []
    warmup: list[Move] = []
    tables = [BenchRoom(code, tokens, results, warmup) for code, tokens in rooms]

    def url(seat: Seat) -> str:
        return f"{ws_base}/{seat.room.code}" if bare else seat_url(ws_base, seat)

    await connect_tables(tables, url)
    if bare:
        for table in tables:
            table.phase, table.next_move = "playing", _bare_move(table)  # type: ignore[method-assign]
    await asyncio.sleep(1)
    if hooks is not None:
        await hooks.idle()
    started = 0.0
    cpu_at_start = (0.0, 0.0)
    before: dict[str, float] = {}

    async def window_starts() -> None:
        nonlocal started, cpu_at_start
        if metrics is not None:
            before.update(await scrape(metrics))
        started = time.perf_counter()
        cpu_at_start = user_and_system(server_pid) if server_pid else (0.0, 0.0)
        if hooks is not None:
            await hooks.start()

    await drive_tables(tables, seconds, interval, window_starts, jitter)
    if hooks is not None:
        await hooks.end()
    elapsed = time.perf_counter() - started
    user, system = ((now - then for now, then in zip(user_and_system(server_pid), cpu_at_start,
                                                     strict=True))
                    if server_pid else (float("nan"), float("nan")))
    cpu = user + system
    inside = window_figures([before], [await scrape(metrics)]) if metrics is not None else {}
    sockets = sum(1 for t in tables for s in t.seats if opened(s).open)
    close_all(tables)
    ordered = sorted(latency for _, latency in results)
    return {"sockets": sockets, "actions": len(results), "actions_per_s": len(results) / elapsed,
            "p50_ms": quantile_ms(ordered, 0.5), "p99_ms": quantile_ms(ordered, 0.99),
            "mean_ms": statistics.fmean(ordered) * 1000 if ordered else float("nan"),
            "server_cpu_ms_per_action": cpu * 1000 / max(1, len(results)),
            "server_system_ms_per_action": system * 1000 / max(1, len(results)),
            "inside": inside, "tail": tail_bursts(results),
            "warmup_p99_ms": quantile_ms(sorted(latency for _, latency in warmup), 0.99),
            "warmup_max_ms": max((latency for _, latency in warmup), default=0.0) * 1000}


# What the workers' /metrics say of the measured window: where an owner spends a move's time.
WORKER_HISTOGRAMS = {
    "uno_store_commit_seconds": "store commit",
    "uno_command_latency_seconds": "command arrival to events out",
    "uno_event_loop_lag_seconds": "event-loop lag",
    "uno_gc_pause_seconds": "garbage collections",
}


async def scrape(base_url: str) -> dict[str, float]:
    """Every sample of the /metrics of the worker at ``base_url``, by name and labels."""
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        body = (await http.get("/metrics")).text
    samples = (line.rpartition(" ") for line in body.splitlines() if not line.startswith("#"))
    return {name: float(value) for name, _, value in samples}


def window_figures(before: list[dict[str, float]], after: list[dict[str, float]]
                   ) -> dict[str, dict[str, float]]:
    """Each histogram's mean, p50 and p99 over the measured window, all workers together (a
    quantile is the upper bound of its bucket: at most that), and the store's group commit."""
    window: dict[str, float] = {}
    for old, new in zip(before, after, strict=True):
        for name, value in new.items():
            window[name] = window.get(name, 0.0) + value - old.get(name, 0.0)
    figures: dict[str, dict[str, float]] = {}
    for name, label in WORKER_HISTOGRAMS.items():
        count = window.get(f"{name}_count", 0.0)
        if count == 0:
            continue
        buckets = sorted((float(key.split('"')[1]), value) for key, value in window.items()
                         if key.startswith(f"{name}_bucket"))
        figures[label] = {"count": count, "mean_ms": window[f"{name}_sum"] / count * 1000} | {
            f"p{round(q * 100)}_ms": next(bound for bound, n in buckets if n >= q * count) * 1000
            for q in (0.5, 0.99)}
    transactions = window.get("uno_store_transactions_total", 0.0)
    figures["store"] = {"commands per transaction":
                        window.get("uno_store_commit_seconds_count", 0.0) / max(1.0, transactions)}
    return figures


def inside_lines(inside: dict[str, dict[str, float]]) -> list[str]:
    """``window_figures`` as lines ("p99 <= 10 ms": within the 10 ms bucket)."""
    return [f"    inside the server, {what}: " + ", ".join(
        f"mean {value:.2f} ms" if key == "mean_ms" else
        f"{key.removesuffix('_ms')} <= {value:g} ms" if key.endswith("_ms") else
        f"{key} {value:.0f}" if key == "count" else
        f"{key} {value:.2f}" for key, value in figures.items())
        for what, figures in inside.items()]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process ``pid`` has used so far."""
    return sum(user_and_system(pid))


def user_and_system(pid: int) -> tuple[float, float]:
    """The user and the system (kernel) CPU time the process ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


async def drive_tables(tables: list[BenchRoom], seconds: float, interval: float,
                       window_starts: Callable[[], Awaitable[None]],
                       jitter: float = THINK_JITTER) -> None:
    """Drive every table through a warm-up, call ``window_starts`` (the server's figures are
    read there), then drive them for ``seconds`` more: a table's ``results`` get only the moves
    sent from then on, its ``warmup`` the others. The clients' collector is off from before the
    first move."""
    with clients_without_gc():
        warm = time.perf_counter() + min(5.0, seconds / 4)
        until = warm + seconds
        for table in tables:
            table.counted_from = float("inf")  # the warm-up's until the window starts
        drivers = [asyncio.create_task(t.drive(interval, until, jitter)) for t in tables]
        await asyncio.sleep(warm - time.perf_counter())
        await window_starts()
        window = time.perf_counter()
        for table in tables:
            table.counted_from = window
        await asyncio.gather(*drivers)


@contextlib.contextmanager
def clients_without_gc() -> Iterator[None]:
    """Keep the clients' own garbage collector out of the figures: its full collections of
    2,000 sockets' state paused this process for 100-180 ms, counted as latency. Reference
    counting still frees everything but cycles, which wait for the end of the run. Enter it
    before any move is sent: the full collection it starts with is such a pause too."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


def tail_bursts(moves: list[Move], width: float = 0.1) -> dict[str, float]:
    """Where the slowest 1 % of ``moves`` were sent: the fewest ``width``-second windows that
    hold nine in ten of them. A handful means the p99 is a few stalls (a collection, a machine
    hiccup); hundreds, a server slow throughout."""
    if not moves:
        return {"windows": 0, "window_ms": width * 1000}
    threshold = sorted(latency for _, latency in moves)[int(0.99 * len(moves))]
    per_window: dict[int, int] = {}
    for sent, latency in moves:
        if latency >= threshold:
            per_window[int(sent / width)] = per_window.get(int(sent / width), 0) + 1
    counts = sorted(per_window.values(), reverse=True)
    needed, held = 0.9 * sum(counts), 0
    for windows, count in enumerate(counts, 1):
        held += count
        if held >= needed:
            return {"windows": windows, "window_ms": width * 1000}
    return {"windows": len(counts), "window_ms": width * 1000}


def tail_line(tail: dict[str, float]) -> str:
    return (f"slowest 1 %: nine in ten sent within {tail['windows']:.0f} windows of "
            f"{tail['window_ms']:.0f} ms")


def quantile_ms(ordered: list[float], q: float) -> float:
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def _bare_move(table: BenchRoom) -> Any:
    turns = itertools.count(1)

    def move() -> tuple[Seat, dict[str, Any]]:
        turn = next(turns) % len(table.seats)
        return table.seats[turn], {"type": "play", "card": "R7", "color": "R"}
    return move


async def bare_server(port: int, delay: float = 0.0) -> None:
    """A broadcast server: every message goes to every socket of its path, with a seq, after
    ``delay`` seconds (tests: a move is then in flight most of the time)."""
    groups: dict[str, set[Any]] = {}
    seqs: dict[str, int] = {}

    async def handler(ws: Any) -> None:
        path = ws.request.path
        group = groups.setdefault(path, set())
        group.add(ws)
        try:
            async for raw in ws:
                if delay:
                    await asyncio.sleep(delay)
                seqs[path] = seqs.get(path, 0) + 1
                frame = json.dumps({"type": "event", "seq": seqs[path],
                                    "event": {"kind": "played", **json.loads(raw)}})
                websockets.broadcast(group, frame)
        finally:
            group.discard(ws)

    async with websockets.serve(handler, "127.0.0.1", port, max_size=4096, compression=None):
        await asyncio.Future()


def start_process(args: list[str], env: dict[str, str], log: Path | None = None
                  ) -> subprocess.Popen[bytes]:
    """Start a server process; its output is appended to ``log`` if given, dropped if not."""
    out = subprocess.DEVNULL if log is None else log.open("ab")
    try:
        return subprocess.Popen(args, cwd=ROOT, env={**os.environ, **env}, stdout=out,
                                stderr=out, preexec_fn=raise_fd_limit)  # noqa: PLW1509
    finally:
        if log is not None:
            out.close()  # type: ignore[union-attr]  # the child has its own copy


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def wait_up(url: str, process: subprocess.Popen[bytes], seconds: float = 30.0) -> None:
    """Until ``url`` answers; a server that does not within ``seconds`` is stopped (a slow one
    left running would load every later run)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        with contextlib.suppress(httpx.HTTPError):
            httpx.get(url, timeout=1)
            return
        time.sleep(0.1)
    stop(process)
    raise RuntimeError(f"{url} did not come up")


# --ws: which WebSocket protocol serves the game. "direct" is the project's own
# (app/api/websocket_protocol.py, as python -m app serves); "stock" is uvicorn's own
# websockets-sansio protocol, the one it derives from, with frames sent by a task per socket.
WS_PROTOCOLS = {"direct": [], "stock": ["--ws", "websockets-sansio"]}


async def serve_and_load(args: argparse.Namespace, ws: str) -> dict[str, Any]:
    """One run of the game server (on a fresh SQLite file unless --database) under the load."""
    port = args.port or free_port()
    folder = Path(tempfile.mkdtemp(prefix="uno-bench-"))
    server = start_process(game_command("app", port, *WS_PROTOCOLS[ws]),
                           game_env(folder, args.engine, args.database))
    try:
        wait_up(f"http://127.0.0.1:{port}/healthz", server)
        rooms = await uno_rooms(f"http://127.0.0.1:{port}", args.rooms)
        uno = await run_load(f"ws://127.0.0.1:{port}", rooms, args.seconds, args.interval, False,
                             args.think_jitter, server.pid, f"http://127.0.0.1:{port}")
        uno["server_rss_mb"] = rss_mb(server.pid)
        return uno
    finally:
        stop(server)


async def bare_load(args: argparse.Namespace) -> dict[str, Any]:
    """The same load against the bare broadcast server."""
    port = free_port()
    bare = start_process([sys.executable, "-m", "bench.server", "--bare-server", str(port)], {})
    try:
        await asyncio.sleep(1.5)
        fake = [(f"r{i}", ["", "", "", ""]) for i in range(args.rooms)]
        result = await run_load(f"ws://127.0.0.1:{port}", fake, args.seconds, args.interval,
                                True, args.think_jitter, bare.pid)
        result["server_rss_mb"] = rss_mb(bare.pid)
        return result
    finally:
        stop(bare)


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    protocols = args.ws.split(",")
    runs: dict[str, list[dict[str, Any]]] = {ws: [] for ws in protocols}
    bares: list[dict[str, Any]] = []
    for _ in range(args.repeat):  # the protocols take turns, then the bare server
        for ws in protocols:
            runs[ws].append(await serve_and_load(args, ws))
        if not args.skip_bare:
            bares.append(await bare_load(args))
    uno = runs[protocols[0]][-1]
    out: dict[str, Any] = {"rooms": args.rooms, "clients_per_room": 4,
                           "database": args.database or "sqlite", "engine": args.engine,
                           "uno": uno, "runs": runs}
    if bares:  # each turn's p99 and CPU against the bare server's in the same turn
        out["bare"] = bares[-1]
        out["bare_runs"] = bares
        out["p50_ratio"] = uno["p50_ms"] / bares[-1]["p50_ms"]
        out["p99_ratio"] = uno["p99_ms"] / bares[-1]["p99_ms"]
        turns = list(zip(runs[protocols[0]], bares, strict=True))
        out["p99_ratios"] = [r["p99_ms"] / b["p99_ms"] for r, b in turns]
        out["cpu_ratios"] = [r["server_cpu_ms_per_action"] / b["server_cpu_ms_per_action"]
                             for r, b in turns]
    if len(protocols) > 1:  # the others' CPU per action against the first's, run by run
        first = runs[protocols[0]]
        out["extra_cpu"] = {ws: [r["server_cpu_ms_per_action"] / f["server_cpu_ms_per_action"] - 1
                                 for f, r in zip(first, runs[ws], strict=True)]
                            for ws in protocols[1:]}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--interval", type=float, default=3.0, help="seconds per seat action")
    parser.add_argument("--think-jitter", type=float, default=THINK_JITTER,
                        help="each wait between moves within +- this fraction of its mean "
                        "(0: the same wait every time)")
    parser.add_argument("--skip-bare", action="store_true")
    parser.add_argument("--ws", default="direct",
                        help="comma-separated WebSocket protocols, taking turns: direct (ours, "
                        "as python -m app serves) and stock (uvicorn's websockets-sansio)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each --ws protocol")
    parser.add_argument("--engine", choices=("compiled", "sources"), default="compiled",
                        help="the rules engine as scripts/serve.sh serves it (compiled), or "
                        "its Python sources")
    parser.add_argument("--database", help="UNO_DATABASE_URL (default: a fresh SQLite file; "
                        "memory:// measures the room layer without a database)")
    parser.add_argument("--json", action="store_true", help="one JSON line")
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--bare-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    raise_fd_limit()
    with contextlib.suppress(ImportError):
        import uvloop  # noqa: PLC0415

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    if args.bare_server:
        asyncio.run(bare_server(args.bare_server))
        return
    out = asyncio.run(bench(args))
    if args.json:
        sys.stdout.write(json.dumps(out) + "\n")
        return
    lines = [f"{args.rooms} rooms x 4 clients, one action per seat every {args.interval:g} s"
             f" (waits +-{args.think_jitter:.0%}), {args.engine} engine"]
    named = [(f"uno ({ws})" if len(out["runs"]) > 1 else "uno", r)
             for ws, each in out["runs"].items() for r in each]
    named += [("bare", r) for r in out.get("bare_runs", [])]
    for name, r in named:
        if r is None:
            continue
        lines.append(
            f"{name:>4}: sockets {r['sockets']}, {r['actions_per_s']:.0f} actions/s, "
            f"latency p50 {r['p50_ms']:.1f} ms p99 {r['p99_ms']:.1f} ms, "
            f"server RSS {r['server_rss_mb']:.0f} MB, "
            f"server CPU {r['server_cpu_ms_per_action']:.3f} ms/action "
            f"(in the kernel {r['server_system_ms_per_action']:.3f}); {tail_line(r['tail'])}; "
            f"warm-up (the tables starting) p99 {r['warmup_p99_ms']:.0f} ms, "
            f"max {r['warmup_max_ms']:.0f} ms"
        )
        lines += inside_lines(r["inside"])
    for ws, more in out.get("extra_cpu", {}).items():
        lines.append(f"{ws} against {args.ws.split(',')[0]}: CPU per action "
                     f"{statistics.median(more):+.1%} (per run: "
                     f"{', '.join(f'{v:+.1%}' for v in more)})")
    if "p99_ratios" in out:
        turns = list(zip(out["runs"][args.ws.split(",")[0]], out["bare_runs"], strict=True))
        lines.append(f"ratio uno/bare, last run: p50 x{out['p50_ratio']:.1f}, "
                     f"p99 x{out['p99_ratio']:.1f}; p99 per run (uno ms / bare ms): " + ", ".join(
                         f"{r['p99_ms']:.1f}/{b['p99_ms']:.1f} x{ratio:.1f}"
                         for (r, b), ratio in zip(turns, out["p99_ratios"], strict=True)))
        lines.append("CPU per action per run (uno ms / bare ms): " + ", ".join(
            f"{r['server_cpu_ms_per_action']:.3f}/{b['server_cpu_ms_per_action']:.3f} "
            f"x{ratio:.2f}" for (r, b), ratio in zip(turns, out["cpu_ratios"], strict=True)))
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
