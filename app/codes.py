"""Every error code and close code the server sends: one table, for the server and the client.

The engine raises its codes as plain strings (it imports nothing of the app); every other layer
names them through ``Err`` and ``Close``. ``python -m app.codes`` writes ``static/js/codes.js``,
the client's copy; tests/test_codes.py checks that the copy, the sources, docs/protocol.md and
the client's three languages agree with this table.
"""

from __future__ import annotations

import sys
from enum import IntEnum, StrEnum


class Err(StrEnum):
    """An ``error`` frame's (or HTTP error body's) ``code``."""

    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL_PLAY = "illegal_play"
    NOT_IN_HAND = "not_in_hand"
    TOO_LATE = "too_late"
    TOO_EARLY = "too_early"
    FORBIDDEN = "forbidden"
    NOT_ALLOWED_BY_RULES = "not_allowed_by_rules"
    DECISION_PENDING = "decision_pending"
    BAD_TARGET = "bad_target"
    COLOR_REQUIRED = "color_required"
    WRONG_PHASE = "wrong_phase"
    NOT_CATCHABLE = "not_catchable"
    NOTHING_TO_DO = "nothing_to_do"
    MUST_PLAY = "must_play"
    BAD_MESSAGE = "bad_message"
    BAD_TOKEN = "bad_token"
    RATE_LIMITED = "rate_limited"
    BAD_RULES = "bad_rules"
    BAD_DEAL = "bad_deal"
    NOT_ENOUGH_PLAYERS = "not_enough_players"
    ROOM_FULL = "room_full"
    TOURNAMENT_FULL = "tournament_full"
    ROOM_CROWDED = "room_crowded"
    BANNED = "banned"
    STORE_UNAVAILABLE = "store_unavailable"
    APPROVAL_REQUIRED = "approval_required"
    ALREADY_STARTED = "already_started"
    UNKNOWN_ROOM = "unknown_room"
    UNAVAILABLE = "unavailable"
    SERVER_FULL = "server_full"
    TOO_MANY_ROOMS = "too_many_rooms"
    BAD_REQUEST = "bad_request"
    TOO_LARGE = "too_large"
    NOT_FOUND = "not_found"
    CONFLICT = "conflict"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    INTERNAL = "internal"


ERRORS: dict[Err, str] = {
    Err.NOT_YOUR_TURN: "another seat is to act",
    Err.ILLEGAL_PLAY: "the card does not match (T-MATCH), or not the drawn card after a draw",
    Err.NOT_IN_HAND: "you hold no such card",
    Err.TOO_LATE: "the table moved on after the `seq` your command named (a lost race)",
    Err.TOO_EARLY: "a catch inside the O-WINDOW grace; replacing a seat before "
                   "`abandon_seconds`",
    Err.FORBIDDEN: "host-only command from a non-host; a player command from a spectator; "
                   "rigged deals without UNO_TESTING; a rule a league fixes",
    Err.NOT_ALLOWED_BY_RULES: "a command these rules do not have (e.g. `give` without H-FIVE, "
                              "`pass` without H-HANDLIMIT, `uno` under H-UNOCALL off), or rules "
                              "that do not go together (refused when they are set)",
    Err.DECISION_PENDING: "answer the pending decision first",
    Err.BAD_TARGET: "a seat that is not a valid target (catch yourself, kick the host, no such "
                    "seat)",
    Err.COLOR_REQUIRED: "a wild played without `color`",
    Err.WRONG_PHASE: "not now: the match has not started, is running (`start`, `rules`), or the "
                     "round is over",
    Err.NOT_CATCHABLE: "that seat cannot be caught now",
    Err.NOTHING_TO_DO: "nothing to answer (no drawn card to keep, UNO already called, ...)",
    Err.MUST_PLAY: "H-FORCED: you hold a playable card, so you may not draw; H-HANDLIMIT: you "
                   "hold the most cards you may, so you may not draw",
    Err.BAD_MESSAGE: "malformed JSON, unknown `type` or field, a field of the wrong type or out "
                     "of range, unsafe text (a control character in a name), a bad `id`",
    Err.BAD_TOKEN: "a seat token that holds no seat in this room (the socket closes 4401)",
    Err.RATE_LIMITED: "over a rate limit: messages of this socket or of this client, unknown "
                      "room codes (HTTP 429), rooms created (HTTP 429 with `Retry-After`)",
    Err.BAD_RULES: "an unknown rule, preset or value",
    Err.BAD_DEAL: "a rigged deal the deck cannot deal or that does not fit the seats",
    Err.NOT_ENOUGH_PLAYERS: "`start` with fewer than 2 seats",
    Err.ROOM_FULL: "no free seat (join, add_bot)",
    Err.TOURNAMENT_FULL: "the tournament has as many participants as it takes",
    Err.ROOM_CROWDED: "the room keeps as many named spectators as it takes, every one of them "
                      "watching or queued (watch, HTTP 409); as many bans as it keeps (ban)",
    Err.STORE_UNAVAILABLE: "the database cannot take this now (it restarts, fails over): nothing "
                           "was done; the room carries on by itself once it is back (HTTP 503)",
    Err.BANNED: "the host banned this person from the room (join, watch: HTTP 403; a socket "
                "closes 4403)",
    Err.APPROVAL_REQUIRED: "a room with `approval_watch` lets no anonymous spectator in: ask "
                           "to watch (the socket closes 4403)",
    Err.ALREADY_STARTED: "join during a match",
    Err.UNKNOWN_ROOM: "no such room (HTTP 404)",
    Err.UNAVAILABLE: "the room cannot answer now: its store failed, it is moving to another "
                     "worker, or its worker or Redis did not answer (HTTP 503)",
    Err.SERVER_FULL: "too many rooms are open on the server (HTTP 503)",
    Err.TOO_MANY_ROOMS: "this client has as many open rooms nobody joined as it may (HTTP 429)",
    Err.BAD_REQUEST: "an HTTP body, path or query that does not fit its schema (HTTP 400/422)",
    Err.TOO_LARGE: "an HTTP body over the limit (HTTP 413)",
    Err.NOT_FOUND: "HTTP: no such path, player, match or league (404)",
    Err.CONFLICT: "HTTP: the request conflicts with what is stored (409)",
    Err.METHOD_NOT_ALLOWED: "HTTP: the path does not take this method (405)",
    Err.INTERNAL: "HTTP 500: a bug; logged, no details sent",
}


class Close(IntEnum):
    """A WebSocket close code the server sends (after accepting, so a browser sees it)."""

    BAD_QUERY = 4400
    BAD_TOKEN = 4401
    KICKED = 4403
    UNKNOWN_ROOM = 4404
    TOO_SLOW = 4408
    ROOM_GONE = 4410
    FLOOD = 4429
    TOO_MANY_SOCKETS = 4503
    ROOM_CROWDED = 4509
    TOO_BIG = 1009
    RELOAD = 1012
    TRY_LATER = 1013


CLOSES: dict[Close, str] = {
    Close.BAD_QUERY: "bad query parameters (`since` not a whole number, an empty `token`)",
    Close.BAD_TOKEN: "bad token: it holds no seat in this room (or the seat was taken away)",
    Close.KICKED: "removed: the host kicked, banned or did not admit this person (or the "
                  "request lapsed), the player left; an anonymous spectator where watching "
                  "needs approval",
    Close.UNKNOWN_ROOM: "unknown room (or too many unknown codes from this client)",
    Close.TOO_SLOW: "too slow: frames were waiting unread (the connection is cut soon after)",
    Close.ROOM_GONE: "the room was closed",
    Close.FLOOD: "flooding: messages kept coming past the rate limit (of this socket or of "
                 "this client)",
    Close.TOO_MANY_SOCKETS: "too many sockets: of one client address without a token, of one "
                            "person, or of one address in all",
    Close.ROOM_CROWDED: "the room has as many spectators as it takes",
    Close.TOO_BIG: "a frame over the size limit (4096 bytes), refused before it is read",
    Close.RELOAD: "the room is reloading or moved to another worker: reconnect with `since`",
    Close.TRY_LATER: "the room cannot be loaded now: try again",
}

# After these a reconnect cannot help: the client stops (every other close reconnects).
FINAL_CLOSES: frozenset[Close] = frozenset({
    Close.BAD_QUERY, Close.BAD_TOKEN, Close.KICKED, Close.UNKNOWN_ROOM, Close.ROOM_GONE,
    Close.TOO_MANY_SOCKETS, Close.ROOM_CROWDED,
})


def client_module() -> str:
    """static/js/codes.js: the client's copy of these tables."""
    closes = ",\n".join(f"  {c.name}: {c.value}" for c in Close)
    final = ", ".join(f"CLOSE.{c.name}" for c in Close if c in FINAL_CLOSES)
    errors = ", ".join(f'"{e.value}"' for e in Err)
    return (
        "// Generated by `python -m app.codes > static/js/codes.js` from app/codes.py: edit "
        "that, not this.\n"
        f"export const CLOSE = Object.freeze({{\n{closes},\n}});\n"
        f"export const FINAL_CLOSE_CODES = new Set([{final}]);\n"
        f"export const ERROR_CODES = Object.freeze([{errors}]);\n"
    )


if __name__ == "__main__":
    sys.stdout.write(client_module())
