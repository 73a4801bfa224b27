"""TR-TABLES: how many tables a round needs and how many people and bots sit at each."""

from __future__ import annotations

from dataclasses import dataclass

MIN_AT_TABLE = 3
MIN_TABLE_SIZE = 3
MAX_TABLE_SIZE = 10


@dataclass(frozen=True, slots=True)
class TablePlan:
    """One table of a round: ``people`` participants and ``bots`` filling it up to three."""

    people: int
    bots: int

    @property
    def seats(self) -> int:
        return self.people + self.bots


def plan_tables(people: int, table_size: int) -> list[TablePlan]:
    """As few tables as fit ``people`` at ``table_size``, people per table within one of each
    other (larger tables first), each topped up with bots to ``MIN_AT_TABLE``."""
    if not MIN_TABLE_SIZE <= table_size <= MAX_TABLE_SIZE:
        raise ValueError(f"table_size must be {MIN_TABLE_SIZE}-{MAX_TABLE_SIZE}")
    if people < 0:
        raise ValueError("people must not be negative")
    if people == 0:
        return []
    tables = -(-people // table_size)
    base, extra = divmod(people, tables)
    sizes = [base + 1] * extra + [base] * (tables - extra)
    return [TablePlan(size, max(0, MIN_AT_TABLE - size)) for size in sizes]
