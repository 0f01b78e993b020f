"""config.memory.Recent: the few latest values a process keeps, by key."""

from config.memory import Recent


def test_the_oldest_used_is_forgotten_past_the_limit():
    recent = Recent(2)
    recent.put("a", 1)
    recent.put("b", 2)
    assert recent.get("a") == 1  # now the latest used
    recent.put("c", 3)
    assert list(recent) == ["a", "c"] and recent.get("b") is None


def test_a_value_not_kept_is_fetched_once_then_kept():
    recent, fetched = Recent(4), []

    def fetch():
        fetched.append(1)
        return "from the shared cache"

    assert [recent.get_or_fetch("k", fetch) for _ in range(3)] == ["from the shared cache"] * 3
    assert len(fetched) == 1


def test_nothing_found_is_not_kept_and_is_asked_again():
    recent, asked = Recent(4), []

    def fetch():
        asked.append(1)

    assert recent.get_or_fetch("k", fetch) is None
    assert recent.get_or_fetch("k", fetch) is None
    assert len(asked) == 2 and "k" not in recent
