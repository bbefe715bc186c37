"""Masks against brute force: terrain masks, polyline distance, polygons, combinators, shared cache."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from terrain_reference import brute_force_hits, grid_mesh

from strew.core.fields import (
    AllOf,
    AnyOf,
    AwayFromPolylines,
    DistanceToPolylines,
    Everywhere,
    FunctionField,
    FunctionMask,
    HashKeepMask,
    HeightMask,
    Not,
    OnTerrain,
    OutsidePolygons,
    PerlinNoise,
    PolygonSet,
    SegmentIndex,
    SlopeMask,
    ThresholdMask,
    VertexField,
    as_mask,
)
from strew.core.terrain import TerrainLookup


# -------------------------------------------------------------------------------- terrain masks
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_terrain_masks_match_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    vertices, triangles = grid_mesh(10, 10, rng, hole_rate=0.1)
    lookup = TerrainLookup(vertices, triangles)
    xy = rng.uniform(-2, 12, (1500, 2))
    ref = brute_force_hits(vertices, triangles, xy)
    clear = ~ref["near_edge"]
    max_angle = math.radians(40)
    slope_ok = ref["mask"] & (np.degrees(np.arccos(np.clip(ref["normal"][:, 2], -1, 1))) <= 40)
    height_ok = ref["mask"] & (ref["z"] >= -0.5) & (ref["z"] <= 1.0)
    np.testing.assert_array_equal(OnTerrain(lookup)(xy)[clear], ref["mask"][clear])
    np.testing.assert_array_equal(SlopeMask(lookup, max_angle)(xy)[clear], slope_ok[clear])
    np.testing.assert_array_equal(HeightMask(lookup, -0.5, 1.0)(xy)[clear], height_ok[clear])
    combined = OnTerrain(lookup) & SlopeMask(lookup, max_angle) & ~HeightMask(lookup, -0.5, 1.0)
    np.testing.assert_array_equal(combined(xy)[clear], (slope_ok & ~height_ok)[clear])
    assert lookup.cache.lookups == 1  # four terrain masks, one lookup


def test_slope_mask_edges() -> None:
    flat = TerrainLookup(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0.0]]), np.array([[0, 1, 2]]))
    ramp = TerrainLookup(np.array([[0, 0, 0], [1, 0, 1], [0, 1, 0.0]]), np.array([[0, 1, 2]]))  # 45 degrees
    xy = np.array([[0.2, 0.2], [3.0, 3.0]])
    assert SlopeMask(flat, 0.0)(xy).tolist() == [True, False]
    assert SlopeMask(ramp, math.radians(44.9))(xy).tolist() == [False, False]
    assert SlopeMask(ramp, math.radians(45.1))(xy).tolist() == [True, False]
    with pytest.raises(ValueError, match=r"max_angle: expected radians in \[0, pi/2\]"):
        SlopeMask(flat, 2.0)
    with pytest.raises(ValueError, match="lo, hi: expected lo <= hi"):
        HeightMask(flat, 2.0, 1.0)
    assert HeightMask(flat, hi=0.0)(xy).tolist() == [True, False]


def test_terrain_masks_and_vertex_field_share_one_lookup_per_batch() -> None:
    rng = np.random.default_rng(3)
    vertices, triangles = grid_mesh(6, 6, rng)
    lookup = TerrainLookup(vertices, triangles)
    weights = VertexField(lookup, rng.random(49))
    allowed = SlopeMask(lookup, 1.0) & HeightMask(lookup, -1, 1) & weights.above(0.3)
    for batch in range(3):
        allowed(rng.uniform(0, 10, (100, 2)))
        assert lookup.cache.lookups == batch + 1


# ------------------------------------------------------------------------------------ polylines
def brute_distance(xy: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d = b - a
    p = xy[:, None, :] - a[None, :, :]
    length2 = (d * d).sum(axis=1)
    t = np.where(length2 > 0, (p * d[None]).sum(axis=2) / np.where(length2 > 0, length2, 1), 0.0)
    t = np.clip(t, 0, 1)
    diff = p - t[:, :, None] * d[None]
    return np.sqrt((diff * diff).sum(axis=2)).min(axis=1)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    lines=st.integers(1, 6),
    margin=st.floats(0.05, 30.0),
    closed=st.booleans(),
)
def test_polyline_distance_matches_brute_force(seed: int, lines: int, margin: float, closed: bool) -> None:
    rng = np.random.default_rng(seed)
    polylines = []
    for _ in range(lines):
        n = int(rng.integers(1, 12))
        start = rng.uniform(0, 100, 2)
        pts = start + np.cumsum(rng.normal(0, rng.choice([0.5, 5, 30]), (n, 2)), axis=0)
        if rng.random() < 0.3:
            pts = np.column_stack([pts, rng.normal(size=n)])  # curves come with z
        if n > 2 and rng.random() < 0.3:
            pts[1] = pts[0]  # a zero-length segment
        polylines.append(pts)
    index = SegmentIndex(polylines, reach=margin, closed=closed)
    xy = rng.uniform(-40, 140, (800, 2))
    ref = brute_distance(xy, index.a, index.b)
    got = index.distance(xy)
    near = ref <= margin * (1 - 1e-9)
    np.testing.assert_allclose(got[near], ref[near], rtol=1e-9, atol=1e-9)
    assert np.all(np.isinf(got[ref > margin * (1 + 1e-9)]))
    field = DistanceToPolylines(polylines, margin, closed=closed)(xy)
    np.testing.assert_allclose(field, np.minimum(ref, margin), rtol=1e-9, atol=1e-9)
    allowed = AwayFromPolylines(polylines, margin, closed=closed)(xy)
    clear = np.abs(ref - margin) > 1e-9 * (1 + margin)
    np.testing.assert_array_equal(allowed[clear], (ref >= margin)[clear])


def test_polylines_bad_input() -> None:
    with pytest.raises(ValueError, match="margin: must be > 0"):
        AwayFromPolylines([np.zeros((2, 2))], margin=0.0)
    with pytest.raises(ValueError, match=r"polylines\[1\]: contains NaN"):
        AwayFromPolylines([np.zeros((2, 2)), np.array([[0, 0], [np.nan, 1]])], margin=1.0)
    with pytest.raises(ValueError, match=r"polylines\[0\]: expected shape"):
        AwayFromPolylines([np.zeros((2, 4))], margin=1.0)
    with pytest.raises(ValueError, match="closed: expected one flag per polyline"):
        AwayFromPolylines([np.zeros((2, 2))], margin=1.0, closed=[True, False])
    assert AwayFromPolylines([], margin=1.0)(np.zeros((3, 2))).all()


# ------------------------------------------------------------------------------------- polygons
def even_odd(xy: np.ndarray, ring: np.ndarray) -> np.ndarray:
    inside = np.zeros(len(xy), dtype=bool)
    for (ax, ay), (bx, by) in zip(ring, np.roll(ring, -1, axis=0), strict=True):
        straddle = (ay > xy[:, 1]) != (by > xy[:, 1])
        with np.errstate(divide="ignore", invalid="ignore"):
            x_cross = ax + (xy[:, 1] - ay) * (bx - ax) / (by - ay)
        inside ^= straddle & (xy[:, 0] < x_cross)
    return inside


def star(rng: np.random.Generator, centre: np.ndarray, radius: float, n: int) -> np.ndarray:
    """A simple star-shaped polygon around ``centre``; for n >= 6 it contains the disc of radius 0.35 r."""
    angles = (np.arange(n) + rng.uniform(0, 0.5, n)) * (2 * np.pi / n)
    radii = radius * rng.uniform(0.5, 1.0, n)
    return centre + np.column_stack([np.cos(angles), np.sin(angles)]) * radii[:, None]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 12))
def test_polygons_match_brute_force(seed: int, count: int) -> None:
    """Overlapping star polygons, some with holes, clockwise or not: inside = inside any (minus holes)."""
    rng = np.random.default_rng(seed)
    polygons, truth = [], []
    for _ in range(count):
        centre = rng.uniform(0, 100, 2)
        radius = rng.choice([0.5, 5.0, 40.0])
        outer = star(rng, centre, radius, int(rng.integers(6, 40)))
        if rng.random() < 0.5:
            outer = outer[::-1]  # clockwise input is fine
        if rng.random() < 0.4:
            hole = star(rng, centre, radius * 0.3, int(rng.integers(3, 12)))  # inside the outer ring
            polygons.append([outer, hole])
            truth.append((outer, hole))
        else:
            polygons.append(outer)
            truth.append((outer, None))
    xy = np.concatenate([rng.uniform(-20, 120, (1500, 2)), rng.uniform(40, 60, (500, 2))])
    expected = np.zeros(len(xy), dtype=bool)
    for outer, hole in truth:
        expected |= even_odd(xy, outer) & (~even_odd(xy, hole) if hole is not None else True)
    np.testing.assert_array_equal(PolygonSet(polygons).contains(xy), expected)
    np.testing.assert_array_equal(OutsidePolygons(polygons)(xy), ~expected)


def test_polygon_grid_aligned_input() -> None:
    """Integer squares side by side (shared edges, vertices on grid lines) and a closing point repeated."""
    squares = [
        np.array([[x, y], [x + 1, y], [x + 1, y + 1], [x, y + 1], [x, y]], float)
        for x in range(0, 10, 1)
        for y in range(0, 10, 3)
    ]
    g = np.linspace(-1, 11, 241) + 0.0123
    xy = np.stack(np.meshgrid(g, g), axis=-1).reshape(-1, 2)
    expected = np.zeros(len(xy), dtype=bool)
    for sq in squares:
        x0, y0 = sq[0]
        expected |= (xy[:, 0] > x0) & (xy[:, 0] < x0 + 1) & (xy[:, 1] > y0) & (xy[:, 1] < y0 + 1)
    np.testing.assert_array_equal(PolygonSet(squares).contains(xy), expected)


def test_polygons_bad_input() -> None:
    with pytest.raises(ValueError, match=r"polygons\[0\] ring 0: needs at least 3"):
        OutsidePolygons([np.zeros((2, 2))])
    with pytest.raises(ValueError, match=r"polygons\[0\] ring 0: needs at least 3 distinct"):
        OutsidePolygons([np.array([[0, 0], [1, 1], [0, 0]])])
    with pytest.raises(ValueError, match=r"polygons\[1\] ring 0: contains NaN"):
        OutsidePolygons([np.eye(3)[:, :2], np.array([[0, 0], [1, np.nan], [0, 1]])])
    assert OutsidePolygons([])(np.zeros((2, 2))).all()


# ------------------------------------------------------------------------------ other and logic
def test_combinators_truth_table() -> None:
    xy = np.random.default_rng(0).uniform(0, 1, (1000, 2))
    a = FunctionMask(lambda p: p[:, 0] > 0.5)
    b = ThresholdMask(FunctionField(lambda p: p[:, 1]), 0.3)
    va, vb = xy[:, 0] > 0.5, xy[:, 1] >= 0.3
    np.testing.assert_array_equal((a & b)(xy), va & vb)
    np.testing.assert_array_equal((a | b)(xy), va | vb)
    np.testing.assert_array_equal((~a)(xy), ~va)
    np.testing.assert_array_equal((~(a & ~b) | (a & b))(xy), ~(va & ~vb) | (va & vb))
    np.testing.assert_array_equal(AllOf(a, b, True)(xy), va & vb)
    np.testing.assert_array_equal(AnyOf(a, False)(xy), va)
    np.testing.assert_array_equal(Not(Everywhere())(xy), False)
    np.testing.assert_array_equal(ThresholdMask(lambda p: p[:, 1], 0.3, above=False)(xy), ~vb)
    assert (a & b)(xy).dtype == bool
    with pytest.raises(ValueError, match="mask: expected a Mask"):
        as_mask(3)
    with pytest.raises(ValueError, match=r"returned shape \(1,\), expected \(2,\)"):
        FunctionMask(lambda p: np.zeros(1, bool))(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="xy: row 0 is not finite"):
        a(np.array([[np.nan, 0.0]]))


@pytest.mark.parametrize("fraction", [0.0, 0.1, 0.5, 1.0])
def test_hash_keep_mask(fraction: float) -> None:
    xy = np.random.default_rng(1).uniform(0, 1000, (100_000, 2))
    keep = HashKeepMask(fraction, seed=4)(xy)
    sigma = math.sqrt(len(xy) * fraction * (1 - fraction))
    assert abs(keep.sum() - fraction * len(xy)) <= 5 * sigma + 1
    # stable: the same points keep their verdict in any batch
    np.testing.assert_array_equal(HashKeepMask(fraction, seed=4)(xy[::7]), keep[::7])
    # a field as the fraction: fewer kept where the noise is low
    noise = PerlinNoise(seed=2, scale=100.0)
    varying = HashKeepMask(noise, seed=4)(xy)
    low = noise(xy) < 0.4
    assert varying[low].mean() < varying[~low].mean()
