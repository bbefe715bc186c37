"""The paint brush fills its disk maximally without conflicts against existing points; erase removes a disk."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial import cKDTree

from strew.core.brush import erase, paint
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
