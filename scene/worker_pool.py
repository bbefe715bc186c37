"""The Scatter job's worker processes in Blender: kept between runs, started early, stopped when the session changes.

With an explicit *Workers* count, the first Scatter run of a large terrain starts the workers before it reads the
scene, so their start overlaps the terrain lookup build; with *Auto* they start when the first layer that pays for
them comes. Later runs (and live updates) find them running. They stop when another file is
loaded, when *Workers* changes, when the extension is disabled and when Blender quits.
"""

from __future__ import annotations

import math

import bpy
import numpy as np
from bpy.app.handlers import persistent

from ..core import fpmath
from ..core.pool import ProcessPool, close_kept_pool, default_workers, kept_pool, usable_workers
from ..core.scatter.spec import AUTO_CHUNK_RADII
from ..core.worker_choice import AUTO, AutoWorkers


def for_scene(scene: bpy.types.Scene) -> ProcessPool | AutoWorkers | None:
    """The kept pool of the scene's *Workers* (None for 1, or when no interpreter can start workers); for *Auto*,
    the pool of every core behind :class:`~strew.core.worker_choice.AutoWorkers`, which each layer uses only
    where it pays (its workers start when a layer picks it).

    An explicit count's pool is started at once when the terrain or a layer's targets span more than one chunk;
    otherwise the workers start only if a chunk task comes.
    """
    settings = scene.strew
    workers = _count(settings.workers)
    if workers <= 1:
        return None
    try:
        pool = kept_pool(workers)
    except ValueError:  # no interpreter to spawn workers from: the same points, in this process
        return None
    if settings.workers == AUTO:
        return AutoWorkers(pool)
    if _spans_chunks(scene):
        pool.start()
    return pool


def for_rooms(scene: bpy.types.Scene) -> ProcessPool | None:
    """The kept pool that Assemble Room solves in from the window (at least one worker, whatever *Workers*
    says; *Auto*: the pool Scatter's layers would use, so neither restarts it; None when no interpreter can
    start one). Its workers start now, while the kit is read."""
    try:
        pool = kept_pool(max(1, _count(scene.strew.workers)))
    except ValueError:
        return None
    pool.start()
    return pool


def _count(workers: int) -> int:
    """The processes a *Workers* value stands for: every usable core for *Auto*, else the count capped at them."""
    return default_workers() if workers == AUTO else usable_workers(max(1, workers))


def _spans_chunks(scene: bpy.types.Scene) -> bool:
    """Whether the terrain or an enabled layer's targets cover more than one chunk (from their bounding boxes)."""
    settings = scene.strew
    objects = [settings.terrain] if settings.terrain is not None else []
    for layer in settings.layers:
        if layer.enabled and layer.targets is not None:
            objects += [o for o in layer.targets.all_objects if o.type == 'MESH']
    side = float(settings.chunk_size)
    if not side >= 0.0:  # NaN from a script: scatter_spec.read refuses it with its message
        return False
    if side == 0.0:  # automatic: the smallest a layer can get (chunk_side's lower bound)
        reaches = [max(layer.max_radius, layer.keep_away) for layer in settings.layers if layer.enabled]
        side = AUTO_CHUNK_RADII * min(reaches, default=math.inf)
        if not side > 0.0:  # a radius out of range: scatter_spec.read refuses it with its message
            return False
    for obj in objects:
        matrix = np.array(obj.matrix_world)
        with np.errstate(invalid="ignore", over="ignore"):
            corners = fpmath.transform(np.array([tuple(c) for c in obj.bound_box]), matrix)
            width, depth = corners[:, :2].max(axis=0) - corners[:, :2].min(axis=0)
        if not (math.isfinite(width) and math.isfinite(depth)):
            continue  # a vertex at NaN or infinity: reading the mesh names it
        if math.ceil(width / side) * math.ceil(depth / side) > 1:
            return True
    return False


@persistent
def _on_load_pre(*_args: object) -> None:
    close_kept_pool()


def register() -> None:
    if _on_load_pre not in bpy.app.handlers.load_pre:
        bpy.app.handlers.load_pre.append(_on_load_pre)


def unregister() -> None:
    if _on_load_pre in bpy.app.handlers.load_pre:
        bpy.app.handlers.load_pre.remove(_on_load_pre)
    close_kept_pool()
