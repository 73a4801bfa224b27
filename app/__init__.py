"""Real-time multiplayer UNO server."""
