"""Persistence: the room log that makes every accepted command durable, and match history.

base.py       RoomStore protocol, RoomRecord, StoredRoom (what the room layer uses)
memory.py     MemoryRoomStore: the in-memory RoomStore for unit tests
db.py         create_engine(url), migrate(url): SQLite (WAL) or Postgres, locked migrations
models.py     the schema (migrations/ creates exactly these tables)
sql.py        SqlRoomStore: RoomStore on SQL
history.py    HistoryStore: profiles, matches, rounds, leagues (writes; reads in queries.py)
leagues.py    standings under winner_takes (P-500) and lowest_wins (P-200)
replay.py     rebuild a recorded match with the engine and compare
errors.py     StoreError and its codes
"""
