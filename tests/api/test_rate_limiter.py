"""The sliding-window limiter behind every message limit (a socket's, a person's, an
address's): exact to the hit, and small while it holds a window's hits."""

from __future__ import annotations

import tracemalloc

from app.api.limits import KeyedRateLimiter, RateLimiter


def test_a_window_lets_exactly_its_limit_through_and_frees_each_hit_as_it_ages_out() -> None:
    limiter = RateLimiter(3, 10.0)
    assert [limiter.allow(t) for t in (0.0, 1.0, 2.0)] == [True, True, True]
    assert not limiter.allow(5.0)
    assert limiter.full(9.9)
    assert limiter.retry_after(9.0) == 1.0  # the hit at 0.0 leaves the window at 10.0
    assert limiter.allow(10.0)  # the first hit has aged out, the others have not
    assert not limiter.allow(10.5)
    assert limiter.allow(11.0)


def test_refusals_past_the_extra_mark_a_sender_abusive_until_a_quiet_window() -> None:
    limiter = RateLimiter(1, 10.0, extra=2)
    assert limiter.allow(0.0)
    for t in (1.0, 2.0):
        assert not limiter.allow(t)
    assert not limiter.abusive
    assert not limiter.allow(3.0)
    assert limiter.abusive
    assert limiter.allow(20.0)  # a window without hits starts the count again
    assert not limiter.abusive


def test_a_busy_address_costs_about_eight_bytes_a_hit() -> None:
    # One address's limit is thousands of hits a window (a party behind one router): a list of
    # floats held 32 bytes a hit.
    keyed = KeyedRateLimiter(10_000, 3600.0)
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        for _ in range(5_000):
            assert keyed.allow("203.0.113.9")
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (after - before) / 5_000 < 12
