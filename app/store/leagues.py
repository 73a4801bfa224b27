"""Leagues: a group's table under the scoring it plays (RULES.md section 7).

Each finished league match leaves one ``league_results`` line per profile that sat in it; the
standings add those up. An abandoned match leaves none. A profile that left mid-match keeps the
rounds that ended while it sat there, and the match counts as lost for it.

- ``winner_takes`` (P-500): best first by matches won, then rounds won, then points scored.
- ``lowest_wins`` (P-200): best first by fewest matches lost, then most matches survived (played
  and not lost), then the lowest average of points taken per round.

Equal keys share a place (1, 2, 2, 4); members who have not played yet come last.

``list_leagues`` is the directory (GET /api/leagues): every league, newest first, a page at a
time, with how many matches it has counted and how many profiles belong to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from sqlalchemy import Connection, case, func, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from .errors import InvalidRequest
from .models import (
    FINISHED,
    SCORINGS,
    League,
    LeagueMember,
    LeagueResult,
    Match,
    MatchSeat,
    Player,
    Round,
    RoundHand,
    utcnow,
)

DEFAULT_TARGET = {"winner_takes": 500, "lowest_wins": 200}
MAX_TARGET = 100_000
MAX_PAGE = 100


@dataclass(frozen=True, slots=True)
class LeagueInfo:
    id: int
    name: str
    scoring: str
    target: int


@dataclass(frozen=True, slots=True)
class Tally:
    """One member's totals over the league's finished matches."""

    player: int
    name: str
    matches: int = 0
    wins: int = 0
    losses: int = 0
    rounds: int = 0
    rounds_won: int = 0
    points: int = 0


@dataclass(frozen=True, slots=True)
class Standing:
    place: int
    tally: Tally

    def to_dict(self) -> dict[str, Any]:
        t = self.tally
        average = None if t.rounds == 0 else round(t.points / t.rounds, 2)
        return {
            "place": self.place,
            "player": t.player,
            "name": t.name,
            "matches": t.matches,
            "wins": t.wins,
            "losses": t.losses,
            "survived": t.matches - t.losses,
            "rounds": t.rounds,
            "rounds_won": t.rounds_won,
            "points": t.points,
            "average": average,
        }


def _key(scoring: str, t: Tally) -> tuple[Any, ...]:
    if scoring == "winner_takes":
        return (t.matches == 0, -t.wins, -t.rounds_won, -t.points)
    average = Fraction(t.points, t.rounds) if t.rounds else Fraction(10**9)
    return (t.matches == 0, t.losses, -(t.matches - t.losses), average)


def rank(scoring: str, tallies: Iterable[Tally]) -> list[Standing]:
    """Best first; equal keys share the place (names only order the display)."""
    ordered = sorted(tallies, key=lambda t: (_key(scoring, t), t.name.casefold(), t.player))
    out: list[Standing] = []
    for index, tally in enumerate(ordered):
        if out and _key(scoring, out[-1].tally) == _key(scoring, tally):
            out.append(Standing(out[-1].place, tally))
        else:
            out.append(Standing(index + 1, tally))
    return out


def create_league(conn: Connection, name: str, scoring: str, target: int | None) -> int:
    if scoring not in SCORINGS:
        raise InvalidRequest(f"scoring must be one of {', '.join(SCORINGS)}, not {scoring!r}")
    if target is None:
        target = DEFAULT_TARGET[scoring]
    if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= MAX_TARGET:
        raise InvalidRequest(f"target must be a whole number from 1 to {MAX_TARGET}")
    result = conn.execute(
        insert(League)
        .values(name=name, scoring=scoring, target=target, created_at=utcnow())
        .returning(League.id)
    )
    return int(result.scalar_one())


def league_info(conn: Connection, league_id: int) -> LeagueInfo | None:
    row = (
        conn.execute(
            select(League.id, League.name, League.scoring, League.target).where(
                League.id == league_id
            )
        )
    ).one_or_none()
    return None if row is None else LeagueInfo(*row)


def add_league_results(
    conn: Connection, league_id: int, match_id: int, result: Mapping[str, Any]
) -> None:
    """Count a finished match: one line per seated profile; its profiles become members."""
    league = league_info(conn, league_id)
    assert league is not None  # matches.league_id is a foreign key
    seats = (
        conn.execute(
            select(MatchSeat.seat, MatchSeat.player_id, MatchSeat.left_after_round).where(
                MatchSeat.match_id == match_id, MatchSeat.player_id.is_not(None)
            )
        )
    ).all()
    hands = (
        conn.execute(
            select(RoundHand.round_no, RoundHand.seat, RoundHand.points, Round.winner)
            .join(
                Round,
                (Round.match_id == RoundHand.match_id) & (Round.round_no == RoundHand.round_no),
            )
            .where(RoundHand.match_id == match_id)
        )
    ).all()
    places = result["places"]
    losers = set(result.get("losers", []))
    # H-TEAMS (``teams``: each team's seats): a round won by a partner is the team's, so each
    # partner's.
    side = list(range(len(places)))
    for team, members in enumerate(result.get("teams") or ()):
        for member in members:
            side[member] = -1 - team
    lines = []
    for seat, player_id, left_after in seats:
        counted = [
            h for h in hands if h.seat == seat and (left_after is None or h.round_no <= left_after)
        ]
        left = left_after is not None
        won = places[seat] == 1 and not left
        lost = left or (seat in losers if league.scoring == "lowest_wins" else not won)
        lines.append(
            {
                "league_id": league_id,
                "match_id": match_id,
                "player_id": player_id,
                "seat": seat,
                "place": places[seat],
                "won": won,
                "lost": lost,
                "left": left,
                "rounds": len(counted),
                "rounds_won": sum(1 for h in counted if side[h.winner] == side[seat]),
                "points": sum(h.points for h in counted),
            }
        )
    if not lines:
        return
    conn.execute(insert(LeagueResult), lines)
    members = set(
        (
            conn.execute(
                select(LeagueMember.player_id).where(LeagueMember.league_id == league_id)
            )
        ).scalars()
    )
    new = [
        {"league_id": league_id, "player_id": line["player_id"], "joined_at": utcnow()}
        for line in lines
        if line["player_id"] not in members
    ]
    if new:
        conn.execute(insert(LeagueMember), new)


async def standings(conn: AsyncConnection, league: LeagueInfo) -> list[Standing]:
    r = LeagueResult
    joined = (r.league_id == LeagueMember.league_id) & (r.player_id == LeagueMember.player_id)
    rows = await conn.execute(
        select(
            LeagueMember.player_id,
            Player.name,
            func.count(r.match_id),
            func.coalesce(func.sum(case((r.won, 1), else_=0)), 0),
            func.coalesce(func.sum(case((r.lost, 1), else_=0)), 0),
            func.coalesce(func.sum(r.rounds), 0),
            func.coalesce(func.sum(r.rounds_won), 0),
            func.coalesce(func.sum(r.points), 0),
        )
        .join(Player, Player.id == LeagueMember.player_id)
        .outerjoin(r, joined)
        .where(LeagueMember.league_id == league.id)
        .group_by(LeagueMember.player_id, Player.name)
    )
    return rank(league.scoring, (Tally(*(row[0], row[1], *map(int, row[2:]))) for row in rows))


def _iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.tzinfo is None:  # SQLite keeps no zone; we always store UTC
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat()


async def list_leagues(
    conn: AsyncConnection, limit: int, before: int | None = None
) -> list[dict[str, Any]]:
    """Up to ``limit`` leagues, newest first (ids only grow), those older than ``before`` if given.

    Each: ``id``, ``name``, ``scoring``, ``target``, ``created_at`` (ISO 8601), ``matches``
    (finished matches counted there) and ``players`` (profiles that have played there).
    """
    limit = max(1, min(limit, MAX_PAGE + 1))  # one more than a page: is there a next one?
    matches = (
        select(func.count(Match.id))
        .where(Match.league_id == League.id, Match.status == FINISHED)
        .correlate(League)
        .scalar_subquery()
    )
    players = (
        select(func.count(LeagueMember.player_id))
        .where(LeagueMember.league_id == League.id)
        .correlate(League)
        .scalar_subquery()
    )
    query = select(
        League.id, League.name, League.scoring, League.target, League.created_at, matches, players
    )
    if before is not None:
        query = query.where(League.id < before)
    rows = await conn.execute(query.order_by(League.id.desc()).limit(limit))
    return [
        {
            "id": row[0],
            "name": row[1],
            "scoring": row[2],
            "target": row[3],
            "created_at": _iso(row[4]),
            "matches": int(row[5]),
            "players": int(row[6]),
        }
        for row in rows
    ]
