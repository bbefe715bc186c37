"""LayerSpec refuses every bad value with a ValueError that names the field (never a TypeError or a crash later)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strew.core.scatter import LayerSpec, scatter_layer
from strew.core.terrain import TerrainLookup

BAD = [
    ({"min_radius": 0.0}, "min_radius"),
    ({"min_radius": -1.0}, "min_radius"),
    ({"min_radius": math.nan}, "min_radius"),
    ({"min_radius": "1"}, "min_radius"),
    ({"min_radius": None}, "min_radius"),
    ({"max_radius": 0.5}, "max_radius"),
    ({"max_radius": math.inf}, "max_radius"),
    ({"max_radius": "2"}, "max_radius"),
    ({"scale_range": ("a", "b")}, "scale_range"),
    ({"scale_range": (1.0,)}, "scale_range"),
    ({"scale_range": 1.0}, "scale_range"),
    ({"scale_range": (2.0, 1.0)}, "scale_range"),
    ({"scale_range": (0.0, 1.0)}, "scale_range"),
    ({"height_range": (5.0, 1.0)}, "height_range"),
    ({"height_range": ("low", "high")}, "height_range"),
    ({"seed": 1.5}, "seed"),
    ({"seed": -1}, "seed"),
    ({"seed": True}, "seed"),
    ({"start_points": 0}, "start_points"),
    ({"start_points": 2.0}, "start_points"),
    ({"keep_away": -1.0}, "keep_away"),
    ({"max_slope": 2.0}, "max_slope"),
    ({"align": 1.5}, "align"),
    ({"tile_keep": -0.1}, "tile_keep"),
    ({"chunk_size": 0.0}, "chunk_size"),
    ({"chunk_size": "big"}, "chunk_size"),
    ({"prefab_weights": ()}, "prefab_weights"),
    ({"prefab_weights": (0.0, 0.0)}, "prefab_weights"),
    ({"prefab_weights": (1.0, -1.0)}, "prefab_weights"),
    ({"prefab_weights": ("a",)}, "prefab_weights"),
    ({"prefab_weights": (math.nan,)}, "prefab_weights"),
    ({"tile_size": 1.0}, "tile_size"),
    ({"tile_size": "x"}, "tile_size"),
    ({"density": 3}, "density"),
    ({"mask": "everywhere"}, "mask"),
    ({"max_points": 0}, "max_points"),
]


@pytest.mark.parametrize(("change", "field"), BAD, ids=[f"{k}={v!r}" for (c, _) in BAD for k, v in c.items()])
def test_bad_values_are_refused_naming_the_field(change: dict[str, object], field: str) -> None:
    values: dict[str, object] = {"min_radius": 1.0, "max_radius": 2.0, **change}
    with pytest.raises(ValueError, match=field):
        LayerSpec(**values)  # type: ignore[arg-type]


def test_numpy_numbers_are_accepted() -> None:
    spec = LayerSpec(min_radius=np.float32(1.0), max_radius=np.float64(2.0), seed=np.int64(3),
                     scale_range=np.array([0.5, 1.5]), prefab_weights=(np.float32(1.0), 2))
    assert spec.max_radius == 2.0


_any = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=True, allow_infinity=True),
                 st.text(max_size=3), st.tuples(st.floats(-2, 3), st.floats(-2, 3)),
                 st.lists(st.floats(-1, 3), max_size=3))
_TERRAIN = TerrainLookup(np.array([[0, 0, 0], [12, 0, 0], [12, 12, 1], [0, 12, 1]], dtype=float),
                         np.array([[0, 1, 2], [0, 2, 3]]))


@settings(max_examples=150, deadline=None)
@given(field=st.sampled_from(["min_radius", "max_radius", "seed", "start_points", "keep_away", "max_slope",
                              "align", "scale_range", "height_range", "prefab_weights", "tile_size", "tile_keep",
                              "chunk_size"]), value=_any)
def test_any_value_is_refused_with_a_value_error_or_scatters(field: str, value: object) -> None:
    """Whatever a field holds: a ValueError naming it, or a layer that scatters (brute-force spacing check)."""
    values: dict[str, object] = {"min_radius": 1.5, "max_radius": 1.5, "max_points": 2_000, field: value}
    try:
        spec = LayerSpec(**values)  # type: ignore[arg-type]
    except ValueError as error:
        assert field in str(error) or "max_radius" in str(error) or "min_radius" in str(error), str(error)
        return
    try:
        points = scatter_layer(_TERRAIN, spec)
    except ValueError:
        return  # refused by the sampler's own budget or settings checks: still a clean refusal
    xy = points.positions[:, :2]
    d = np.sqrt(((xy[:, None] - xy[None]) ** 2).sum(-1)) + np.eye(len(xy)) * 1e9
    assert (d >= np.maximum(points.radii[:, None], points.radii[None, :]) * (1 - 1e-9)).all()


def test_automatic_chunks_follow_the_reach_and_stay_few() -> None:
    from strew.core.scatter.spec import AUTO_CHUNK_RADII, AUTO_CHUNKS_ACROSS, chunk_side

    spec = LayerSpec(min_radius=1.5, max_radius=3.0, keep_away=2.0)
    assert spec.chunk_size is None
    assert chunk_side(spec, 600.0, 400.0) == AUTO_CHUNK_RADII * 3.0
    assert chunk_side(LayerSpec(min_radius=1.0, keep_away=5.0), 600.0, 400.0) == AUTO_CHUNK_RADII * 5.0
    assert chunk_side(spec, 20_000.0, 100.0) == 20_000.0 / AUTO_CHUNKS_ACROSS
    assert chunk_side(LayerSpec(min_radius=1.0, chunk_size=50.0), 600.0, 400.0) == 50.0
