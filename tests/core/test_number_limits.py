"""Numbers at their limits: one validator refuses NaN, the infinities and numbers beyond a setting's range in one
line, and core's own entry points (layer specs, terrain vertices, keep distances, the scheduler's timeout) use it."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strew.core.farm import TIMEOUT_RANGE, DaskCluster, check_timeout
from strew.core.inputs import MAX_DISTANCE, MAX_SEED, bounded
from strew.core.poisson import PoissonSettings, Samples, sample
from strew.core.scatter import LayerSpec, scatter_layer
from strew.core.scatter.spec import blocker_radii
from strew.core.surface import SurfaceSettings, sample_surface
from strew.core.terrain import TerrainLookup

FLT_MAX = float(np.finfo(np.float32).max)
NAN, INF = float("nan"), float("inf")
HOSTILE = [NAN, INF, -INF, FLT_MAX, -FLT_MAX, 1e21, 2.0**31, -1.0, -1e-300, np.float32("nan"), np.float64(1e300)]


def _one_line(error: pytest.ExceptionInfo[ValueError], *parts: str) -> None:
    text = str(error.value)
    assert "\n" not in text, text
    for part in parts:
        assert part in text, text


@pytest.mark.parametrize("value", HOSTILE, ids=repr)
def test_numbers_outside_a_distance_range_are_refused(value: float) -> None:
    with pytest.raises(ValueError) as error:
        bounded(value, "Margin", 0.0, MAX_DISTANCE)
    _one_line(error, "Margin is ", "give a number from 0 to 1e+09")


@pytest.mark.parametrize("value", [2**31, MAX_SEED + 1, -1, 2**63, 1.0, 0.5, True, "3", None, NAN], ids=repr)
def test_seeds_outside_what_a_setting_holds_are_refused(value: object) -> None:
    with pytest.raises(ValueError) as error:
        bounded(value, "--seed", 0, MAX_SEED, integer=True)
    _one_line(error, "--seed is ", "give a whole number from 0 to 2147483647")


@pytest.mark.parametrize("value", [0, 0.0, 1e-300, 5, np.float32(2.5), np.int64(7), MAX_DISTANCE, np.float64(1e9)])
def test_numbers_in_range_come_back_unchanged(value: float) -> None:
    assert bounded(value, "x", 0.0, MAX_DISTANCE) is value


@settings(max_examples=200, deadline=None, derandomize=True)
@given(value=st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-2**70, 2**70)),
       low=st.floats(-1e12, 1e12), span=st.floats(0, 1e12))
def test_bounded_accepts_exactly_the_range(value: float, low: float, span: float) -> None:
    high = low + span
    inside = not (isinstance(value, float) and math.isnan(value)) and low <= value <= high
    if inside:
        assert bounded(value, "x", low, high) == value
    else:
        with pytest.raises(ValueError, match=r"^x is .*; give a number from "):
            bounded(value, "x", low, high)


DISTANCES = ["min_radius", "max_radius", "keep_away", "chunk_size", "tile_size"]


@pytest.mark.parametrize("name", DISTANCES)
@pytest.mark.parametrize("value", [1e21, FLT_MAX, MAX_DISTANCE * 1.5, NAN, INF], ids=repr)
def test_layer_distances_beyond_the_limit_are_refused(name: str, value: float) -> None:
    values = {"min_radius": 1.0, name: value}
    if name == "min_radius":
        values["max_radius"] = value if math.isfinite(value) else 2.0
    with pytest.raises(ValueError) as error:
        LayerSpec(**values)
    _one_line(error, name)


@pytest.mark.parametrize("ends", [(0.0, FLT_MAX), (-FLT_MAX, 0.0), (0.0, 1e10), (NAN, 1.0), (-INF, INF)], ids=repr)
def test_height_ranges_beyond_the_limit_are_refused(ends: tuple[float, float]) -> None:
    with pytest.raises(ValueError) as error:
        LayerSpec(min_radius=1.0, height_range=ends)
    _one_line(error, "height_range")


@pytest.mark.parametrize("scales", [(1.0, 1e7), (1.0, FLT_MAX), (1e21, 1e21), (1.0, INF), (1.0, NAN)], ids=repr)
def test_scales_beyond_the_limit_are_refused(scales: tuple[float, float]) -> None:
    with pytest.raises(ValueError) as error:
        LayerSpec(min_radius=1.0, scale_range=scales)
    _one_line(error, "scale_range")


def _plane(size: float = 50.0) -> TerrainLookup:
    vertices = np.array([[0, 0, 0], [size, 0, 0], [size, size, 0], [0, size, 0]], dtype=float)
    return TerrainLookup(vertices, np.array([[0, 1, 2], [0, 2, 3]]))


def test_a_keep_away_at_the_limit_still_keeps_away() -> None:
    """The largest distance a setting takes works: every point of the layer would lie within it of the blocker."""
    blocker = Samples(positions=np.array([[25.0, 25.0]]), radii=np.array([1.0]))
    for keep in (1e6, MAX_DISTANCE):
        assert len(scatter_layer(_plane(), LayerSpec(min_radius=2.0, keep_away=keep), blocker).positions) == 0
    keep = np.array([MAX_DISTANCE])
    assert len(scatter_layer(_plane(), LayerSpec(min_radius=2.0), blocker, keep=keep).positions) == 0


@pytest.mark.parametrize(("position", "radius"), [(50.0, 1e21), (50.0, FLT_MAX), (1e21, 1.0), (-FLT_MAX, 1.0)],
                         ids=repr)
def test_sampler_blockers_beyond_the_limit_are_refused(position: float, radius: float) -> None:
    """Past 1e9 a blocker's grid cells would overflow and the blocker be ignored in silence."""
    blockers = Samples(positions=np.array([[position, 50.0]]), radii=np.array([radius]))
    with pytest.raises(ValueError) as error:
        sample(PoissonSettings(size=(100.0, 100.0), min_radius=2.0), blockers=blockers)
    _one_line(error, "blockers.")


def test_a_sampler_blocker_at_the_limit_still_blocks() -> None:
    blockers = Samples(positions=np.array([[50.0, 50.0]]), radii=np.array([MAX_DISTANCE]))
    assert len(sample(PoissonSettings(size=(100.0, 100.0), min_radius=2.0), blockers=blockers).positions) == 0


@pytest.mark.parametrize("keep", [1e21, FLT_MAX, NAN, INF, -1.0], ids=repr)
def test_keep_distances_beyond_the_limit_are_refused(keep: float) -> None:
    with pytest.raises(ValueError) as error:
        blocker_radii(LayerSpec(min_radius=1.0), 2, np.array([1.0, keep]))
    _one_line(error, "keep must hold one distance from 0 to 1e+09")


@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("value", [FLT_MAX, -FLT_MAX, 1e10, -2e9], ids=repr)
def test_terrain_vertices_beyond_the_limit_are_named(axis: int, value: float) -> None:
    """A far vertex (Blender stores "inf" typed into a field as 3.4e38) would drop its triangles in silence."""
    vertices = np.array([[0, 0, 0], [50, 0, 0], [50, 50, 0], [0, 50, 0], [60, 10, 0]], dtype=float)
    vertices[4, axis] = value
    with pytest.raises(ValueError) as error:
        TerrainLookup(vertices, np.array([[0, 1, 2], [0, 2, 3], [1, 4, 2]]))
    _one_line(error, "vertices: row 4 is at (", "farther than 1e+09 m from the origin")


@pytest.mark.parametrize("value", [FLT_MAX, -1e10], ids=repr)
def test_surface_vertices_beyond_the_limit_are_named(value: float) -> None:
    """Every Face reads its targets' vertices through its own check, with the same limit."""
    vertices = np.array([[0, 0, 0], [10, 0, 0], [0, 10, 0], [0, 0, value]], dtype=float)
    with pytest.raises(ValueError) as error:
        sample_surface(vertices, np.array([[0, 1, 2], [0, 1, 3]]), SurfaceSettings(min_radius=1.0))
    _one_line(error, "vertices: row 3 is at (", "farther than 1e+09 m from the origin")


def test_terrain_vertices_at_the_limit_are_taken() -> None:
    vertices = np.array([[0, 0, 0], [MAX_DISTANCE, 0, 0], [0, MAX_DISTANCE, -MAX_DISTANCE]], dtype=float)
    assert TerrainLookup(vertices, np.array([[0, 1, 2]])).sample(np.array([[1.0, 1.0]])).mask.all()


@pytest.mark.parametrize("timeout", [NAN, INF, -INF, 0.0, -1.0, 1e30, TIMEOUT_RANGE[1] * 2, "4", None], ids=repr)
def test_scheduler_timeouts_outside_the_range_are_one_line(timeout: object) -> None:
    with pytest.raises(ValueError) as error:
        check_timeout(timeout, "--scheduler-timeout")
    _one_line(error, "--scheduler-timeout is ", "give a number from 0.1 to 86400")
    with pytest.raises(ValueError) as error:
        DaskCluster("tcp://127.0.0.1:9", timeout=timeout)  # type: ignore[arg-type]
    _one_line(error, "timeout is ")
