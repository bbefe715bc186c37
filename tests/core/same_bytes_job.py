"""One scatter layer that uses every orientation and spacing feature, reduced to SHA-256 digests of its arrays.

Run as a script (``python same_bytes_job.py WORKERS``) it prints the digests as JSON, with the interpreter's
Python and numpy versions: the determinism tests and ``make bench`` compare them across fresh processes, worker
counts and interpreters. Its inputs are built from arithmetic alone (no ``exp`` or ``sin`` of numpy's), so every
interpreter starts from the same bits.
"""

from __future__ import annotations

import hashlib
import json
import math
import platform
import sys

import numpy as np

ARRAYS = ("positions", "radii", "normals", "prefab_index", "rotations", "scales")


def world():
    """A 60 × 48 m terrain with a round hill (a rational bump), and a layer with variable radius from noise,
    chunks, align, tilt, random yaw, a scale range, scale by slope and three weighted prefabs."""
    from strew.core.fields import PerlinNoise
    from strew.core.scatter import LayerSpec
    from strew.core.terrain import TerrainLookup

    quads = 40
    xs = np.arange(quads + 1) * 1.5 - 7.0
    ys = np.arange(quads + 1) * 1.2 + 3.0
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    dx, dy = (gx - 23.0) / 11.0, (gy - 27.0) / 9.0
    z = 7.0 / (1.0 + dx * dx + dy * dy) + 0.04 * gx
    n = quads + 1
    i, j = np.meshgrid(np.arange(quads), np.arange(quads), indexing="ij")
    a = (i * n + j).ravel()
    triangles = np.concatenate([np.column_stack([a, a + n, a + n + 1]), np.column_stack([a, a + n + 1, a + 1])])
    terrain = TerrainLookup(np.column_stack([gx.ravel(), gy.ravel(), z.ravel()]), triangles)
    spec = LayerSpec(min_radius=0.9, max_radius=2.2, seed=7, chunk_size=14.0, density=PerlinNoise(seed=3, scale=17.0),
                     max_slope=0.6, align=0.7, tilt=0.35, random_yaw=True, scale_range=(0.7, 1.4),
                     scale_by_slope=0.3, prefab_weights=(1.0, 2.0, 0.5))
    return terrain, spec


def digests(workers: int = 1) -> dict[str, str]:
    """SHA-256 of each output array of the layer, scattered on ``workers`` processes."""
    from strew.core.pool import ProcessPool
    from strew.core.scatter import scatter_layer

    terrain, spec = world()
    if workers > 1:
        with ProcessPool(workers) as pool:
            points = scatter_layer(terrain, spec, backend=pool)
    else:
        points = scatter_layer(terrain, spec)
    out = {name: hashlib.sha256(np.ascontiguousarray(getattr(points, name)).tobytes()).hexdigest()
           for name in ARRAYS}
    out["count"] = str(len(points.positions))
    return out


def main() -> None:
    workers = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    report = {"python": platform.python_version(), "numpy": np.__version__, "workers": workers,
              "digests": digests(workers), "pi": math.pi}
    print(json.dumps(report))


if __name__ == "__main__":
    main()
