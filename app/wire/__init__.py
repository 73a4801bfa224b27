"""The wire's value types, one definition for every edge: safe text (``text``) and the strict,
bounded fields of messages and bodies (``fields``: cards, colors, seats, ids, rule toggles).
The room commands' models (app/rooms/command_models.py) and the HTTP bodies
(app/api/schemas.py) are made of them."""
