"""Camera culling: agreement with a pinhole projection, the margin as a dilation, distance clipping, falloff."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strew.core.camera import CameraView, distance_falloff, distance_to, in_view


def _random_rotation(rng: np.random.Generator) -> np.ndarray:
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    q *= np.sign(np.diag(r))
    return q if np.linalg.det(q) > 0 else -q


def _pinhole(points: np.ndarray, location: np.ndarray, rotation: np.ndarray, fov: float, aspect: float) -> np.ndarray:
    """Reference: project through a pinhole and test against the image rectangle."""
    local = (points - location) @ rotation  # R^T (p - t), row form
    depth = -local[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        u, v = local[:, 0] / depth, local[:, 1] / depth
    half = math.tan(fov / 2)
    return (depth > 0) & (np.abs(u) <= half) & (np.abs(v) <= half / aspect)


@pytest.mark.parametrize("seed", range(5))
def test_matches_a_pinhole_projection(seed: int) -> None:
    rng = np.random.default_rng(seed)
    fov, aspect = rng.uniform(0.3, 2.5), rng.uniform(0.5, 2.0)
    location, rotation = rng.uniform(-50, 50, 3), _random_rotation(rng)
    view = CameraView.perspective(tuple(location), fov, aspect, rotation)
    points = location + rng.normal(scale=40.0, size=(20_000, 3))
    assert (in_view(points, view) == _pinhole(points, location, rotation, fov, aspect)).all()


@settings(deadline=None)  # timing on a shared machine is no property of the test
@given(seed=st.integers(0, 10_000), margin=st.floats(0.1, 20.0))
def test_everything_within_the_margin_is_kept(seed: int, margin: float) -> None:
    rng = np.random.default_rng(seed)
    location, rotation = rng.uniform(-50, 50, 3), _random_rotation(rng)
    view = CameraView.perspective(tuple(location), 1.0, 1.5, rotation)
    points = location + rng.normal(scale=40.0, size=(5000, 3))
    inside = points[_pinhole(points, location, rotation, 1.0, 1.5)]
    step = rng.normal(size=inside.shape)
    step *= (rng.random(len(inside)) * margin / np.linalg.norm(step, axis=1))[:, None]
    assert in_view(inside + step, view, margin=margin).all()
    # Without the margin the dilated points that left the pinhole's view are dropped.
    moved = inside + step
    assert (in_view(moved, view) == _pinhole(moved, location, rotation, 1.0, 1.5)).all()


def test_orthographic_box_and_distance_clip() -> None:
    frame = np.array([[2.0, 1.0, -1.0], [-2.0, 1.0, -1.0], [-2.0, -1.0, -1.0], [2.0, -1.0, -1.0]])
    view = CameraView(matrix_world=np.eye(4), frame=frame, orthographic=True)
    points = np.array([[1.9, 0.9, -100.0], [2.1, 0.0, -1.0], [0.0, 0.0, 1.0], [0.0, 0.0, -30.0]])
    assert in_view(points, view).tolist() == [True, False, False, True]
    assert in_view(points, view, max_distance=50.0).tolist() == [False, False, False, True]
    assert np.allclose(distance_to(points[3:], view), [30.0])


def test_falloff_is_monotone_and_bounded() -> None:
    d = np.linspace(0, 200, 1001)
    f = distance_falloff(d, 50.0, 150.0, floor=0.2)
    assert (f[d <= 50] == 1.0).all() and np.allclose(f[d >= 150], 0.2)
    assert (np.diff(f) <= 1e-15).all()


@pytest.mark.parametrize(("call", "message"), [
    (lambda: CameraView.perspective((0, 0, 0), 0.0, 1.0), "fov"),
    (lambda: CameraView.perspective((0, 0, 0), 1.0, -1.0), "aspect"),
    (lambda: in_view(np.zeros((1, 3)), CameraView.perspective((0, 0, 0), 1.0, 1.0), margin=-1.0), "margin"),
    (lambda: in_view(np.zeros((1, 2)), CameraView.perspective((0, 0, 0), 1.0, 1.0)), "points"),
    (lambda: in_view(np.zeros((1, 3)), CameraView(np.zeros((4, 4)), np.ones((4, 3)) * -1)), "singular"),
    (lambda: distance_falloff(np.zeros(1), 10.0, 5.0), "start < end"),
])
def test_bad_input_is_a_value_error(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_sampler_functions_pickle_and_agree_with_in_view() -> None:
    import pickle

    from strew.core.camera import FalloffDensity, SurfaceHeights, ViewMask
    from strew.core.terrain import TerrainLookup

    vertices = np.array([[0, 0, 0], [100, 0, 0], [100, 100, 10], [0, 100, 10]], dtype=float)
    terrain = TerrainLookup(vertices, np.array([[0, 1, 2], [0, 2, 3]]))
    view = CameraView.perspective((50.0, -20.0, 30.0), 1.2, 1.5, np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0.0]]))
    heights = SurfaceHeights(terrain)
    mask, falloff = ViewMask(view, heights, 2.0, 80.0), FalloffDensity(view, heights, 20.0, 60.0, 0.1)
    xy = np.random.default_rng(0).uniform(-20, 120, (5000, 2))
    surface = np.column_stack([xy, terrain.sample(xy).z])
    on = np.isfinite(surface[:, 2])
    assert (mask(xy)[on] == in_view(surface[on], view, 2.0, 80.0)).all()
    for fn in (mask, falloff):
        copy = pickle.loads(pickle.dumps(fn))
        assert np.array_equal(copy(xy), fn(xy))
    assert np.isfinite(falloff(xy)).all()  # off the terrain too
