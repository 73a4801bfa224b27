"""Tournaments across tables (RULES.md section 11): pure functions for seating, standings,
Swiss pairing and knockout advance. Nothing here does I/O; the actor that runs a tournament
calls these with what the store holds."""
