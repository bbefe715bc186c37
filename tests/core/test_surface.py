"""Surface sampler: 3-D spacing, exact maximality, density against the literature, determinism, input errors.

Every guarantee is checked by brute force (``surface_checks``): all pairs for the spacing, an exact
arrangement search (constant radius) or dense probes (masks, variable radius, blockers) for maximality.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from surface_checks import box, concat, conflicts, fillable, grid, icosphere, largest_gap, on_faces, surface_probes

from strew.core.steps import run_to_end
from strew.core.surface import SurfaceSamples, SurfaceSettings, sample_surface, sample_surface_steps, slope_between

SEEDS = (0, 1, 7)


def face_normals(vertices: np.ndarray, faces: np.ndarray) -> np.ndarray:
    a, b, c = (vertices[faces[:, k]] for k in range(3))
    n = np.cross(b - a, c - a)
    return n / np.linalg.norm(n, axis=1, keepdims=True)


def check_samples(v: np.ndarray, f: np.ndarray, s: SurfaceSamples, settings: SurfaceSettings) -> None:
    """Shapes, faces, normals, radii bounds, points on their faces and no conflicting pair."""
    n = len(s.positions)
    assert s.positions.shape == (n, 3) and s.normals.shape == (n, 3) and s.faces.shape == (n,) == s.radii.shape
    assert s.faces.dtype == np.int64 and ((s.faces >= 0) & (s.faces < len(f))).all()
    assert np.allclose(s.normals, face_normals(v, f)[s.faces])
    assert on_faces(v, f, s.positions, s.faces) < 1e-9
    assert ((s.radii >= settings.min_radius) & (s.radii <= settings.max_radius)).all()
    assert conflicts(s.positions, s.radii) == 0


@pytest.mark.parametrize("seed", SEEDS)
def test_sphere_is_covered_everywhere_with_3d_spacing(seed: int) -> None:
    v, f = icosphere(3.0, 3)
    settings = SurfaceSettings(min_radius=0.4, seed=seed)
    s = sample_surface(v, f, settings)
    check_samples(v, f, s, settings)
    assert largest_gap(v, f, s.positions, 0.4) < 0.4  # exact: no place where one more sample fits
    assert (s.normals * s.positions).sum(axis=1).min() > 0  # outward normals on every side, top and bottom
    assert s.positions[:, 2].min() < -2.5 and s.positions[:, 2].max() > 2.5


def test_the_gap_check_finds_a_hole() -> None:
    v, f = icosphere(3.0, 3)
    s = sample_surface(v, f, SurfaceSettings(min_radius=0.4, seed=3))
    assert largest_gap(v, f, s.positions[1:], 0.4) > 0.4


@pytest.mark.parametrize("seed", SEEDS)
def test_box_faces_and_edges(seed: int) -> None:
    v, f = box((4.0, 3.0, 2.0))
    settings = SurfaceSettings(min_radius=0.5, seed=seed)
    s = sample_surface(v, f, settings)
    check_samples(v, f, s, settings)
    assert largest_gap(v, f, s.positions, 0.5) < 0.5
    assert len(np.unique(s.faces)) == len(f)


@pytest.mark.parametrize("seed", SEEDS)
def test_thin_wall_counts_the_distance_across(seed: int) -> None:
    """Both sides of a slab thinner than the radius: a point on one side blocks the other side."""
    v, f = box((6.0, 0.1, 3.0))
    settings = SurfaceSettings(min_radius=0.5, seed=seed)
    s = sample_surface(v, f, settings)
    check_samples(v, f, s, settings)
    assert largest_gap(v, f, s.positions, 0.5) < 0.5
    front, back = s.positions[:, 1] < 1e-9, s.positions[:, 1] > 0.1 - 1e-9
    assert front.sum() > 10 and back.sum() > 10
    across = np.linalg.norm(s.positions[front][:, None] - s.positions[back][None], axis=2)
    assert across.min() >= 0.5


@pytest.mark.parametrize("seed", SEEDS)
def test_mesh_with_holes_and_two_objects(seed: int) -> None:
    holes = ((1, 1), (2, 1), (4, 4), (5, 2))
    v, f = concat(grid(6, 6.0, holes), box((1.0, 1.0, 1.0), origin=(2.0, 2.5, 0.2)))
    settings = SurfaceSettings(min_radius=0.45, seed=seed)
    s = sample_surface(v, f, settings)
    check_samples(v, f, s, settings)
    assert largest_gap(v, f, s.positions, 0.45) < 0.45
    cells = np.floor(s.positions[:, :2]).astype(int)
    on_grid = np.abs(s.positions[:, 2]) < 1e-12
    assert not any((int(i), int(j)) in holes for i, j in cells[on_grid])


def test_density_matches_the_jamming_limit() -> None:
    """Random sequential adsorption of disks saturates at coverage 0.5472 (Hinrichsen, Feder & Jøssang 1986);
    a maximal Poisson-disk set with spacing r is that process for disks of radius r/2."""
    v, f = icosphere(8.0, 3)
    a = v[f]
    area = 0.5 * np.linalg.norm(np.cross(a[:, 1] - a[:, 0], a[:, 2] - a[:, 0]), axis=1).sum()
    coverage = [len(sample_surface(v, f, SurfaceSettings(0.5, seed=s)).positions) * math.pi * 0.25**2 / area
                for s in SEEDS[:2]]
    assert abs(float(np.mean(coverage)) - 0.5472) < 0.01


def test_area_weighting_is_uniform() -> None:
    """Sample counts per face follow the face areas (a box of unequal faces, many seeds)."""
    v, f = box((6.0, 2.0, 1.0))
    a = v[f]
    areas = 0.5 * np.linalg.norm(np.cross(a[:, 1] - a[:, 0], a[:, 2] - a[:, 0]), axis=1)
    counts = np.zeros(len(f))
    for seed in range(6):
        counts += np.bincount(sample_surface(v, f, SurfaceSettings(0.25, seed=seed)).faces, minlength=len(f))
    share, expected = counts / counts.sum(), areas / areas.sum()
    assert np.abs(share - expected).max() < 0.15 * expected.max()


def test_same_seed_same_points_other_seed_other_points() -> None:
    v, f = icosphere(2.0, 2)
    one = sample_surface(v, f, SurfaceSettings(0.3, seed=5))
    two = sample_surface(v, f, SurfaceSettings(0.3, seed=5))
    other = sample_surface(v, f, SurfaceSettings(0.3, seed=6))
    for x, y in zip(one, two, strict=True):
        assert np.array_equal(x, y)
    assert len(other.positions) != len(one.positions) or not np.array_equal(other.positions, one.positions)


def test_variable_radius_uses_the_larger_radius() -> None:
    v, f = icosphere(3.0, 3)
    settings = SurfaceSettings(0.25, 0.7, radius_at=lambda p: 0.25 + 0.45 * (p[:, 2] + 3.0) / 6.0, seed=2)
    s = sample_surface(v, f, settings)
    check_samples(v, f, s, settings)
    assert np.corrcoef(s.positions[:, 2], s.radii)[0, 1] > 0.95
    q, _ = surface_probes(v, f, 30_000, seed=9)
    rq = np.clip(settings.radius_at(q), 0.25, 0.7)  # type: ignore[misc]
    assert fillable(s.positions, s.radii, q, rq) <= 2  # up to a negligible area (approximate maximality)


def test_walls_only_and_overhangs_only() -> None:
    v, f = concat(icosphere(2.5, 2), box((3.0, 3.0, 3.0), origin=(4.0, 0.0, 0.0)))
    up = np.array([0.0, 0.0, 1.0])
    n_all = face_normals(v, f)
    for lo, hi in ((math.radians(60), math.radians(120)), (math.radians(100), math.pi)):
        settings = SurfaceSettings(0.35, is_allowed=slope_between(up, lo, hi), seed=4)
        s = sample_surface(v, f, settings)
        check_samples(v, f, s, settings)
        angle = np.arccos(np.clip(s.normals @ up, -1, 1))
        assert ((angle >= lo - 1e-9) & (angle <= hi + 1e-9)).all() and len(s.positions) > 20
        q, qf = surface_probes(v, f, 30_000, seed=11)
        q_angle = np.arccos(np.clip(n_all[qf] @ up, -1, 1))
        ok = (q_angle >= lo) & (q_angle <= hi)
        assert fillable(s.positions, s.radii, q, np.full(len(q), 0.35), allowed=ok) == 0


def test_blockers_are_kept_away_and_fill_around() -> None:
    v, f = grid(8, 8.0)
    rng = np.random.default_rng(0)
    blockers = SurfaceSamples(
        positions=np.c_[rng.random((12, 2)) * 8.0, rng.uniform(-0.3, 0.3, 12)], normals=np.zeros((12, 3)),
        faces=np.zeros(12, dtype=np.int64), radii=rng.uniform(0.2, 2.0, 12))
    settings = SurfaceSettings(0.4, seed=1)
    s = sample_surface(v, f, settings, blockers=blockers)
    check_samples(v, f, s, settings)
    both = (blockers.positions, blockers.radii)
    assert conflicts(s.positions, s.radii, both) == 0
    q, _ = surface_probes(v, f, 60_000, seed=2)
    assert fillable(s.positions, s.radii, q, np.full(len(q), 0.4), blockers=both) == 0


def test_steps_report_progress_and_return_the_same_points() -> None:
    v, f = box((3.0, 3.0, 3.0))
    fractions: list[float] = []
    result = run_to_end(sample_surface_steps(v, f, SurfaceSettings(0.4, seed=3)), fractions.append)
    assert fractions == sorted(fractions) and fractions[0] > 0 and fractions[-1] <= 1
    assert np.array_equal(result.positions, sample_surface(v, f, SurfaceSettings(0.4, seed=3)).positions)


def test_degenerate_faces_are_skipped() -> None:
    v = np.array([[0, 0, 0], [2, 0, 0], [2, 2, 0], [1, 1, 0], [4, 4, 0]], dtype=float)
    f = np.array([[0, 1, 2], [0, 3, 4], [1, 1, 2]])  # a collinear face and a face with a repeated corner
    s = sample_surface(v, f, SurfaceSettings(0.3, seed=0))
    assert set(np.unique(s.faces).tolist()) == {0}


@pytest.mark.parametrize(
    ("vertices", "triangles", "settings", "message"),
    [
        ([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]], SurfaceSettings(0.0), "min_radius must be > 0"),
        ([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]], SurfaceSettings(0.5, 0.2), "max_radius"),
        ([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]], SurfaceSettings(0.5, seed=-1), "seed"),
        ([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 3]], SurfaceSettings(0.5), "triangles index vertices"),
        ([[0, 0], [1, 0], [0, 1]], [[0, 1, 2]], SurfaceSettings(0.5), "vertices must have shape"),
        ([[0, 0, 0], [1, 0, np.nan], [0, 1, 0]], [[0, 1, 2]], SurfaceSettings(0.5), "NaN"),
        ([[0, 0, 0], [1, 0, 0], [2, 0, 0]], [[0, 1, 2]], SurfaceSettings(0.5), "zero area"),
        ([[0, 0, 0]], np.zeros((0, 3), dtype=int), SurfaceSettings(0.5), "triangles is empty"),
        ([[0, 0, 0], [1e4, 0, 0], [0, 1e4, 0]], [[0, 1, 2]], SurfaceSettings(0.01), "max_points"),
        ([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]], SurfaceSettings(0.5, is_allowed=3), "is_allowed"),  # type: ignore[arg-type]
    ],
)
def test_bad_input_is_named(vertices: object, triangles: object, settings: SurfaceSettings, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        sample_surface(vertices, triangles, settings)


def test_bad_blockers_and_bad_callables_are_named() -> None:
    v, f = grid(2, 2.0)
    with pytest.raises(ValueError, match=r"blockers.positions must have shape \(B, 3\)"):
        sample_surface(v, f, SurfaceSettings(0.5), blockers=SurfaceSamples(np.zeros((2, 2)), None, None, np.ones(2)))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="is_allowed must return shape"):
        sample_surface(v, f, SurfaceSettings(0.5, is_allowed=lambda p, n: np.ones(3, bool)))
    with pytest.raises(ValueError, match="up must be"):
        slope_between((0, 0, 0), 0.0, 1.0)
