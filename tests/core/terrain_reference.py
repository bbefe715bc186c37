"""Brute-force references and mesh generators shared by the terrain, field and mask tests."""

from __future__ import annotations

import numpy as np

TOL = 1e-9


def brute_force_hits(vertices: np.ndarray, triangles: np.ndarray, xy: np.ndarray) -> dict[str, np.ndarray]:
    """Top-most hit of a vertical ray at every xy, testing every triangle (2x2 solve per triangle)."""
    m = len(xy)
    best_z = np.full(m, -np.inf)
    best_tri = np.full(m, -1)
    best_bary = np.full((m, 3), np.nan)
    near_edge = np.zeros(m, dtype=bool)
    for f, (i, j, k) in enumerate(triangles):
        p0, p1, p2 = vertices[i], vertices[j], vertices[k]
        mat = np.array([[p1[0] - p0[0], p2[0] - p0[0]], [p1[1] - p0[1], p2[1] - p0[1]]])
        extent = np.abs(np.array([p1[:2] - p0[:2], p2[:2] - p0[:2], p2[:2] - p1[:2]])).max()
        if abs(np.linalg.det(mat)) <= 1e-12 * extent * extent:
            continue  # vertical or degenerate: a downward ray cannot hit it
        b12 = np.linalg.solve(mat, (xy - p0[:2]).T).T
        b1, b2 = b12[:, 0], b12[:, 1]
        b0 = 1.0 - b1 - b2
        inside = (b0 >= -TOL) & (b1 >= -TOL) & (b2 >= -TOL)
        near_edge |= np.abs(np.minimum(np.minimum(b0, b1), b2)) < 1e-6
        z = b0 * p0[2] + b1 * p1[2] + b2 * p2[2]
        better = inside & (z > best_z)
        best_z[better] = z[better]
        best_tri[better] = f
        best_bary[better] = np.stack([b0, b1, b2], axis=1)[better]
    hit = best_tri >= 0
    normal = np.full((m, 3), np.nan)
    for q in np.flatnonzero(hit):
        i, j, k = triangles[best_tri[q]]
        n = np.cross(vertices[j] - vertices[i], vertices[k] - vertices[i])
        n /= np.linalg.norm(n)
        normal[q] = n if n[2] >= 0 else -n
    return {"mask": hit, "z": np.where(hit, best_z, np.nan), "triangle": best_tri, "bary": best_bary,
            "normal": normal, "near_edge": near_edge}


def grid_mesh(
    nx: int,
    ny: int,
    rng: np.random.Generator,
    size: float = 10.0,
    jitter: float = 0.3,
    hole_rate: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """A jittered height-field grid of (nx x ny) quads split in two triangles each, with optional holes."""
    xs, ys = np.meshgrid(np.linspace(0, size, nx + 1), np.linspace(0, size, ny + 1))
    step = size / max(nx, ny)
    xy = np.stack([xs.ravel(), ys.ravel()], axis=1) + rng.uniform(-jitter, jitter, (xs.size, 2)) * step
    z = rng.normal(0.0, 1.0, xs.size)
    vertices = np.column_stack([xy, z])
    a = (np.arange(ny)[:, None] * (nx + 1) + np.arange(nx)[None, :]).ravel()
    quads = np.stack([a, a + 1, a + nx + 2, a + nx + 1], axis=1)
    tris = np.concatenate([quads[:, [0, 1, 2]], quads[:, [0, 2, 3]]])
    if hole_rate > 0:
        tris = tris[rng.random(len(tris)) >= hole_rate]
    return vertices, tris
