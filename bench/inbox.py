"""What a room's wait for its next message costs, with the turn's clock running (a deadline on
each wait, as in a game with ``turn_seconds``) and without one (bench/server.py's games, whose
``turn_seconds`` is 0): a message put in a later turn of the loop, then taken, N times, under
uvloop. The difference is what the clock adds to each message.

    .venv/bin/python -m bench.inbox [--messages 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import time

import uvloop

from app.mailbox import Inbox


async def per_message(messages: int, delay: float | None) -> float:
    box: Inbox[int] = Inbox()
    loop = asyncio.get_running_loop()
    started = time.process_time()
    for n in range(messages):
        loop.call_soon(box.put, n)
        await box.get_within(delay)
    box.close()
    return (time.process_time() - started) / messages * 1e6


async def measure(messages: int) -> None:
    await per_message(messages // 10, 30.0)  # warm
    for _ in range(3):  # taking turns
        clock = await per_message(messages, 30.0)
        bare = await per_message(messages, None)
        print(f"a message with the turn's clock: {clock:.2f} us of CPU; "
              f"without a clock: {bare:.2f} us")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=100_000)
    uvloop.run(measure(parser.parse_args().messages))


if __name__ == "__main__":
    main()
