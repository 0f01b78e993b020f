"""The one throttle (config.throttle): each scope counted on its own, blocked at its limit."""

from __future__ import annotations

import pytest

from config.throttle import Throttle

PINS = Throttle("test-failures", 600, address=3, event=5)


def test_a_scope_is_blocked_once_its_count_reaches_the_limit():
    for n in range(1, 4):
        assert not PINS.blocked(address="10.0.0.1", event=1)
        counted = PINS.count(address="10.0.0.1", event=1)
        assert (counted["address"], counted["event"]) == (n, n) and counted.within
    assert PINS.blocked(address="10.0.0.1", event=1)  # the address, at 3
    assert PINS.blocked(address="10.0.0.1")
    assert not PINS.blocked(address="10.0.0.2", event=1)  # another address: the event at 3 of 5
    assert not PINS.blocked(address="10.0.0.2", event=2)


def test_past_a_limit_is_said_once():
    counts = [PINS.count(address="10.0.0.3") for _ in range(5)]
    assert [c.within for c in counts] == [True, True, True, False, False]
    assert [c.just_past for c in counts] == [False, False, False, True, False]


def test_every_address_counts_toward_the_event():
    for n in range(5):
        PINS.count(address=f"10.0.1.{n}", event=7)
    assert PINS.blocked(address="10.0.1.99", event=7)
    assert not PINS.blocked(address="10.0.1.99", event=8)


def test_a_scope_not_given_is_neither_asked_nor_counted():
    counted = PINS.count(address="10.0.0.4", event=None)
    assert dict(counted.counts) == {"address": 1}
    with pytest.raises(ValueError):
        PINS.count(game=1)
