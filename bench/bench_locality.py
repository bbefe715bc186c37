"""What a small terrain edit changes: the share of far instances kept bit for bit, and what a Scatter costs."""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from strew.core.scatter import LayerPoints
    from strew.core.terrain import TerrainLookup

TITLE = "What an edit changes"
SIZES = (600.0, 2000.0)  # terrain sides (m); 2.5 m quads
BUMP_RADIUS, BUMP_HEIGHT = 7.5, 5.0  # a 15 m wide, 5 m high bump
FAR = 60.0  # "far": farther than this from the bump's centre
SPOTS = 3  # bump places per terrain


def _terrain(size: float, bump: tuple[float, float] | None = None) -> TerrainLookup:
    from strew.core.terrain import TerrainLookup

    quads = round(size / 2.5)
    axis = np.linspace(-size / 2, size / 2, quads + 1)
    x, y = np.meshgrid(axis, axis)
    z = 8 * np.sin(x / 37) * np.cos(y / 29) + 4 * np.sin(x / 11 + y / 13)
    if bump is not None:
        z += BUMP_HEIGHT * np.clip(1 - np.hypot(x - bump[0], y - bump[1]) / BUMP_RADIUS, 0, 1)
    row = quads + 1
    corner = (np.arange(quads)[:, None] * row + np.arange(quads)[None, :]).ravel()
    triangles = np.r_[np.c_[corner, corner + 1, corner + row + 1], np.c_[corner, corner + row + 1, corner + row]]
    return TerrainLookup(np.c_[x.ravel(), y.ravel(), z.ravel()], triangles)


def _rows(points: LayerPoints) -> np.ndarray:
    table = np.column_stack([points.positions, points.rotations, points.scales, points.prefab_index, points.randoms])
    return np.array([r.tobytes() for r in table])


def run() -> str:
    from strew.core.fields.noise import PerlinNoise
    from strew.core.scatter import LayerSpec, scatter_layer

    noise = PerlinNoise(seed=3, scale=40.0, octaves=3)
    rows = [
        f"A hilly terrain of 2.5 m quads, one layer: radius 1.5–3 m from noise, Max Slope 25°, three prefabs, scale "
        f"0.8–1.2, automatic chunks (192 m). A bump {2 * BUMP_RADIUS:g} m wide and {BUMP_HEIGHT:g} m high at {SPOTS} "
        f"places, then Scatter again; *far* = farther than {FAR:g} m from the bump. Reference in the same run: the "
        "same layer with method Bridson (random growth from start points, the classic way). Times: one process, "
        "CPU seconds of the first Scatter.",
        "",
        "| terrain | method | instances | Scatter (s) | far instances kept bit for bit | farthest changed |",
        "|---|---|---:|---:|---:|---:|",
    ]
    rng = np.random.default_rng(11)
    for size in SIZES:
        flat = _terrain(size)
        for method in ("maximal", "bridson"):
            spec = LayerSpec(min_radius=1.5, max_radius=3.0, density=noise.evaluate, max_slope=math.radians(25),
                             seed=5, prefab_weights=(1.0, 1.0, 1.0), scale_range=(0.8, 1.2), method=method)
            started = time.process_time()
            before = scatter_layer(flat, spec)
            seconds = time.process_time() - started
            kept = far = 0
            farthest = 0.0
            for _ in range(SPOTS if size < 1000 else 1):
                bump = (float(rng.uniform(-size / 3, size / 3)), float(rng.uniform(-size / 3, size / 3)))
                after = scatter_layer(_terrain(size, bump), spec)
                old, new = _rows(before), _rows(after)
                distance = np.hypot(before.positions[:, 0] - bump[0], before.positions[:, 1] - bump[1])
                changed = ~np.isin(old, new)
                far += int((distance > FAR).sum())
                kept += int((~changed & (distance > FAR)).sum())
                farthest = max(farthest, float(distance[changed].max()) if changed.any() else 0.0)
            name = "Strew (maximal)" if method == "maximal" else "reference: Bridson"
            rows.append(f"| {size:g} m | {name} | {len(before):,} | {seconds:.2f} | {kept / far:.2%} "
                        f"| {farthest:.1f} m |")
    return "\n".join(rows)
