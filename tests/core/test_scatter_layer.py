"""One scatter layer on a terrain (core only): chunks without seams, blockers, tiles, masks, determinism."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial import cKDTree

from strew.core.poisson import Samples
from strew.core.scatter import LayerSpec, scatter_layer
from strew.core.terrain import TerrainLookup


def hill_terrain(width: float = 90.0, depth: float = 70.0, quads: int = 45, origin=(-13.0, 7.0)) -> TerrainLookup:
    xs = np.linspace(0, width, quads + 1) + origin[0]
    ys = np.linspace(0, depth, quads + 1) + origin[1]
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    z = 6.0 * np.exp(-(((gx - xs.mean()) / 15) ** 2 + ((gy - ys.mean()) / 12) ** 2)) + 0.05 * gx
    vertices = np.column_stack([gx.ravel(), gy.ravel(), z.ravel()])
    n = quads + 1
    i, j = np.meshgrid(np.arange(quads), np.arange(quads), indexing="ij")
    a = (i * n + j).ravel()
    triangles = np.concatenate([np.column_stack([a, a + n, a + n + 1]), np.column_stack([a, a + n + 1, a + 1])])
    return TerrainLookup(vertices, triangles)


def conflict_ratio(xy: np.ndarray, radii: np.ndarray) -> float:
    """min distance / max(r_i, r_j) over all pairs closer than the largest radius (KD-tree brute force)."""
    tree = cKDTree(xy)
    pairs = tree.query_pairs(float(radii.max()), output_type="ndarray")
    if len(pairs) == 0:
        return math.inf
    d = np.linalg.norm(xy[pairs[:, 0]] - xy[pairs[:, 1]], axis=1)
    return float((d / np.maximum(radii[pairs[:, 0]], radii[pairs[:, 1]])).min())


def fillable_fraction(terrain: TerrainLookup, xy: np.ndarray, radius: float, allowed, n: int = 200_000,
                      seed: int = 0) -> tuple[int, int]:
    rng = np.random.default_rng(seed)
    lo, hi = terrain.bounds.min, terrain.bounds.max
    probes = rng.uniform(lo, hi, size=(n, 2))
    ok = allowed(probes)
    distance, _ = cKDTree(xy).query(probes[ok])
    return int((distance >= radius).sum()), int(ok.sum())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_chunks_leave_no_seam_and_no_hole(seed: int) -> None:
    terrain = hill_terrain()
    spec = LayerSpec(min_radius=1.5, seed=seed, chunk_size=17.0, max_slope=math.radians(25))
    points = scatter_layer(terrain, spec)
    assert len(points) > 500
    assert conflict_ratio(points.positions[:, :2], points.radii) >= 1.0 - 1e-12

    def allowed(xy: np.ndarray) -> np.ndarray:
        hit = terrain.sample(xy)
        return hit.mask & (hit.normal[:, 2] >= math.cos(math.radians(25)) + 1e-9)

    fillable, tested = fillable_fraction(terrain, points.positions[:, :2], 1.5, allowed, seed=seed)
    assert tested > 100_000
    assert fillable <= 1e-4 * tested
    whole = scatter_layer(terrain, LayerSpec(min_radius=1.5, seed=seed, chunk_size=1e6, max_slope=math.radians(25)))
    assert abs(len(whole) - len(points)) <= 0.03 * len(whole)


def test_points_sit_on_the_surface_with_its_normal() -> None:
    terrain = hill_terrain()
    points = scatter_layer(terrain, LayerSpec(min_radius=2.0, max_radius=4.0, seed=5, align=1.0,
                                              density=lambda xy: (np.sin(xy[:, 0] / 9) + 1) / 2))
    hit = terrain.sample(points.positions[:, :2])
    assert hit.mask.all()
    np.testing.assert_allclose(points.positions[:, 2], hit.z, rtol=1e-12)
    np.testing.assert_allclose(points.normals, hit.normal, rtol=1e-12)
    assert (points.radii >= 2.0).all() and (points.radii <= 4.0).all()
    assert conflict_ratio(points.positions[:, :2], points.radii) >= 1.0 - 1e-12


@pytest.mark.parametrize("keep_away", [0.0, 0.5, 4.0])
def test_blockers_keep_their_distance(keep_away: float) -> None:
    terrain = hill_terrain()
    rng = np.random.default_rng(4)
    blockers = Samples(positions=rng.uniform(terrain.bounds.min, terrain.bounds.max, (60, 2)),
                       radii=rng.uniform(0.1, 9.0, 60))
    spec = LayerSpec(min_radius=1.0, max_radius=1.0, seed=8, keep_away=keep_away, chunk_size=25.0)
    points = scatter_layer(terrain, spec, blockers)
    distance, _ = cKDTree(blockers.positions).query(points.positions[:, :2])
    assert distance.min() >= max(1.0, keep_away) - 1e-12
    # …and they still fill up to that distance (maximal around blockers too).
    fillable, tested = fillable_fraction(
        terrain, np.concatenate([points.positions[:, :2]]), 1.0,
        lambda xy: terrain.sample(xy).mask & (cKDTree(blockers.positions).query(xy)[0] >= max(1.0, keep_away)),
        n=100_000,
    )
    assert fillable <= 1e-4 * tested


def test_repeated_tile_is_seamless_and_thinned_by_position() -> None:
    terrain = hill_terrain(width=120.0, depth=100.0)
    spec = LayerSpec(min_radius=1.0, seed=3, tile_size=20.0, tile_keep=0.7)
    points = scatter_layer(terrain, spec)
    assert conflict_ratio(points.positions[:, :2], points.radii) >= 1.0 - 1e-9
    full = scatter_layer(terrain, LayerSpec(min_radius=1.0, seed=3, tile_size=20.0, tile_keep=1.0))
    assert 0.62 < len(points) / len(full) < 0.78
    kept = {tuple(p) for p in np.round(points.positions[:, :2], 9)}
    assert kept <= {tuple(p) for p in np.round(full.positions[:, :2], 9)}


@pytest.mark.parametrize("keep_away", [0.0, 3.0])
def test_repeated_tile_drops_exactly_the_points_too_near_a_blocker(keep_away: float) -> None:
    terrain = hill_terrain(width=120.0, depth=100.0)
    rng = np.random.default_rng(9)
    blockers = Samples(positions=rng.uniform(terrain.bounds.min, terrain.bounds.max, (80, 2)),
                       radii=np.ones(80))
    keep = rng.uniform(0.0, 12.0, 80)
    spec = LayerSpec(min_radius=1.0, seed=5, tile_size=20.0, keep_away=keep_away)
    free = scatter_layer(terrain, spec).positions[:, :2]
    kept = scatter_layer(terrain, spec, blockers, keep=keep).positions[:, :2]
    distance = np.linalg.norm(free[:, None, :] - blockers.positions[None, :, :], axis=2)  # every pair
    clear = (distance >= np.maximum(max(1.0, keep_away), keep)[None, :]).all(axis=1)
    np.testing.assert_array_equal(kept, free[clear])
    assert 0 < len(kept) < len(free)


def test_same_seed_same_layer_and_prefab_depends_on_position_only() -> None:
    terrain = hill_terrain()
    spec = LayerSpec(min_radius=1.5, max_radius=3.0, seed=11, prefab_weights=(1.0, 2.0, 0.5),
                     density=lambda xy: (np.cos(xy[:, 1] / 7) + 1) / 2, scale_range=(0.5, 2.0))
    a, b = scatter_layer(terrain, spec), scatter_layer(terrain, spec)
    for field in ("positions", "radii", "prefab_index", "rotations", "scales"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    assert set(np.unique(a.prefab_index)) == {0, 1, 2}
    assert (a.scales >= 0.5).all() and (a.scales <= 2.0).all()
    # Reordering / subsetting points does not change what each one gets: it is a function of position.
    other = scatter_layer(terrain, LayerSpec(**{**spec.__dict__, "max_radius": 2.0}))
    common = {tuple(p) for p in a.positions[:, :2]} & {tuple(p) for p in other.positions[:, :2]}
    for p in list(common)[:50]:
        ia = np.flatnonzero((a.positions[:, :2] == p).all(1))[0]
        io = np.flatnonzero((other.positions[:, :2] == p).all(1))[0]
        assert a.prefab_index[ia] == other.prefab_index[io]
    c = scatter_layer(terrain, LayerSpec(**{**spec.__dict__, "seed": 12}))
    assert len(c) != len(a) or not np.array_equal(c.positions, a.positions)


@settings(max_examples=12, deadline=None)
@given(
    min_radius=st.floats(0.8, 3.0), spread=st.floats(1.0, 2.5), chunk=st.floats(6.0, 60.0),
    seed=st.integers(0, 2**31 - 1), slope=st.floats(0.1, math.pi / 2),
)
def test_random_layers_are_conflict_free(min_radius: float, spread: float, chunk: float, seed: int,
                                         slope: float) -> None:
    terrain = hill_terrain(width=50.0, depth=40.0, quads=20)
    spec = LayerSpec(min_radius=min_radius, max_radius=min_radius * spread, seed=seed, chunk_size=chunk,
                     max_slope=slope, density=lambda xy: (np.sin(xy[:, 0] / 5) * np.cos(xy[:, 1] / 4) + 1) / 2)
    points = scatter_layer(terrain, spec)
    if len(points) > 1:
        assert conflict_ratio(points.positions[:, :2], points.radii) >= 1.0 - 1e-12
    if len(points):
        assert (points.normals[:, 2] >= math.cos(slope) - 1e-9).all()


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"min_radius": 0.0}, "min_radius"),
        ({"min_radius": -1.0}, "min_radius"),
        ({"min_radius": float("nan")}, "min_radius"),
        ({"min_radius": 3.0, "max_radius": 2.0}, "max_radius"),
        ({"keep_away": -1.0}, "keep_away"),
        ({"max_slope": 2.0}, "max_slope"),
        ({"scale_range": (2.0, 1.0)}, "scale_range"),
        ({"prefab_weights": (0.0, 0.0)}, "prefab_weights"),
        ({"prefab_weights": (1.0, -1.0)}, "prefab_weights"),
        ({"height_range": (5.0, 1.0)}, "height_range"),
        ({"tile_size": 1.0}, "tile_size"),
        ({"chunk_size": 0.0}, "chunk_size"),
    ],
)
def test_bad_layer_settings_are_named(changes: dict, field: str) -> None:
    terrain = hill_terrain(width=20.0, depth=20.0, quads=4)
    with pytest.raises(ValueError, match=field):
        scatter_layer(terrain, LayerSpec(**{"min_radius": 1.0, **changes}))


def test_a_layer_too_large_for_memory_is_refused_before_any_work() -> None:
    terrain = hill_terrain(width=20.0, depth=20.0, quads=4)
    with pytest.raises(ValueError, match="max_points"):
        scatter_layer(terrain, LayerSpec(min_radius=0.001, chunk_size=5.0))
    small = scatter_layer(terrain, LayerSpec(min_radius=1.0, max_points=1000))
    assert 0 < len(small) <= 1000


NO_AREA = "the terrain has no area to scatter on from above"


@settings(max_examples=60, deadline=None)
@given(st.floats(1e-12, 1e-2), st.floats(1e-12, 100.0), st.floats(0.5, 5.0), st.floats(1.0, 3.0), st.booleans())
def test_a_terrain_too_thin_seen_from_above_is_refused_as_having_no_area_or_scattered(
        thin: float, other: float, min_radius: float, ratio: float, turned: bool) -> None:
    width, depth = (other, thin) if turned else (thin, other)
    spec = LayerSpec(min_radius=min_radius, max_radius=min_radius * ratio, seed=1)
    try:  # a sliver thin enough is no triangle at all seen from above, and the terrain refuses it itself
        points = scatter_layer(hill_terrain(width=width, depth=depth, quads=2, origin=(5.0, -3.0)), spec)
    except ValueError as error:
        assert str(error).startswith(NO_AREA), error
        return
    assert len(points) <= math.ceil(max(width, depth) / min_radius) + 1  # a row of points along the strip at most


@pytest.mark.parametrize(("width", "depth"), [(1e-6, 1e-6), (20.0, 5e-7), (5e-4, 20.0), (1e-9, 1e-3)])
def test_tiny_and_sliver_terrains_are_refused_at_once_as_having_no_area(width: float, depth: float) -> None:
    terrain = hill_terrain(width=width, depth=depth, quads=2)
    with pytest.raises(ValueError, match=f"^{NO_AREA}: it spans only .* against a min_radius of 2.5;"):
        scatter_layer(terrain, LayerSpec(min_radius=2.5))


def test_a_terrain_of_vertical_faces_has_no_area_from_above() -> None:
    wall = np.array([[0, 0, 0], [10, 0, 0], [10, 0, 5], [0, 0, 5.0]])
    with pytest.raises(ValueError, match=f"^{NO_AREA}: every triangle is vertical or degenerate"):
        TerrainLookup(wall, np.array([[0, 1, 2], [0, 2, 3]]))
