"""One scatter layer on a terrain: masks inside the sampler, chunks for large worlds, a repeated tile option.

This is the whole pipeline of the Scatter operator minus Blender: the operator converts the scene into a
:class:`~strew.core.terrain.TerrainLookup`, callables and numbers, calls :func:`scatter_layer` per layer
(earlier layers' points passed as ``blockers``), and writes the returned :class:`LayerPoints` back.

Examples
--------
>>> import numpy as np
>>> from strew.core.terrain import TerrainLookup
>>> vertices = np.array([[0, 0, 0], [50, 0, 0], [50, 40, 5], [0, 40, 5]], dtype=float)
>>> terrain = TerrainLookup(vertices, np.array([[0, 1, 2], [0, 2, 3]]))
>>> points = scatter_layer(terrain, LayerSpec(min_radius=2.0, max_radius=2.0, seed=1))
>>> bool(len(points) > 100)
True
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence

import numpy as np

from ..chunks import Backend
from ..poisson import Samples
from ..steps import run_to_end
from ..terrain import TerrainLookup
from .chunked import MAX_CHUNKS, ChunkWork, chunk_work, layer_load, place_chunk, sample_chunk, sampled_area
from .functions import allowed_function, radius_function
from .points import PLACEMENT_BLOCK, LayerPoints, place
from .rerun import Box, ChunkRun, merged, rerun_chunks, run_chunks
from .spec import ArrayFunction, LayerSpec, blocker_radii
from .tiled import sample_tiled

__all__ = [
    "MAX_CHUNKS", "PLACEMENT_BLOCK", "ArrayFunction", "Box", "Cancel", "Cancelled", "ChunkRun", "ChunkWork",
    "LayerPoints", "LayerSpec", "blocker_radii", "chunk_work", "layer_functions", "layer_load", "merged", "place",
    "place_chunk", "rerun_chunks", "run_chunks", "sample_chunk", "sampled_area", "scatter_layer", "scatter_layer_run",
    "scatter_layer_steps",
]

Cancel = Callable[[float], bool]


class Cancelled(Exception):
    """Raised when the ``cancel`` callback asked to stop; nothing was written anywhere."""


def scatter_layer_steps(
    terrain: TerrainLookup, spec: LayerSpec, blockers: Samples | None = None, backend: Backend | None = None,
    keep: np.ndarray | None = None,
) -> Generator[float, None, LayerPoints]:
    """:func:`scatter_layer` as a generator: yields the fraction done after each chunk, returns the points.

    An interactive caller (Blender's modal operator) returns to its event loop between steps, so ESC can
    stop a long layer; closing the generator abandons the work with nothing written anywhere.
    """
    return (yield from scatter_layer_run(terrain, spec, blockers, backend, keep))[0]


def scatter_layer_run(
    terrain: TerrainLookup, spec: LayerSpec, blockers: Samples | None = None, backend: Backend | None = None,
    keep: np.ndarray | None = None, previous: ChunkRun | None = None, changed: Sequence[Box] | np.ndarray | None = None,
) -> Generator[float, None, tuple[LayerPoints, ChunkRun | None]]:
    """:func:`scatter_layer_steps` that also returns the chunks' run (None for a repeated tile or an empty area).

    With the ``previous`` run of this layer and where its inputs changed since (``changed``, boxes in world xy;
    see :func:`rerun_chunks`), only the chunks near the change are sampled, with the same result.
    """
    area = sampled_area(terrain, spec)
    if (area[1] <= area[0]).any():  # the region misses the terrain: nothing to place
        return place(terrain, spec, Samples(np.zeros((0, 2)), np.zeros(0))), None
    work = chunk_work(terrain, spec, blockers, keep)
    if spec.tile_size is not None:
        return place(terrain, spec, sample_tiled(terrain, spec, work.blockers)), None
    if previous is not None and changed is not None:
        run, _ = yield from rerun_chunks(work, previous, changed)
    else:
        run = yield from run_chunks(work, backend)
    return merged(run), run


def scatter_layer(
    terrain: TerrainLookup,
    spec: LayerSpec,
    blockers: Samples | None = None,
    cancel: Cancel | None = None,
    backend: Backend | None = None,
    keep: np.ndarray | None = None,
) -> LayerPoints:
    """Scatter one layer over the terrain's XY bounds and place each point on the top-most surface.

    ``blockers`` are earlier layers' points (their radii are not used): the layer keeps
    ``max(min_radius, keep_away)`` from each, or ``keep[i]`` from blocker ``i`` when that is larger (a
    keep-away rule for one pair of layers). ``cancel(fraction_done) -> bool`` is polled between chunks;
    returning True raises :class:`Cancelled`. ``backend`` runs the chunks elsewhere (a
    :class:`~strew.core.pool.ProcessPool`, a Dask cluster); the points are the same as without it.
    """
    def check(fraction: float) -> None:
        if cancel is not None and cancel(fraction):
            raise Cancelled  # run_to_end closes the steps: nothing is written anywhere

    return run_to_end(scatter_layer_steps(terrain, spec, blockers, backend, keep), check)


def layer_functions(terrain: TerrainLookup, spec: LayerSpec) -> tuple[ArrayFunction | None, ArrayFunction]:
    """The layer's ``radius_at(xy)`` (None for a constant radius) and ``is_allowed(xy)`` in world xy.

    These are the functions the sampler uses, for callers that add points by hand (the paint brush).
    """
    origin = np.zeros(2)
    return radius_function(spec, origin, terrain), allowed_function(terrain, spec, origin)

