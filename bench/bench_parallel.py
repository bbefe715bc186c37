"""Parallel chunks: the 10 km world (~2M instances) on 1 and 2 worker processes, identical output, memory."""

from __future__ import annotations

import math
import os
import time
from pathlib import Path

import numpy as np

TITLE = "Parallel chunks (issue 18): 10 km world, 1 vs 2 worker processes, the same points"

ARRAYS = ("positions", "radii", "normals", "prefab_index", "rotations", "scales")


def _peak_rss_mib(pid: int) -> float:
    """High-water resident memory of a process (VmHWM), shared pages it touched included."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def run() -> str:
    import multiprocessing

    from strew.core.chunks import ChunkGrid
    from strew.core.pool import ProcessPool
    from strew.core.scatter import ChunkWork, LayerSpec, scatter_layer
    from strew.core.shared import SharedObject

    from bench.bench_scatter import LARGE_WORLD_SIZE, large_world_terrain

    load_before = os.getloadavg()[0]
    terrain = large_world_terrain()
    spec = LayerSpec(min_radius=6.0, seed=1, chunk_size=512.0, max_slope=math.radians(40))
    grid = ChunkGrid.over(terrain.bounds.as_array(), spec.chunk_size, spec.radius_max)
    with SharedObject(ChunkWork(terrain, spec, None, grid)) as shared:
        shared_mib = shared.nbytes / 2**20

    started = time.perf_counter()
    alone = scatter_layer(terrain, spec)
    one = time.perf_counter() - started

    rows: list[tuple[str, float, bool, list[float]]] = []
    for workers in (2,):
        with ProcessPool(workers) as pool:
            started = time.perf_counter()
            cold = scatter_layer(terrain, spec, backend=pool)
            cold_time = time.perf_counter() - started
            started = time.perf_counter()
            warm = scatter_layer(terrain, spec, backend=pool)
            warm_time = time.perf_counter() - started
            peaks = [_peak_rss_mib(p.pid) for p in multiprocessing.active_children() if p.pid]
        for label, points, took in ((f"{workers} workers, pool started by the call", cold, cold_time),
                                    (f"{workers} workers, pool already running (next layer)", warm, warm_time)):
            same = all(np.array_equal(getattr(points, n), getattr(alone, n)) and
                       getattr(points, n).tobytes() == getattr(alone, n).tobytes() for n in ARRAYS)
            rows.append((label, took, same, peaks))

    load_after = os.getloadavg()[0]
    per_chunk = one / grid.count
    lines = [
        f"{LARGE_WORLD_SIZE / 1000:.0f} km × {LARGE_WORLD_SIZE / 1000:.0f} km terrain "
        f"({terrain.triangle_count:,} triangles), one layer r = 6 m, slope ≤ 40°, chunks of 512 m: "
        f"{grid.shape[0]} × {grid.shape[1]} = {grid.count} chunks in {grid.phase_count} phases; "
        f"{len(alone):,} instances. Core only (what the Scatter operator runs per layer).",
        "",
        "| run | seconds | speed-up | output identical to 1 worker | peak memory per worker (MiB) |",
        "|---|---:|---:|:---:|---:|",
        f"| 1 worker (this process) | {one:.2f} | 1.00× | — | — |",
    ]
    for label, took, same, peaks in rows:
        peak = "/".join(f"{p:.0f}" for p in peaks) if peaks else "—"
        lines.append(f"| {label} | {took:.2f} | **{one / took:.2f}×** | {'yes' if same else '**NO**'} | {peak} |")
    lines += [
        "",
        f"Scaling model figures: {per_chunk * 1000:.0f} ms per chunk on one core ({grid.count} chunks), "
        f"{grid.phase_count} phases, the layer's shared block (terrain lookup + settings) {shared_mib:.0f} MiB "
        "mapped once per machine. Peak memory per worker is its resident high-water mark (Python + numpy, "
        "its view of the shared block, one chunk's temporaries), read from /proc after the runs.",
        "",
        f"Machine load (1-minute average) {load_before:.1f} before, {load_after:.1f} after: other engineers' "
        "jobs share these 2 cores, so the speed-up is a lower bound.",
    ]
    return "\n".join(lines)
