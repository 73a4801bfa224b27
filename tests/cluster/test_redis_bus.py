"""The Redis bus: messages cross workers in order, leases are exclusive and fenced by a
generation, and the listener comes back by itself after Redis restarts."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from app.cluster.leased_bus import LeasedBus
from app.cluster.redis_bus import RedisBus, envelope, envelope_head
from app.cluster.resp import RespStream, command
from tests.cluster.redis_server import private_redis
from tests.services import redis_url


async def until(condition: Callable[[], bool], seconds: float = 5.0) -> None:
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.01)


@contextlib.asynccontextmanager
async def closed_after(*buses: RedisBus) -> AsyncIterator[None]:
    """Close every bus on the way out (within 10 s)."""
    try:
        yield
    finally:
        async with asyncio.timeout(10):
            for bus in buses:
                await bus.close()


@pytest.fixture
def prefix() -> str:
    return f"test:{uuid.uuid4().hex[:12]}:"  # tests never see each other's keys or channels


@pytest.fixture
async def two_workers(prefix: str) -> AsyncIterator[tuple[RedisBus, RedisBus]]:
    url = redis_url()
    buses = (RedisBus(url, prefix=prefix), RedisBus(url, prefix=prefix))
    async with closed_after(*buses):
        async with asyncio.timeout(10):
            for bus in buses:
                await bus.start()
        yield buses


async def test_a_message_published_on_one_worker_reaches_subscribers_on_every_worker_in_order(
    two_workers: tuple[RedisBus, RedisBus],
) -> None:
    one, two = two_workers
    got_one: list[dict[str, Any]] = []
    got_two: list[dict[str, Any]] = []
    one.subscribe("room:A", got_one.append)
    stop_two = two.subscribe("room:A", got_two.append)
    async with asyncio.timeout(5):
        await one.settled()
        await two.settled()
    for seq in range(1, 51):
        await one.publish("room:A", {"seq": seq})
    await one.publish("room:B", {"seq": 99})  # nobody listens there
    expected = [{"seq": s} for s in range(1, 51)]
    await until(lambda: len(got_one) == 50 and len(got_two) == 50)
    assert got_one == expected
    assert got_two == expected
    stop_two()
    async with asyncio.timeout(5):
        await two.settled()
    await two.publish("room:A", {"seq": 51})
    await until(lambda: len(got_one) == 51)
    assert got_two == expected


async def test_a_failing_subscriber_does_not_stop_the_others(
    two_workers: tuple[RedisBus, RedisBus],
) -> None:
    one, two = two_workers
    got: list[dict[str, Any]] = []

    def broken(message: dict[str, Any]) -> None:
        raise ValueError("boom")

    two.subscribe("t", broken)
    two.subscribe("t", got.append)
    async with asyncio.timeout(5):
        await two.settled()
    await one.publish("t", {"n": 1})
    await until(lambda: got == [{"n": 1}])


async def test_a_lease_belongs_to_one_worker_and_each_new_holder_gets_a_higher_generation(
    two_workers: tuple[RedisBus, RedisBus],
) -> None:
    one, two = two_workers
    async with asyncio.timeout(5):
        first = await one.keys.take_lease("room:A", "w1", 5)
        assert first is not None
        assert await two.keys.take_lease("room:A", "w2", 5) is None
        renewed = await one.keys.take_lease("room:A", "w1", 5)
        assert renewed == first  # renewal keeps the generation
        assert await one.keys.renew("room:A", "w1", first, 5)
        assert await one.keys.lease_holder("room:A") == ("w1", first)
        await two.keys.release("room:A", "w2")  # not the holder: no effect
        assert await two.keys.take_lease("room:A", "w2", 5) is None
        await one.keys.release("room:A", "w1")
        assert await one.keys.lease_holder("room:A") is None
        second = await two.keys.take_lease("room:A", "w2", 5)
        assert second is not None and second > first
        assert not await one.keys.renew("room:A", "w1", first, 5)


async def test_a_worker_frozen_past_its_lease_can_neither_renew_nor_release_it(
    two_workers: tuple[RedisBus, RedisBus],
) -> None:
    one, two = two_workers
    async with asyncio.timeout(5):
        old = await one.keys.take_lease("room:A", "w1", 0.05)
        assert old is not None
        await asyncio.sleep(0.15)  # w1 "froze"; its lease lapsed
        new = await two.keys.take_lease("room:A", "w2", 5)
        assert new is not None and new > old
        assert not await one.keys.renew("room:A", "w1", old, 5)
        await one.keys.release("room:A", "w1")
        assert await two.keys.lease_holder("room:A") == ("w2", new)
        # Even the same worker coming back after its lease lapsed gets a new generation.
        await two.keys.release("room:A", "w2")
        again = await one.keys.take_lease("room:A", "w1", 5)
        assert again is not None and again > new
        assert not await one.keys.renew("room:A", "w1", old, 5)


async def test_after_a_redis_restart_the_listener_reconnects_resubscribes_and_reports_it(
    prefix: str,
) -> None:
    got: list[dict[str, Any]] = []
    with private_redis() as server:
        bus = RedisBus(server.url, prefix=prefix, backoff_min=0.05, backoff_max=0.2,
                       ping_seconds=0.5)
        publisher = RedisBus(server.url, prefix=prefix)
        async with closed_after(bus, publisher), asyncio.timeout(20):
            await bus.start()
            back: list[int] = []
            bus.on_reconnect.append(lambda: back.append(bus.reconnects))
            bus.subscribe("room:A", got.append)
            await bus.settled()
            assert await bus.ping()
            await publisher.publish("room:A", {"seq": 1})
            await until(lambda: got == [{"seq": 1}])

            server.stop()
            await until(lambda: not bus.connected)
            assert not await bus.ping()  # /readyz says not ready meanwhile

            server.start()
            await until(lambda: bus.connected, 10)
            assert bus.reconnects == 1
            assert back == [1]  # told, once subscribed again
            assert await bus.ping()
            await publisher.publish("room:A", {"seq": 2})
            await until(lambda: got == [{"seq": 1}, {"seq": 2}])


async def test_a_listener_whose_redis_goes_silent_notices_by_ping_and_comes_back(
    prefix: str,
) -> None:
    got: list[dict[str, Any]] = []
    with private_redis() as server:
        assert server.process is not None
        bus = RedisBus(server.url, prefix=prefix, backoff_min=0.05, backoff_max=0.2,
                       ping_seconds=0.3)
        publisher = RedisBus(server.url, prefix=prefix)
        async with closed_after(bus, publisher), asyncio.timeout(20):
            try:
                await bus.start()
                bus.subscribe("room:S", got.append)
                await bus.ready("room:S")
                server.process.send_signal(signal.SIGSTOP)  # no FIN, no RST: just silence
                await until(lambda: not bus.connected, 3)
                server.process.send_signal(signal.SIGCONT)
                await until(lambda: bus.connected, 10)
                assert bus.reconnects == 1
                await publisher.publish("room:S", {"seq": 1})
                await until(lambda: got == [{"seq": 1}])
            finally:
                server.process.send_signal(signal.SIGCONT)


async def test_a_message_given_while_earlier_ones_await_their_replies_is_written_at_once(
    prefix: str,
) -> None:
    """An event is not held back behind a round trip still in flight: with Redis frozen (no
    reply can come), each turn's messages are still written, and all arrive in order."""
    got: list[int] = []
    with private_redis() as server:
        assert server.process is not None
        listener = RedisBus(server.url, prefix=prefix)
        bus = RedisBus(server.url, prefix=prefix)
        async with closed_after(listener, bus), asyncio.timeout(20):
            try:
                await listener.start()
                listener.subscribe("room:W", lambda m: got.append(m["n"]))
                await listener.ready("room:W")
                await bus.publish("room:W", {"n": 0})  # connected
                writes = bus.sends
                server.process.send_signal(signal.SIGSTOP)
                for n in (1, 2, 3):
                    bus.post("room:W", {"n": n})
                    for _ in range(3):
                        await asyncio.sleep(0)
                assert bus.sends - writes == 3  # no write waited for an earlier one's reply
                server.process.send_signal(signal.SIGCONT)
                await bus.publish("room:W", {"n": 4})
                await until(lambda: got == [0, 1, 2, 3, 4])
            finally:
                server.process.send_signal(signal.SIGCONT)


async def test_messages_lost_with_redis_fail_loudly_and_later_ones_go_out_on_a_new_connection(
    prefix: str, caplog: pytest.LogCaptureFixture,
) -> None:
    got: list[int] = []
    with private_redis() as server:
        assert server.process is not None
        listener = RedisBus(server.url, prefix=prefix, backoff_min=0.05, backoff_max=0.2)
        bus = RedisBus(server.url, prefix=prefix)
        async with closed_after(listener, bus), asyncio.timeout(20):
            await listener.start()
            listener.subscribe("room:L", lambda m: got.append(m["n"]))
            await listener.ready("room:L")
            await bus.publish("room:L", {"n": 1})
            server.process.send_signal(signal.SIGSTOP)
            waiting = asyncio.create_task(bus.publish("room:L", {"n": 2}))
            bus.post("room:L", {"n": 3})
            await asyncio.sleep(0.05)  # both written, neither answered
            server.stop()  # kill -9: the connection drops with them
            with pytest.raises(ConnectionError):
                await waiting
            assert "2 messages not published" in caplog.text
            server.start()
            await until(lambda: listener.connected, 10)
            with pytest.raises(ConnectionError):  # the lost post's error, raised once
                bus.post("room:L", {"n": 4})
            bus.post("room:L", {"n": 5})
            await bus.publish("room:L", {"n": 6})
            await until(lambda: got == [1, 5, 6])


async def test_a_publishing_connection_found_closed_is_replaced_once_and_order_holds(
    two_workers: tuple[RedisBus, RedisBus], monkeypatch: pytest.MonkeyPatch,
) -> None:
    one, two = two_workers
    got: list[int] = []
    two.subscribe("room:C", lambda m: got.append(m["n"]))
    await two.ready("room:C")
    async with asyncio.timeout(5):
        await one.publish("room:C", {"n": 0})
        opened: list[str] = []
        real_open = RespStream.open

        async def counted_open(url: str, timeout: float = 2.0) -> RespStream:
            opened.append(url)
            return await real_open(url, timeout)

        monkeypatch.setattr(RespStream, "open", counted_open)
        stream = one._publisher._stream
        assert stream is not None
        stream.close()  # found closed by the next write, before its reader hears of it
        for n in range(1, 21):
            one.post("room:C", {"n": n})
            if n % 5 == 0:
                await asyncio.sleep(0)
        await one.publish("room:C", {"n": 21})
        await until(lambda: len(got) == 22)
    assert got == list(range(22))
    assert len(opened) == 1


async def test_a_post_redis_refuses_is_logged_and_raised_by_the_next_post(
    prefix: str, caplog: pytest.LogCaptureFixture,
) -> None:
    with private_redis() as server:
        admin = await RespStream.open(server.url)
        admin.send([command("ACL", "SETUSER", "limited", "on", ">pw", "~*", "+@all",
                            "resetchannels", f"&{prefix}bus:room:ok")])
        await admin.replies(1)
        admin.close()
        limited = RedisBus(server.url.replace("redis://", "redis://limited:pw@"), prefix=prefix)
        async with closed_after(limited), asyncio.timeout(10):
            await limited.publish("room:ok", {"n": 1})
            limited.post("room:nope", {"n": 2})  # not this user's channel: Redis says NOPERM
            await limited.flush()
            assert "1 messages not published" in caplog.text
            with pytest.raises(ConnectionError, match="NOPERM"):
                limited.post("room:ok", {"n": 3})
            limited.post("room:ok", {"n": 4})  # raised once: later posts go out again
            await limited.publish("room:ok", {"n": 5})


async def test_a_redis_with_a_password_carries_messages_and_a_wrong_one_is_refused(
    prefix: str,
) -> None:
    got: list[dict[str, Any]] = []
    with private_redis(password="s3cret") as server:
        bus = RedisBus(server.url, prefix=prefix)
        wrong = RedisBus(server.url.replace("s3cret", "guess"), prefix=prefix,
                         backoff_min=0.05, backoff_max=0.1)
        async with closed_after(bus, wrong), asyncio.timeout(20):
            await bus.start()
            assert bus.connected and await bus.ping()
            bus.subscribe("room:P", got.append)
            await bus.ready("room:P")
            await bus.publish("room:P", {"seq": 1})
            await until(lambda: got == [{"seq": 1}])
            assert not await wrong.ping()
            with pytest.raises(ConnectionError):
                await wrong.publish("room:P", {"seq": 2})


async def test_a_listing_is_shared_by_every_worker_and_forgets_entries_nobody_refreshes(
    two_workers: tuple[RedisBus, RedisBus],
) -> None:
    one, two = two_workers
    async with asyncio.timeout(5):
        both = {"AAAA": {"code": "AAAA"}, "BBBB": {"code": "BBBB"}}
        await one.keys.list_entries("rooms", both, 30)
        await two.keys.list_entries("rooms", {"CCCC": {"code": "CCCC", "n": 1}}, 0.2)
        listed = await one.keys.listed("rooms")
        assert sorted(e["code"] for e in listed) == ["AAAA", "BBBB", "CCCC"]
        await one.keys.unlist("rooms", ["BBBB"])
        await asyncio.sleep(0.3)  # CCCC's worker stopped refreshing it
        assert await two.keys.listed("rooms") == [{"code": "AAAA"}]
        await two.keys.list_entries("rooms", {"CCCC": {"code": "CCCC", "n": 2}}, 30)
        assert sorted(e["code"] for e in await one.keys.listed("rooms")) == ["AAAA", "CCCC"]
        assert {"code": "CCCC", "n": 2} in await one.keys.listed("rooms")


async def test_posts_and_publishes_go_out_in_order_and_share_round_trips(
    two_workers: tuple[RedisBus, RedisBus],
) -> None:
    one, two = two_workers
    got: list[int] = []
    two.subscribe("room:O", lambda m: got.append(m["n"]))
    await two.ready("room:O")
    async with asyncio.timeout(5):
        sends = one.sends
        for n in range(50):
            one.post("room:O", {"n": n})  # returns at once: nothing awaited per message
        await one.publish("room:O", {"n": 50})  # returns once every earlier post is out too
        assert one.sends - sends <= 3
        await until(lambda: len(got) == 51)
    assert got == list(range(51))


async def test_a_worker_drops_its_own_messages_coming_back_from_redis_without_decoding_them(
    two_workers: tuple[RedisBus, RedisBus], caplog: pytest.LogCaptureFixture,
) -> None:
    one, two = two_workers
    mine, theirs = LeasedBus(one, "w1"), LeasedBus(two, "w2")
    got_one: list[dict[str, Any]] = []
    got_two: list[dict[str, Any]] = []
    mine.subscribe("room:E", got_one.append)
    theirs.subscribe("room:E", got_two.append)
    mine.subscribe("room:F", got_one.append)
    await one.ready("room:E")
    await two.ready("room:E")
    await one.ready("room:F")
    async with asyncio.timeout(5):
        for seq in range(1, 4):
            await mine.publish("room:E", {"seq": seq})
        await until(lambda: len(got_two) == 3)
        await theirs.publish("room:E", {"seq": 4})
        await one.flush()
        await two.flush()
        # Tagged as w1's but not JSON past the tag: dropped before any decoding, no warning.
        await two._redis.publish(one._channel("room:F"), '{"from":"w1","m":{not json')
        await two._redis.publish(one._channel("room:F"), envelope("w2", {"seq": 9}))
        await until(lambda: len(got_two) == 4 and len(got_one) == 5)
    assert got_one == [{"seq": s} for s in (1, 2, 3, 4, 9)]  # its own once, w2's from Redis
    assert got_two == [{"seq": s} for s in range(1, 5)]
    assert "not JSON" not in caplog.text and "not JSON" not in str(got_one)


def test_the_envelope_starts_with_its_sender_tag_and_is_the_json_of_the_envelope() -> None:
    for origin in ("w1", 'host "x"-12', "wörker"):
        message = {"seq": 3, "event": {"kind": "played", "card": "R7"}}
        encoded = envelope(origin, message)
        assert encoded.startswith(envelope_head(origin))
        assert json.loads(encoded) == {"from": origin, "m": message}
        assert not envelope(origin + "0", message).startswith(envelope_head(origin))


async def test_with_interest_tracked_events_go_to_redis_only_for_topics_another_worker_wants(
    two_workers: tuple[RedisBus, RedisBus],
) -> None:
    one, two = two_workers
    owner = LeasedBus(one, "w1")
    owner.track_interest()
    here: list[dict[str, Any]] = []
    there: list[dict[str, Any]] = []
    owner.subscribe("room:I", here.append)
    two.subscribe("room:I", there.append)  # as any other worker: the envelopes
    await two.ready("room:I")
    async with asyncio.timeout(5):
        await owner.publish("room:I", {"seq": 1, "event": {}})  # nobody else wants it
        await owner.publish("room:I", {"control": "reseat", "seats": {}})  # controls: always
        owner.want("room:I", "w2")
        await owner.publish("room:I", {"seq": 2, "event": {}})
        owner.forget("room:I")  # the lease went
        await owner.publish("room:I", {"seq": 3, "event": {}})
        await owner.publish("room:I", {"control": "moved"})
        await one.flush()
        await until(lambda: len(there) == 3)
    assert [m["m"] for m in there] == [
        {"control": "reseat", "seats": {}}, {"seq": 2, "event": {}}, {"control": "moved"}]
    assert [m.get("seq") for m in here] == [1, None, 2, 3, None]  # its own sockets: all
    assert owner.kept_local == 2
    untracked = LeasedBus(two, "w2")  # no Forwarder: every event goes out, as before
    assert untracked.wanted("room:Z") and not owner.wanted("room:Z")
