"""Chunks in phases: the colouring keeps a phase's chunks apart, and every schedule gives the same points."""

from __future__ import annotations

import math
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_scatter_layer import conflict_ratio, hill_terrain

from strew.core.chunks import ChunkGrid
from strew.core.fields import OutsidePolygons, PerlinNoise
from strew.core.poisson import Samples
from strew.core.pool import ProcessPool, check_workers, close_kept_pool, kept_pool
from strew.core.scatter import LayerSpec, scatter_layer, scatter_layer_steps
from strew.core.shared import SharedHandle

ARRAYS = ("positions", "radii", "normals", "prefab_index", "rotations", "scales")


def rect_gap(grid: ChunkGrid, a: int, b: int) -> float:
    """Euclidean distance between two chunks' rectangles."""
    (alo, ahi), (blo, bhi) = grid.rect(a), grid.rect(b)
    gap = np.maximum(0.0, np.maximum(blo - ahi, alo - bhi))
    return float(np.hypot(*gap))


@settings(deadline=None, max_examples=60)
@given(width=st.floats(1.0, 200.0), depth=st.floats(1.0, 200.0), chunk=st.floats(15.0, 120.0),
       reach=st.floats(0.1, 100.0))
def test_phases_keep_their_chunks_apart_and_needs_cover_every_earlier_neighbour(
        width: float, depth: float, chunk: float, reach: float) -> None:
    grid = ChunkGrid.over(np.array([[-3.0, 2.0], [width - 3.0, depth + 2.0]]), chunk, reach)
    phases = grid.phases()
    assert sorted(c for phase in phases for c in phase) == list(range(grid.count))
    for phase in phases:  # chunks of one phase never see each other
        for i, a in enumerate(phase):
            for b in phase[i + 1:]:
                assert rect_gap(grid, a, b) >= reach * (1 - 1e-12)
    for chunk_id in range(grid.count):
        needs = grid.needs(chunk_id)
        within = {j for j in range(grid.count) if j != chunk_id and rect_gap(grid, chunk_id, j) < reach}
        earlier = {j for j in within if grid.phase(j) < grid.phase(chunk_id)}
        assert earlier <= set(needs)
        assert all(grid.phase(j) < grid.phase(chunk_id) for j in needs)
        assert needs == sorted(needs)


def nine_chunk_world() -> tuple:
    """A 90 × 70 m hill cut into 6 × 5 chunks, variable radius from noise, a footprint mask and blockers."""
    terrain = hill_terrain()
    house = OutsidePolygons([np.array([[20.0, 30.0], [34.0, 30.0], [34.0, 41.0], [20.0, 41.0]])])
    spec = LayerSpec(min_radius=1.2, max_radius=2.6, seed=11, chunk_size=16.0, density=PerlinNoise(seed=3, scale=25.0),
                     mask=house, max_slope=math.radians(30), prefab_weights=(1.0, 2.0, 0.5), align=0.5,
                     scale_range=(0.8, 1.3))
    rng = np.random.default_rng(5)
    blockers = Samples(positions=rng.uniform([-13.0, 7.0], [77.0, 77.0], (40, 2)), radii=np.full(40, 3.0))
    return terrain, spec, blockers


def test_workers_one_two_three_give_identical_points() -> None:
    terrain, spec, blockers = nine_chunk_world()
    alone = scatter_layer(terrain, spec, blockers)
    assert ChunkGrid.over(terrain.bounds.as_array(), spec.chunk_size, 3.0).count >= 9
    assert len(alone) > 800
    for workers in (2, 3):
        with ProcessPool(workers) as pool:
            spread = scatter_layer(terrain, spec, blockers, backend=pool)
        for name in ARRAYS:
            assert getattr(spread, name).tobytes() == getattr(alone, name).tobytes(), (workers, name)
    # the seams hold: no two points conflict, and every point keeps its radius from the blockers
    assert conflict_ratio(alone.positions[:, :2], alone.radii) >= 1 - 1e-12
    gaps = np.linalg.norm(alone.positions[:, None, :2] - blockers.positions[None], axis=2).min(axis=1)
    assert (gaps >= alone.radii * (1 - 1e-12)).all()


def test_closing_a_running_layer_unlinks_the_shared_block() -> None:
    terrain, spec, blockers = nine_chunk_world()
    with ProcessPool(2) as pool:
        steps = scatter_layer_steps(terrain, spec, blockers, backend=pool)
        next(steps)
        names = list(pool._shared)
        assert names and all(Path("/dev/shm", name.lstrip("/")).exists() for name in names)
        steps.close()  # as ESC does in Blender
        assert not pool._shared
        assert not any(Path("/dev/shm", name.lstrip("/")).exists() for name in names)


def refuse_the_east(xy: np.ndarray) -> np.ndarray:
    """A mask that fails in the chunks east of x = 40 (a module-level function: workers can import it)."""
    if (xy[:, 0] > 40.0).any():
        raise ValueError("mask refused the east")
    return np.ones(len(xy), dtype=bool)


class RecordingPool(ProcessPool):
    """A pool that remembers the names of the blocks it shared."""

    names: list[str]

    def share(self, work: object) -> SharedHandle:
        handle = super().share(work)
        self.names = [*getattr(self, "names", []), handle.name]
        return handle



class Recorder:
    """A backend that runs on ``pool`` and remembers the names of the blocks it shared."""

    def __init__(self, pool: ProcessPool) -> None:
        self.pool, self.workers, self.names = pool, pool.workers, list[str]()

    def share(self, work: object) -> SharedHandle:
        handle = self.pool.share(work)
        self.names.append(handle.name)
        return handle

    def submit(self, fn, handle, *args):
        return self.pool.submit(fn, handle, *args)

    def release(self, handle: SharedHandle) -> None:
        self.pool.release(handle)


def test_an_error_in_a_worker_reaches_the_caller_and_the_block_is_unlinked() -> None:
    terrain, _, _ = nine_chunk_world()
    spec = LayerSpec(min_radius=2.0, chunk_size=16.0, mask=refuse_the_east)
    with RecordingPool(2) as pool:
        with pytest.raises(ValueError, match="mask refused the east"):
            scatter_layer(terrain, spec, backend=pool)
        assert pool.names and not pool._shared
        assert not any(Path("/dev/shm", name.lstrip("/")).exists() for name in pool.names)


def test_a_layer_that_cannot_be_pickled_is_a_one_line_error() -> None:
    terrain, _, _ = nine_chunk_world()
    local = LayerSpec(min_radius=2.0, chunk_size=16.0, mask=lambda xy: xy[:, 0] > 0)
    with ProcessPool(2) as pool, pytest.raises(ValueError, match="workers=1") as error:
        scatter_layer(terrain, local, backend=pool)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("workers", [0, -1, 2.5, True, "2"])
def test_bad_worker_counts_are_refused(workers: object) -> None:
    with pytest.raises(ValueError, match="workers must be a whole number"):
        check_workers(workers)


def _alive(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    return status.exists() and "State:\tZ" not in status.read_text()


def test_the_kept_pool_serves_several_calls_and_stops_without_leaks() -> None:
    terrain, spec, blockers = nine_chunk_world()
    pool = kept_pool(2)
    try:
        assert kept_pool(2) is pool
        booting = pool.start()
        assert len(booting) == 2 and pool.start() == []  # a running pool is not started twice
        pids = pool.pids
        assert len(pids) == 2 and {future.result(timeout=120) for future in booting} <= set(pids)
        calls = []
        for _ in range(2):  # the second call finds the same workers
            recorder = Recorder(pool)
            calls.append(scatter_layer(terrain, spec, blockers, backend=recorder))
            assert pool.pids == pids and not pool._shared
            assert not any(Path("/dev/shm", name.lstrip("/")).exists() for name in recorder.names)
        assert all(getattr(calls[0], n).tobytes() == getattr(calls[1], n).tobytes() for n in ARRAYS)
        bigger = kept_pool(3)  # another count: the old workers stop
        assert bigger is not pool and not any(_alive(pid) for pid in pids)
        [f.result(timeout=120) for f in bigger.start()]
        bigger_pids = bigger.pids
    finally:
        close_kept_pool()
    assert not any(_alive(pid) for pid in bigger_pids)


def test_workers_end_with_the_process_that_started_them() -> None:
    """Even when it ends without its exit hooks (a crash, ``os._exit``)."""
    script = ("import os\nfrom strew.core.pool import kept_pool\npool = kept_pool(2)\n"
              "[f.result(timeout=120) for f in pool.start()]\nprint(*pool.pids, flush=True)\nos._exit(0)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    pids = [int(p) for p in done.stdout.split()]
    assert len(pids) == 2, done.stderr[-2000:]
    deadline = time.monotonic() + 20
    while any(map(_alive, pids)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(map(_alive, pids))


def test_an_interrupt_that_ends_the_process_at_once_leaves_no_semaphore_to_the_tracker() -> None:
    """Ctrl+C may land while the executor's manager thread still holds the pool's queues (here: a reference kept
    to them); the process then ends with ``os._exit`` and nothing may be left for the resource tracker to clean up
    and warn about."""
    script = ("import os, sys\nfrom strew.core.pool import close_kept_pool, kept_pool\npool = kept_pool(2)\n"
              "[f.result(timeout=120) for f in pool.start()]\n"
              "held = pool._executor._call_queue, pool._executor._result_queue\n"
              "close_kept_pool(at_once=True)\nprint('closed', flush=True)\nos._exit(130)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 130 and done.stdout.split() == ["closed"], done.stderr[-2000:]
    assert done.stderr == ""
