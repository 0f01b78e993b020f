"""config.shared_cache: how an outage of the shared cache is known, logged and retried.

The pages and throttles during a real outage are tests/tournaments/test_cache_outage.py; here
the bookkeeping, with a clock the test moves."""

import logging

import pytest

from config import shared_cache
from config.env import cache_from_env
from config.shared_cache import RETRY_SECONDS, ForgivingClient, Outage, place


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def said(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "config.shared_cache"]


def test_an_outage_is_logged_when_it_starts_and_when_it_ends_and_not_in_between(caplog):
    caplog.set_level(logging.WARNING, logger="config.shared_cache")
    clock = Clock()
    outage = Outage("10.0.0.5:6379/1", clock)
    assert not outage.down and not outage.skip()
    for _ in range(50):
        outage.failed(ConnectionError("Error 111 connecting to 10.0.0.5:6379. Connection refused."))
    assert outage.down
    assert len(said(caplog)) == 1
    assert "10.0.0.5:6379/1" in said(caplog)[0] and "Connection refused" in said(caplog)[0]
    clock.now += 12.5
    outage.answered()
    outage.answered()
    assert not outage.down and not outage.skip()
    assert len(said(caplog)) == 2
    assert "12.5 s" in said(caplog)[1] and "50 calls" in said(caplog)[1]


def test_after_a_failure_calls_go_without_the_cache_and_one_tries_again_a_second_later():
    clock = Clock()
    outage = Outage("cache", clock)
    outage.failed(TimeoutError("Timeout connecting to server"))
    assert [outage.skip() for _ in range(3)] == [True] * 3
    clock.now += RETRY_SECONDS
    assert [outage.skip() for _ in range(3)] == [False, True, True]  # one call tries
    outage.failed(TimeoutError("Timeout connecting to server"))  # and fails
    clock.now += RETRY_SECONDS / 2
    assert outage.skip()
    clock.now += RETRY_SECONDS / 2
    assert not outage.skip()


def test_the_log_names_where_the_cache_is_never_its_password():
    assert place("redis://:hunter2@10.0.0.5:6379/1") == "10.0.0.5:6379/1"
    assert place("rediss://user:hunter2@cache.internal:6380/0") == "cache.internal:6380/0"
    assert place("unix:///run/redis/redis.sock") == "/run/redis/redis.sock"


@pytest.fixture
def dead_cache(settings):
    shared_cache.forget()
    settings.CACHES = {"default": cache_from_env({"DJANGO_CACHE_URL": "redis://127.0.0.1:1/0"})}
    yield
    shared_cache.forget()


def test_a_dead_redis_is_asked_once_a_second_not_once_a_call(dead_cache, monkeypatch):
    """A Redis host that drops packets would hold every request for the connect timeout:
    within RETRY_SECONDS of a failure the calls do not connect at all."""
    from django.core.cache import cache

    connects = []
    real = ForgivingClient.get_client

    def counted(self, *args, **kwargs):
        connects.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ForgivingClient, "get_client", counted)
    assert cache.get("a", "missed") == "missed"
    assert not shared_cache.reachable()
    for n in range(20):
        cache.set(f"k{n}", n)
        assert cache.get(f"k{n}") is None
    assert len(connects) == 1


def test_healthz_asks_the_dead_redis_itself_even_while_the_calls_skip_it(client, db, dead_cache):
    from django.core.cache import cache

    cache.get("a")  # the outage is known; the calls now skip Redis
    for _ in range(2):
        assert client.get("/healthz").json()["cache"]["status"] == "error"


def test_one_redis_client_is_made_per_pool_not_one_per_call(monkeypatch):
    """Django's Redis backend makes a redis-py client on every call, each building its table
    of reply parsers (0.2 ms of CPU): the kept one serves every read and write."""
    made = []
    client = ForgivingClient(["redis://127.0.0.1:1/0"])
    real = client._client

    def counted(**kwargs):
        made.append(kwargs["connection_pool"])
        return real(**kwargs)

    client._client = counted
    first = client.get_client("a")
    assert all(client.get_client(f"k{n}", write=n % 2 == 0) is first for n in range(10))
    assert made == [client._get_connection_pool(write=True)]


def test_with_two_servers_reads_and_writes_keep_a_client_for_each_pool():
    client = ForgivingClient(["redis://127.0.0.1:1/0", "redis://127.0.0.1:2/0"])
    writer = client.get_client(write=True)
    reader = client.get_client()
    assert writer is not reader
    assert writer.connection_pool is client._get_connection_pool(write=True)
    assert reader.connection_pool is client._get_connection_pool(write=False)
    assert client.get_client(write=True) is writer and client.get_client() is reader
