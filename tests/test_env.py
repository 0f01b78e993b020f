"""config.env on environs: the readers the settings use beside those tests/test_config.py and
tests/test_production.py check."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import MappingEnv, env_bool, env_list, env_str


def test_text_is_stripped_and_blank_is_the_default():
    assert env_str({"X": "  redis://h:6379/0 "}, "X") == "redis://h:6379/0"
    assert env_str({"X": "   "}, "X", default="filesystem://") == "filesystem://"
    assert env_str({}, "X", default="INFO") == "INFO"


def test_lists_drop_spaces_and_empty_items():
    assert env_list({"X": " https://a.example, ,https://b.example "}, "X") == [
        "https://a.example",
        "https://b.example",
    ]
    assert env_list({}, "X") == []


def test_the_mapping_is_read_not_the_process_environment(monkeypatch):
    monkeypatch.setenv("P11_ONLY_IN_OS", "1")
    assert env_bool({}, "P11_ONLY_IN_OS") is False
    assert MappingEnv({"A": "1"}).int("A") == 1


def test_a_refusal_names_the_variable_and_its_value():
    with pytest.raises(ImproperlyConfigured, match="FLAG='maybe' is not a boolean"):
        env_bool({"FLAG": "maybe"}, "FLAG")
