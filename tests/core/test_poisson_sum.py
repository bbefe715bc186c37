"""Radii that add up (objects of their own size): no two points closer than the sum of their radii, and no place
left where the radius drawn *there* would fit. Checked by brute force over every close pair and random probes."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial import cKDTree

from strew.core.hashing import Stream, hash_uniform
from strew.core.poisson import PoissonSettings, Samples, sample
from strew.core.scatter import LayerSpec, layer_functions, scatter_layer
from strew.core.scatter.spec import blocker_radii, spacing_radii
from strew.core.terrain import TerrainLookup


def _two_sizes(small: float, big: float, share: float, seed: int = 5):
    """A white-noise radius: ``big`` at a ``share`` of places, ``small`` elsewhere (a hash of the place)."""
    def radius_at(xy: np.ndarray) -> np.ndarray:
        return np.where(hash_uniform(xy, seed, Stream.RANDOM) < share, big, small)
    return radius_at


def _overlaps(out: Samples, period: tuple[float, float] | None = None) -> int:
    xy, r = out.positions, out.radii
    tree = cKDTree(xy, boxsize=period)
    pairs = tree.query_pairs(2.0 * float(r.max()), output_type='ndarray')
    d = xy[pairs[:, 0]] - xy[pairs[:, 1]]
    if period is not None:
        d -= np.asarray(period) * np.rint(d / np.asarray(period))
    return int((np.hypot(d[:, 0], d[:, 1]) < r[pairs[:, 0]] + r[pairs[:, 1]]).sum())


def _free(out: Samples, s: PoissonSettings, probes: int, seed: int = 0) -> float:
    """Share of random allowed places where the radius drawn there fits every point."""
    q = np.random.default_rng(seed).uniform((0.0, 0.0), s.size, (probes, 2))
    if s.is_allowed is not None:
        q = q[s.is_allowed(q)]
    own = np.full(len(q), s.min_radius)
    if s.radius_at is not None:
        own = np.clip(s.radius_at(q), s.min_radius, s.max_radius)
    # every point that could hold a probe off: all within its radius plus the largest (a few hundred at most)
    reach = float(own.max() + out.radii.max())
    d, i = cKDTree(out.positions).query(q, k=min(len(out.radii), 512), distance_upper_bound=reach)
    found = np.isfinite(d)
    held = (found & (d < own[:, None] + out.radii[np.where(found, i, 0)])).any(axis=1)
    return float(1.0 - held.mean())


@pytest.mark.parametrize("method", ["maximal", "bridson"])
@pytest.mark.parametrize("seed", [0, 4, 11])
def test_sums_are_kept_between_objects_of_two_sizes(method: str, seed: int) -> None:
    s = PoissonSettings(size=(90.0, 70.0), min_radius=0.3, max_radius=2.0, radius_at=_two_sizes(0.3, 2.0, 0.4),
                        seed=seed, conflict="sum", method=method)
    out = sample(s)
    assert _overlaps(out) == 0
    assert (out.radii == 0.3).sum() > 500
    if method == "maximal":  # (Bridson's rings around small points rarely leave room for a large one)
        assert (out.radii == 2.0).sum() > 20
        assert _free(out, s, 200_000, seed) == 0.0


def test_small_ones_stand_between_large_ones() -> None:
    """Summed, a small point keeps only the two radii from a large one: closer than two large radii, which is what
    a rule spacing every point by the larger of two object sizes would demand."""
    s = PoissonSettings(size=(80.0, 80.0), min_radius=0.3, max_radius=2.0, radius_at=_two_sizes(0.3, 2.0, 0.5),
                        seed=2, conflict="sum")
    out = sample(s)
    big, small = out.positions[out.radii == 2.0], out.positions[out.radii == 0.3]
    nearest, _ = cKDTree(big).query(small)
    assert nearest.min() >= 2.0 + 0.3
    assert (nearest < 2.0 * 2.0).mean() > 0.05  # no closer than two large radii under a larger-radius rule


def test_constant_radius_summed_is_the_larger_rule_at_twice_the_radius() -> None:
    summed = sample(PoissonSettings(size=(50.0, 40.0), min_radius=0.5, seed=3, conflict="sum"))
    larger = sample(PoissonSettings(size=(50.0, 40.0), min_radius=1.0, seed=3))
    assert _overlaps(summed) == 0
    # both are maximal sets at distance 1: the same density within sampling noise (0.6965 points per r^2)
    assert abs(len(summed.radii) - len(larger.radii)) < 0.05 * len(larger.radii)
    assert abs(len(summed.radii) / (50.0 * 40.0) - 0.6965) < 0.05


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), share=st.floats(0.05, 0.95), ratio=st.floats(1.5, 12.0),
       masked=st.booleans(), blockers=st.booleans())
def test_any_two_size_mix_with_masks_and_blockers(seed: int, share: float, ratio: float, masked: bool,
                                                   blockers: bool) -> None:
    small = 0.4
    big = small * ratio

    def allowed(xy: np.ndarray) -> np.ndarray:
        return np.hypot(xy[:, 0] - 30.0, xy[:, 1] - 25.0) > 9.0  # a pond

    rng = np.random.default_rng(seed)
    walls = Samples(rng.uniform(0, 60, (12, 2)), rng.uniform(0.5, 4.0, 12)) if blockers else None
    s = PoissonSettings(size=(60.0, 50.0), min_radius=small, max_radius=big,
                        radius_at=_two_sizes(small, big, share, seed), is_allowed=allowed if masked else None,
                        seed=seed, conflict="sum")
    out = sample(s, walls)
    assert _overlaps(out) == 0
    if walls is not None:
        d = np.linalg.norm(out.positions[:, None] - walls.positions[None], axis=2)
        assert (d >= out.radii[:, None] + walls.radii[None]).all()
    if masked:
        assert allowed(out.positions).all()
    if walls is None:
        assert _free(out, s, 60_000, seed) <= 1e-4


def test_tileable_summed_has_no_seam_conflict() -> None:
    s = PoissonSettings(size=(40.0, 40.0), min_radius=0.4, max_radius=1.6, radius_at=_two_sizes(0.4, 1.6, 0.3),
                        seed=9, conflict="sum", tileable=True)
    out = sample(s)
    assert _overlaps(out, period=(40.0, 40.0)) == 0


def test_the_same_points_twice_and_another_seed_changes_them() -> None:
    s = PoissonSettings(size=(40.0, 30.0), min_radius=0.3, max_radius=1.5, radius_at=_two_sizes(0.3, 1.5, 0.3),
                        seed=1, conflict="sum")
    a, b = sample(s), sample(s)
    assert np.array_equal(a.positions, b.positions) and np.array_equal(a.radii, b.radii)
    assert not np.array_equal(a.positions, sample(dataclasses.replace(s, seed=2)).positions[: len(a.positions)])


def test_unknown_conflict_rule_is_refused() -> None:
    with pytest.raises(ValueError, match="conflict must be one of"):
        sample(PoissonSettings(size=(10.0, 10.0), min_radius=1.0, conflict="min"))


# -- a layer spaced by its objects' size ---------------------------------------------------------------------------

FLAT = TerrainLookup(np.array([[0, 0, 0], [80, 0, 0], [80, 60, 0], [0, 60, 0]], dtype=float),
                     np.array([[0, 1, 2], [0, 2, 3]]))


def _footprints(points, spec: LayerSpec) -> np.ndarray:
    return np.asarray(spec.footprints)[points.prefab_index] * points.scales


@pytest.mark.parametrize("chunk", [None, 12.0])
def test_layer_footprints_keep_the_gap_and_leave_no_hole(chunk: float | None) -> None:
    spec = LayerSpec(min_radius=0.5, seed=7, prefab_weights=(1.0, 1.0), scale_range=(0.5, 1.6),
                     footprints=(0.25, 2.5), chunk_size=chunk)
    points = scatter_layer(FLAT, spec)
    xy, f = points.positions[:, :2], _footprints(points, spec)
    np.testing.assert_allclose(points.radii, f + 0.25)
    tree = cKDTree(xy)
    pairs = tree.query_pairs(2.0 * float(f.max()) + 0.5, output_type='ndarray')
    gaps = np.linalg.norm(xy[pairs[:, 0]] - xy[pairs[:, 1]], axis=1) - f[pairs[:, 0]] - f[pairs[:, 1]]
    assert gaps.min() >= 0.5 * (1.0 - 1e-12)
    radius_at, _ = layer_functions(FLAT, spec)
    assert radius_at is not None
    q = np.random.default_rng(1).uniform((0.0, 0.0), (80.0, 60.0), (100_000, 2))
    own = radius_at(q) - 0.25  # the footprint drawn at each probe
    d, i = tree.query(q, k=256, distance_upper_bound=float(own.max() + f.max()) + 0.5)  # all that could hold it off
    found = np.isfinite(d)
    assert (found & (d < own[:, None] + f[np.where(found, i, 0)] + 0.5)).any(axis=1).all()


def test_chunks_and_one_sampler_agree() -> None:
    base = LayerSpec(min_radius=0.4, seed=3, prefab_weights=(2.0, 1.0, 1.0), scale_range=(0.8, 1.2),
                     footprints=(0.2, 1.0, 3.0))
    one = scatter_layer(FLAT, dataclasses.replace(base, chunk_size=200.0))
    many = scatter_layer(FLAT, dataclasses.replace(base, chunk_size=30.0))
    key = lambda p: np.lexsort(p.positions[:, :2].T)  # noqa: E731
    assert _overlaps(Samples(many.positions[:, :2], many.radii)) == 0
    # the darts hash world cells: away from the chunks' edges the two runs place the same instances
    a, b = one.positions[key(one), :2], many.positions[key(many), :2]
    common = len({tuple(v) for v in a.round(9)} & {tuple(v) for v in b.round(9)})
    assert common > 0.5 * min(len(a), len(b))


def test_spacing_radii_and_blockers() -> None:
    spec = LayerSpec(min_radius=0.5, max_radius=1.5, prefab_weights=(1.0, 0.0, 1.0), scale_range=(0.5, 2.0),
                     footprints=(0.2, 9.0, 1.0), keep_away=2.0)
    low, high = spacing_radii(spec)
    assert math.isclose(low, 0.2 * 0.5 + 0.25) and math.isclose(high, 1.0 * 2.0 + 0.75)  # weight 0 never drawn
    # a footprint's edge keeps max(min_radius, keep_away, rule) from a blocker's point
    assert blocker_radii(spec, 2, np.array([0.0, 3.0])).tolist() == [2.0 - 0.25, 3.0 - 0.25]


@pytest.mark.parametrize(("changes", "match"), [
    ({"footprints": (1.0,)}, "one radius per prefab"),
    ({"footprints": (1.0, float("nan"))}, "from 0 to"),
    ({"footprints": (1.0, -2.0)}, "from 0 to"),
    ({"footprints": (1.0, 2.0), "tile_size": 50.0}, "repeated tile"),
])
def test_bad_footprints_are_refused(changes: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        LayerSpec(min_radius=0.5, prefab_weights=(1.0, 1.0), **changes)


def _gap_field(xy: np.ndarray) -> np.ndarray:
    """A gap that varies smoothly, from 0.2 to 1.2 (half of it adds to each radius)."""
    return 0.7 + 0.5 * np.sin(xy[:, 0] / 9.0) * np.cos(xy[:, 1] / 7.0)


@pytest.mark.parametrize("blockers", [False, True])
def test_a_least_radius_that_follows_the_gap_keeps_every_guarantee(blockers: bool) -> None:
    """``least_radius_at`` (the smallest object plus half the local gap) only drops boxes no drawn object fits in:
    no overlap, nothing closer to a blocker than the sum, no free place among the probes."""
    sizes = _two_sizes(0.3, 2.0, 0.4, seed=3)

    def radius_at(xy: np.ndarray) -> np.ndarray:
        return sizes(xy) + 0.5 * _gap_field(xy)

    def least_radius_at(xy: np.ndarray) -> np.ndarray:
        return 0.3 + 0.5 * _gap_field(xy)

    rng = np.random.default_rng(8)
    walls = Samples(rng.uniform(0, 60, (15, 2)), rng.uniform(0.5, 3.0, 15)) if blockers else None
    s = PoissonSettings(size=(60.0, 50.0), min_radius=0.4, max_radius=2.6, radius_at=radius_at, seed=4,
                        conflict="sum", least_radius_at=least_radius_at)
    out = sample(s, walls)
    assert _overlaps(out) == 0
    np.testing.assert_array_equal(out.radii, np.clip(radius_at(out.positions), 0.4, 2.6))
    if walls is not None:
        d = np.linalg.norm(out.positions[:, None] - walls.positions[None], axis=2)
        assert (d >= out.radii[:, None] + walls.radii[None]).all()
    else:
        assert _free(out, s, 200_000, 4) == 0.0
        without = sample(dataclasses.replace(s, least_radius_at=None))
        assert abs(len(out.radii) - len(without.radii)) < 0.03 * len(without.radii)


def test_a_least_radius_of_the_wrong_shape_is_refused() -> None:
    s = PoissonSettings(size=(20.0, 20.0), min_radius=0.3, max_radius=1.0, radius_at=_two_sizes(0.3, 1.0, 0.5),
                        conflict="sum", least_radius_at=lambda xy: np.ones(3))
    with pytest.raises(ValueError, match="least_radius_at must return"):
        sample(s)
