"""The one memory-budget refusal (strew.core.budget): exact at the budget, any size of estimate, a readable size."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from strew.core.budget import check_memory, size_text

UNITS = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "PiB": 2**50, "EiB": 2**60}


@given(st.floats(0, 1e300))
def test_a_size_reads_back_within_its_rounding(nbytes: float) -> None:
    number, unit = size_text(nbytes).split()
    value = float(number.replace(",", "")) * UNITS[unit]
    assert abs(value - nbytes) <= max(0.05 * UNITS[unit] + 0.5, 0.005 * nbytes)
    assert unit == "EiB" or float(number.replace(",", "")) < 1024


@given(st.integers(1, 2**70), st.integers(-3, 3))
def test_the_budget_refuses_exactly_above_it(budget: int, offset: int) -> None:
    nbytes = budget + offset
    if nbytes <= budget:
        check_memory("a job", nbytes, "shrink it", budget)
        return
    with pytest.raises(ValueError, match=r"^a job needs about [\d,.]+ [KMGTPE]?i?B, more than the memory budget "
                                         r"\([\d,.]+ [KMGTPE]?i?B\); shrink it$"):
        check_memory("a job", nbytes, "shrink it", budget)


@pytest.mark.parametrize("nbytes", [math.inf, math.nan, 10**400, 2**1100 + 1])
def test_estimates_beyond_any_float_are_refused_as_unbounded(nbytes: float) -> None:
    with pytest.raises(ValueError, match=r"^grid needs unbounded memory, more than memory_budget \(1\.0 MiB\); x$"):
        check_memory("grid", nbytes, "x", 2**20, "memory_budget")
