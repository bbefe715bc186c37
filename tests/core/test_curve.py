"""Spacing along curves, checked by brute force: every pair's distance, probes every few millimetres along the
path for room left over, the literature's parking constant on a straight line, posts measured along the line."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strew.core.curve import AlongSpec, CurvePath, Spacing, curve_layer, fixed_step, maximal_along
from strew.core.curve.along import SMALLEST_PIECE
from strew.core.modes import AlongMode, AlongPlace
from strew.core.poisson import Samples
from strew.core.scatter import LayerSpec
from strew.core.terrain import TerrainLookup

RENYI = 0.7475979202534  # Rényi's parking constant: cars of length r on a long line, per r


def _along(path: CurvePath, spacing: Spacing, blockers: Samples | None = None, seed: int = 0):
    return maximal_along(path.start, path.end, path.line, spacing, blockers, seed)


def _probes(path: CurvePath, step: float) -> np.ndarray:
    out = [np.zeros((0, 3))]
    for a, b in zip(path.start, path.end, strict=True):
        count = max(math.ceil(np.linalg.norm(b - a) / step), 1)
        out.append(a + (b - a) * (np.arange(count + 1)[:, None] / count))
    return np.concatenate(out)


def _distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sqrt(((a[:, None, :] - b[None, :, :]) ** 2).sum(-1))


def _closest_ratio(points: np.ndarray, radii: np.ndarray, summed: bool = False) -> float:
    d = _distances(points, points)
    reach = radii[:, None] + radii[None, :] if summed else np.maximum(radii[:, None], radii[None, :])
    np.fill_diagonal(d, np.inf)
    return float((d / reach).min()) if len(points) > 1 else math.inf


def test_a_straight_line_parks_at_renyis_constant() -> None:
    densities = []
    for seed in range(5):
        path = CurvePath.of([[[0.0, 0.0, 0.0], [3000.0, 0.0, 0.0]]])
        found = _along(path, Spacing(1.0, 1.0), seed=seed)
        x = np.sort(found.positions[:, 0])
        assert np.diff(x).min() >= 1.0 and np.diff(x).max() < 2.0  # spaced and maximal
        densities.append(len(x) / 3000.0)
    assert np.mean(densities) == pytest.approx(RENYI, abs=0.006)


lines = st.lists(st.tuples(st.floats(-30, 30), st.floats(-30, 30), st.floats(-5, 5)), min_size=2, max_size=7)


@settings(max_examples=25, deadline=None)
@given(st.lists(lines, min_size=1, max_size=3), st.lists(st.booleans(), min_size=3, max_size=3),
       st.integers(0, 2**31), st.floats(0.3, 3.0))
def test_any_polylines_are_spaced_and_maximal_in_3d(polylines, loops, seed, radius) -> None:
    path = CurvePath.of([np.array(line) for line in polylines], loops[:len(polylines)])
    found = _along(path, Spacing(radius, radius), seed=seed)
    if not len(path.length):
        assert not len(found.radii)
        return
    assert _closest_ratio(found.positions, found.radii) >= 1.0 - 1e-12
    probes = _probes(path, radius / 40)
    assert _distances(probes, found.positions).min(axis=1).max() <= radius * (1 + 1e-9)
    on = path.at(found.segment, found.along)
    assert np.abs(on - found.positions).max() < 1e-9


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_radius_that_varies_keeps_the_larger_one_and_leaves_no_room(seed) -> None:
    path = CurvePath.of([[[0, 0, 0], [40, 0, 0], [40, 30, 0], [0, 30, 0]]], [True])

    def radius_at(xyz: np.ndarray) -> np.ndarray:
        return 0.5 + 1.5 * (0.5 + 0.5 * np.sin(xyz[:, 0] / 6.0) * np.cos(xyz[:, 1] / 5.0))

    found = _along(path, Spacing(0.5, 2.0, radius_at=radius_at), seed=seed)
    assert _closest_ratio(found.positions, found.radii) >= 1.0 - 1e-12
    probes = _probes(path, 0.01)
    reach = np.maximum(radius_at(probes)[:, None], found.radii[None, :])
    covered = (_distances(probes, found.positions) < reach + SMALLEST_PIECE * 0.5 * 4).any(axis=1)
    assert covered.all()


@pytest.mark.parametrize("seed", [3, 4])
def test_radii_that_add_up_leave_no_place_for_the_object_drawn_there(seed) -> None:
    path = CurvePath.of([[[0, 0, 0], [60, 0, 0]], [[0, 1.5, 0], [60, 1.5, 0]]])
    table = np.array([0.3, 0.9, 0.5])

    def radius_at(xyz: np.ndarray) -> np.ndarray:  # a size drawn per place, as objects' footprints are
        cell = np.floor(xyz[:, 0] * 37.0 + xyz[:, 1] * 11.0).astype(np.int64)
        return table[cell % 3]

    found = _along(path, Spacing(0.3, 0.9, radius_at=radius_at, summed=True), seed=seed)
    assert _closest_ratio(found.positions, found.radii, summed=True) >= 1.0 - 1e-12
    probes = _probes(path, 0.005)
    room = (_distances(probes, found.positions) >= radius_at(probes)[:, None] + found.radii[None, :]).all(axis=1)
    assert room.mean() < 5e-3  # a size drawn anew every 27 mm leaves slivers the halving does not reach


def test_a_mask_and_blockers_are_kept() -> None:
    path = CurvePath.of([[[0, 0, 0], [190, 0, 0]]])
    blockers = Samples(np.array([[50.0, 0.5], [120.0, -1.0]]), np.array([6.0, 3.0]))

    def allowed(xyz: np.ndarray) -> np.ndarray:
        return np.mod(xyz[:, 0], 20.0) < 13.0

    found = _along(path, Spacing(1.0, 1.0, allowed=allowed), blockers=blockers, seed=5)
    assert allowed(found.positions).all()
    gap = _distances(found.positions[:, :2], blockers.positions)
    assert (gap >= np.maximum(blockers.radii[None, :], 1.0)).all()
    probes = _probes(path, 0.01)
    free = allowed(probes) & (_distances(probes[:, :2], blockers.positions) >= blockers.radii).all(axis=1)
    assert _distances(probes[free], found.positions).min(axis=1).max() < 1.0 + 1e-3


def test_fixed_step_posts_end_to_end_and_evenly_round_a_loop() -> None:
    line, along = fixed_step(np.array([10.0, 7.0]), (False, True), 2.5, 0.0, seed=1)
    assert along[line == 0].tolist() == [0.0, 2.5, 5.0, 7.5, 10.0]
    loop = along[line == 1]
    assert len(loop) == 3 and np.allclose(np.diff(loop), 7.0 / 3)
    line, along = fixed_step(np.array([10.3]), (False,), 2.5, 0.0, seed=1)
    assert along.tolist()[-2:] == [10.0, 10.3]
    _, jittered = fixed_step(np.array([100.0]), (False,), 2.0, 0.5, seed=9)
    exact = np.arange(51) * 2.0
    assert 0 < np.abs(jittered - exact).max() <= 0.5 + 1e-12 and np.all(jittered >= 0)
    for bad in ({"step": 0.0, "jitter": 0.0}, {"step": 1.0, "jitter": 1.5}):
        with pytest.raises(ValueError):
            fixed_step(np.array([5.0]), (False,), bad["step"], bad["jitter"], seed=0)


def test_offset_lines_keep_their_distance_on_straight_stretches() -> None:
    path = CurvePath.of([[[0, 0, 0], [20, 0, 0], [20, 20, 0]]])
    left, right = path.shifted(3.0), path.shifted(-3.0)
    assert np.allclose(left.lines[0], [[0, 3, 0], [17, 3, 0], [17, 20, 0]])
    assert np.allclose(right.lines[0], [[0, -3, 0], [23, -3, 0], [23, 20, 0]])


def _flat_terrain() -> TerrainLookup:
    vertices = np.array([[-100, -100, 2.0], [100, -100, 2.0], [100, 100, 2.0], [-100, 100, 2.0]])
    return TerrainLookup(vertices, np.array([[0, 1, 2], [0, 2, 3]]))


def test_a_curve_layer_follows_the_tangent_and_is_the_same_for_the_same_seed() -> None:
    path = CurvePath.of([[[0, 0, 5.0], [30, 30, 9.0]]])
    spec = LayerSpec(min_radius=1.0, max_radius=1.0, seed=4, random_yaw=True)
    terrain = _flat_terrain()
    points = curve_layer(AlongSpec(path), spec, terrain)
    assert np.allclose(points.positions[:, 2], 2.0)
    assert np.allclose(points.rotations[:, 2], math.pi / 4)
    again = curve_layer(AlongSpec(path), spec, terrain)
    assert points.positions.tobytes() == again.positions.tobytes()
    on_curve = curve_layer(AlongSpec(path, place=AlongPlace.CURVE), spec, terrain)
    climb = math.atan2(4.0, math.hypot(30, 30))
    assert np.allclose(on_curve.rotations[:, 1], -climb) and np.allclose(on_curve.rotations[:, 2], math.pi / 4)


def test_a_fixed_step_layer_drops_posts_an_earlier_layer_holds() -> None:
    path = CurvePath.of([[[0, 0, 0], [40, 0, 0]]])
    spec = LayerSpec(min_radius=0.5, max_radius=0.5, seed=1)
    blockers = Samples(np.array([[10.0, 0.0, 2.0]]), np.array([1.0]))
    posts = curve_layer(AlongSpec(path, AlongMode.STEP, step=2.0), spec, _flat_terrain(), blockers,
                        keep=np.array([3.0]))
    x = np.sort(posts.positions[:, 0])
    assert x.tolist() == [v for v in np.arange(21) * 2.0 if abs(v - 10.0) >= 3.0]


def test_ten_kilometres_at_one_metre() -> None:
    """The size the issue names: 10 km of curve at 1 m spacing (timed in ``make bench``)."""
    t = np.linspace(0.0, 1.0, 2001)[:, None]
    wiggle = np.concatenate([t * 10_000.0, 40.0 * np.sin(t * 60.0), np.zeros_like(t)], axis=1)
    path = CurvePath.of([wiggle])
    found = _along(path, Spacing(1.0, 1.0), seed=11)
    order = np.argsort(found.segment * 1e6 + found.along)
    steps = np.linalg.norm(np.diff(found.positions[order], axis=0), axis=1)
    assert steps.min() >= 1.0 - 1e-9 and steps.max() < 2.0 + 1e-9
    assert len(found.radii) / path.length.sum() == pytest.approx(RENYI, abs=0.02)


def test_an_edit_of_the_curve_changes_the_points_near_it_only() -> None:
    t = np.linspace(0.0, 1.0, 401)[:, None]
    line = np.concatenate([t * 2000.0, 30.0 * np.sin(t * 25.0), np.zeros_like(t)], axis=1)
    spec = LayerSpec(min_radius=1.0, max_radius=1.0, seed=6)
    chunk = 64.0
    before = curve_layer(AlongSpec(CurvePath.of([line]), place=AlongPlace.CURVE), spec, None).positions
    edited = line.copy()
    edited[200, 1] += 7.0  # one point of the curve moved, near x = 1000
    after = curve_layer(AlongSpec(CurvePath.of([edited]), place=AlongPlace.CURVE), spec, None).positions
    far = 6 * chunk  # four phases: a change reaches a few chunks at most
    keep_before = np.abs(before[:, 0] - 1000.0) > far
    keep_after = np.abs(after[:, 0] - 1000.0) > far
    assert keep_before.sum() > 800
    assert before[keep_before].tobytes() == after[keep_after].tobytes()  # in the curve's order, bit for bit
    assert before.tobytes() != after.tobytes()
