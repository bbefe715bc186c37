"""core.fpmath: close to the correctly rounded values, and each element's bits depend on that element alone."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from strew.core import fpmath

ANGLES = st.floats(-1e5, 1e5, allow_nan=False)
UNIT = st.floats(-1.0, 1.0, allow_nan=False)
POSITIVE = st.floats(min_value=5e-324, max_value=1.7e308, allow_nan=False, allow_infinity=False)
FINITE = st.floats(-1e300, 1e300, allow_nan=False)


def ulps(got: np.ndarray, want: list[float]) -> float:
    """The largest error in units of the last place of the wanted values."""
    expected = np.asarray(want, dtype=np.float64)
    spacing = np.spacing(np.maximum(np.abs(expected), np.finfo(np.float64).tiny))
    return float(np.max(np.abs(got - expected) / spacing)) if len(expected) else 0.0


CASES = [
    (lambda x: fpmath.sin(x), math.sin, ANGLES, 3),
    (lambda x: fpmath.cos(x), math.cos, ANGLES, 3),
    (lambda x: fpmath.arcsin(x), math.asin, UNIT, 3),
    (lambda x: fpmath.arccos(x), math.acos, UNIT, 3),
    (lambda x: fpmath.log(x), math.log, POSITIVE, 2),
]


@pytest.mark.parametrize(("ours", "libm", "values", "limit"), CASES, ids=["sin", "cos", "asin", "acos", "log"])
def test_within_a_few_ulp_of_libm(ours, libm, values, limit) -> None:
    @settings(max_examples=200)
    @given(xs=st.lists(values, min_size=1, max_size=64))
    def check(xs: list[float]) -> None:
        got = ours(np.array(xs))
        # libm is itself within an ulp of the true value: allow ours one more.
        assert ulps(got, [libm(v) for v in xs]) <= limit

    check()


@settings(max_examples=300)
@given(y=FINITE, x=FINITE)
def test_arctan2_within_a_few_ulp_and_signed_zeros_as_in_c(y: float, x: float) -> None:
    assert ulps(fpmath.arctan2(np.array([y]), np.array([x])), [math.atan2(y, x)]) <= 3
    for zy in (0.0, -0.0):
        for zx in (0.0, -0.0, 1.0, -1.0):
            got = float(fpmath.arctan2(np.array([zy]), np.array([zx]))[0])
            want = math.atan2(zy, zx)
            assert got == want and math.copysign(1.0, got) == math.copysign(1.0, want)


def test_non_finite_inputs() -> None:
    assert np.isnan(fpmath.sin(np.array([np.inf, -np.inf, np.nan]))).all()
    assert np.isnan(fpmath.arctan2(np.array([np.nan, 1.0]), np.array([1.0, np.inf]))).all()
    logs = fpmath.log(np.array([0.0, -1.0, np.inf, np.nan] * 5))
    assert logs[0] == -np.inf and np.isnan(logs[1]) and logs[2] == np.inf and np.isnan(logs[3])


FUNCTIONS = {"sin": fpmath.sin, "cos": fpmath.cos, "arcsin": fpmath.arcsin, "arccos": fpmath.arccos,
             "log": fpmath.log, "arctan2": lambda v: fpmath.arctan2(v, 0.3 - v)}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@settings(max_examples=60)
@given(values=hnp.arrays(np.float64, st.integers(1, 300), elements=st.floats(-0.999, 0.999)),
       offset=st.integers(1, 7))
def test_each_element_the_same_bits_whatever_the_length_alignment_or_neighbours(name, values, offset) -> None:
    """The whole array, each element on its own, a slice, and a copy at an odd byte address (an unaligned
    buffer) give the same bits: nothing depends on SIMD blocks, peeled heads or tails."""
    function = FUNCTIONS[name]
    data = np.abs(values) + 1e-3 if name == "log" else values
    whole = function(data)
    one_by_one = np.concatenate([function(data[i:i + 1]) for i in range(len(data))])
    buffer = bytearray(data.nbytes + offset)
    unaligned = np.frombuffer(buffer, dtype=np.float64, count=len(data), offset=offset)
    unaligned[:] = data
    assert not unaligned.flags.aligned
    assert whole.tobytes() == one_by_one.tobytes()
    assert function(unaligned).tobytes() == whole.tobytes()
    if len(data) > 3:
        assert function(data[3:]).tobytes() == whole[3:].tobytes()


def test_sincos_is_sin_and_cos() -> None:
    x = np.linspace(-20.0, 20.0, 4001)
    s, c = fpmath.sincos(x)
    assert s.tobytes() == fpmath.sin(x).tobytes() and c.tobytes() == fpmath.cos(x).tobytes()
    assert np.max(np.abs(s * s + c * c - 1.0)) < 4e-16


def test_small_linear_algebra_matches_numpy_to_rounding() -> None:
    rng = np.random.default_rng(0)
    for _ in range(50):
        m, b = rng.normal(size=(3, 3)), rng.normal(size=(3, 4))
        assert np.allclose(fpmath.solve3(m, b), np.linalg.solve(m, b), rtol=1e-9, atol=1e-12)
        assert math.isclose(fpmath.det3(m), np.linalg.det(m), rel_tol=1e-12, abs_tol=1e-14)
        p, rows = rng.normal(size=(20, 3)), rng.normal(size=(5, 3))
        assert np.allclose(fpmath.project(p, rows), p @ rows.T, rtol=1e-14, atol=1e-14)
        assert np.allclose(fpmath.norm3(p), np.linalg.norm(p, axis=1), rtol=1e-15)
    with pytest.raises(ValueError, match="singular"):
        fpmath.solve3(np.ones((3, 3)), np.ones(3))
