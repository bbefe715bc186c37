"""The live update's sampler: the Scatter job's own steps (:mod:`.layer_surface`) wrapped in a cache.

Around each step it asks :class:`~.job_cache.JobCache` first: a terrain whose read did not change is taken as it
was (one that changed in a few places keeps what did not, and says where it changed), a Targets surface under the
same key, a layer's fields under the same inputs, a *From Above* layer's points under the same sampling inputs;
a layer whose surface, Exclude and Proximity objects or density and mask images changed in a few places samples
only the chunks there (``core.scatter.rerun_chunks``). What it computes it stores for the next run.
"""

from __future__ import annotations

from collections.abc import Generator

import bpy
import numpy as np

from ..core.chunks import Backend
from ..core.modes import SurfaceMode
from ..core.poisson import Samples
from ..core.scatter import LayerPoints, place, scatter_layer_run
from . import image_changes, job_cache, layer_fields, object_changes
from .job_cache import JobCache, Key, source_id
from .layer_inputs import Along, Targets
from .layer_surface import (
    NO_SAMPLES,
    Sampler,
    Surface,
    Surfaces,
    banded,
    culled,
    curve_steps,
    every_face_steps,
    flat,
    with_fields,
)
from .scatter_spec import LayerInput, ScatterInput
from .terrain_changes import changed_boxes, compare


class CachedSurfaces(Surfaces):
    """:class:`~.layer_surface.Surfaces` taken from the cache when their read or key is the same, and where the
    terrain changed since the cached read (:meth:`changes`)."""

    def __init__(self, job: ScatterInput, depsgraph: bpy.types.Depsgraph, cache: JobCache) -> None:
        self.cache = cache
        self._terrain_changes: np.ndarray | None = None
        super().__init__(job, depsgraph)
        if job.terrain is not None:
            assert self.terrain is not None
            JobCache.put(cache.surfaces, source_id(job.terrain), self.terrain.key, self.terrain)

    def _read_terrain(self, terrain: bpy.types.Object, groups: tuple[str, ...]) -> Surface:
        """The cached read itself when nothing of the terrain changed, else a new read that takes from it what did
        not change (see :func:`.terrain.read_mesh`), following its lookup for the moved triangles."""
        entry = self.cache.surfaces.get(source_id(terrain))
        before: Surface | None = entry[1] if entry is not None and entry[1].kind == "Terrain" else None
        mesh = self._read_mesh(terrain, groups, None if before is None else before.mesh)
        if before is not None and mesh is before.mesh:
            self._terrain_changes = np.zeros((0, 2, 2))
            return before
        # Compared with the cached read array by array rather than hashed: a new read is a new key.
        now = Surface(terrain.name, mesh, "Terrain", job_cache.read_key(terrain))
        if before is not None:
            changes = compare(before.mesh, now.mesh)
            self._terrain_changes = changed_boxes(before.mesh, now.mesh, changes)
            if changes is not None:
                now.follow(before, changes.moved)
        return now

    def _read_targets(self, targets: Targets, key: Key = None) -> Surface:
        name = source_id(targets.collection)
        key = targets.key(self.depsgraph)
        found = JobCache.get(self.cache.surfaces, name, key)
        if found is None:
            found = super()._read_targets(targets, key)
        JobCache.put(self.cache.surfaces, name, key, found)
        return found

    def changes(self, surface: Surface) -> np.ndarray | None:
        """Where ``surface`` changed since the cached read (boxes, see :func:`.terrain_changes.changed_boxes`):
        known for the terrain only, None when unknown."""
        return self._terrain_changes if surface is self.terrain else None


class CachedSampler(Sampler):
    """The Scatter job's sampler with the live update's cache around each step."""

    def __init__(self, cache: JobCache) -> None:
        self.cache = cache

    def surfaces(self, job: ScatterInput, depsgraph: bpy.types.Depsgraph) -> CachedSurfaces:
        return CachedSurfaces(job, depsgraph, self.cache)

    def layer_steps(self, layer: LayerInput, surfaces: CachedSurfaces, blockers: Samples | None,
                    backend: Backend | None, keep: np.ndarray | None) -> Generator[float, None, LayerPoints]:
        """:func:`.layer_surface.layer_steps`, but a layer whose sampling inputs are those of its cached points
        only places them again, and one whose surface or objects changed in a few places samples only there."""
        cache, layer_id = self.cache, layer.layer_id
        source = surfaces.fields_source(layer)
        surface = surfaces.of(layer)
        fields_key = job_cache.fields_key(layer, source.key, surfaces.depsgraph)
        samples_key = job_cache.samples_key(layer, fields_key, surface.key, blockers, keep)
        fields = JobCache.get(cache.fields, layer_id, fields_key)
        if fields is None:
            fields = layer_fields.build(layer, source.lookup, source.mesh, surfaces.depsgraph)
            JobCache.put(cache.fields, layer_id, fields_key, fields)
        spec = with_fields(layer, fields)
        along = layer.input(Along)
        if along is not None and along.samples_curve:
            return (yield from curve_steps(layer, along, surface, spec, blockers, keep, surfaces.depsgraph))
        spec = banded(layer, spec, surfaces.depsgraph)
        if layer.surface == SurfaceMode.ALL:
            return (yield from every_face_steps(layer, surface, spec, blockers, keep))
        samples = JobCache.get(cache.samples, layer_id, samples_key)
        if samples is None:
            region = culled(layer, spec, surface, source)
            if region is None:  # the camera sees nothing of this surface
                samples = NO_SAMPLES
            else:
                spec = region
        if samples is not None:
            return place(surface.lookup, spec, samples)
        run_key = job_cache.run_key(layer, fields_key, surface.name)
        pixels = None
        if fields_key is None and source.key is not None:
            # Images are read again every run; compared pixel by pixel, they too change the layer where they
            # changed only (the same images stretched over the same bounds).
            pixels = image_changes.read(layer, surfaces.depsgraph)
            bounds = (tuple(source.lookup.bounds.min.tolist()), tuple(source.lookup.bounds.max.tolist()))
            plain = None if pixels is None else job_cache.run_key(layer, (), surface.name)
            run_key = None if plain is None else (plain, bounds)
        previous = JobCache.get(cache.runs, layer_id, run_key)
        objects = None if run_key is None else object_changes.object_bounds(layer, surfaces.depsgraph)
        changed = surfaces.changes(surface)
        if previous is not None and changed is not None:
            before = JobCache.get(cache.objects, layer_id, run_key)
            # The objects of the run before, where they stood: what moved changes the layer near it only.
            changed = None if before is None else np.concatenate(
                [np.asarray(changed, dtype=np.float64).reshape(-1, 2, 2),
                 object_changes.changed_boxes(before, objects)])
        if changed is not None and pixels is not None:
            painted = JobCache.get(cache.images, layer_id, run_key)
            boxes = None if painted is None else image_changes.changed_boxes(
                painted, pixels, source.lookup.bounds.min, source.lookup.bounds.max)
            changed = None if boxes is None else np.concatenate([changed, boxes])
        points, run = yield from scatter_layer_run(surface.lookup, spec, flat(blockers), backend, keep=keep,
                                                   previous=previous, changed=changed)
        kept = run_key if run is not None else None
        JobCache.put(cache.runs, layer_id, kept, run)
        JobCache.put(cache.objects, layer_id, kept, objects)
        JobCache.put(cache.images, layer_id, kept if pixels is not None else None, pixels)
        JobCache.put(cache.samples, layer_id, samples_key, Samples(points.positions[:, :2].copy(),
                                                                   points.radii.copy()))
        return points

    def finished(self, scene: bpy.types.Scene, job: ScatterInput) -> None:
        """Forget layers and surfaces that are gone, so entries never pile up."""
        every = scene.strew.layers
        self.cache.keep_only({layer.layer_id for layer in every},
                             {source_id(obj) for obj in (job.terrain,) if obj is not None}
                             | {source_id(layer.targets) for layer in every if layer.targets is not None})
