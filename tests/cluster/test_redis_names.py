"""What the workers' keys and channels are called. On one Redis, as they always were: a worker
of this build and one of the build before share leases during a rolling deploy. On a Redis
Cluster every key and channel of a room hashes to the room's slot, and a setting that would
break that is refused at start-up."""

from __future__ import annotations

import pytest
import redis.asyncio as redis

from app.cluster.cluster_bus import ClusterBus, seed_nodes
from app.cluster.redis_keys import RedisKeys
from app.cluster.topology import slot_of, tagged


def test_on_one_redis_the_keys_keep_the_names_of_the_build_before() -> None:
    keys = RedisKeys(redis.Redis(), "uno:")
    assert keys._key("room:ABCD") == "uno:lease:room:ABCD"
    assert keys._listing_keys("public_rooms") == ("uno:list:public_rooms",
                                                  "uno:list:public_rooms:data")


def test_on_a_cluster_every_key_of_a_room_hashes_to_the_rooms_slot() -> None:
    keys = RedisKeys(redis.Redis(), "uno:", cluster=True)
    lease = keys._key("room:ABCD")
    assert lease == "uno:lease:room:{ABCD}"
    names = [lease, lease + ":gen", f"uno:bus:{tagged('room:ABCD')}"]
    assert {slot_of(name.encode()) for name in names} == {slot_of(b"ABCD")}
    index, data = keys._listing_keys("public_rooms", 3)
    assert slot_of(index.encode()) == slot_of(data.encode())  # one script reads both


def test_cluster_seeds_are_host_port_pairs_and_anything_else_is_refused() -> None:
    assert seed_nodes("10.0.0.1:7000, redis-2:7001") == [("10.0.0.1", 7000), ("redis-2", 7001)]
    for bad in ("10.0.0.1", ":7000", "host:port", "a:1,,b:2"):
        with pytest.raises(ValueError, match="UNO_REDIS_CLUSTER"):
            seed_nodes(bad)


def test_a_prefix_with_braces_is_refused_on_a_cluster() -> None:
    with pytest.raises(ValueError, match="UNO_REDIS_PREFIX"):
        ClusterBus("127.0.0.1:7000", prefix="uno{1}:")
