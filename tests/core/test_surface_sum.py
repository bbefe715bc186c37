"""Surface sampling with radii that add up (objects of their own size on every face): no two points closer in 3-D
than the sum of their radii, no blocker closer than its radius plus the point's, and no place left where the
radius drawn *there* would fit. Checked by brute force: every close pair (cKDTree) and random probes on the
surface."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.spatial import cKDTree
from surface_checks import box, grid, icosphere, largest_gap, on_faces, surface_probes

from strew.core.hashing import Stream, hash_choice, hash_scale, hash_uniform
from strew.core.poisson import Samples
from strew.core.scatter import LayerSpec
from strew.core.surface import SurfaceSamples, SurfaceSettings, sample_surface, slope_between
from strew.core.surface.layer import hash_key, surface_layer

SMALL, BIG = 0.3, 2.0


def _two_sizes(small: float, big: float, share: float, seed: int = 5):
    """A white-noise radius: ``big`` at a ``share`` of places, ``small`` elsewhere (a hash of the 3-D place)."""
    def radius_at(xyz: np.ndarray) -> np.ndarray:
        return np.where(hash_uniform(hash_key(xyz), seed, Stream.RANDOM) < share, big, small)
    return radius_at


def _wavy(n: int = 24, size: float = 24.0) -> tuple[np.ndarray, np.ndarray]:
    """A terrain of hills and dips (steep enough that distances across a dip are shorter than along it)."""
    v, f = grid(n, size)
    v[:, 2] = 2.0 * np.sin(v[:, 0] / 2.5) * np.cos(v[:, 1] / 3.0)
    return v, f


MESHES = {"sphere": lambda: icosphere(6.0, 3), "box": lambda: box((10.0, 8.0, 5.0)), "terrain": _wavy}


def _overlaps(positions: np.ndarray, radii: np.ndarray) -> int:
    """Pairs closer than the sum of their radii: every pair within twice the largest radius is measured."""
    pairs = cKDTree(positions).query_pairs(2.0 * float(radii.max()), output_type="ndarray")
    d = np.linalg.norm(positions[pairs[:, 0]] - positions[pairs[:, 1]], axis=1)
    return int((d < radii[pairs[:, 0]] + radii[pairs[:, 1]]).sum())


def _held(centres: np.ndarray, radii: np.ndarray, probes: np.ndarray, own: np.ndarray) -> np.ndarray:
    """Probes closer to some centre than their own radius plus its: the nearest few first, then, for the probes
    still free, every centre within reach (the query must see them all)."""
    tree = cKDTree(centres)
    reach = float(own.max() + radii.max())
    held = np.zeros(len(probes), dtype=bool)
    rest = np.arange(len(probes))
    for k in (min(len(radii), 16), min(len(radii), 512)):
        if not rest.size:
            return held
        d, i = tree.query(probes[rest], k=k, distance_upper_bound=reach)
        d, i = d.reshape(len(rest), -1), i.reshape(len(rest), -1)
        found = np.isfinite(d)
        hit = (found & (d < own[rest, None] + radii[np.where(found, i, 0)])).any(axis=1)
        held[rest[hit]] = True
        rest = rest[~hit]
    assert k == len(radii) or not np.isfinite(d[:, -1]).any()  # no centre within reach was left out
    return held


def _free_share(s: SurfaceSamples, probes: np.ndarray, own: np.ndarray, allowed: np.ndarray | None = None,
                blockers: SurfaceSamples | None = None) -> float:
    """Share of (allowed) probes where a point of the radius drawn there (``own``) would conflict with nothing."""
    free = np.ones(len(probes), dtype=bool) if allowed is None else allowed.copy()
    for centres, radii in [(s.positions, s.radii)] + ([] if blockers is None else [(blockers.positions,
                                                                                      blockers.radii)]):
        if len(radii):
            free &= ~_held(centres, radii, probes, own)
    return float(free.mean())


def _check(v: np.ndarray, f: np.ndarray, s: SurfaceSamples, chosen: SurfaceSettings) -> None:
    assert on_faces(v, f, s.positions, s.faces) < 1e-9
    assert ((s.radii >= chosen.min_radius) & (s.radii <= chosen.max_radius)).all()
    assert _overlaps(s.positions, s.radii) == 0


@pytest.mark.parametrize("mesh", sorted(MESHES))
@pytest.mark.parametrize("seed", [0, 3])
def test_sums_are_kept_and_no_drawn_radius_fits_anywhere(mesh: str, seed: int) -> None:
    v, f = MESHES[mesh]()
    chosen = SurfaceSettings(SMALL, BIG, radius_at=_two_sizes(SMALL, BIG, 0.4, seed), seed=seed, conflict="sum")
    s = sample_surface(v, f, chosen)
    _check(v, f, s, chosen)
    assert (s.radii == SMALL).sum() > 100 and (s.radii == BIG).sum() >= 2
    q, _ = surface_probes(v, f, 100_000, seed=seed + 1)
    assert _free_share(s, q, chosen.radius_at(q)) <= 1e-4  # type: ignore[misc]


def test_small_ones_stand_between_large_ones_in_3d() -> None:
    """A small point keeps only the two radii from a large one: closer than two large radii."""
    v, f = icosphere(6.0, 3)
    s = sample_surface(v, f, SurfaceSettings(SMALL, BIG, radius_at=_two_sizes(SMALL, BIG, 0.4), seed=2,
                                             conflict="sum"))
    big, small = s.positions[s.radii == BIG], s.positions[s.radii == SMALL]
    nearest, _ = cKDTree(big).query(small)
    assert nearest.min() >= BIG + SMALL
    assert (nearest < 2.0 * BIG).mean() > 0.05


def test_a_constant_radius_summed_is_exactly_maximal_at_twice_it() -> None:
    v, f = box((5.0, 4.0, 3.0))
    s = sample_surface(v, f, SurfaceSettings(0.25, seed=4, conflict="sum"))
    assert _overlaps(s.positions, s.radii) == 0
    assert largest_gap(v, f, s.positions, 0.5) < 0.5  # exact: no place where one more point fits


def test_blockers_keep_the_sum_and_the_rest_is_filled() -> None:
    v, f = _wavy(16, 16.0)
    rng = np.random.default_rng(1)
    count = 15
    blockers = SurfaceSamples(np.c_[rng.uniform(0, 16, (count, 2)), rng.uniform(-2, 2, count)],
                              np.zeros((count, 3)), np.zeros(count, dtype=np.int64), rng.uniform(0.2, 2.5, count))
    chosen = SurfaceSettings(SMALL, BIG, radius_at=_two_sizes(SMALL, BIG, 0.3), seed=6, conflict="sum")
    s = sample_surface(v, f, chosen, blockers=blockers)
    _check(v, f, s, chosen)
    d = np.linalg.norm(s.positions[:, None] - blockers.positions[None], axis=2)
    assert (d >= s.radii[:, None] + blockers.radii[None]).all()
    assert (d < s.radii[:, None] + blockers.radii[None] + 0.5).any()  # they come close: a real test
    q, _ = surface_probes(v, f, 100_000, seed=2)
    assert _free_share(s, q, chosen.radius_at(q), blockers=blockers) <= 1e-4  # type: ignore[misc]


def test_a_mask_is_honoured_with_summed_radii() -> None:
    v, f = icosphere(6.0, 3)
    up = slope_between((0.0, 0.0, 1.0), math.radians(60), math.radians(180))
    chosen = SurfaceSettings(SMALL, BIG, radius_at=_two_sizes(SMALL, BIG, 0.4), is_allowed=up, seed=1,
                             conflict="sum")
    s = sample_surface(v, f, chosen)
    _check(v, f, s, chosen)
    assert up(s.positions, s.normals).all()
    q, qf = surface_probes(v, f, 100_000, seed=3)
    a, b, c = (v[f[qf, k]] for k in range(3))
    n = np.cross(b - a, c - a)
    n /= np.linalg.norm(n, axis=1, keepdims=True)
    assert _free_share(s, q, chosen.radius_at(q), allowed=up(q, n)) <= 1e-4  # type: ignore[misc]


def test_the_same_points_twice_and_another_seed_changes_them() -> None:
    v, f = _wavy(12, 12.0)
    chosen = SurfaceSettings(SMALL, BIG, radius_at=_two_sizes(SMALL, BIG, 0.4), seed=8, conflict="sum")
    one, two = sample_surface(v, f, chosen), sample_surface(v, f, chosen)
    for x, y in zip(one, two, strict=True):
        assert np.array_equal(x, y)
    other = sample_surface(v, f, dataclasses.replace(chosen, seed=9))
    assert len(other.positions) != len(one.positions) or not np.array_equal(other.positions, one.positions)


def test_a_radius_may_read_the_face_normal() -> None:
    v, f = icosphere(3.0, 2)
    calls: list[int] = []

    def by_face(xyz: np.ndarray, normals: np.ndarray) -> np.ndarray:
        calls.append(len(xyz))
        return np.where(normals[:, 2] > 0.0, 0.6, 0.5)  # larger on top than underneath

    s = sample_surface(v, f, SurfaceSettings(0.5, 0.6, radius_at=by_face, radius_reads_normals=True, seed=1,
                                             conflict="sum"))
    assert calls and _overlaps(s.positions, s.radii) == 0
    assert np.array_equal(s.radii, np.where(s.normals[:, 2] > 0.0, 0.6, 0.5))


@pytest.mark.parametrize(("changes", "match"), [
    ({"conflict": "min"}, "conflict must be one of"),
    ({"radius_reads_normals": 1}, "radius_reads_normals must be True or False"),
])
def test_bad_settings_are_named(changes: dict, match: str) -> None:
    v, f = box((1.0, 1.0, 1.0))
    with pytest.raises(ValueError, match=match):
        sample_surface(v, f, SurfaceSettings(0.3, **changes))


@st.composite
def cases(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, SurfaceSettings, SurfaceSamples | None]:
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    count = draw(st.integers(1, 6))
    span = draw(st.floats(2.0, 8.0))
    vertices = rng.normal(size=(count * 3, 3)) * span
    triangles = np.arange(count * 3).reshape(count, 3)
    small = draw(st.floats(0.2, 0.6)) * span / 6
    big = small * draw(st.floats(1.5, 10.0))
    mask = slope_between(rng.normal(size=3), 0.0, draw(st.floats(0.5, 3.2))) if draw(st.booleans()) else None
    blockers = None
    if draw(st.booleans()):
        n = draw(st.integers(1, 8))
        blockers = SurfaceSamples(rng.normal(size=(n, 3)) * span, np.zeros((n, 3)), np.zeros(n, dtype=np.int64),
                                  rng.uniform(0.2, 2.0, n) * small)
    chosen = SurfaceSettings(small, big, radius_at=_two_sizes(small, big, draw(st.floats(0.05, 0.95))),
                             is_allowed=mask, seed=draw(st.integers(0, 2**31)), conflict="sum")
    return vertices, triangles, chosen, blockers


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_random_soups(case: tuple[np.ndarray, np.ndarray, SurfaceSettings, SurfaceSamples | None]) -> None:
    v, f, chosen, blockers = case
    s = sample_surface(v, f, chosen, blockers=blockers)
    assert on_faces(v, f, s.positions, s.faces) < 1e-9 * max(1.0, float(np.abs(v).max()))
    if len(s.radii) > 1:
        assert _overlaps(s.positions, s.radii) == 0
    if blockers is not None and len(s.radii):
        d = np.linalg.norm(s.positions[:, None] - blockers.positions[None], axis=2)
        assert (d >= s.radii[:, None] + blockers.radii[None]).all()
    q, qf = surface_probes(v, f, 20_000, seed=1)
    a, b, c = (v[f[qf, k]] for k in range(3))
    n = np.cross(b - a, c - a)
    n /= np.linalg.norm(n, axis=1, keepdims=True)
    allowed = None if chosen.is_allowed is None else chosen.is_allowed(q, n)
    own = chosen.radius_at(q)  # type: ignore[misc]
    assert _free_share(s, q, own, allowed=allowed, blockers=blockers) <= 1e-4


# -- an Every Face layer spaced by its objects' size -----------------------------------------------------------------

FOOTPRINTS = (0.25, 2.0)  # sphere radii at scale 1
GAP = 0.4


def _spec(**changes: object) -> LayerSpec:
    base = LayerSpec(min_radius=GAP, seed=7, prefab_weights=(1.0, 1.0), scale_range=(0.5, 1.5),
                     footprints=FOOTPRINTS)
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def _spheres(points, spec: LayerSpec) -> np.ndarray:
    return np.asarray(spec.footprints)[points.prefab_index] * points.scales


@pytest.mark.parametrize("mesh", sorted(MESHES))
def test_layer_spheres_keep_the_gap_and_leave_no_hole(mesh: str) -> None:
    v, f = MESHES[mesh]()
    spec = _spec()
    points = surface_layer(v, f, spec)
    sphere = _spheres(points, spec)
    np.testing.assert_allclose(points.radii, sphere + GAP / 2)  # the sampler spaced what the placement drew
    pairs = cKDTree(points.positions).query_pairs(2.0 * float(sphere.max()) + GAP, output_type="ndarray")
    gaps = np.linalg.norm(points.positions[pairs[:, 0]] - points.positions[pairs[:, 1]], axis=1)
    gaps -= sphere[pairs[:, 0]] + sphere[pairs[:, 1]]
    assert gaps.min() >= GAP * (1.0 - 1e-12)
    assert (points.prefab_index == 1).sum() >= 2 and (points.prefab_index == 0).sum() > 50
    # every probe: the prefab and scale its own place's hash draws there do not fit
    q, _ = surface_probes(v, f, 100_000, seed=4)
    key = hash_key(q)
    own = np.asarray(FOOTPRINTS)[hash_choice(key, spec.seed, np.array([1.0, 1.0]))] * hash_scale(
        key, spec.seed, 0.5, 1.5)
    held = Samples(points.positions, sphere + GAP)  # a probe is held off by a sphere plus the gap
    free = _free_share(SurfaceSamples(held.positions, points.normals, np.zeros(len(points), dtype=np.int64),
                                      held.radii), q, own)
    assert free <= 1e-4


def test_layer_scale_by_slope_follows_the_face() -> None:
    v, f = icosphere(6.0, 3)
    spec = _spec(scale_by_slope=0.5)
    points = surface_layer(v, f, spec)
    np.testing.assert_allclose(points.radii, _spheres(points, spec) + GAP / 2)  # the sampler read the face too
    under = points.normals[:, 2] < 0.0  # from the walls down the slope factor is 1 - 0.5
    assert points.scales[under].max() <= 0.5 * 1.5 * (1.0 + 1e-12) < points.scales[~under].max()
    assert _overlaps(points.positions, points.radii) == 0


def test_layer_blockers_keep_away_from_the_sphere() -> None:
    v, f = box((8.0, 0.3, 5.0))  # a thin wall: blockers on one side keep the other side clear too
    blockers = Samples(np.array([[2.0, -0.01, 2.5], [6.0, 0.31, 1.0]]), np.array([0.1, 0.1]))
    spec = _spec(keep_away=1.0)
    points = surface_layer(v, f, spec, blockers=blockers)
    sphere = _spheres(points, spec)
    d = np.linalg.norm(points.positions[:, None] - blockers.positions[None], axis=2)
    assert (d - sphere[:, None]).min() >= 1.0 * (1.0 - 1e-12)  # the sphere's surface keeps Keep Away
    assert (d - sphere[:, None]).min() < 1.3
