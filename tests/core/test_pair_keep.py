"""Keep-away per blocker (pair rules between layers): exact distances by brute force, still maximal."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import cKDTree

from strew.core.poisson import Samples
from strew.core.scatter import LayerSpec, scatter_layer
from strew.core.terrain import TerrainLookup


def _flat(size: float = 40.0) -> TerrainLookup:
    vertices = np.array([[0, 0, 0], [size, 0, 0], [size, size, 0], [0, size, 0]], dtype=float)
    return TerrainLookup(vertices, np.array([[0, 1, 2], [0, 2, 3]]))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_blocker_keeps_its_own_distance(seed: int) -> None:
    rng = np.random.default_rng(seed)
    blockers = Samples(rng.uniform(0, 40, (80, 2)), np.ones(80))
    keep = np.where(np.arange(80) < 40, 3.5, 0.0)  # the first group has a pair rule, the rest none
    points = scatter_layer(_flat(), LayerSpec(min_radius=1.0, seed=seed, keep_away=0.5), blockers, keep=keep)
    xy = points.positions[:, :2]
    ruled, free = cKDTree(blockers.positions[:40]), cKDTree(blockers.positions[40:])
    assert ruled.query(xy)[0].min() >= 3.5 - 1e-9
    assert free.query(xy)[0].min() >= 1.0 - 1e-9
    # Maximal: a probe that keeps every distance finds a point within 1.0.
    probes = rng.uniform(0, 40, (50_000, 2))
    fits = (ruled.query(probes)[0] >= 3.5) & (free.query(probes)[0] >= 1.0)
    assert (cKDTree(xy).query(probes[fits])[0] < 1.0).all()


def test_bad_keep_is_a_value_error() -> None:
    blockers = Samples(np.zeros((3, 2)), np.ones(3))
    with pytest.raises(ValueError, match="keep"):
        scatter_layer(_flat(), LayerSpec(min_radius=1.0), blockers, keep=np.array([1.0, -1.0, 0.0]))
    with pytest.raises(ValueError, match="keep"):
        scatter_layer(_flat(), LayerSpec(min_radius=1.0), blockers, keep=np.ones(2))
