"""Reads for the HTTP API: a player, a match with its rounds, a match's event log, a player's
recent matches, a league with its standings. Plain JSON-safe dicts, ready to send.

Hidden information (RULES.md O-HIDDEN): while a match runs its seed, rigged deal, commands and
the private parts of its events stay out; once it has ended the whole log is open (that is what
makes a replay possible).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import ColumnElement, Connection, and_, func, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .leagues import league_info, standings
from .models import (
    FINISHED,
    RUNNING,
    Match,
    MatchSeat,
    Player,
    Room,
    RoomLogLine,
    Round,
    RoundHand,
)

MAX_RECENT = 100


def iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.tzinfo is None:  # SQLite keeps no zone; we always store UTC
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat()


def match_lines(room_id: Any, first_seq: Any, match_id: Any) -> ColumnElement[bool]:
    """The room log's lines of a match (values, or the ``Match`` table's columns for a
    correlated query), found through the log's primary key: its room's lines from its first
    seq on."""
    return and_(RoomLogLine.room_id == room_id, RoomLogLine.seq >= first_seq,
                RoomLogLine.match_id == match_id)


def last_logged_seq(conn: Connection, room_id: int, first_seq: int, match_id: int) -> int | None:
    """The seq of the last line logged for the match, if any."""
    result = conn.execute(
        select(func.max(RoomLogLine.seq)).where(match_lines(room_id, first_seq, match_id))
    )
    value = result.scalar_one_or_none()
    return None if value is None else int(value)


def _seat_dict(row: Any) -> dict[str, Any]:
    return {
        "seat": row.seat,
        "name": row.name,
        "player": row.player_id,
        "bot": row.bot,
        "left_after_round": row.left_after_round,
    }


async def match_view(conn: AsyncConnection, match_id: int) -> dict[str, Any] | None:
    match = (
        await conn.execute(
            select(Match.__table__, Room.code)
            .join(Room, Room.id == Match.room_id)
            .where(Match.id == match_id)
        )
    ).one_or_none()
    if match is None:
        return None
    m = match
    seats = await conn.execute(
        select(MatchSeat.__table__).where(MatchSeat.match_id == match_id).order_by(MatchSeat.seat)
    )
    winners = dict(
        (
            await conn.execute(
                select(Round.round_no, Round.winner).where(Round.match_id == match_id)
            )
        ).all()
    )
    hands = await conn.execute(
        select(RoundHand.__table__)
        .where(RoundHand.match_id == match_id)
        .order_by(RoundHand.round_no, RoundHand.seat)
    )
    by_round: dict[int, list[Any]] = defaultdict(list)
    for hand in hands:
        by_round[hand.round_no].append(hand)
    rounds = [
        {
            "round": no,
            "winner": winners[no],
            "hands": [h.cards for h in seat_hands],
            "hand_points": [h.hand_points for h in seat_hands],
            "points": [h.points for h in seat_hands],
            "totals": [h.total for h in seat_hands],
            "places": None
            if any(h.place is None for h in seat_hands)
            else [h.place for h in seat_hands],
        }
        for no, seat_hands in sorted(by_round.items())
    ]
    totals = rounds[-1]["totals"] if rounds else [0] * m.seats
    ended = m.status != RUNNING
    players = [_seat_dict(s) for s in seats]
    teams = ([[s for s in range(m.seats) if s % 2 == team] for team in (0, 1)]
             if (m.rules or {}).get("teams") else None)
    final = cast(list[int], m.result["scores"] if m.result else totals)
    return {
        "id": m.id,
        "status": m.status,
        "room": m.code,
        "league": m.league_id,
        "rules": m.rules,
        "seed": m.seed if ended else None,
        "deal": m.deal if ended else None,
        "started_at": iso(m.started_at),
        "ended_at": iso(m.ended_at),
        "players": players,
        "rounds": rounds,
        "totals": final,
        # H-TEAMS: each team's seats (partners sit opposite) and the two teams' totals.
        "teams": teams,
        "team_scores": None if teams is None else [final[0], final[1]],
        "winners": m.winners,
        "winner_names": [players[s]["name"] for s in m.winners or []],
        "result": m.result,
    }


def _public_event(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k != "private"}


async def match_log(conn: AsyncConnection, match_id: int) -> dict[str, Any] | None:
    match = (
        await conn.execute(select(Match.room_id, Match.first_seq, Match.status)
                           .where(Match.id == match_id))
    ).one_or_none()
    if match is None:
        return None
    status = match.status
    lines = await conn.execute(
        select(RoomLogLine.__table__)
        .where(match_lines(match.room_id, match.first_seq, match_id))
        .order_by(RoomLogLine.seq)
    )
    log: list[dict[str, Any]] = []
    for line in lines:
        if status == RUNNING:
            log.append({"seq": line.seq, "events": [_public_event(e) for e in line.events]})
        else:
            log.append(
                {
                    "seq": line.seq,
                    "seat": line.seat,
                    "command": line.command,
                    "now_ms": line.now_ms,
                    "events": line.events,
                }
            )
    return {"match": match_id, "status": status, "log": log}


async def player_view(conn: AsyncConnection, player_id: int) -> dict[str, Any] | None:
    player = (
        await conn.execute(
            select(Player.id, Player.name, Player.created_at).where(Player.id == player_id)
        )
    ).one_or_none()
    if player is None:
        return None
    played = await conn.execute(
        select(MatchSeat.seat, MatchSeat.left_after_round, Match.status, Match.winners)
        .join(Match, Match.id == MatchSeat.match_id)
        .where(MatchSeat.player_id == player_id)
    )
    matches = finished = wins = 0
    for seat, left_after, status, winners in played:
        matches += 1
        if status == FINISHED:
            finished += 1
            wins += left_after is None and seat in (winners or [])
    return {
        "id": player.id,
        "name": player.name,
        "created_at": iso(player.created_at),
        "matches": matches,
        "finished": finished,
        "wins": wins,
    }


async def recent_matches(
    conn: AsyncConnection, player_id: int, limit: int = 20
) -> list[dict[str, Any]]:
    """The profile's latest matches, newest first, each with who played and who won."""
    limit = max(1, min(limit, MAX_RECENT))
    mine = (
        await conn.execute(
            select(Match.__table__, MatchSeat.seat, MatchSeat.left_after_round)
            .join(MatchSeat, MatchSeat.match_id == Match.id)
            .where(MatchSeat.player_id == player_id)
            .order_by(Match.started_at.desc(), Match.id.desc())
            .limit(limit)
        )
    ).all()
    ids = [row.id for row in mine]
    names: dict[int, list[str]] = defaultdict(list)
    if ids:
        seats = await conn.execute(
            select(MatchSeat.match_id, MatchSeat.name)
            .where(MatchSeat.match_id.in_(ids))
            .order_by(MatchSeat.match_id, MatchSeat.seat)
        )
        for match_id, name in seats:
            names[match_id].append(name)
    out = []
    for match in mine:
        winners = match.winners or []
        seat, left_after = match.seat, match.left_after_round
        out.append(
            {
                "id": match.id,
                "status": match.status,
                "league": match.league_id,
                "started_at": iso(match.started_at),
                "ended_at": iso(match.ended_at),
                "seat": seat,
                "players": names[match.id],
                "winners": [names[match.id][s] for s in winners],
                "won": match.status == FINISHED and left_after is None and seat in winners,
                "left": left_after is not None,
                "scores": match.result["scores"] if match.result else None,
            }
        )
    return out


async def league_view(conn: AsyncConnection, league_id: int) -> dict[str, Any] | None:
    league = await conn.run_sync(league_info, league_id)
    if league is None:
        return None
    table = await standings(conn, league)
    return {
        "id": league.id,
        "name": league.name,
        "scoring": league.scoring,
        "target": league.target,
        "standings": [s.to_dict() for s in table],
    }


class HistoryReads:
    """The read side of ``HistoryStore`` (one short read per call)."""

    _engine: AsyncEngine

    async def match(self, match_id: int) -> dict[str, Any] | None:
        async with self._engine.begin() as conn:
            return await match_view(conn, match_id)

    async def match_events(self, match_id: int) -> dict[str, Any] | None:
        async with self._engine.begin() as conn:
            return await match_log(conn, match_id)

    async def player(self, player_id: int) -> dict[str, Any] | None:
        async with self._engine.begin() as conn:
            return await player_view(conn, player_id)

    async def recent_matches(self, player_id: int, limit: int = 20) -> list[dict[str, Any]]:
        async with self._engine.begin() as conn:
            return await recent_matches(conn, player_id, limit)

    async def league_table(self, league_id: int) -> dict[str, Any] | None:
        """Name, scoring, target and the standings, best first."""
        async with self._engine.begin() as conn:
            return await league_view(conn, league_id)
