"""Settings from the environment (prefix ``UNO_``)."""

from __future__ import annotations

from functools import lru_cache

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Every knob of the server. ``database_url="memory://"`` keeps rooms in memory only."""

    model_config = SettingsConfigDict(env_prefix="UNO_")

    database_url: str = "sqlite+aiosqlite:///./uno.db"
    redis_url: str | None = None  # set: many workers share rooms through Redis leases
    # Or a Redis Cluster: its seed nodes, "host:port[,host:port...]" (sharded pub/sub, each
    # room's keys in one slot). Takes the place of ``redis_url``.
    redis_cluster: str | None = None
    redis_prefix: str = "uno:"  # namespaces keys and channels: one per deployment
    lease_seconds: float = 5.0  # a dead worker's rooms move to another worker after this
    worker_id: str | None = None  # default: host name and process id
    # Many workers: each one looks this often (jittered by +-25 %) for rooms in a match whose
    # owner died with no client left to ask for them (bots, timers), and takes them over.
    sweep_seconds: float = 3.0
    testing: bool = False
    log_level: str = "INFO"  # the server's own log lines (``uno.*``) from this level up
    host: str = "127.0.0.1"
    port: int = 8000
    static_dir: str = "static"
    # Rooms
    max_rooms: int = 5000
    idle_seconds: float = 600.0  # a room nobody is connected to is unloaded after this
    # Tournaments: how often a tournament's owner looks at its tables, and a worker with its
    # sockets at its record; at most this many participants in one.
    tournament_seconds: float = 1.0
    table_pause_seconds: float = 6.0  # a tournament's table deals its next round after this
    tournament_people: int = 400
    host_grace_seconds: float = 10.0  # a disconnected host keeps the role this long
    # O-IDLE: a player gone this long when the turn comes to them is played by a bot (a reload
    # or a network blip is not gone).
    away_grace_seconds: float = 5.0
    bot_delay_ms: tuple[int, int] = (700, 1600)  # a bot "thinks" this long before acting
    snapshot_every: int = 100  # records between engine snapshots
    # A worker told to stop (SIGTERM) gives its drain at most this long, then the requests
    # and sockets still open as long again (uvicorn's graceful shutdown): a client that sends
    # half a request and then nothing must not hold a deploy up (app/__main__.py).
    stop_seconds: int = 10
    # SQLite: while other rooms' moves keep coming, a batch of the room log waits this long for
    # more before it is written (fewer transactions: less CPU per move, 1-2 ms more latency;
    # app/store/group_commit.py). 0: every batch at once.
    commit_gather_ms: float = 2.0
    # UNO_TESTING only: write (and read up to) this room-log format, as a newer build would (a
    # rolling deploy's test); 0: this build's own (app/store/records.py RECORD_FORMAT).
    record_format: int = 0
    # Events kept per room for ``since`` resumes (older: a fresh state). 64 events are a
    # minute of a busy table: 8 KB kept as their frames' text (rooms/journal.py; 17 KB as
    # encoded events, four players); 256 held 137 KB per room with their legal lists.
    keep_events: int = 64
    # Limits, per socket and per client (its address; see ``trusted_proxies``). With several
    # workers each worker counts its own sockets and rooms.
    max_frame_bytes: int = 4096  # a larger WebSocket frame closes the socket (1009) unread
    max_body_bytes: int = 16384  # a larger HTTP body is refused (413)
    request_seconds: float = 20.0  # an HTTP request not whole this long after it began: 408
    player_rate: int = 100  # messages per ``rate_window_seconds``, one socket
    spectator_rate: int = 50
    # Messages per ``rate_window_seconds`` over all sockets of one person (their token), or of
    # one address for sockets without a token; and of one address in all (a party's ceiling).
    client_rate: int = 600
    address_rate: int = 6000
    rate_window_seconds: float = 20.0
    rate_abuse_extra: int = 20  # refused messages past the limit before the socket is closed
    send_buffer_bytes: int = 131_072  # bytes waiting unread before a socket is dropped (4408)
    unknown_code_rate: int = 30  # unknown room codes per minute and client before 429
    # Open WebSockets: of one address without a token (anonymous spectators, or not yet let
    # in), of one person (their token: a party on one Wi-Fi each has their own), of one address
    # in all.
    sockets_per_client: int = 32
    sockets_per_person: int = 8
    sockets_per_address: int = 512
    spectators_per_room: int = 200  # spectator sockets of one room
    rooms_per_minute: int = 10  # rooms one client may create per minute (then 429)
    tokens_per_minute: int = 60  # seats joined and spectator tokens one client may take
    empty_rooms_per_client: int = 5  # open rooms of one client that nobody else joined
    # Addresses or networks of reverse proxies whose X-Forwarded-For names the client
    # ("10.0.0.0/8,127.0.0.1"); empty: the peer address is the client.
    trusted_proxies: str = ""

    @property
    def shared(self) -> bool:
        """Rooms are shared with other workers (through Redis or a Redis Cluster)."""
        return bool(self.redis_url or self.redis_cluster)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
