"""Stable per-position hashing: depends on position and seed only, uniform, streams independent."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from strew.core.hashing import (
    QUANTUM,
    Stream,
    hash_choice,
    hash_positions,
    hash_scale,
    hash_uniform,
    hash_yaw,
)


def points(n: int, seed: int = 0, span: float = 1000.0) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-span, span, (n, 2))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(-(2**70), 2**70), n=st.integers(1, 200), rng_seed=st.integers(0, 2**31))
def test_hash_depends_only_on_the_point_itself(seed: int, n: int, rng_seed: int) -> None:
    rng = np.random.default_rng(rng_seed)
    xy = rng.uniform(-1e6, 1e6, (n, 2))
    full = hash_positions(xy, seed)
    order = rng.permutation(n)
    np.testing.assert_array_equal(hash_positions(xy[order], seed), full[order])
    subset = rng.random(n) < 0.5
    np.testing.assert_array_equal(hash_positions(xy[subset], seed), full[subset])
    one = int(rng.integers(n))
    assert hash_positions(xy[one : one + 1], seed)[0] == full[one]
    for name, fn in (("u", hash_uniform), ("yaw", hash_yaw)):
        np.testing.assert_array_equal(fn(xy[order], seed), fn(xy, seed)[order], err_msg=name)


def test_quantisation() -> None:
    xy = np.array([[10.123456, -7.25], [0.0, 0.0], [-3.3, 4.4]])
    base = hash_positions(xy, 5)
    # float noise far below the quantum (and away from rounding boundaries) keeps the hash
    np.testing.assert_array_equal(hash_positions(xy + 1e-9, 5), base)
    np.testing.assert_array_equal(hash_positions(np.array([[-0.0, -0.0]]), 5), base[1:2])
    # a move of two quanta changes it
    assert np.all(hash_positions(xy + np.array([2 * QUANTUM, 0]), 5) != base)
    assert np.all(hash_positions(xy + np.array([0, 2 * QUANTUM]), 5) != base)


def test_seed_and_swapped_coordinates_change_the_hash() -> None:
    xy = points(10_000)
    assert np.mean(hash_positions(xy, 1) == hash_positions(xy, 2)) == 0
    assert np.mean(hash_positions(xy, 1) == hash_positions(xy[:, ::-1], 1)) == 0
    assert len(np.unique(hash_positions(xy, 1))) == len(xy)


@pytest.mark.parametrize("layout", ["random", "lattice"])
def test_uniform_is_uniform_and_streams_are_independent(layout: str) -> None:
    if layout == "lattice":  # structured input must not show through
        g = np.arange(300) * 0.5
        xy = np.stack(np.meshgrid(g, g), axis=-1).reshape(-1, 2)
    else:
        xy = points(90_000, seed=4)
    u = hash_uniform(xy, 42)
    assert u.min() >= 0.0 and u.max() < 1.0
    assert stats.kstest(u, "uniform").pvalue > 1e-4
    counts = np.bincount((u * 20).astype(int), minlength=20)
    assert stats.chisquare(counts).pvalue > 1e-4
    limit = 5.0 / math.sqrt(len(u))  # correlation of independent uniforms: ~N(0, 1/n)
    for stream in (Stream.PREFAB, Stream.YAW, Stream.SCALE, Stream.KEEP, 17):
        other = hash_uniform(xy, 42, stream)
        assert abs(np.corrcoef(u, other)[0, 1]) < limit
    assert abs(np.corrcoef(u, hash_uniform(xy, 43))[0, 1]) < limit
    if layout == "lattice":  # neighbours on the lattice are uncorrelated too
        grid = u.reshape(300, 300)
        assert abs(np.corrcoef(grid[:, :-1].ravel(), grid[:, 1:].ravel())[0, 1]) < limit


@pytest.mark.parametrize("weights", [[1, 1, 1], [5, 0, 1, 2], [0, 0, 3], [0.1, 0.0001, 10, 0]])
def test_choice_frequencies_match_weights(weights: list[float]) -> None:
    xy = points(200_000, seed=7)
    picks = hash_choice(xy, 3, weights)
    w = np.asarray(weights, dtype=float)
    p = w / w.sum()
    counts = np.bincount(picks, minlength=len(w))
    assert len(counts) == len(w)
    assert np.all(counts[w == 0] == 0)
    sigma = np.sqrt(len(xy) * p * (1 - p))
    assert np.all(np.abs(counts - len(xy) * p) <= 5 * sigma + 1)


def test_yaw_and_scale_ranges() -> None:
    xy = points(50_000, seed=8)
    yaw = hash_yaw(xy, 1)
    assert yaw.min() >= 0 and yaw.max() < 2 * math.pi
    assert stats.kstest(yaw / (2 * math.pi), "uniform").pvalue > 1e-4
    s = hash_scale(xy, 1, 0.8, 1.25)
    assert s.min() >= 0.8 and s.max() <= 1.25
    np.testing.assert_array_equal(hash_scale(xy, 1, 2.0, 2.0), 2.0)
    # yaw and scale come from different streams
    assert abs(np.corrcoef(yaw, s)[0, 1]) < 5 / math.sqrt(len(xy))


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="xy: row 1 is not finite"):
        hash_positions(np.array([[0.0, 0.0], [np.nan, 0.0]]), 1)
    with pytest.raises(ValueError, match=r"xy: expected shape \(M, 2\)"):
        hash_uniform(np.zeros(4), 1)
    with pytest.raises(ValueError, match="seed: expected an integer"):
        hash_positions(np.zeros((1, 2)), 1.5)
    with pytest.raises(ValueError, match="xy: coordinates must stay within"):
        hash_positions(np.array([[1e13, 0.0]]), 1)
    with pytest.raises(ValueError, match="weights: at least one weight"):
        hash_choice(np.zeros((1, 2)), 1, [0, 0])
    with pytest.raises(ValueError, match="weights: every weight must be finite and >= 0"):
        hash_choice(np.zeros((1, 2)), 1, [1, -1])
    with pytest.raises(ValueError, match="weights: expected a non-empty"):
        hash_choice(np.zeros((1, 2)), 1, [])
    with pytest.raises(ValueError, match="lo: must be <= hi"):
        hash_scale(np.zeros((1, 2)), 1, 2.0, 1.0)
    assert hash_uniform(np.zeros((0, 2)), 1).shape == (0,)
