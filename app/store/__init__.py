"""Persistence: the room log that makes every accepted command durable, and match history."""
