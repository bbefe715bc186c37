"""What a live update keeps from one run of the Scatter job to the next, keyed by what each part depends on.

A live update re-runs the job after every change; most of the work would be the same as last time. The cache
keeps, per target, the surface read from the scene with its terrain lookup (the terrain compared with its cached
read array by array, a Targets collection by its input's key: each mesh's evaluated geometry and world matrix),
and per layer its density and mask fields and its sampled points (keyed by every input that decides them: the
layer's sampling settings, each of its inputs' keys (:mod:`.layer_inputs`), the surface and the blockers). The
live update's sampler (:mod:`.live_cache`) asks it around each step of the job. So a change of scale or rotation
only places the same points again, a seed change samples that layer again (and the layers below only when its
points changed), and a terrain edit reads again only what moved (``terrain.read_mesh``), updates the terrain
lookup for the changed triangles (``TerrainLookup.edited``) and samples only the chunks of each layer near the
edit (each layer's chunk run is kept, ``core.scatter.rerun_chunks``).

The Scatter button fills it too when Live Update is on (:mod:`.live_fill`), so the first edit after a Scatter
finds everything. Memory stays bounded: one entry per target and per layer (a new key replaces the old entry),
all dropped when a file is loaded or the extension is disabled (:meth:`JobCache.clear`).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Hashable
from typing import Any

import bpy
import numpy as np

from ..core.modes import SurfaceMode
from ..core.poisson import Samples
from ..core.scatter import ChunkRun
from .fingerprints import digest
from .scatter_spec import LayerInput

Key = Hashable


class JobCache:
    """Surfaces, fields and sampled points of the last live run (see the module docstring)."""

    def __init__(self) -> None:
        self.surfaces: dict[str, tuple[Key, Any]] = {}
        self.fields: dict[str, tuple[Key, Any]] = {}
        self.samples: dict[str, tuple[Key, Samples]] = {}
        self.runs: dict[str, tuple[Key, ChunkRun]] = {}
        self.objects: dict[str, tuple[Key, Any]] = {}  # a run's Exclude and Proximity objects (object_changes)
        self.images: dict[str, tuple[Key, Any]] = {}  # a run's stretched images' brightness (image_changes)

    def clear(self) -> None:
        self.surfaces.clear()
        self.fields.clear()
        self.samples.clear()
        self.runs.clear()
        self.objects.clear()
        self.images.clear()

    def keep_only(self, layers: set[str], surfaces: set[str]) -> None:
        """Forget layers (by id) and surfaces (:func:`source_id`) that are gone, so entries never pile up."""
        for table, names in ((self.fields, layers), (self.samples, layers), (self.runs, layers),
                             (self.objects, layers), (self.images, layers), (self.surfaces, surfaces)):
            for name in set(table) - names:
                del table[name]

    def take(self, other: JobCache) -> None:
        """Take every entry of ``other`` in place of this cache's entry of the same name (a Scatter's results)."""
        self.surfaces.update(other.surfaces)
        self.fields.update(other.fields)
        self.samples.update(other.samples)
        self.runs.update(other.runs)
        self.objects.update(other.objects)
        self.images.update(other.images)

    @staticmethod
    def get(table: dict[str, tuple[Key, Any]], name: str, key: Key) -> Any:
        """The entry ``name`` of ``table`` if it was stored under ``key``, else None."""
        entry = table.get(name)
        return entry[1] if entry is not None and key is not None and entry[0] == key else None

    @staticmethod
    def put(table: dict[str, tuple[Key, Any]], name: str, key: Key, value: Any) -> None:
        """Store ``value`` as the only entry for ``name`` (nothing is kept under a None key)."""
        if key is None:
            table.pop(name, None)
        else:
            table[name] = (key, value)


def source_id(block: bpy.types.ID) -> str:
    """The cache's name for a terrain or Targets collection: its session id, so a rename loses nothing and an
    object that takes the old name never finds the entry of another."""
    return f"{type(block).__name__} {block.session_uid}"


_READS = itertools.count()


def read_key(obj: bpy.types.Object) -> Key:
    """Key of a new read of a terrain, never given to another read: a live run compares the terrain with its cached
    read array by array (``terrain.read_mesh``) and keeps the cached read, key and all, when nothing changed."""
    return (obj.name, "read", next(_READS))


def fields_key(layer: LayerInput, source_key: Key, depsgraph: bpy.types.Depsgraph) -> Key:
    """Everything a layer's density and mask fields depend on: the source surface's key and each input's key;
    None when one of them cannot be condensed cheaply (an image: always read again)."""
    if source_key is None:
        return None
    inputs = tuple((type(found).__name__, found.key(depsgraph)) for found in layer.inputs)
    if any(key is None for _, key in inputs):
        return None
    return (source_key, inputs)


_PLACEMENT_ONLY: dict[str, Any] = {"align": 0.0, "random_yaw": True, "scale_range": (1.0, 1.0), "tilt": 0.0,
                                   "scale_by_density": 0.0, "scale_by_slope": 0.0, "prefab_weights": (1.0,)}
"""LayerSpec fields that change where instances are placed only in height, rotation, scale or prefab."""


def samples_key(layer: LayerInput, fields: Key, surface: Key, blockers: Samples | None,
                keep: np.ndarray | None) -> Key:
    """Everything a *From Above* layer's sampled points depend on; None for *Every Face* layers (not cached)."""
    if fields is None or surface is None or layer.surface != SurfaceMode.TOP:
        return None
    # Spaced by object size, the prefab and scale drawn at a place decide whether a point stands there.
    placement_only = _PLACEMENT_ONLY if layer.spec.footprints is None else {}
    spec = dataclasses.replace(layer.spec, density=None, mask=None, **placement_only)
    others = None if blockers is None else digest(blockers.positions, blockers.radii,
                                                   np.zeros(0) if keep is None else keep)
    return (spec, fields, surface, others)


def run_key(layer: LayerInput, fields: Key, surface_name: str) -> Key:
    """What a *From Above* layer's chunk run depends on besides the surface's geometry and the blockers (those
    are compared where they changed, chunk by chunk): the whole spec (the run's chunks hold placed instances),
    each input's run key (without the geometry of the objects it reaches: compared where they changed too,
    :mod:`.object_changes`), and which surface; None when not cached."""
    if not isinstance(fields, tuple) or layer.surface != SurfaceMode.TOP:
        return None
    inputs = tuple((type(found).__name__, found.run_key()) for found in layer.inputs)
    return (dataclasses.replace(layer.spec, density=None, mask=None), inputs, surface_name)

