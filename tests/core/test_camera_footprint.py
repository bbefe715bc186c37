"""The view footprint: every point the camera keeps lies inside it, it is tight, and a culled layer sampled only
inside it is as full as the whole-world run filtered by the same view."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial import cKDTree

from strew.core.camera import CameraView, SurfaceHeights, ViewMask, footprint, in_view
from strew.core.scatter import LayerSpec, scatter_layer
from strew.core.terrain import TerrainLookup


def _random_rotation(rng: np.random.Generator) -> np.ndarray:
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    q *= np.sign(np.diag(r))
    return q if np.linalg.det(q) > 0 else -q


def _inside(points: np.ndarray, rect) -> np.ndarray:
    (x0, y0), (x1, y1) = rect
    return (points[:, 0] >= x0) & (points[:, 0] <= x1) & (points[:, 1] >= y0) & (points[:, 1] <= y1)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 100_000), margin=st.sampled_from([0.0, 0.5, 5.0]), ortho=st.booleans(),
       clip=st.sampled_from([None, 30.0, 200.0]))
def test_every_point_in_view_lies_in_the_footprint(seed: int, margin: float, ortho: bool, clip: float | None) -> None:
    rng = np.random.default_rng(seed)
    bounds = np.sort(rng.uniform(-100, 100, (2, 2)), axis=0)
    bounds[1] += 1.0
    low = rng.uniform(-20, 10)
    z_range = (low, low + rng.uniform(0, 30))
    view = CameraView.perspective(tuple(rng.uniform(-120, 120, 3)), rng.uniform(0.3, 2.5), rng.uniform(0.5, 2.0),
                                  _random_rotation(rng))
    if ortho:
        view = CameraView(view.matrix_world, view.frame * [1, 1, 0.1], orthographic=True)
    points = np.column_stack([rng.uniform(bounds[0], bounds[1], (40_000, 2)),
                              rng.uniform(*z_range, 40_000)])
    seen = points[in_view(points, view, margin, clip)]
    rect = footprint(view, bounds, z_range, margin, clip)
    if rect is None:
        assert len(seen) == 0
    else:
        assert _inside(seen, rect).all()


@pytest.mark.parametrize("margin", [0.0, 2.0])
def test_a_camera_looking_straight_down_sees_its_exact_square(margin: float) -> None:
    view = CameraView.perspective(location=(3.0, -4.0, 20.0), fov=math.pi / 2, aspect=2.0)
    rect = footprint(view, np.array([[-500.0, -500.0], [500.0, 500.0]]), (0.0, 0.0), margin)
    assert rect is not None
    # The 45° side planes move out by margin·√2 on the ground; the 2:1 frame's short sides are steeper.
    half_x = 20.0 + margin * math.sqrt(2)
    half_y = 10.0 + margin * math.sqrt(1 + 0.5**2) / 1.0
    np.testing.assert_allclose(rect, [[3.0 - half_x, -4.0 - half_y], [3.0 + half_x, -4.0 + half_y]], atol=1e-6)


def test_a_camera_looking_away_sees_nothing() -> None:
    up = np.diag([1.0, -1.0, -1.0])  # local -Z points up the world's +Z
    view = CameraView.perspective(location=(0.0, 0.0, 50.0), fov=1.0, aspect=1.0, rotation=up)
    assert footprint(view, np.array([[-100.0, -100.0], [100.0, 100.0]]), (0.0, 20.0)) is None


def _hills(size: float = 300.0, quads: int = 60) -> TerrainLookup:
    xs = np.linspace(0.0, size, quads + 1)
    gx, gy = np.meshgrid(xs, xs, indexing="ij")
    z = 6 * np.sin(gx / 40) * np.cos(gy / 30)
    n = quads + 1
    i, j = np.meshgrid(np.arange(quads), np.arange(quads), indexing="ij")
    a = (i * n + j).ravel()
    triangles = np.concatenate([np.column_stack([a, a + n, a + n + 1]), np.column_stack([a, a + n + 1, a + 1])])
    return TerrainLookup(np.column_stack([gx.ravel(), gy.ravel(), z.ravel()]), triangles)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_culling_inside_the_footprint_equals_the_whole_world_culled(seed: int) -> None:
    """What holds: the chunk grid starts at the sampled area's corner, so the points differ from the whole-world
    run's, but both keep only what is in view and both leave no hole in view (maximal), so the counts agree."""
    terrain = _hills()
    pitch = math.radians(45.0)
    rotation = np.array([[1.0, 0.0, 0.0], [0.0, math.cos(pitch), -math.sin(pitch)],
                         [0.0, math.sin(pitch), math.cos(pitch)]])
    view = CameraView.perspective((150.0, 60.0, 40.0), math.radians(50), 16 / 9, rotation)
    margin, radius = 2.0, 3.0
    mask = ViewMask(view, SurfaceHeights(terrain), margin)
    z = terrain.vertices[:, 2]
    rect = footprint(view, terrain.bounds.as_array(), (float(z.min()), float(z.max())), margin)
    assert rect is not None
    (x0, y0), (x1, y1) = rect
    assert (x1 - x0) * (y1 - y0) < 0.5 * 300.0**2  # the camera sees a part of the world
    base = dict(min_radius=radius, seed=seed, chunk_size=64.0, mask=mask)
    culled = scatter_layer(terrain, LayerSpec(**base, region=rect))
    world = scatter_layer(terrain, LayerSpec(**base))
    rng = np.random.default_rng(seed)
    probe = rng.uniform(0.0, 300.0, (60_000, 2))
    probe = probe[mask(probe)]
    for points in (culled, world):
        assert in_view(points.positions, view, margin).all()
        gap, _ = cKDTree(points.positions[:, :2]).query(probe)
        assert gap.max() < radius  # no place in view where another instance would fit
    assert abs(len(culled) - len(world)) <= 0.03 * len(world)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("clip", [None, 60.0])
def test_the_view_mask_with_a_height_range_gives_the_same_answer(seed: int, clip: float | None) -> None:
    terrain = _hills()
    rng = np.random.default_rng(seed)
    location = (*rng.uniform(0.0, 300.0, 2), rng.uniform(-5.0, 40.0))
    rotation = _random_rotation(rng)
    if rotation[2, 2] < 0:  # look downward (the camera looks along its local -Z)
        rotation = rotation @ np.diag([1.0, -1.0, -1.0])
    view = CameraView.perspective(location, rng.uniform(0.4, 2.0), 1.5, rotation)
    z = terrain.vertices[:, 2]
    heights = SurfaceHeights(terrain)
    xy = rng.uniform(-20.0, 320.0, (50_000, 2))  # also off the terrain (tested at the camera's height)
    exact = ViewMask(view, heights, 2.0, clip)(xy)
    fast = ViewMask(view, heights, 2.0, clip, (float(z.min()), float(z.max())))(xy)
    assert exact.any()
    np.testing.assert_array_equal(fast, exact)
