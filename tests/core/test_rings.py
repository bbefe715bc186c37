"""Rings about circles: the gap to the nearest circle's edge, its mask and its falloff, against every pair."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strew.core.fields.rings import CircleGaps, RingFalloff, RingMask


def _brute(xy: np.ndarray, centres: np.ndarray, radii: np.ndarray, own: np.ndarray) -> np.ndarray:
    if not len(centres):
        return np.full(len(xy), np.inf)
    d = np.sqrt(((xy[:, None, :] - centres[None, :, :]) ** 2).sum(-1)) - radii[None, :]
    return d.min(axis=1) - own


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(0, 60), spread=st.floats(0.5, 200.0),
       reach=st.floats(0.0, 20.0), largest=st.floats(0.0, 5.0), own_share=st.floats(0.0, 1.0))
def test_gaps_within_reach_are_exact_and_beyond_are_inf(seed: int, count: int, spread: float, reach: float,
                                                       largest: float, own_share: float) -> None:
    rng = np.random.default_rng(seed)
    centres = rng.uniform(-spread, spread, (count, 2)) + rng.uniform(-1e4, 1e4, 2)
    radii = rng.uniform(0.0, largest, count)
    xy = np.concatenate([rng.uniform(-spread - reach - 3, spread + reach + 3, (400, 2)) + centres.mean(0)
                         if count else rng.uniform(-10, 10, (400, 2)),
                         centres + rng.normal(0, reach + 0.1, centres.shape)])
    own = rng.uniform(0.0, 1.0, len(xy)) * own_share * 3.0
    circles = CircleGaps(centres, radii, reach, largest_own=3.0 * own_share)
    expected = _brute(xy, centres, radii, own)
    got = circles.gaps(xy, own)
    within = expected <= reach
    np.testing.assert_allclose(got[within], expected[within], rtol=0, atol=1e-9)
    assert np.isinf(got[~within]).all()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_mask_and_the_falloff_follow_the_nearest_edge(seed: int) -> None:
    rng = np.random.default_rng(seed)
    centres, radii = rng.uniform(0, 50, (30, 2)), rng.uniform(0, 1.5, 30)
    xy = rng.uniform(-5, 55, (20_000, 2))
    near, far = 0.5, 2.5
    gap = _brute(xy, centres, radii, np.zeros(len(xy)))
    circles = CircleGaps(centres, radii, far)
    inside = RingMask(circles, near, far)(xy)
    np.testing.assert_array_equal(inside, (gap >= near) & (gap <= far))
    density = RingFalloff(circles, near, far)(xy)
    np.testing.assert_allclose(density[inside], 1.0 - (gap[inside] - near) / (far - near), atol=1e-12)
    assert (density[~inside & (gap > far)] == 0.0).all()


def test_bounds_hold_every_place_within_reach() -> None:
    rng = np.random.default_rng(5)
    centres, radii = rng.uniform(0, 10, (8, 2)), rng.uniform(0, 1, 8)
    circles = CircleGaps(centres, radii, 2.0, largest_own=0.5)
    (x0, y0), (x1, y1) = circles.bounds()
    xy = rng.uniform(-10, 20, (50_000, 2))
    reached = np.isfinite(circles.gaps(xy, np.full(len(xy), 0.5)))
    assert reached.any()
    assert ((xy[reached] >= (x0, y0)) & (xy[reached] <= (x1, y1))).all()
    assert CircleGaps(np.zeros((0, 2)), np.zeros(0), 1.0).bounds() is None


def test_bad_circles_are_refused() -> None:
    with pytest.raises(ValueError, match="radii"):
        CircleGaps(np.zeros((2, 2)), np.array([1.0, -1.0]), 1.0)
    with pytest.raises(ValueError, match="near"):
        RingMask(CircleGaps(np.zeros((1, 2)), np.zeros(1), 1.0), 2.0, 1.0)


def test_a_rectangle_no_circle_reaches_is_empty_of_the_ring() -> None:
    rng = np.random.default_rng(9)
    centres, radii = rng.uniform(0, 100, (12, 2)), rng.uniform(0, 1, 12)
    ring = RingMask(CircleGaps(centres, radii, 3.0, largest_own=0.5), 0.5, 3.0, lambda xy: np.full(len(xy), 0.5))
    for _ in range(200):
        low = rng.uniform(-20, 110, 2)
        high = low + rng.uniform(0.5, 15, 2)
        probes = rng.uniform(low, high, (4000, 2))
        if ring.empty_in(low, high):
            assert not np.isfinite(ring.circles.gaps(probes, np.zeros(len(probes)))).any()
    assert not ring.empty_in(centres[0] - 1.0, centres[0] + 1.0)
    assert (ring & RingMask(CircleGaps(np.zeros((0, 2)), np.zeros(0), 1.0), 0.0, 1.0)).empty_in(
        np.zeros(2), np.ones(2))
