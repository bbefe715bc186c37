"""Brute-force checks of the Poisson-disk guarantees (scipy KD-trees), shared by the poisson tests."""

from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree

from strew.core.poisson import PoissonSettings, Samples


def _tree(xy: np.ndarray, settings: PoissonSettings) -> cKDTree:
    if settings.tileable:
        w, h = settings.size
        return cKDTree(np.mod(xy, (w, h)), boxsize=(w, h))
    return cKDTree(xy)


def close_pairs(a: np.ndarray, b: np.ndarray, reach: float, settings: PoissonSettings) -> np.ndarray:
    """Records (i, j, d) of every pair a[i], b[j] closer than ``reach`` (wrapped when tiled)."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros(0, dtype=[("i", np.intp), ("j", np.intp), ("v", np.float64)])
    return _tree(a, settings).sparse_distance_matrix(_tree(b, settings), reach, output_type="ndarray")


def conflicts(samples: Samples, settings: PoissonSettings, blockers: Samples | None = None) -> int:
    """Number of conflicting pairs (closer than the larger radius): own-own and own-blocker."""
    p, r = samples.positions, samples.radii
    if len(p) == 0:
        return 0
    pairs = close_pairs(p, p, float(r.max()), settings)
    pairs = pairs[pairs["i"] < pairs["j"]]
    bad = int((pairs["v"] < np.maximum(r[pairs["i"]], r[pairs["j"]])).sum())
    if blockers is not None and len(blockers.radii):
        reach = max(float(r.max()), float(blockers.radii.max()))
        cross = close_pairs(p, blockers.positions, reach, settings)
        bad += int((cross["v"] < np.maximum(r[cross["i"]], blockers.radii[cross["j"]])).sum())
    return bad


def check_basic(samples: Samples, settings: PoissonSettings) -> None:
    """Shapes, dtypes, domain and radius bounds."""
    w, h = settings.size
    p, r = samples.positions, samples.radii
    assert p.dtype == np.float64 and r.dtype == np.float64
    assert p.ndim == 2 and p.shape[1] == 2 and r.shape == (p.shape[0],)
    assert ((p[:, 0] >= 0) & (p[:, 0] < w) & (p[:, 1] >= 0) & (p[:, 1] < h)).all()
    r_max = settings.max_radius
    assert ((r >= settings.min_radius) & (r <= r_max)).all()


def fillable(
    samples: Samples,
    settings: PoissonSettings,
    blockers: Samples | None = None,
    probes: int = 200_000,
    seed: int = 12345,
) -> tuple[int, int]:
    """(fillable probes, allowed probes): a probe is fillable when a point with radius radius_at(probe)
    could stand there without conflict and it is allowed."""
    w, h = settings.size
    q = np.random.default_rng(seed).random((probes, 2)) * (w, h)
    allowed = np.ones(probes, bool) if settings.is_allowed is None else settings.is_allowed(q)
    r_max = settings.max_radius
    rq = np.full(probes, float(settings.min_radius))
    if settings.radius_at is not None:
        rq = np.clip(settings.radius_at(q), settings.min_radius, r_max)
    covered = np.zeros(probes, bool)
    sets = [samples] if blockers is None else [samples, blockers]
    for pts in sets:
        if len(pts.radii) == 0:
            continue
        # Conflict when d < max(r_probe, r_point): the nearest point closer than r_probe, or a point whose
        # own radius reaches the probe.
        nearest, _ = _tree(pts.positions, settings).query(np.mod(q, (w, h)) if settings.tileable else q)
        covered |= nearest < rq
        rec = close_pairs(q, pts.positions, float(pts.radii.max()), settings)
        covered[rec["i"][rec["v"] < pts.radii[rec["j"]]]] = True
    return int((allowed & ~covered).sum()), int(allowed.sum())


def wavy_radius(lo: float, hi: float, scale: float = 17.0):
    """A smooth noise-like radius field between lo and hi."""

    def radius_at(xy: np.ndarray) -> np.ndarray:
        x, y = xy[:, 0] / scale, xy[:, 1] / scale
        n = 0.5 + 0.25 * np.sin(x * 1.3 + 0.7) * np.cos(y * 0.9) + 0.25 * np.sin(0.5 * x + 1.1 * y)
        return lo + (hi - lo) * n

    return radius_at


def river(width: float, height: float, half_width: float):
    """A mask whose forbidden band (a meandering river) splits the domain into a south and a north bank."""

    def is_allowed(xy: np.ndarray) -> np.ndarray:
        centre = height * 0.5 + height * 0.08 * np.sin(xy[:, 0] * 6.0 / width)
        return np.abs(xy[:, 1] - centre) > half_width

    return is_allowed


def uncovered_vertices(samples: Samples, size: tuple[float, float], radius: float) -> np.ndarray:
    """Vertices of the arrangement of the conflict disks (radius ``radius`` around every sample) inside the
    closed rectangle that no disk covers: circle-circle and circle-border intersections and the corners.

    The set is maximal exactly when this is empty: the free set U (the closed rectangle minus the open
    disks) is compact, and if it is not empty its lowest point (then leftmost) is one of these vertices. It
    cannot lie inside an arc (outside a disk there is always a lower point next to its circle) nor inside a
    border segment (the segment continues down, or sideways along the bottom edge, to its end).
    """
    w, h = size
    p = samples.positions
    tree = cKDTree(p)
    pairs = tree.query_pairs(2.0 * radius, output_type="ndarray")
    a, b = p[pairs[:, 0]], p[pairs[:, 1]]
    mid, d = 0.5 * (a + b), np.linalg.norm(b - a, axis=1)
    along = np.sqrt(np.maximum(radius * radius - 0.25 * d * d, 0.0))
    normal = np.column_stack((a[:, 1] - b[:, 1], b[:, 0] - a[:, 0])) / d[:, None]
    corners = np.array([[0.0, 0.0], [w, 0.0], [0.0, h], [w, h]])
    vertices = [mid + along[:, None] * normal, mid - along[:, None] * normal, corners]
    for axis, value in ((0, 0.0), (0, w), (1, 0.0), (1, h)):  # circles crossing the border lines
        gap = np.abs(p[:, axis] - value)
        near = gap < radius
        half = np.sqrt(radius * radius - gap[near] ** 2)
        for sign in (-1.0, 1.0):
            v = p[near].copy()
            v[:, axis] = value
            v[:, 1 - axis] += sign * half
            vertices.append(v)
    v = np.concatenate(vertices)
    v = v[(v[:, 0] >= 0) & (v[:, 0] <= w) & (v[:, 1] >= 0) & (v[:, 1] <= h)]
    nearest, _ = tree.query(v)
    return v[nearest >= radius * (1.0 - 1e-9)]  # a vertex lies on its own circles: covered means strictly inside

