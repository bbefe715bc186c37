"""Parallel chunks: the 10 km world (~2M instances) on 1 and 2 worker processes, identical output, memory."""

from __future__ import annotations

import math
import os
import time
from pathlib import Path

TITLE = "Parallel chunks: 10 km world, 1 vs 2 worker processes, the same points"

ARRAYS = ("positions", "radii", "normals", "prefab_index", "rotations", "scales")


def _peak_rss_mib(pid: int) -> float:
    """High-water resident memory of a process (VmHWM), shared pages it touched included."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of live processes, from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


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
    grid = ChunkGrid.over(terrain.bounds.as_array(), spec.chunk_size, spec.max_radius)
    with SharedObject(ChunkWork(terrain, spec, None, grid)) as shared:
        shared_mib = shared.nbytes / 2**20

    started, cpu = time.perf_counter(), time.process_time()
    alone = scatter_layer(terrain, spec)
    one, one_cpu = time.perf_counter() - started, time.process_time() - cpu

    rows: list[tuple[str, float, float, bool, list[float]]] = []
    for workers in (2,):
        with ProcessPool(workers) as pool:
            runs = []
            for label in (f"{workers} workers, pool started by the call",
                          f"{workers} workers, pool already running (next layer)"):
                pids = [p.pid for p in multiprocessing.active_children() if p.pid]
                before = _cpu_seconds(pids)
                started, cpu = time.perf_counter(), time.process_time()
                points = scatter_layer(terrain, spec, backend=pool)
                took, main_cpu = time.perf_counter() - started, time.process_time() - cpu
                pids = [p.pid for p in multiprocessing.active_children() if p.pid]
                runs.append((label, points, took, main_cpu + _cpu_seconds(pids) - before))
            peaks = [_peak_rss_mib(p.pid) for p in multiprocessing.active_children() if p.pid]
        for label, points, took, used in runs:
            same = all(getattr(points, n).tobytes() == getattr(alone, n).tobytes() for n in ARRAYS)
            rows.append((label, took, used, same, peaks))

    load_after = os.getloadavg()[0]
    per_chunk = one / grid.count
    lines = [
        f"{LARGE_WORLD_SIZE / 1000:.0f} km × {LARGE_WORLD_SIZE / 1000:.0f} km terrain "
        f"({terrain.triangle_count:,} triangles), one layer r = 6 m, slope ≤ 40°, chunks of 512 m: "
        f"{grid.shape[0]} × {grid.shape[1]} = {grid.count} chunks in {grid.phase_count} phases; "
        f"{len(alone):,} instances. Core only (what the Scatter operator runs per layer).",
        "",
        "| run | seconds | speed-up | CPU seconds, all processes | output identical to 1 worker | "
        "peak memory per worker (MiB) |",
        "|---|---:|---:|---:|:---:|---:|",
        f"| 1 worker (this process) | {one:.2f} | 1.00× | {one_cpu:.2f} | — | — |",
    ]
    for label, took, used, same, peaks in rows:
        peak = "/".join(f"{p:.0f}" for p in peaks) if peaks else "—"
        lines.append(f"| {label} | {took:.2f} | **{one / took:.2f}×** | {used:.2f} | {'yes' if same else '**NO**'} "
                     f"| {peak} |")
    lines += [
        "",
        f"Scaling model figures: {per_chunk * 1000:.0f} ms per chunk on one core ({grid.count} chunks), "
        f"{grid.phase_count} phases, the layer's shared block (terrain lookup + settings) {shared_mib:.0f} MiB "
        "mapped once per machine. Peak memory per worker is its resident high-water mark (Python + numpy, "
        "its view of the shared block, one chunk's temporaries), read from /proc after the runs.",
        "",
        f"Machine load (1-minute average) {load_before:.1f} before, {load_after:.1f} after. On a busy machine "
        "the wall-clock speed-up is not the one of idle cores (two processes get a larger share of busy cores "
        "than one); the CPU seconds are steadier: on idle cores the time with W workers is about the CPU "
        "seconds of the W-worker run divided by W.",
    ]
    return "\n".join(lines)
