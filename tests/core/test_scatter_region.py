"""LayerSpec.region: only that XY rectangle is sampled (a camera's clip), maximal inside it, validated."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import cKDTree

from strew.core.scatter import LayerSpec, scatter_layer
from strew.core.terrain import TerrainLookup


def _flat(size: float = 120.0) -> TerrainLookup:
    vertices = np.array([[0, 0, 0], [size, 0, 0], [size, size, 0], [0, size, 0]], dtype=float)
    return TerrainLookup(vertices, np.array([[0, 1, 2], [0, 2, 3]]))


@pytest.mark.parametrize("seed", [1, 2])
def test_region_is_filled_and_nothing_lies_outside(seed: int) -> None:
    terrain = _flat()
    region = ((30.0, 45.0), (75.0, 100.0))
    points = scatter_layer(terrain, LayerSpec(min_radius=1.5, seed=seed, chunk_size=20.0, region=region))
    xy = points.positions[:, :2]
    assert ((xy >= region[0]) & (xy <= region[1])).all()
    probes = np.random.default_rng(seed).uniform(region[0], region[1], (50_000, 2))
    assert (cKDTree(xy).query(probes)[0] < 1.5).all()  # maximal inside the region


def test_region_over_the_whole_terrain_changes_nothing() -> None:
    terrain = _flat()
    plain = scatter_layer(terrain, LayerSpec(min_radius=2.0, seed=3, chunk_size=40.0))
    wide = scatter_layer(terrain, LayerSpec(min_radius=2.0, seed=3, chunk_size=40.0,
                                            region=((-10.0, -10.0), (500.0, 500.0))))
    assert np.array_equal(plain.positions, wide.positions)


def test_a_region_off_the_terrain_gives_no_points() -> None:
    points = scatter_layer(_flat(), LayerSpec(min_radius=2.0, region=((200.0, 200.0), (300.0, 300.0))))
    assert len(points) == 0


@pytest.mark.parametrize("region", [((0, 0), (0, 5)), ((0, 0), (np.inf, 5)), ((0, 0, 0), (1, 1)), "box"])
def test_bad_region_is_a_value_error(region: object) -> None:
    with pytest.raises(ValueError, match="region"):
        LayerSpec(min_radius=1.0, region=region)  # type: ignore[arg-type]
