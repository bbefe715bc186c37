"""A layer sampled again where its inputs changed equals a full run of the new inputs byte for byte, and samples
only the chunks near the change."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_locality import QUICK, SIZE, spec, terrain

from strew.core.poisson import Samples
from strew.core.scatter import ChunkRun, LayerPoints, chunk_work, merged, rerun_chunks, run_chunks
from strew.core.scatter.points import POINT_ARRAYS
from strew.core.steps import run_to_end

BUMP = 6.0
coordinate = st.floats(-SIZE / 2 + 10, SIZE / 2 - 10)


def assert_same(a: LayerPoints, b: LayerPoints) -> None:
    for name in POINT_ARRAYS:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


def full(ground: object, seed: int, blockers: Samples | None = None) -> ChunkRun:
    return run_to_end(run_chunks(chunk_work(ground, spec(seed), blockers)))  # type: ignore[arg-type]


@settings(max_examples=4, deadline=None, derandomize=True, phases=QUICK)
@given(x=coordinate, y=coordinate, seed=st.integers(0, 2**31 - 1))
def test_a_bump_sampled_again_equals_a_full_run(x: float, y: float, seed: int) -> None:
    before = full(terrain(), seed)
    bumped = terrain(bump=(x, y, BUMP))
    box = ((x - BUMP, y - BUMP), (x + BUMP, y + BUMP))
    again, sampled = run_to_end(rerun_chunks(chunk_work(bumped, spec(seed)), before, [box]))
    assert_same(merged(again), merged(full(bumped, seed)))
    assert 1 <= sampled <= 9 < before.grid.count  # the chunks under the bump, and a few neighbours at most


@settings(max_examples=3, deadline=None, derandomize=True, phases=QUICK)
@given(x=coordinate, y=coordinate, seed=st.integers(0, 2**31 - 1))
def test_a_lower_layer_follows_its_blockers(x: float, y: float, seed: int) -> None:
    """The layer above changed near the bump: the layer below samples the chunks whose blockers moved."""
    bumped = terrain(bump=(x, y, BUMP))
    above_before = merged(full(terrain(), seed)).as_blockers()
    above_after = merged(full(bumped, seed)).as_blockers()
    below = full(terrain(), seed + 1, above_before)
    box = ((x - BUMP, y - BUMP), (x + BUMP, y + BUMP))
    work = chunk_work(bumped, spec(seed + 1), above_after)
    again, sampled = run_to_end(rerun_chunks(work, below, [box]))
    assert_same(merged(again), merged(full(bumped, seed + 1, above_after)))
    assert sampled < below.grid.count


def test_nothing_changed_samples_nothing() -> None:
    ground = terrain()
    before = full(ground, 3)
    again, sampled = run_to_end(rerun_chunks(chunk_work(ground, spec(3)), before, []))
    assert sampled == 0
    assert_same(merged(again), merged(before))


def test_another_grid_samples_every_chunk() -> None:
    before = full(terrain(), 3)
    grown = terrain(extra=60.0)  # new chunks at +x
    again, sampled = run_to_end(rerun_chunks(chunk_work(grown, spec(3)), before, []))
    assert sampled == again.grid.count > before.grid.count
    assert_same(merged(again), merged(full(grown, 3)))


def test_a_box_touches_the_chunks_it_meets_and_no_others() -> None:
    from strew.core.scatter.rerun import _touched

    grid = chunk_work(terrain(), spec(3)).grid
    nx, _ = grid.shape
    inside = ((grid.xs[1] + 1.0, grid.ys[1] + 1.0), (grid.xs[2] - 1.0, grid.ys[2] - 1.0))
    assert _touched(grid, [inside]) == {1 * nx + 1}
    on_edge = ((grid.xs[1] + 1.0, grid.ys[1] + 1.0), (grid.xs[2], grid.ys[2] - 1.0))
    assert _touched(grid, [on_edge]) == {1 * nx + 1, 1 * nx + 2}
    outside = ((grid.xs[-1] + 5.0, 0.0), (grid.xs[-1] + 6.0, 1.0))
    assert _touched(grid, [outside]) == set()
