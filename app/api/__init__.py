"""HTTP routes and the WebSocket endpoint: the edge where wire strings meet the typed inside."""
