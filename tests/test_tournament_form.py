"""The tournament form's limits are the server's (app/tournament_form.py from
app/api/tournament_schemas.py): the client's copy is the generator's output, and the form
reads its ranges from it."""

from __future__ import annotations

from pathlib import Path

from app.tournament_form import client_module, form_limits

ROOT = Path(__file__).resolve().parent.parent


def test_the_clients_copy_of_the_tournament_form_is_current() -> None:
    text = (ROOT / "static/js/tournament-form-schema.js").read_text(encoding="utf-8")
    assert text == client_module(), (
        "run: python -m app.tournament_form > static/js/tournament-form-schema.js")


def test_the_form_offers_what_the_server_takes() -> None:
    limits = form_limits()
    assert limits["formats"] == ["swiss", "knockout"] and limits["format"] == "swiss"
    assert limits["table_size"] == {"min": 3, "max": 10, "default": 4}  # TR-TABLES
    assert limits["rounds"]["min"] == 1 and limits["round_limit"]["min"] == 0
    form = (ROOT / "static/js/tournament-form.js").read_text(encoding="utf-8")
    assert 'from "./tournament-form-schema.js"' in form
