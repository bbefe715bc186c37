"""Tilt and scale rules: exact angles against the aligned up axis, scale factors, determinism through a layer."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from strew.core.orient import instance_rotations, rotation_matrices
from strew.core.scatter import LayerSpec, scatter_layer
from strew.core.terrain import TerrainLookup
from strew.core.variety import SMALLEST, scale_factors, tilts


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=1, keepdims=True)


@given(seed=st.integers(0, 10_000), align=st.floats(0.0, 1.0), max_tilt=st.floats(0.0, math.pi / 2))
def test_tilt_leans_the_aligned_up_axis_by_exactly_the_drawn_angle(seed: int, align: float, max_tilt: float) -> None:
    rng = np.random.default_rng(seed)
    normals = _unit(np.column_stack([rng.normal(size=(200, 2)), rng.uniform(0.2, 1.0, 200)]))
    xy, yaw = rng.uniform(-100, 100, (200, 2)), rng.uniform(0, 2 * np.pi, 200)
    angle, heading = tilts(xy, seed, max_tilt)
    assert ((angle >= 0) & (angle <= max_tilt)).all()
    upright = rotation_matrices(instance_rotations(normals, yaw, align))[:, :, 2]
    tilted_m = rotation_matrices(instance_rotations(normals, yaw, align, angle, heading))
    between = np.arccos(np.clip((upright * tilted_m[:, :, 2]).sum(axis=1), -1, 1))
    assert np.allclose(between, angle, atol=1e-6)
    assert np.allclose(np.linalg.det(tilted_m), 1.0)


def test_tilt_headings_cover_the_circle() -> None:
    xy = np.random.default_rng(1).uniform(0, 1000, (20_000, 2))
    _, heading = tilts(xy, 3, 0.3)
    counts = np.histogram(heading, bins=8, range=(0, 2 * np.pi))[0]
    assert counts.min() > 0.9 * len(xy) / 8


def test_scale_factors() -> None:
    flat, wall = 1.0, 0.0
    f = scale_factors(np.array([1.0, 0.0, 0.5, np.nan]), np.array([flat, flat, math.cos(math.pi / 4), wall]),
                      by_density=0.5, by_slope=1.0)
    assert np.allclose(f, [1.0, 0.5, 0.75 * 0.5, SMALLEST])


def test_layer_applies_variety_deterministically() -> None:
    vertices = np.array([[0, 0, 0], [60, 0, 0], [60, 60, 30], [0, 60, 30]], dtype=float)
    terrain = TerrainLookup(vertices, np.array([[0, 1, 2], [0, 2, 3]]))
    base = dict(min_radius=1.5, max_radius=3.0, seed=5, density=lambda xy: xy[:, 0] / 60.0)
    plain = scatter_layer(terrain, LayerSpec(**base))
    varied = scatter_layer(terrain, LayerSpec(**base, tilt=0.4, scale_by_density=1.0, scale_by_slope=0.5))
    again = scatter_layer(terrain, LayerSpec(**base, tilt=0.4, scale_by_density=1.0, scale_by_slope=0.5))
    assert np.array_equal(plain.positions, varied.positions)  # variety never moves instances
    assert np.array_equal(varied.rotations, again.rotations) and np.array_equal(varied.scales, again.scales)
    slope = math.atan(0.5)
    expected = plain.scales * scale_factors(varied.positions[:, 0] / 60.0, np.full(len(plain), math.cos(slope)),
                                            1.0, 0.5)
    assert np.allclose(varied.scales, expected)
    assert not np.allclose(varied.rotations, plain.rotations)


@pytest.mark.parametrize(("field", "value"), [("tilt", -0.1), ("tilt", 2.0), ("scale_by_density", 1.5),
                                              ("scale_by_slope", "x")])
def test_bad_variety_is_a_value_error(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        LayerSpec(min_radius=1.0, **{field: value})
