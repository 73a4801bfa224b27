"""A tournament's whole course as a value the actor owns and the store keeps: who joined and
withdrew, each round's tables and their results, and what comes next (TR-JOIN, TR-ABSENT,
TR-END). Pure: the actor does the I/O (rooms, store, sockets) around these transitions."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from app.tournaments.knockout import (
    DEFAULT_ADVANCE,
    advancing,
    final_ranking,
    is_final,
    seeded_round,
)
from app.tournaments.standings import Seat, Standing, TableResult, standings
from app.tournaments.swiss import met_counts, random_round, swiss_round
from app.tournaments.tables import MIN_AT_TABLE, plan_tables

LOBBY, PLAYING, BETWEEN, OVER = "lobby", "playing", "between", "over"
ABSENT_ROUNDS = 2  # TR-ABSENT: absent this many rounds in a row and you are withdrawn


class TournamentError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Settings:
    format: str = "swiss"
    table_size: int = 4
    rounds: int = 3
    advance: int = DEFAULT_ADVANCE
    late_join: int = -1  # rounds started after which no one may join; -1: half of ``rounds``

    @property
    def join_until(self) -> int:
        return self.rounds // 2 if self.late_join < 0 else self.late_join


@dataclass(slots=True)
class Participant:
    id: str
    name: str
    withdrawn: bool = False
    absent_streak: int = 0
    token_hash: str = ""  # their token is also their seat's at each of their tables
    player_id: int | None = None  # a guest profile: their matches go to its history


@dataclass(slots=True)
class Table:
    number: int
    seats: list[str | None]  # participant ids, None for a bot
    room: str = ""
    result: TableResult | None = None

    def people(self) -> list[str]:
        return [who for who in self.seats if who is not None]


@dataclass(slots=True)
class Course:
    settings: Settings
    seed: str
    phase: str = LOBBY
    participants: list[Participant] = field(default_factory=list)
    rounds: list[list[Table]] = field(default_factory=list)
    final: bool = False  # knockout: the round being played is the final table
    started_ms: list[int] = field(default_factory=list)  # when each round was seated

    # -- joining and leaving (TR-JOIN) ---------------------------------------------------
    def join(self, participant: str, name: str, token_hash: str = "",
             player_id: int | None = None) -> Participant:
        if self.phase == OVER or len(self.rounds) > self.settings.join_until:
            raise TournamentError("too_late", "this tournament takes no more players")
        if self.settings.format == "knockout" and self.rounds:
            raise TournamentError("too_late", "a knockout takes no one after its first round")
        person = Participant(participant, name, token_hash=token_hash, player_id=player_id)
        self.participants.append(person)
        return person

    def withdraw(self, participant: str) -> None:
        self.person(participant).withdrawn = True

    def person(self, participant: str) -> Participant:
        for person in self.participants:
            if person.id == participant:
                return person
        raise TournamentError("not_found", f"no participant {participant!r}")

    # -- rounds --------------------------------------------------------------------------
    def active(self) -> list[str]:
        """Who is seated next round: not withdrawn and, in a knockout, still in."""
        ids = [p.id for p in self.participants if not p.withdrawn]
        if self.settings.format == "knockout" and self.rounds:
            going_on = {who for table in self.rounds[-1] if table.result is not None
                        for who in advancing(table.result, self.settings.advance, self.joined())}
            ids = [who for who in ids if who in going_on]
        return ids

    def joined(self) -> list[str]:
        return [p.id for p in self.participants]

    def start_round(self, now_ms: int = 0) -> list[Table]:
        """Seat the next round (Swiss by standings, knockout in a snake), bots topping tables."""
        if self.phase not in (LOBBY, BETWEEN):
            raise TournamentError("wrong_phase", f"a round cannot start while {self.phase}")
        people = self.active()
        if len(people) < 2:
            raise TournamentError("not_enough_players", "a round needs at least two players")
        ranked = self.ranked(people)
        size = self.settings.table_size
        if self.settings.format == "knockout":
            self.final = is_final(len(people), size)
            seating = [ranked] if self.final else seeded_round(ranked, size)
        elif not self.rounds:
            seating = random_round(people, size, self.seed, 1)
        else:
            past = [t.people() for r in self.rounds for t in r]
            seating = swiss_round(ranked, size, met_counts(past))
        plans = plan_tables(len(people), size) if not self.final else []
        tables = []
        for number, seated in enumerate(seating, start=1):
            bots = plans[number - 1].bots if plans else max(0, MIN_AT_TABLE - len(seated))
            tables.append(Table(number, [*seated, *([None] * bots)]))
        self.rounds.append(tables)
        self.started_ms.append(now_ms)
        self.phase = PLAYING
        return tables

    def ranked(self, people: Sequence[str]) -> list[str]:
        wanted = set(people)
        return [row.who for row in self.standings() if row.who in wanted]

    def seated(self, number: int, room: str, present: Collection[str]) -> None:
        """Table ``number`` of this round opened as ``room``; ``present`` were connected when it
        started (TR-ABSENT: the others play as away; absent twice in a row, withdrawn)."""
        table = self.rounds[-1][number - 1]
        table.room = room
        for who in table.seats:
            if who is None:
                continue
            person = self.person(who)
            person.absent_streak = 0 if who in present else person.absent_streak + 1
            if person.absent_streak >= ABSENT_ROUNDS:
                person.withdrawn = True

    def finish_table(self, number: int, places: Sequence[int], card_net: Sequence[int]
                     ) -> bool:
        """A table's match is over: one place and card net per seat. True when the round is."""
        if self.phase != PLAYING:
            raise TournamentError("wrong_phase", "no round is being played")
        table = self.rounds[-1][number - 1]
        if table.result is None:
            table.result = TableResult(len(self.rounds), tuple(
                Seat(who, place, net)
                for who, place, net in zip(table.seats, places, card_net, strict=True)))
        if any(t.result is None for t in self.rounds[-1]):
            return False
        done = self.final if self.settings.format == "knockout" else (
            len(self.rounds) >= self.settings.rounds)
        self.phase = OVER if done or len(self.active()) < 2 else BETWEEN
        return True

    # -- standings and the end (TR-POINTS, TR-END) -----------------------------------------
    def results(self) -> list[TableResult]:
        return [t.result for r in self.rounds for t in r if t.result is not None]

    def standings(self) -> list[Standing]:
        return standings(self.joined(), self.results())

    def podium(self) -> list[str]:
        """The final order: knockout by how far each went, Swiss by the standings."""
        if self.settings.format == "knockout":
            rounds = [[t.result for t in r if t.result is not None] for r in self.rounds]
            return final_ranking(rounds, self.joined())[:3]
        return [row.who for row in self.standings()][:3]

