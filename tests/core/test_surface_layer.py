"""The Every Face layer pipeline: slope ranges from an up direction, keep-away in 3-D, orientation, hashing."""

from __future__ import annotations

import math

import numpy as np
import pytest
from surface_checks import box, concat, conflicts, icosphere

from strew.core.orient import rotation_matrices
from strew.core.poisson import Samples
from strew.core.scatter import LayerSpec
from strew.core.surface.layer import hash_key, surface_layer


def test_instances_stand_along_the_face_normal_on_every_side() -> None:
    v, f = icosphere(3.0, 2)
    points = surface_layer(v, f, LayerSpec(min_radius=0.5, seed=3, scale_range=(0.5, 2.0), prefab_weights=(1, 1)))
    up = rotation_matrices(points.rotations) @ np.array([0.0, 0.0, 1.0])
    assert np.allclose(up, points.normals, atol=1e-9)
    assert (points.normals[:, 2] < -0.9).any() and (points.normals[:, 2] > 0.9).any()
    assert set(np.unique(points.prefab_index).tolist()) == {0, 1}
    assert ((points.scales >= 0.5) & (points.scales <= 2.0)).all()


@pytest.mark.parametrize(("lo", "hi"), [(60, 120), (100, 180), (0, 30)])
def test_slope_range_from_up(lo: float, hi: float) -> None:
    v, f = concat(icosphere(3.0, 2), box((3.0, 3.0, 3.0), origin=(4.0, 0.0, 0.0)))
    up = np.array([0.3, 0.0, 1.0]) / np.hypot(0.3, 1.0)  # a tilted up direction is honoured too
    points = surface_layer(v, f, LayerSpec(min_radius=0.4, seed=1), up=up,
                           slope_range=(math.radians(lo), math.radians(hi)))
    angle = np.degrees(np.arccos(np.clip(points.normals @ up, -1.0, 1.0)))
    assert len(points) > 10 and ((angle >= lo - 1e-6) & (angle <= hi + 1e-6)).all()


def test_keep_away_from_blockers_in_3d_and_density_from_above() -> None:
    v, f = box((6.0, 0.2, 3.0))  # a thin wall: blockers on one side keep the other side clear too
    blockers = Samples(np.array([[3.0, -0.01, 1.5], [1.0, 0.21, 2.0]]), np.array([0.1, 0.1]))
    spec = LayerSpec(min_radius=0.3, max_radius=0.6, keep_away=1.0, seed=2,
                     density=lambda xy: (xy[:, 0] < 3.0).astype(float))
    points = surface_layer(v, f, spec, blockers=blockers)
    d = np.linalg.norm(points.positions[:, None] - blockers.positions[None], axis=2)
    assert d.min() >= 1.0
    assert conflicts(points.positions, points.radii) == 0
    assert np.allclose(points.radii[points.positions[:, 0] < 2.9], 0.3)
    assert np.allclose(points.radii[points.positions[:, 0] > 3.1], 0.6)


def test_mask_and_height_range_read_positions() -> None:
    v, f = icosphere(3.0, 2)
    spec = LayerSpec(min_radius=0.4, seed=0, height_range=(-1.0, 1.0), mask=lambda xy: xy[:, 0] > 0)
    points = surface_layer(v, f, spec)
    assert len(points) > 5
    assert (np.abs(points.positions[:, 2]) <= 1.0).all() and (points.positions[:, 0] > 0).all()


def test_hash_key_separates_points_stacked_on_a_wall() -> None:
    stacked = np.array([[1.0, 2.0, 0.0], [1.0, 2.0, 0.5], [1.0, 2.0, 1.0]])
    assert len(np.unique(hash_key(stacked), axis=0)) == 3


def test_2d_blockers_are_refused_with_a_message() -> None:
    v, f = box((1.0, 1.0, 1.0))
    with pytest.raises(ValueError, match=r"3-D positions"):
        surface_layer(v, f, LayerSpec(min_radius=0.3), blockers=Samples(np.zeros((2, 2)), np.ones(2)))
