"""A private Redis Cluster for tests and benchmarks: three masters and three replicas of
Debian's ``redis-server`` on free local ports, each in a temp dir of its own, joined with
``redis-cli --cluster create``; never the shared server on 6379.

    with private_cluster() as cluster:
        cluster.seeds                         # "127.0.0.1:27001,127.0.0.1:31002,..."
        cluster.owner_of_slot(slot)           # the node serving it now
        cluster.migrate_slot(slot, to=node)   # IMPORTING / MIGRATING, MIGRATE keys, SETSLOT NODE
        promoted = cluster.kill_master(node)  # kill -9; returns once its replica serves its slots

    .venv/bin/python -m tests.cluster.redis_cluster      # one to try by hand, until Ctrl-C
"""

from __future__ import annotations

import contextlib
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

# A master not answering this long is failed over: short, so that a test sees a failover
# within a few seconds (and long enough for a busy two-core machine not to fail one over).
NODE_TIMEOUT_MS = 1000


def cluster_port() -> int:
    """A free port whose cluster bus port (10,000 above it) is free too: at most 55535."""
    for _ in range(200):
        port = random.randint(20_000, 55_535)
        try:
            for candidate in (port, port + 10_000):
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", candidate))
        except OSError:
            continue
        return port
    raise RuntimeError("no free port pair for a Redis Cluster node")


@dataclass
class RedisNode:
    port: int
    folder: Path
    process: subprocess.Popen[bytes] | None = None
    node_id: str = ""

    @property
    def name(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder),
             "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
             "--cluster-node-timeout", str(NODE_TIMEOUT_MS),
             # One shard down must not stop the others (the default stops every slot).
             "--cluster-require-full-coverage", "no",
             "--save", "", "--appendonly", "no", "--protected-mode", "no",
             "--repl-diskless-sync-delay", "0",  # a replica in sync at once, not in 5 s
             "--logfile", str(self.folder / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )

    def kill(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait(5)

    def cli(self, *args: str, timeout: float = 10.0) -> str:
        done = subprocess.run(["redis-cli", "-p", str(self.port), *args], capture_output=True,
                              text=True, timeout=timeout, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"redis-cli -p {self.port} {' '.join(args)}: {done.stderr}")
        return done.stdout.strip()


@dataclass
class RedisClusterServers:
    nodes: list[RedisNode] = field(default_factory=list)
    root: Path | None = None

    @property
    def seeds(self) -> str:
        """``UNO_REDIS_CLUSTER``: every node, masters and replicas."""
        return ",".join(node.name for node in self.nodes)

    def start(self, masters: int = 3, replicas: int = 1, timeout: float = 30.0) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="uno-redis-cluster-"))
        for index in range(masters * (1 + replicas)):
            folder = self.root / f"node-{index}"
            folder.mkdir()
            node = RedisNode(cluster_port(), folder)
            node.start()
            self.nodes.append(node)
        for node in self.nodes:
            _wait_for(lambda n=node: _answers(n), timeout, f"redis-server on {node.port}")
        done = subprocess.run(
            ["redis-cli", "--cluster", "create", *(node.name for node in self.nodes),
             "--cluster-replicas", str(replicas), "--cluster-yes"],
            capture_output=True, text=True, timeout=timeout, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"redis-cli --cluster create failed: {done.stdout}{done.stderr}")
        for node in self.nodes:
            node.node_id = node.cli("CLUSTER", "MYID")
        self.wait_ok(timeout)
        self.wait_replicated(timeout)

    def wait_replicated(self, timeout: float = 30.0) -> None:
        """Until every live replica is in sync with its master (only then can it fail over)."""
        def synced(node: RedisNode) -> bool:
            info = node.cli("INFO", "replication")
            return "role:master" in info or "master_link_status:up" in info
        _wait_for(lambda: all(synced(node) for node in self.nodes if node.alive), timeout,
                  "the replicas to sync")

    def stop(self) -> None:
        for node in self.nodes:
            node.kill()
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)

    # -- what the cluster looks like ------------------------------------------------------------

    def wait_ok(self, timeout: float = 30.0) -> None:
        """Until every live node says ``cluster_state:ok`` and agrees on who serves each slot."""
        def settled() -> bool:
            live = [node for node in self.nodes if node.alive]
            if not all("cluster_state:ok" in node.cli("CLUSTER", "INFO") for node in live):
                return False
            views = {tuple(sorted(_slot_owners(node).items())) for node in live}
            return len(views) == 1 and sum(1 for _ in views) == 1 and len(
                next(iter(views))) == 16384
        _wait_for(settled, timeout, "the Redis Cluster to settle")

    def masters(self) -> list[RedisNode]:
        owners = set(self.slot_owners().values())
        return [node for node in self.nodes if node.alive and node.node_id in owners]

    def slot_owners(self) -> dict[int, str]:
        """Slot -> node id, as a live node sees it."""
        node = next(node for node in self.nodes if node.alive)
        return _slot_owners(node)

    def owner_of_slot(self, slot: int) -> RedisNode:
        owner = self.slot_owners()[slot]
        return next(node for node in self.nodes if node.node_id == owner)

    def node_by_id(self, node_id: str) -> RedisNode:
        return next(node for node in self.nodes if node.node_id == node_id)

    # -- events -----------------------------------------------------------------------------

    def migrate_slot(self, slot: int, to: RedisNode, pause: float = 0.0) -> int:
        """Move ``slot`` to ``to`` as an operator does, keys one at a time (``pause`` between
        them, so that clients meet the slot half moved: ASK); the number of keys moved."""
        source = self.owner_of_slot(slot)
        assert source is not to
        to.cli("CLUSTER", "SETSLOT", str(slot), "IMPORTING", source.node_id)
        source.cli("CLUSTER", "SETSLOT", str(slot), "MIGRATING", to.node_id)
        moved = 0
        while True:
            keys = source.cli("CLUSTER", "GETKEYSINSLOT", str(slot), "10").split()
            if not keys:
                break
            for key in keys:
                source.cli("MIGRATE", "127.0.0.1", str(to.port), key, "0", "5000")
                moved += 1
                time.sleep(pause)
        # The new owner first, then the old one (the order redis-cli --cluster uses), then the
        # other masters, so that every node knows at once.
        to.cli("CLUSTER", "SETSLOT", str(slot), "NODE", to.node_id)
        source.cli("CLUSTER", "SETSLOT", str(slot), "NODE", to.node_id)
        for node in self.masters():
            if node not in (source, to):
                node.cli("CLUSTER", "SETSLOT", str(slot), "NODE", to.node_id)
        return moved

    def kill_master(self, master: RedisNode, timeout: float = 30.0) -> RedisNode:
        """kill -9 ``master``; returns its replica once promoted and serving its slots."""
        slots = [slot for slot, owner in self.slot_owners().items() if owner == master.node_id]
        master.kill()

        def promoted() -> RedisNode | None:
            with contextlib.suppress(RuntimeError, StopIteration, KeyError,
                                     subprocess.TimeoutExpired):
                owner = self.owner_of_slot(slots[0])
                if owner is not master and owner.alive:
                    return owner
            return None

        _wait_for(lambda: promoted() is not None, timeout, f"a replica of {master.name}")
        self.wait_ok(timeout)
        replica = promoted()
        assert replica is not None
        return replica

    def restart(self, node: RedisNode, timeout: float = 30.0) -> None:
        """Start a killed node again (with its nodes.conf: it rejoins, as a replica)."""
        node.start()
        _wait_for(lambda: _answers(node), timeout, f"redis-server on {node.port}")
        self.wait_ok(timeout)
        self.wait_replicated(timeout)


def _slot_owners(node: RedisNode) -> dict[int, str]:
    owners: dict[int, str] = {}
    for line in node.cli("CLUSTER", "NODES").splitlines():
        parts = line.split()
        if "master" not in parts[2] or "fail" in parts[2]:
            continue
        for part in parts[8:]:
            if part.startswith("["):
                continue  # a slot being migrated or imported
            first, _, last = part.partition("-")
            for slot in range(int(first), int(last or first) + 1):
                owners[slot] = parts[0]
    return owners


def _answers(node: RedisNode) -> bool:
    try:
        return node.cli("PING", timeout=2) == "PONG"
    except (RuntimeError, subprocess.TimeoutExpired):
        return False


def _wait_for(condition: object, timeout: float, what: str) -> None:
    assert callable(condition)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except (RuntimeError, subprocess.TimeoutExpired):
            pass
        time.sleep(0.05)
    raise RuntimeError(f"timed out waiting for {what}")


@contextmanager
def private_cluster() -> Iterator[RedisClusterServers]:
    servers = RedisClusterServers()
    try:
        servers.start()
        yield servers
    finally:
        servers.stop()


if __name__ == "__main__":
    with private_cluster() as running:
        print(f"UNO_REDIS_CLUSTER={running.seeds}  (Ctrl-C stops it)", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)
