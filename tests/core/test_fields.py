"""Fields: Perlin noise, curve remap, per-vertex and image fields, composition, radius from density."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.interpolate import PchipInterpolator
from terrain_reference import brute_force_hits, grid_mesh

from strew.core.fields import (
    ConstantField,
    CurveRemap,
    FunctionField,
    ImageField,
    PerlinNoise,
    VertexField,
    as_field,
    density_to_radius,
    radius_from_density,
)
from strew.core.terrain import TerrainLookup

XY = np.random.default_rng(0).uniform(-500, 1500, (20_000, 2))


# --------------------------------------------------------------------------------------- noise
def test_noise_is_deterministic_in_range_and_order_independent() -> None:
    noise = PerlinNoise(seed=7, scale=40.0, octaves=4)
    values = noise(XY)
    assert values.dtype == np.float64 and values.shape == (len(XY),)
    assert values.min() >= 0.0 and values.max() <= 1.0
    assert values.std() > 0.05  # not flat
    np.testing.assert_array_equal(PerlinNoise(seed=7, scale=40.0, octaves=4)(XY), values)
    order = np.random.default_rng(1).permutation(len(XY))
    np.testing.assert_array_equal(noise(XY[order]), values[order])


def test_a_new_seed_changes_the_pattern() -> None:
    a = PerlinNoise(seed=1, scale=40.0)(XY)
    b = PerlinNoise(seed=2, scale=40.0)(XY)
    assert abs(np.corrcoef(a, b)[0, 1]) < 0.1
    assert abs(np.corrcoef(a, PerlinNoise(seed=-1, scale=40.0)(XY))[0, 1]) < 0.1


def test_scale_is_a_wavelength_in_world_units() -> None:
    small = PerlinNoise(seed=3, scale=10.0)
    big = PerlinNoise(seed=3, scale=40.0)
    np.testing.assert_allclose(big(XY * 4.0), small(XY), atol=1e-9)


def test_noise_is_continuous() -> None:
    noise = PerlinNoise(seed=5, scale=20.0, octaves=3)
    step = 1e-3
    jump = np.abs(noise(XY + np.array([step, 0.0])) - noise(XY))
    # the gradient of a normalised octave sum stays well below ~5 per cell: a Lipschitz bound
    assert jump.max() < 5.0 * step / 20.0 * (1 + 2 + 4)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"scale": 0.0}, "scale: must be > 0"),
        ({"scale": -3.0}, "scale: must be > 0"),
        ({"scale": float("nan")}, "scale: must be finite"),
        ({"scale": 1.0, "octaves": 0}, "octaves: must be >= 1"),
        ({"scale": 1.0, "octaves": 2.5}, "octaves: expected an integer"),
        ({"scale": 1.0, "persistence": 1.5}, "persistence"),
        ({"scale": 1.0, "lacunarity": 0.5}, "lacunarity"),
        ({"scale": 1.0, "seed": "a"}, "seed: expected an integer"),
    ],
)
def test_noise_bad_settings(kwargs: dict, match: str) -> None:
    kwargs = {"seed": 1, **kwargs}
    with pytest.raises(ValueError, match=match):
        PerlinNoise(**kwargs)


# --------------------------------------------------------------------------------------- curves
control_points = st.lists(
    st.tuples(st.floats(-100, 100), st.floats(-100, 100)), min_size=2, max_size=8, unique_by=lambda p: p[0]
).filter(lambda pts: np.min(np.diff(sorted(p[0] for p in pts))) > 1e-3)


@settings(max_examples=60, deadline=None)
@given(points=control_points)
def test_smooth_curve_is_pchip(points: list[tuple[float, float]]) -> None:
    pts = sorted(points)
    xs, ys = np.array([p[0] for p in pts]), np.array([p[1] for p in pts])
    curve = CurveRemap(xs, ys)
    np.testing.assert_allclose(curve(xs), ys, atol=1e-9)  # passes through every point
    inner = np.linspace(xs[0], xs[-1], 500)
    np.testing.assert_allclose(curve(inner), PchipInterpolator(xs, ys)(inner), rtol=1e-9, atol=1e-9)
    # no overshoot: between two points the curve stays within their values
    seg = np.clip(np.searchsorted(xs, inner, side="right") - 1, 0, len(xs) - 2)
    lo, hi = np.minimum(ys[seg], ys[seg + 1]), np.maximum(ys[seg], ys[seg + 1])
    assert np.all((curve(inner) >= lo - 1e-9) & (curve(inner) <= hi + 1e-9))
    # outside the control points the curve holds its end values
    np.testing.assert_allclose(curve([xs[0] - 10, xs[-1] + 10]), [ys[0], ys[-1]])
    linear = CurveRemap(xs, ys, mode="linear")
    np.testing.assert_allclose(linear(inner), np.interp(inner, xs, ys))


@settings(max_examples=40, deadline=None)
@given(points=control_points)
def test_monotone_points_give_a_monotone_curve(points: list[tuple[float, float]]) -> None:
    xs = np.sort([p[0] for p in points])
    ys = np.sort([p[1] for p in points])
    values = CurveRemap(xs, ys)(np.linspace(xs[0] - 1, xs[-1] + 1, 2000))
    assert np.all(np.diff(values) >= -1e-9)


def test_sharp_edge_curve() -> None:
    edge = CurveRemap([0.0, 0.48, 0.52, 1.0], [0.0, 0.0, 1.0, 1.0])
    v = edge(PerlinNoise(seed=1, scale=30.0)(XY))
    assert np.mean((v < 0.01) | (v > 0.99)) > 0.8  # mostly forest or clearing, thin transitions


@pytest.mark.parametrize(
    ("xs", "ys", "match"),
    [
        ([0, 2, 1], [0, 1, 2], "xs: control points must be sorted"),
        ([0, 1, 1], [0, 1, 2], "xs: control points must be sorted"),
        ([0], [1], "at least 2 control points"),
        ([0, 1], [0, 1, 2], "equal length|one length"),
        ([0, np.nan], [0, 1], "finite"),
    ],
)
def test_curve_bad_points(xs, ys, match) -> None:
    with pytest.raises(ValueError, match=match):
        CurveRemap(xs, ys)
    with pytest.raises(ValueError, match="mode"):
        CurveRemap([0, 1], [0, 1], mode="cubic")


# ----------------------------------------------------------------------------- per-vertex field
@pytest.mark.parametrize("seed", [0, 1])
def test_vertex_field_matches_brute_force_interpolation(seed: int) -> None:
    rng = np.random.default_rng(seed)
    vertices, triangles = grid_mesh(8, 6, rng, hole_rate=0.1)
    weights = rng.random(len(vertices))
    lookup = TerrainLookup(vertices, triangles)
    xy = rng.uniform(-2, 12, (600, 2))
    ref = brute_force_hits(vertices, triangles, xy)
    blend = np.einsum("ij,ij->i", np.nan_to_num(ref["bary"]), weights[triangles[ref["triangle"]]])
    expected = np.where(ref["mask"], blend, -1.0)
    got = VertexField(lookup, weights, outside=-1.0)(xy)
    clear = ~ref["near_edge"]
    np.testing.assert_allclose(got[clear], expected[clear], atol=1e-9)
    assert lookup.cache.lookups == 1


def test_vertex_field_bad_input() -> None:
    lookup = TerrainLookup(np.eye(3), np.array([[0, 1, 2]]))
    with pytest.raises(ValueError, match=r"values: expected one value per terrain vertex \(3,\)"):
        VertexField(lookup, [1.0, 2.0])
    with pytest.raises(ValueError, match="values: per-vertex values must be finite"):
        VertexField(lookup, [1.0, np.nan, 0.0])
    with pytest.raises(ValueError, match="terrain: expected a TerrainLookup"):
        VertexField("terrain", [1.0, 2.0, 3.0])


# ---------------------------------------------------------------------------------- image field
def test_image_field_orientation_and_bilinear() -> None:
    h, w = 5, 8
    rows, cols = np.mgrid[0:h, 0:w]
    pixels = 3.0 * cols + 7.0 * rows + 1.0  # linear in the pixel index: bilinear reproduces it exactly
    field = ImageField(pixels, (10.0, 20.0), (26.0, 30.0))  # pixels are 2 x 2 world units
    # pixel (row 0, col 0) is the bottom-left one: its centre is (11, 21)
    assert field(np.array([[11.0, 21.0]]))[0] == pytest.approx(1.0)
    assert field(np.array([[11.0, 29.0]]))[0] == pytest.approx(1.0 + 7.0 * 4)  # top row = max y
    xy = np.random.default_rng(2).uniform([11, 21], [25, 29], (500, 2))
    expected = 3.0 * (xy[:, 0] - 11.0) / 2.0 + 7.0 * (xy[:, 1] - 21.0) / 2.0 + 1.0
    np.testing.assert_allclose(field(xy), expected, atol=1e-9)
    # outside: edge pixels extend; with wrap the image repeats
    assert field(np.array([[0.0, 0.0]]))[0] == pytest.approx(1.0)
    tiled = ImageField(pixels, (10.0, 20.0), (26.0, 30.0), wrap=True)
    np.testing.assert_allclose(tiled(xy + np.array([16.0, -30.0])), tiled(xy), atol=1e-9)


def test_image_field_bad_input() -> None:
    with pytest.raises(ValueError, match="pixels: expected a 2-D"):
        ImageField(np.zeros((2, 2, 4)), (0, 0), (1, 1))
    with pytest.raises(ValueError, match="extent_max: must be greater"):
        ImageField(np.zeros((2, 2)), (0, 0), (1, 0))
    with pytest.raises(ValueError, match="pixels: values must be finite"):
        ImageField(np.array([[np.nan]]), (0, 0), (1, 1))


# ---------------------------------------------------------------------------------- composition
def test_fields_compose() -> None:
    a = PerlinNoise(seed=1, scale=30.0)
    b = FunctionField(lambda xy: xy[:, 0] / 1000.0)
    va, vb = a(XY), b(XY)
    np.testing.assert_allclose((a * b)(XY), va * vb)
    np.testing.assert_allclose((2 * a + 1)(XY), 2 * va + 1)
    np.testing.assert_allclose((1 - a)(XY), 1 - va)
    np.testing.assert_allclose((a - b)(XY), va - vb)
    np.testing.assert_allclose(b.clip(0.2, 0.4)(XY), np.clip(vb, 0.2, 0.4))
    curve = CurveRemap([0.3, 0.7], [0.0, 1.0], mode="linear")
    np.testing.assert_allclose(a.remap(curve)(XY), np.interp(va, [0.3, 0.7], [0, 1]))
    np.testing.assert_array_equal(a.above(0.5)(XY), va >= 0.5)
    np.testing.assert_array_equal(a.below(0.5)(XY), va < 0.5)
    assert ConstantField(3.0)(XY[:4]).tolist() == [3.0] * 4
    np.testing.assert_allclose(as_field(lambda xy: xy[:, 1])(XY), XY[:, 1])


def test_function_field_checks_its_output() -> None:
    with pytest.raises(ValueError, match=r"returned shape \(3,\), expected \(2,\)"):
        FunctionField(lambda xy: np.zeros(3))(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="field: expected a Field"):
        as_field("dense")


@settings(max_examples=30, deadline=None)
@given(min_radius=st.floats(0.01, 10), extra=st.floats(0, 10), seed=st.integers(0, 1000))
def test_radius_from_density(min_radius: float, extra: float, seed: int) -> None:
    max_radius = min_radius + extra
    density = PerlinNoise(seed=seed, scale=25.0, octaves=2) * 1.6 - 0.3  # strays outside [0, 1]
    radius = radius_from_density(density, min_radius, max_radius)(XY)
    d = np.clip(density(XY), 0, 1)
    np.testing.assert_allclose(radius, max_radius + (min_radius - max_radius) * d, rtol=1e-12, atol=1e-12)
    assert np.all((radius >= min_radius - 1e-12) & (radius <= max_radius + 1e-12))
    np.testing.assert_allclose(radius_from_density(1.0, min_radius, max_radius)(XY[:3]), min_radius)
    np.testing.assert_allclose(radius_from_density(0.0, min_radius, max_radius)(XY[:3]), max_radius)


def test_nan_density_means_sparse_in_the_field_and_in_a_scatter_layer() -> None:
    """One density->radius rule: NaN (a hole in an image, 0/0 in a user function) counts as density 0."""
    from strew.core.scatter import LayerSpec, scatter_layer

    values = np.array([np.nan, -1.0, 0.0, 0.25, 1.0, 3.0, np.inf, -np.inf])
    np.testing.assert_array_equal(density_to_radius(values, 2.0, 6.0), [6.0, 6.0, 6.0, 5.0, 2.0, 2.0, 2.0, 6.0])
    np.testing.assert_array_equal(radius_from_density(FunctionField(lambda xy: np.full(len(xy), np.nan)), 2.0, 6.0)(
        XY[:5]), np.full(5, 6.0))

    vertices = np.array([[0, 0, 0], [60, 0, 0], [60, 60, 0], [0, 60, 0]], dtype=float)
    terrain = TerrainLookup(vertices, np.array([[0, 1, 2], [0, 2, 3]]))

    def half_nan(xy: np.ndarray) -> np.ndarray:  # NaN on the left half, dense on the right
        return np.where(xy[:, 0] < 30.0, np.nan, 1.0)

    points = scatter_layer(terrain, LayerSpec(min_radius=2.0, max_radius=6.0, density=half_nan, seed=3))
    left = points.positions[:, 0] < 30.0
    assert left.any() and (~left).any()
    np.testing.assert_array_equal(points.radii[left], 6.0)
    np.testing.assert_array_equal(points.radii[~left], 2.0)


def test_radius_bad_input() -> None:
    with pytest.raises(ValueError, match="min_radius: must be <= max_radius"):
        radius_from_density(0.5, 3.0, 2.0)
    with pytest.raises(ValueError, match="min_radius: must be > 0"):
        radius_from_density(0.5, 0.0, 2.0)
    with pytest.raises(ValueError, match="xy: row 0 is not finite"):
        radius_from_density(0.5, 1.0, 2.0)(np.array([[np.inf, 0.0]]))
