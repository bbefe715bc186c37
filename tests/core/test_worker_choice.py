"""*Workers: Auto*: the cost model's choice per layer, and the same bytes whichever way it goes."""

from __future__ import annotations

import hashlib
import math

import numpy as np
import pytest
from same_bytes_job import ARRAYS, world

from strew.core.pool import ProcessPool
from strew.core.scatter import LayerSpec, chunk_work, layer_load, scatter_layer
from strew.core.terrain import TerrainLookup
from strew.core.worker_choice import (
    AutoWorkers,
    LayerLoad,
    choose,
    estimated_points,
    one_process_seconds,
    pool_seconds,
)


def plane(size: float) -> TerrainLookup:
    corners = np.array([[0, 0, 0], [size, 0, 0], [size, size, 0], [0, size, 0]], dtype=float)
    return TerrainLookup(corners, np.array([[0, 1, 2], [0, 2, 3]]))


class FakePool:
    """A pool that only says whether it runs (the choice never touches the workers)."""

    def __init__(self, workers: int, running: bool) -> None:
        self.workers, self.running = workers, running


def test_the_10_km_world_picks_the_pool_even_when_it_must_start() -> None:
    work = chunk_work(plane(10_000.0), LayerSpec(min_radius=6.0, seed=1, chunk_size=512.0))
    load = layer_load(work)
    assert (load.chunks, load.phases) == (400, 4)
    assert load.points == pytest.approx(estimated_points(1e8, 6.0))
    assert choose(load, workers=2, running=False) == 2


@pytest.mark.parametrize(("radius", "blockers"), [(4.0, 0), (2.0, 15_000), (1.2, 50_000)])
@pytest.mark.parametrize("running", [False, True])
def test_the_1m_triangle_scene_layers_stay_in_one_process(radius: float, blockers: int, running: bool) -> None:
    """600 m, a million triangles (a 178 MiB shared block): the pool would cost more than it saves."""
    spec = LayerSpec(min_radius=radius, seed=1)
    grid = chunk_work(plane(600.0), spec).grid
    load = LayerLoad(grid.count, grid.phase_count, estimated_points(600.0 ** 2, radius), 1_002_528, blockers)
    assert choose(load, workers=2, running=running) == 1


def test_chunks_that_wait_on_each_other_never_pick_the_pool() -> None:
    """One chunk per phase: they run one after another on any number of workers."""
    load = LayerLoad(chunks=4, phases=4, points=1e9, triangles=2)
    assert pool_seconds(load, 8, running=True) > one_process_seconds(load)
    assert choose(load, workers=8, running=True) == 1


def test_one_worker_or_one_chunk_is_this_process() -> None:
    big = LayerLoad(chunks=400, phases=4, points=1e7, triangles=2)
    assert choose(big, workers=1, running=True) == 1
    assert choose(LayerLoad(chunks=1, phases=1, points=1e7, triangles=2), workers=4, running=True) == 1
    assert choose(big, workers=4, running=True) == 4


def test_a_running_pool_is_picked_at_least_as_often_and_more_points_never_turn_it_down() -> None:
    for points in np.geomspace(1e3, 1e8, 60):
        for triangles in (2, 10**5, 10**6, 10**7):
            load = LayerLoad(chunks=100, phases=4, points=float(points), triangles=triangles)
            more = LayerLoad(chunks=100, phases=4, points=float(points) * 2, triangles=triangles)
            assert choose(load, 2, running=True) >= choose(load, 2, running=False)
            assert choose(more, 2, running=False) >= choose(load, 2, running=False)


def test_the_start_and_the_shared_block_are_what_a_running_pool_saves() -> None:
    load = LayerLoad(chunks=100, phases=4, points=1e5, triangles=10**6)
    assert pool_seconds(load, 2, running=False) > pool_seconds(load, 2, running=True)
    bigger = LayerLoad(chunks=100, phases=4, points=1e5, triangles=10**7)
    assert pool_seconds(bigger, 2, running=True) > pool_seconds(load, 2, running=True)
    assert math.isinf(estimated_points(1.0, 0.0))


def test_auto_workers_picks_per_layer_and_records_it() -> None:
    small = LayerLoad(chunks=4, phases=4, points=100.0, triangles=2)
    big = LayerLoad(chunks=400, phases=4, points=2e6, triangles=2)
    auto = AutoWorkers(FakePool(2, running=False))  # type: ignore[arg-type]
    assert auto.pick(small) is None
    assert auto.pick(big) is auto.pool
    assert auto.picked == [1, 2]
    assert auto.workers == 2


def _digest(points) -> list[str]:
    return [hashlib.sha256(np.ascontiguousarray(getattr(points, name)).tobytes()).hexdigest() for name in ARRAYS]


def test_auto_gives_the_bytes_of_one_process_whether_it_picks_the_pool_or_not() -> None:
    terrain, spec = world()
    alone = _digest(scatter_layer(terrain, spec))
    with ProcessPool(2) as pool:
        idle = AutoWorkers(pool)
        assert _digest(scatter_layer(terrain, spec, backend=idle)) == alone
        assert idle.picked == [1] and not pool.running  # the start would cost more than the layer
        for future in pool.start():
            future.result()
        running = AutoWorkers(pool)
        assert _digest(scatter_layer(terrain, spec, backend=running)) == alone
        assert running.picked == [2]  # its 20 chunks spread over the running workers
        assert _digest(scatter_layer(terrain, spec, backend=pool)) == alone
