"""The paint brush fills its disk maximally without conflicts against existing points; erase removes a disk."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial import cKDTree

from strew.core.brush import Box, Circle, erase, fill, paint
from strew.core.poisson import PoissonSettings, Samples, sample


def _conflicts(a: Samples, b: Samples) -> int:
    """Pairs closer than the larger radius: within ``a`` and between ``a`` and ``b``."""
    reach = float(max(a.radii.max(initial=0), b.radii.max(initial=0)))
    bad = 0
    tree = cKDTree(a.positions)
    for i, j in tree.query_pairs(reach):
        bad += np.linalg.norm(a.positions[i] - a.positions[j]) < max(a.radii[i], a.radii[j])
    if len(b.radii):
        for i, near in enumerate(cKDTree(b.positions).query_ball_point(a.positions, reach)):
            for j in near:
                bad += np.linalg.norm(a.positions[i] - b.positions[j]) < max(a.radii[i], b.radii[j])
    return int(bad)


def _fillable(new: Samples, existing: Samples, centre: np.ndarray, brush: float, radius: float, seed: int) -> int:
    """Probes inside the disk where one more point of ``radius`` would still fit."""
    rng = np.random.default_rng(seed)
    angle, dist = rng.random(100_000) * 2 * np.pi, brush * np.sqrt(rng.random(100_000))
    probes = centre + np.stack([np.cos(angle), np.sin(angle)], axis=1) * dist[:, None]
    every = np.concatenate([new.positions, existing.positions])
    radii = np.concatenate([new.radii, existing.radii])
    reach = max(radius, float(radii.max()))
    pairs = cKDTree(probes).sparse_distance_matrix(cKDTree(every), reach, output_type="ndarray")
    blocked = np.zeros(len(probes), dtype=bool)
    blocked[pairs["i"][pairs["v"] < np.maximum(radius, radii[pairs["j"]])]] = True
    return int((~blocked).sum())


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 1000), brush=st.floats(2.0, 8.0), radius=st.floats(0.4, 1.5))
def test_paint_is_maximal_and_conflict_free(seed: int, brush: float, radius: float) -> None:
    existing = sample(PoissonSettings(size=(30.0, 30.0), min_radius=1.0, max_radius=2.0,
                                      radius_at=lambda xy: 1.0 + xy[:, 0] / 30.0, seed=seed))
    keep = ~erase(existing.positions, (15.0, 15.0), brush)
    existing = Samples(existing.positions[keep], existing.radii[keep])
    new = paint(existing, (15.0, 15.0), brush, min_radius=radius, seed=seed)
    assert len(new.radii) > 0
    assert (np.linalg.norm(new.positions - 15.0, axis=1) <= brush + 1e-9).all()
    assert _conflicts(new, existing) == 0
    assert _fillable(new, existing, np.array([15.0, 15.0]), brush, radius, seed) == 0


def test_paint_respects_mask_radius_field_and_is_deterministic() -> None:
    def half(xy: np.ndarray) -> np.ndarray:
        return xy[:, 0] > 100.0

    def field(xy: np.ndarray) -> np.ndarray:
        return 0.5 + 0.01 * (xy[:, 1] - 40.0)

    args = dict(existing=None, centre=(100.0, 50.0), brush_radius=6.0, min_radius=0.5, max_radius=0.7,
                radius_at=field, is_allowed=half, seed=4)
    a, b = paint(**args), paint(**args)
    assert np.array_equal(a.positions, b.positions) and np.array_equal(a.radii, b.radii)
    assert (a.positions[:, 0] > 100.0).all()
    assert np.allclose(a.radii, np.clip(field(a.positions), 0.5, 0.7))
    assert _conflicts(a, Samples(np.zeros((0, 2)), np.zeros(0))) == 0


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 1000), x0=st.floats(2.0, 12.0), y0=st.floats(2.0, 12.0), width=st.floats(1.0, 14.0),
       depth=st.floats(1.0, 14.0))
def test_fill_of_a_box_is_maximal_and_conflict_free(seed: int, x0: float, y0: float, width: float,
                                                    depth: float) -> None:
    existing = sample(PoissonSettings(size=(30.0, 30.0), min_radius=0.8, max_radius=1.6,
                                      radius_at=lambda xy: 0.8 + xy[:, 1] / 30.0, seed=seed))
    box = Box((x0 + width, y0), (x0, y0 + depth))  # corners in either order
    keep = ~box.contains(existing.positions)
    existing = Samples(existing.positions[keep], existing.radii[keep])
    new = fill(existing, box, min_radius=0.5, seed=seed)
    assert box.contains(new.positions).all()
    assert _conflicts(new, existing) == 0
    probes = np.random.default_rng(seed).random((50_000, 2)) * (width, depth) + (x0, y0)
    every = Samples(np.concatenate([new.positions, existing.positions]), np.concatenate([new.radii, existing.radii]))
    pairs = cKDTree(probes).sparse_distance_matrix(cKDTree(every.positions), 1.6, output_type="ndarray")
    blocked = np.zeros(len(probes), dtype=bool)
    blocked[pairs["i"][pairs["v"] < np.maximum(0.5, every.radii[pairs["j"]])]] = True
    assert blocked.all(), "a place in the box where one more point fits"
    again = fill(existing, box, min_radius=0.5, seed=seed)
    assert np.array_equal(again.positions, new.positions)


def test_regions_refuse_no_area_and_paint_is_a_circle() -> None:
    with pytest.raises(ValueError, match="no area"):
        Box((1.0, 2.0), (1.0, 5.0))
    with pytest.raises(ValueError, match="finite"):
        Box((np.inf, 2.0), (1.0, 5.0))
    with pytest.raises(ValueError, match="brush_radius"):
        Circle((0.0, 0.0), 0.0)
    a = paint(None, (3.0, 4.0), 5.0, min_radius=0.7, seed=2)
    b = fill(None, Circle((3.0, 4.0), 5.0), min_radius=0.7, seed=2)
    assert np.array_equal(a.positions, b.positions)


GROUND = (np.array([-20.0, -20.0]), np.array([20.0, 20.0]))


@pytest.mark.parametrize("region", [Circle((0.0, 0.0), 1e4), Circle((5.0, -3.0), 1e9), Box((-1e9, -1e9), (1e9, 1e9)),
                                    Box((-1e9, 0.0), (1e4, 1e9))], ids=["circle 10 km", "circle 1e9", "box 1e9",
                                                                         "half plane"])
def test_a_region_far_larger_than_the_ground_is_sampled_only_over_the_ground(region: Box | Circle) -> None:
    new = fill(None, region, min_radius=1.0, max_radius=2.0, radius_at=lambda xy: 1.0 + 0.0 * xy[:, 0], seed=4,
               within=GROUND)
    assert len(new.radii) > 100
    assert region.contains(new.positions).all()
    assert ((new.positions >= GROUND[0]) & (new.positions <= GROUND[1])).all()
    assert _conflicts(new, Samples(np.zeros((0, 2)), np.zeros(0))) == 0
    assert len(fill(None, region, min_radius=1.0, within=(GROUND[0] + 3e9, GROUND[1] + 3e9)).radii) == 0


@pytest.mark.parametrize("region", [Circle((1.0, 1.0), 1e-4), Box((1.0, 1.0), (1.0 + 1e-9, 1.0 + 1e-9)),
                                    Box((0.0, 0.0), (1e-12, 30.0))], ids=["circle 1e-4", "box 1e-9", "sliver"])
def test_a_region_narrower_than_a_cell_costs_one_cell(region: Box | Circle) -> None:
    existing = Samples(np.array([[10.0, 10.0]]), np.array([1.0]))
    new = fill(existing, region, min_radius=1.0, max_radius=2.0, radius_at=lambda xy: 1.0 + 0.0 * xy[:, 0], seed=1)
    assert region.contains(new.positions).all()
    assert _conflicts(new, existing) == 0


def test_erase_takes_the_disk_only() -> None:
    xy = np.array([[0.0, 0.0, 5.0], [2.9, 0.0, 0.0], [3.1, 0.0, 0.0]])
    assert erase(xy, (0.0, 0.0), 3.0).tolist() == [True, True, False]


@pytest.mark.parametrize(("kwargs", "message"), [
    (dict(centre=(np.nan, 0.0)), "centre"),
    (dict(brush_radius=0.0), "brush_radius"),
    (dict(min_radius=-1.0), "min_radius"),
])
def test_bad_input_is_a_value_error(kwargs: dict, message: str) -> None:
    args = dict(existing=None, centre=(0.0, 0.0), brush_radius=3.0, min_radius=1.0) | kwargs
    with pytest.raises(ValueError, match=message):
        paint(**args)
