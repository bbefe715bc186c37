"""Instance orientation: checked against the geometric meaning (where +Z and +X end up)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strew.core.orient import euler_from_matrices, instance_rotations, rotation_matrices


def _random_normals(rng: np.random.Generator, n: int) -> np.ndarray:
    v = rng.normal(size=(n, 3))
    v[:, 2] = np.abs(v[:, 2]) + 0.05
    return v / np.linalg.norm(v, axis=1, keepdims=True)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_full_alignment_maps_up_to_normal(seed: int) -> None:
    rng = np.random.default_rng(seed)
    normals = _random_normals(rng, 500)
    yaw = rng.uniform(0, 2 * np.pi, 500)
    r = rotation_matrices(instance_rotations(normals, yaw, 1.0))
    np.testing.assert_allclose(r @ [0.0, 0.0, 1.0], normals, atol=1e-9)
    np.testing.assert_allclose(r @ np.swapaxes(r, 1, 2), np.broadcast_to(np.eye(3), r.shape), atol=1e-9)


@pytest.mark.parametrize("seed", [3, 4])
def test_no_alignment_is_a_pure_yaw(seed: int) -> None:
    rng = np.random.default_rng(seed)
    normals = _random_normals(rng, 300)
    yaw = rng.uniform(-np.pi, np.pi, 300)
    r = rotation_matrices(instance_rotations(normals, yaw, 0.0))
    np.testing.assert_allclose(r @ [0.0, 0.0, 1.0], np.tile([0.0, 0.0, 1.0], (300, 1)), atol=1e-9)
    x_axis = r @ [1.0, 0.0, 0.0]
    np.testing.assert_allclose(np.arctan2(x_axis[:, 1], x_axis[:, 0]), np.angle(np.exp(1j * yaw)), atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(align=st.floats(0.0, 1.0), seed=st.integers(0, 2**32 - 1))
def test_partial_alignment_interpolates_the_tilt_angle(align: float, seed: int) -> None:
    rng = np.random.default_rng(seed)
    normals = _random_normals(rng, 50)
    r = rotation_matrices(instance_rotations(normals, rng.uniform(0, 6.3, 50), align))
    up = r @ [0.0, 0.0, 1.0]
    tilt = np.arccos(np.clip(up[:, 2], -1, 1))
    np.testing.assert_allclose(tilt, align * np.arccos(normals[:, 2]), atol=1e-7)
    # The instance leans toward the normal's direction (same azimuth) when it leans at all.
    leaning = tilt > 1e-6
    cross_z = up[leaning, 0] * normals[leaning, 1] - up[leaning, 1] * normals[leaning, 0]
    np.testing.assert_allclose(cross_z, 0.0, atol=1e-7)


def test_euler_round_trip_including_gimbal_lock() -> None:
    rng = np.random.default_rng(9)
    euler = rng.uniform(-np.pi, np.pi, (400, 3))
    euler[:5, 1] = np.pi / 2
    matrices = rotation_matrices(euler)
    np.testing.assert_allclose(rotation_matrices(euler_from_matrices(matrices)), matrices, atol=1e-9)


def test_bad_input_is_named() -> None:
    with pytest.raises(ValueError, match="normals"):
        instance_rotations(np.zeros((3, 2)), np.zeros(3), 0.5)
    with pytest.raises(ValueError, match="yaw"):
        instance_rotations(np.zeros((3, 3)), np.zeros(2), 0.5)
    with pytest.raises(ValueError, match="align"):
        instance_rotations(np.zeros((3, 3)), np.zeros(3), 1.5)
    with pytest.raises(ValueError, match="finite"):
        instance_rotations(np.full((3, 3), np.nan), np.zeros(3), 0.5)
