"""Test meshes and brute-force checks of the surface sampler's guarantees (numpy only, no sampler code).

``conflicts`` compares every pair. ``fillable`` throws probes uniformly on the surface. ``largest_gap`` is
exact for a constant radius: on a triangle, the distance to the nearest sample is a lower envelope of convex
functions, so its maximum lies on a corner, where an edge crosses the bisector plane of two samples, or where
the triangle's plane meets the line equidistant from three samples; every such point is checked.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from scipy.spatial import cKDTree

# ---------------------------------------------------------------------------------------------- meshes


def icosphere(radius: float = 1.0, subdivisions: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """A geodesic sphere (outward normals) of the given radius."""
    t = (1.0 + math.sqrt(5.0)) / 2.0
    v = [[-1, t, 0], [1, t, 0], [-1, -t, 0], [1, -t, 0], [0, -1, t], [0, 1, t], [0, -1, -t], [0, 1, -t],
         [t, 0, -1], [t, 0, 1], [-t, 0, -1], [-t, 0, 1]]
    f = [[0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11], [1, 5, 9], [5, 11, 4], [11, 10, 2],
         [10, 7, 6], [7, 1, 8], [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8], [3, 8, 9], [4, 9, 5], [2, 4, 11],
         [6, 2, 10], [8, 6, 7], [9, 8, 1]]
    verts = [np.array(p, dtype=float) / np.linalg.norm(p) for p in v]
    faces = f
    for _ in range(subdivisions):
        cache: dict[tuple[int, int], int] = {}

        def mid(a: int, b: int, cache: dict[tuple[int, int], int] = cache) -> int:
            key = (min(a, b), max(a, b))
            if key not in cache:
                m = verts[a] + verts[b]
                verts.append(m / np.linalg.norm(m))
                cache[key] = len(verts) - 1
            return cache[key]

        new = []
        for a, b, c in faces:
            ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
            new += [[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]
        faces = new
    return np.array(verts) * radius, np.array(faces, dtype=np.int64)


def box(size: tuple[float, float, float], origin: tuple[float, float, float] = (0, 0, 0)) -> tuple[
    np.ndarray, np.ndarray
]:
    """An axis-aligned box: 8 corners, 12 outward triangles."""
    sx, sy, sz = size
    v = np.array([[x, y, z] for x in (0, sx) for y in (0, sy) for z in (0, sz)], dtype=float) + origin
    f = np.array([[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
                  [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]], dtype=np.int64)
    return v, f


def grid(n: int, size: float, holes: tuple[tuple[int, int], ...] = ()) -> tuple[np.ndarray, np.ndarray]:
    """An ``n x n`` quad grid on z = 0 of the given size, without the quads listed in ``holes``."""
    xs = np.linspace(0.0, size, n + 1)
    gx, gy = np.meshgrid(xs, xs, indexing="xy")
    v = np.stack((gx.ravel(), gy.ravel(), np.zeros(gx.size)), axis=1)
    faces = []
    for j in range(n):
        for i in range(n):
            if (i, j) in holes:
                continue
            a, b, c, d = j * (n + 1) + i, j * (n + 1) + i + 1, (j + 1) * (n + 1) + i + 1, (j + 1) * (n + 1) + i
            faces += [[a, b, c], [a, c, d]]
    return v, np.array(faces, dtype=np.int64)


def concat(*meshes: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    vs, fs, base = [], [], 0
    for v, f in meshes:
        vs.append(v)
        fs.append(f + base)
        base += len(v)
    return np.concatenate(vs), np.concatenate(fs)


# ---------------------------------------------------------------------------------------------- checks


def pair_distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Every distance between rows of ``a`` and ``b`` (brute force)."""
    d = a[:, None, :] - b[None, :, :]
    return np.sqrt((d * d).sum(axis=2))


def conflicts(positions: np.ndarray, radii: np.ndarray, blockers: tuple[np.ndarray, np.ndarray] | None = None) -> int:
    """Pairs closer than the larger of their two radii: own pairs (each once) and own-blocker pairs."""
    bad = 0
    for lo in range(0, len(positions), 2048):
        part = slice(lo, lo + 2048)
        d = pair_distances(positions[part], positions)
        need = np.maximum(radii[part, None], radii[None, :])
        rows = np.arange(lo, lo + d.shape[0])[:, None]
        bad += int(((d < need) & (np.arange(len(positions))[None, :] > rows)).sum())
        if blockers is not None and len(blockers[1]):
            db = pair_distances(positions[part], blockers[0])
            bad += int((db < np.maximum(radii[part, None], blockers[1][None, :])).sum())
    return bad


def on_faces(vertices: np.ndarray, faces: np.ndarray, positions: np.ndarray, face_ids: np.ndarray) -> float:
    """Largest distance of a sample from the plane of its face, or from the face itself (barycentric)."""
    a, b, c = (vertices[faces[face_ids, k]] for k in range(3))
    n = np.cross(b - a, c - a)
    n /= np.linalg.norm(n, axis=1, keepdims=True)
    off = np.abs(((positions - a) * n).sum(axis=1))
    # barycentric coordinates; a negative one means outside
    v0, v1, v2 = b - a, c - a, positions - a
    d00, d01, d11 = (v0 * v0).sum(1), (v0 * v1).sum(1), (v1 * v1).sum(1)
    d20, d21 = (v2 * v0).sum(1), (v2 * v1).sum(1)
    den = d00 * d11 - d01 * d01
    bv = (d11 * d20 - d01 * d21) / den
    bw = (d00 * d21 - d01 * d20) / den
    outside = np.maximum(0.0, -np.minimum(np.minimum(bv, bw), 1.0 - bv - bw))
    return float(max(off.max(initial=0.0), outside.max(initial=0.0)))


def surface_probes(vertices: np.ndarray, faces: np.ndarray, count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Uniform random points on the surface and their face ids."""
    rng = np.random.default_rng(seed)
    a, b, c = (vertices[faces[:, k]] for k in range(3))
    area = 0.5 * np.linalg.norm(np.cross(b - a, c - a), axis=1)
    face = rng.choice(len(faces), size=count, p=area / area.sum())
    u, v = rng.random(count), rng.random(count)
    flip = u + v > 1
    u[flip], v[flip] = 1 - u[flip], 1 - v[flip]
    p = a[face] + u[:, None] * (b[face] - a[face]) + v[:, None] * (c[face] - a[face])
    return p, face


def fillable(
    positions: np.ndarray,
    radii: np.ndarray,
    probes: np.ndarray,
    probe_radius: np.ndarray,
    allowed: np.ndarray | None = None,
    blockers: tuple[np.ndarray, np.ndarray] | None = None,
) -> int:
    """Allowed probes where one more sample of radius ``probe_radius`` would conflict with nothing."""
    free = np.ones(len(probes), dtype=bool) if allowed is None else allowed.copy()
    for lo in range(0, len(probes), 1024):
        part = slice(lo, lo + 1024)
        if len(positions):
            d = pair_distances(probes[part], positions)
            free[part] &= ~(d < np.maximum(probe_radius[part, None], radii[None, :])).any(axis=1)
        if blockers is not None and len(blockers[1]):
            d = pair_distances(probes[part], blockers[0])
            free[part] &= ~(d < np.maximum(probe_radius[part, None], blockers[1][None, :])).any(axis=1)
    return int(free.sum())


def _pieces(corners: np.ndarray, longest: float) -> np.ndarray:
    """Midpoint-split triangles until every edge is at most ``longest``."""
    out = []
    while len(corners):
        e = corners - np.roll(corners, 1, axis=1)
        small = (e * e).sum(axis=2).max(axis=1) <= longest * longest
        out.append(corners[small])
        big = corners[~small]
        a, b, c = big[:, 0], big[:, 1], big[:, 2]
        ab, bc, ca = (a + b) / 2, (b + c) / 2, (c + a) / 2
        corners = np.concatenate([np.stack(t, 1) for t in ((a, ab, ca), (ab, b, bc), (ca, bc, c), (ab, bc, ca))])
    return np.concatenate(out)


def largest_gap(vertices: np.ndarray, faces: np.ndarray, positions: np.ndarray, radius: float) -> float:
    """Exactly, the largest distance from a point of the surface to its nearest sample (capped at
    ``2 * radius``; pieces inside one sample's ball count as 0); the set is maximal for a constant radius
    exactly when this is below ``radius``."""
    if len(positions) == 0:
        return 2.0 * radius
    pieces = _pieces(vertices[faces], 0.25 * radius)
    reach = radius + 0.25 * radius  # a sample within ``radius`` of a piece is this close to its corner 0
    lists = cKDTree(positions).query_ball_point(pieces[:, 0], reach)
    by_k: dict[int, list[int]] = {}
    for t, near in enumerate(lists):
        by_k.setdefault(len(near), []).append(t)
    worst = 0.0
    for k, members in by_k.items():
        if k == 0:
            return 2.0 * radius
        idx = np.array(members)
        tri, pts = pieces[idx], positions[np.array([lists[t] for t in members], dtype=np.int64)]
        d = np.sqrt(((tri[:, :, None, :] - pts[:, None, :, :]) ** 2).sum(axis=3))  # (T, 3, K)
        rest = ~(d.max(axis=1) < radius).any(axis=1)  # not inside one sample's ball
        tri, pts = tri[rest], pts[rest]
        step = max(1, 2_000_000 // (k**4 + 1))
        for lo in range(0, len(tri), step):
            worst = max(worst, _envelope_max(tri[lo : lo + step], pts[lo : lo + step], radius))
    return worst


def _envelope_max(tri: np.ndarray, pts: np.ndarray, radius: float) -> float:
    """Max over each triangle of the distance to the nearest of its K samples, from the arrangement's
    vertices: corners, edge x bisector plane, plane x two bisector planes."""
    k = pts.shape[1]
    cand = [tri]
    a, n = tri[:, 0], np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    if k >= 2:
        pairs = np.array(list(itertools.combinations(range(k), 2)))
        p, q = pts[:, pairs[:, 0]], pts[:, pairs[:, 1]]  # (T, P, 3)
        w, rhs = q - p, (q * q).sum(2) - (p * p).sum(2)
        for e0, e1 in ((0, 1), (1, 2), (2, 0)):
            s, t = tri[:, None, e0], tri[:, None, e1]
            den = 2.0 * ((t - s) * w).sum(2)
            with np.errstate(divide="ignore", invalid="ignore"):
                u = (rhs - 2.0 * (s * w).sum(2)) / den
            u = np.where((u >= 0) & (u <= 1), u, 0.0)
            cand.append(s + u[:, :, None] * (t - s))
    if k >= 3:
        triples = np.array(list(itertools.combinations(range(k), 3)))
        p, q, r = (pts[:, triples[:, c]] for c in range(3))  # (T, C, 3)
        nn = np.broadcast_to(n[:, None], p.shape)
        mat = np.stack((2 * (q - p), 2 * (r - p), nn), axis=2)
        pp = (p * p).sum(2)
        plane = np.broadcast_to((n * a).sum(1)[:, None], pp.shape)
        rhs = np.stack(((q * q).sum(2) - pp, (r * r).sum(2) - pp, plane), 2)
        ok = np.abs(np.linalg.det(mat)) > 1e-12 * radius**4 * (n * n).sum(1)[:, None] ** 0.5
        x = np.broadcast_to(a[:, None], p.shape).copy()
        x[ok] = np.linalg.solve(mat[ok], rhs[ok][:, :, None])[:, :, 0]
        inside = _inside(np.broadcast_to(tri[:, None], (*p.shape[:2], 3, 3)).reshape(-1, 3, 3), x.reshape(-1, 3))
        x = np.where((ok & inside.reshape(ok.shape))[:, :, None], x, a[:, None])
        cand.append(x)
    c = np.concatenate(cand, axis=1)  # (T, C, 3)
    dist = np.sqrt(((c[:, :, None, :] - pts[:, None, :, :]) ** 2).sum(axis=3)).min(axis=2)
    return float(np.minimum(dist, 2.0 * radius).max())


def _inside(tri: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Whether points ``x`` (in the planes of ``tri``) lie in their triangles (with a tiny tolerance)."""
    a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
    n = np.cross(b - a, c - a)
    signs = [((np.cross(q - p, x - p)) * n).sum(1) for p, q in ((a, b), (b, c), (c, a))]
    tol = -1e-12 * (n * n).sum(1)
    return (signs[0] >= tol) & (signs[1] >= tol) & (signs[2] >= tol)
