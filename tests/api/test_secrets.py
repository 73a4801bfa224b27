"""Secrets stay secret: no seat token or profile key in any log line, and nothing published lets
anyone derive a deal still to be played (issue 18, findings 7 and 12)."""

from __future__ import annotations

from app.engine import Game, rules_from_dict
from tests.api.hostile import Stranger, hostile_server

ONE_CARD_MATCH = {  # Ann goes out with her only card: round and match over (target 1)
    "dealer": 1,
    "hands": [["R5"], ["B9", "G3", "Y7"]],
    "discard": "R1",
    "draw_pile": ["G5", "Y2", "B1"],
}


async def test_no_seat_token_or_profile_key_reaches_the_servers_log() -> None:
    with hostile_server("sqlite", log_level="info") as running:
        stranger = Stranger(running)
        profile = (await stranger.post("/api/players", {"name": "Ann"})).json()
        room = await stranger.create("Ann", player_key=profile["key"], rules={"turn_seconds": 0})
        bob = await stranger.join(room["code"])
        ann = await stranger.connect(room["code"], room["token"])
        bob_socket = await stranger.connect(room["code"], bob["token"])
        await ann.wait_for(lambda f: f["type"] == "state")
        await ann.ok("start")
        await ann.ok("chat", text="hello")
        again = await stranger.connect(room["code"], query=f"token={room['token']}&since=1")
        await again.wait_for(lambda f: f["type"] in ("state", "event"))
        for client in (ann, bob_socket, again):
            await client.close()
        log = running.full_log()
    assert '"WebSocket /ws/rooms/' in log  # the access lines are there...
    assert "token=[redacted]" in log
    for secret in (room["token"], bob["token"], profile["key"]):
        assert secret not in log  # ...without a secret in any of them


async def test_a_finished_matchs_seed_tells_nothing_of_the_next_deal() -> None:
    with hostile_server("sqlite") as running:
        stranger = Stranger(running)
        room = await stranger.create("Ann", deal=ONE_CARD_MATCH,
                                     rules={"turn_seconds": 0, "target": 1})
        bob = await stranger.join(room["code"])
        ann = await stranger.connect(room["code"], room["token"])
        bob_socket = await stranger.connect(room["code"], bob["token"])
        await ann.wait_for(lambda f: f["type"] == "state")
        await ann.ok("start")
        match = (await ann.event("match_started"))["match"]
        running_match = (await stranger.get(f"/api/matches/{match}")).json()
        assert running_match["seed"] is None  # hidden while the match runs
        await ann.ok("play", card="R5")
        await ann.event("match_over")
        finished = (await stranger.get(f"/api/matches/{match}")).json()
        seed = finished["seed"]
        assert isinstance(seed, int)
        await ann.ok("start")  # the rematch
        state = await bob_socket.state()
        dealt = [sorted(state["you"]["hand"])]
        rules = rules_from_dict(state["rules"])
        for guess in range(seed - 2, seed + 5):
            game, _ = Game.start(2, rules, guess)
            assert sorted(game.view(1)["you"]["hand"]) not in dealt, f"dealt from seed {guess}"
        for client in (ann, bob_socket):
            await client.close()
