"""The `minus` filter: a true minus sign on negative numbers, anything else left alone."""

import pytest

from scoring.presenters import signed
from scoring.templatetags.numbers import minus


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (-3, "\u22123"),
        (0, "0"),
        (7, "7"),
        (-2.5, "\u22122.5"),
        ("-3", "\u22123"),
        ("-0,9", "\u22120,9"),
        ("-x", "-x"),
        ("3", "3"),
        (None, None),
    ],
)
def test_minus(value, shown):
    assert minus(value) == shown


def test_signed_adds_a_plus_and_shares_the_minus():
    assert [signed(n) for n in (2, 0, -1, None)] == ["+2", "0", "\u22121", ""]
