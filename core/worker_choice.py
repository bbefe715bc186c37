"""*Workers: Auto*: one process or the worker pool, per layer, from what is known before it is sampled.

The pool pays for a worker's start (unless it runs already), for a layer's shared block (written once, mapped by
every worker) and for the ways chunks wait on each other; it saves the chunks' CPU time divided among the
workers. A small cost model weighs the two with constants measured on the benchmark machine (BENCHMARKS.md,
*Parallel chunks*) and picks the pool only where it is clearly faster: the choice depends on the layer's numbers
alone, so it is the same on every run, and the points are the same either way (:mod:`strew.core.chunks`).

>>> small = LayerLoad(chunks=4, phases=4, points=15_000, triangles=1_000_000)
>>> choose(small, workers=2, running=True)  # four chunks in four phases run one after another anyway
1
>>> world = LayerLoad(chunks=400, phases=4, points=1_900_000, triangles=320_000)
>>> choose(world, workers=2, running=False)
2
"""

from __future__ import annotations

import math
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

AUTO = 0
"""The *Workers* value (and ``--workers`` argument) that lets :func:`choose` decide per layer."""
WORKER_START = 0.55
"""Seconds until a spawned worker answers (Python, numpy and the sampler's modules imported; *Parallel chunks*)."""
POINT_SECONDS = 13e-6
"""CPU seconds one process spends per instance of a chunk, sampled and placed (the 10 km world's chunks, less
:data:`CHUNK_SECONDS`)."""
CHUNK_SECONDS = 0.010
"""CPU seconds per chunk beside its instances: a sampler's set-up and its pass over the chunk (chunks of a few
instances each on a plane)."""
SHARE_SECONDS_PER_MIB = 0.004
"""Seconds per MiB of a layer's shared block: written once, then mapped and first read by each worker (what a
layer whose chunks run one after another loses on the pool of the 1M-triangle terrain)."""
BYTES_PER_TRIANGLE = 190
"""The shared block's size per terrain triangle (the terrain lookup's tables)."""
BYTES_PER_BLOCKER = 24
"""... and per blocker (an earlier layer's point: position and radius)."""
WORKER_SHARE = 0.78
"""A worker's speed beside one process's on the same chunks, all workers busy (they share the machine's caches
and memory bandwidth, and its cores with other programs): the 10 km world's speed-up on 2 workers, the machine
otherwise nearly idle, divided by 2."""
MARGIN = 1.25
"""The pool is chosen only when the model makes it this many times faster than one process."""
POINTS_PER_RADIUS_SQUARED = 0.7
"""Instances per ``r²`` of area that a maximal sampler places at spacing ``r``."""


@dataclass(frozen=True)
class LayerLoad:
    """What a layer will cost, known before it is sampled.

    ``chunks`` and ``phases`` of its grid, the instances estimated from its area and smallest spacing
    (:func:`estimated_points`), the terrain's ``triangles`` and the earlier layers' points (``blockers``) that go
    into the shared block.
    """

    chunks: int
    phases: int
    points: float
    triangles: int
    blockers: int = 0


def estimated_points(area: float, radius: float) -> float:
    """The instances a maximal sampler places on ``area`` at spacing ``radius`` (an upper bound for a layer whose
    density, masks or blockers leave gaps)."""
    return POINTS_PER_RADIUS_SQUARED * area / (radius * radius) if radius > 0 else math.inf


def one_process_seconds(load: LayerLoad) -> float:
    """The layer's chunks one after another in this process."""
    return load.chunks * CHUNK_SECONDS + load.points * POINT_SECONDS


def pool_seconds(load: LayerLoad, workers: int, running: bool) -> float:
    """The layer's chunks on ``workers`` processes: the start unless ``running``, the shared block, then the chunks
    spread over the workers as far as the phases let them (a chunk waits for its neighbours of earlier phases,
    so at least ``phases`` chunks run one after another)."""
    rounds = max(load.phases, math.ceil(load.chunks / workers), 1)
    spread = max(1.0, load.chunks / rounds)
    mib = (load.triangles * BYTES_PER_TRIANGLE + load.blockers * BYTES_PER_BLOCKER) / 2**20
    start = 0.0 if running else WORKER_START
    return start + mib * SHARE_SECONDS_PER_MIB + one_process_seconds(load) / (spread * WORKER_SHARE)


def choose(load: LayerLoad, workers: int, running: bool) -> int:
    """``workers`` when the pool is clearly faster for this layer (:data:`MARGIN`), else 1."""
    if workers <= 1 or load.chunks <= 1:
        return 1
    faster = pool_seconds(load, workers, running) * MARGIN < one_process_seconds(load)
    return workers if faster else 1


class Pool(Protocol):
    """A :class:`~strew.core.chunks.Backend` that knows whether its workers run."""

    workers: int

    @property
    def running(self) -> bool: ...

    def share(self, work: Any) -> Any: ...

    def submit(self, fn: Callable[..., T], handle: Any, *args: Any) -> Future[T]: ...

    def release(self, handle: Any) -> None: ...


class AutoWorkers:
    """*Workers: Auto* in a job: :meth:`pick` gives each layer the pool or None (this process) by :func:`choose`.

    The pool's workers start only when a layer picks it; later layers and jobs find them running. It is a backend
    itself, the pool's, for work that is not split by layers (a caller that does not pick).
    """

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.workers = pool.workers
        self.picked: list[int] = []
        """The count each layer got, in order (what the job reports)."""

    def pick(self, load: LayerLoad) -> Pool | None:
        count = choose(load, self.workers, self.pool.running)
        self.picked.append(count)
        return self.pool if count > 1 else None

    def share(self, work: Any) -> Any:
        return self.pool.share(work)

    def submit(self, fn: Callable[..., T], handle: Any, *args: Any) -> Future[T]:
        return self.pool.submit(fn, handle, *args)

    def release(self, handle: Any) -> None:
        self.pool.release(handle)
