"""Maximal Poisson-disk sampling on mesh surfaces (core.surface) beside Blender's Distribute Points on Faces.

Both samplers get the same triangles (Blender's as a mesh object at the origin). Figures: points, seconds,
d_min / r (the closest pair over the spacing r, 3-D; below 1 means pairs closer than the spacing), the
pairs closer than r, and the hole fraction: the share of random surface probes farther than r (3-D) from
every point, i.e. places where one more point would fit.
"""

from __future__ import annotations

import math
import time

import numpy as np
from scipy.spatial import cKDTree

from strew.core.surface import SurfaceSettings, sample_surface

from .blender_distribute import distribute_points

TITLE = "Surface sampling (core.surface)"
PROBES = 200_000


# --------------------------------------------------------------------------------------------- meshes
def icosphere(radius: float, subdivisions: int) -> tuple[np.ndarray, np.ndarray]:
    t = (1.0 + math.sqrt(5.0)) / 2.0
    v = np.array([[-1, t, 0], [1, t, 0], [-1, -t, 0], [1, -t, 0], [0, -1, t], [0, 1, t], [0, -1, -t], [0, 1, -t],
                  [t, 0, -1], [t, 0, 1], [-t, 0, -1], [-t, 0, 1]], dtype=float)
    f = np.array([[0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11], [1, 5, 9], [5, 11, 4], [11, 10, 2],
                  [10, 7, 6], [7, 1, 8], [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8], [3, 8, 9], [4, 9, 5],
                  [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1]])
    for _ in range(subdivisions):
        edges = np.sort(np.concatenate((f[:, [0, 1]], f[:, [1, 2]], f[:, [2, 0]])), axis=1)
        unique, inverse = np.unique(edges, axis=0, return_inverse=True)
        mid = len(v) + inverse.reshape(3, -1)  # midpoint vertex of edges ab, bc, ca per face
        v = np.concatenate((v, 0.5 * (v[unique[:, 0]] + v[unique[:, 1]])))
        a, b, c, ab, bc, ca = f[:, 0], f[:, 1], f[:, 2], mid[0], mid[1], mid[2]
        f = np.concatenate([np.stack(x, 1) for x in ((a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca))])
    return radius * v / np.linalg.norm(v, axis=1, keepdims=True), f


def terrain(size: float, quads: int) -> tuple[np.ndarray, np.ndarray]:
    """A wavy height field (slopes up to about 50 degrees) of quads x quads squares, two triangles each."""
    xs = np.linspace(0.0, size, quads + 1)
    gx, gy = np.meshgrid(xs, xs)
    z = 3.0 * np.sin(gx / 7.0) + 2.0 * np.cos(gy / 5.0)
    v = np.stack((gx.ravel(), gy.ravel(), z.ravel()), axis=1)
    i, j = np.meshgrid(np.arange(quads), np.arange(quads))
    a = (j * (quads + 1) + i).ravel()
    b, c, d = a + 1, a + quads + 2, a + quads + 1
    return v, np.concatenate((np.stack((a, b, c), 1), np.stack((a, c, d), 1)))


# -------------------------------------------------------------------------------------------- metrics
def probes(v: np.ndarray, f: np.ndarray, count: int) -> np.ndarray:
    rng = np.random.default_rng(2024)
    corners = v[f]
    area = 0.5 * np.linalg.norm(np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]), axis=1)
    face = rng.choice(len(f), size=count, p=area / area.sum())
    u = rng.random((2, count))
    flip = u.sum(axis=0) > 1
    u[:, flip] = 1 - u[:, flip]
    c = corners[face]
    return c[:, 0] + u[0, :, None] * (c[:, 1] - c[:, 0]) + u[1, :, None] * (c[:, 2] - c[:, 0])


def quality(points: np.ndarray, q: np.ndarray, r: float) -> tuple[float, int, float]:
    """(d_min / r, pairs closer than r, hole fraction)."""
    tree = cKDTree(points)
    d, _ = tree.query(points, k=2)
    close = len(tree.query_pairs(r * (1 - 1e-9)))
    gap, _ = tree.query(q, k=1)
    return float(d[:, 1].min() / r), close, float((gap >= r).mean())


# -------------------------------------------------------------------------------------------- samplers
def strew_surface(v: np.ndarray, f: np.ndarray, r: float, repeats: int) -> tuple[float, np.ndarray]:
    best, points = math.inf, np.zeros((0, 3))
    for seed in range(repeats):
        started = time.perf_counter()
        points = sample_surface(v, f, SurfaceSettings(min_radius=r, seed=seed)).positions
        best = min(best, time.perf_counter() - started)
    return best, points


def blender_surface(v: np.ndarray, f: np.ndarray, r: float, density_max: float, repeats: int):
    """Blender's Distribute Points on Faces (Poisson) on the same triangles; (best seconds, points, version)."""
    import bpy

    bpy.ops.wm.read_homefile(use_empty=True)
    mesh = bpy.data.meshes.new("StrewSurfaceBench")
    mesh.from_pydata(v.tolist(), [], f.tolist())
    ob = bpy.data.objects.new("StrewSurfaceBench", mesh)
    bpy.context.scene.collection.objects.link(ob)
    best, every = distribute_points(ob, r, density_max, repeats)
    return best, every[-1] if every else np.zeros((0, 3)), bpy.app.version_string


# -------------------------------------------------------------------------------------------- workloads
def workload(name: str, v: np.ndarray, f: np.ndarray, r: float) -> str:
    q = probes(v, f, PROBES)
    t_strew, p_strew = strew_surface(v, f, r, repeats=3)
    rows = [("strew maximal", t_strew, p_strew, "best of 3 (seeds 0-2)")]
    version = ""
    for density in (20.0, 100.0):
        t, p, version = blender_surface(v, f, r, density, repeats=3)
        rows.append((f"Blender {version} Distribute Points on Faces (Poisson, Distance Min {r:g}, "
                     f"Density Max {density:g})", t, p, "best of 3 evaluations (seeds 0-2), C++ multi-threaded"))
    lines = [f"### {name}", "", f"{len(f):,} triangles; spacing r = {r:g} (3-D distance); {PROBES:,} probes.", "",
             "| method | points | seconds | d_min / r | pairs closer than r | hole fraction | time ÷ strew | note |",
             "|---|---:|---:|---:|---:|---:|---:|---|"]
    for label, seconds, points, note in rows:
        ratio, close, holes = quality(points, q, r)
        lines.append(f"| {label} | {len(points):,} | {seconds:.3f} | {ratio:.3f} | {close:,} | {holes:.2e} | "
                     f"{seconds / t_strew:.2f}x | {note} |")
    return "\n".join(lines)


def run() -> str:
    sections = [
        workload("Icosphere, radius 10 (every side: top, walls, underside)", *icosphere(10.0, 5), 0.5),
        workload("Wavy terrain 100 x 100", *terrain(100.0, 100), 0.5),
    ]
    return (__doc__ or "").split("\n", 1)[1].strip() + "\n\n" + "\n\n".join(sections)
