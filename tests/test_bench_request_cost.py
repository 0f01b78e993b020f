"""bench.request_cost's choice of requests (--only): by name, with what each needs, in the
benchmark's order, and an unknown name refused before anything is set up."""

import pytest

from bench.request_cost.kinds import KINDS
from bench.request_cost.runner import chosen


def test_every_request_without_a_choice():
    assert chosen(None) == KINDS


def test_the_named_requests_in_the_benchmarks_order():
    assert [kind.name for kind in chosen("table,deal")] == ["deal", "table"]


def test_a_first_render_is_measured_after_the_deal_that_makes_its_version():
    assert [kind.name for kind in chosen("sheet_render")] == ["deal", "sheet_render"]


def test_an_unknown_name_is_refused():
    with pytest.raises(SystemExit, match="no such request tabel"):
        chosen("deal,tabel")
