"""The surface each layer scatters on, read once per job, and the core call for it.

A layer scatters on the terrain or on the meshes of its Targets collection, *From Above* (the top-most
surface, ``core.scatter``) or on *Every Face* (``core.surface``). Density and masks are read from above, from
the terrain when there is one (its vertex groups), else from the layer's targets.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Generator

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ..core.camera import footprint
from ..core.chunks import Backend
from ..core.modes import SurfaceMode
from ..core.poisson import Samples
from ..core.scatter import LayerPoints, place, scatter_layer_run
from ..core.surface.layer import surface_layer_steps
from ..core.terrain import TerrainLookup
from . import job_cache, layer_fields, object_changes
from .job_cache import JobCache, Key
from .layer_inputs import Camera, Targets
from .scatter_spec import LayerInput, ScatterError, ScatterInput
from .targets import read_targets
from .terrain import MeshArrays, read_mesh
from .terrain_changes import changed_boxes, compare


class Surface:
    """A mesh in world space and, built when first asked for, its from-above lookup."""

    def __init__(self, name: str, mesh: MeshArrays, kind: str, key: Key = None) -> None:
        self.name, self.mesh, self.kind, self.key = name, mesh, kind, key
        self._lookup: TerrainLookup | None = None
        self._edit: tuple[TerrainLookup, np.ndarray] | None = None

    def follow(self, before: Surface, moved: np.ndarray) -> None:
        """This surface is ``before`` with the triangles ``moved`` changed: its lookup, when asked for, is worked
        out from ``before``'s (if that one was built) for those triangles only."""
        if before._lookup is not None and self._lookup is None:
            self._edit = (before._lookup, moved)

    @property
    def lookup(self) -> TerrainLookup:
        if self._lookup is None:
            edit, self._edit = self._edit, None
            try:
                self._lookup = (TerrainLookup(self.mesh.vertices, self.mesh.triangles) if edit is None
                                else edit[0].edited(self.mesh.vertices, self.mesh.triangles, edit[1]))
            except ValueError as error:
                raise ScatterError(rpt_('{kind} "{name}": {error}').format(
                    kind=rpt_(self.kind), name=self.name, error=error)) from error
        return self._lookup


class Surfaces:
    """The terrain (read with every vertex group the layers use) and each Targets collection, read once (or
    taken from ``cache`` when their fingerprint is the same as when it was stored)."""

    def __init__(self, job: ScatterInput, depsgraph: bpy.types.Depsgraph, cache: JobCache | None = None) -> None:
        self.depsgraph, self.cache = depsgraph, cache
        self.terrain: Surface | None = None
        self._targets: dict[str, Surface] = {}
        self._terrain_changes: np.ndarray | None = None
        if job.terrain is not None:
            groups = tuple({name for layer in job.layers for name in layer.vertex_groups})
            entry = None if cache is None else cache.surfaces.get(job_cache.source_id(job.terrain))
            before: Surface | None = entry[1] if entry is not None and entry[1].kind == "Terrain" else None
            self.terrain = self._read_terrain(job.terrain, groups, before)
            if before is not None:
                if before is self.terrain:
                    self._terrain_changes = np.zeros((0, 2, 2))
                else:
                    changes = compare(before.mesh, self.terrain.mesh)
                    self._terrain_changes = changed_boxes(before.mesh, self.terrain.mesh, changes)
                    if changes is not None:
                        self.terrain.follow(before, changes.moved)
            if cache is not None:
                JobCache.put(cache.surfaces, job_cache.source_id(job.terrain), self.terrain.key, self.terrain)

    def _read_terrain(self, terrain: bpy.types.Object, groups: tuple[str, ...], before: Surface | None) -> Surface:
        """The terrain read with the weights of ``groups``: ``before`` (the cached read) itself when nothing of it
        changed, else a new read that takes from ``before`` what did not change (see :func:`.terrain.read_mesh`)."""
        try:
            mesh = read_mesh(terrain, self.depsgraph, groups, None if before is None else before.mesh)
        except ValueError as error:
            raise ScatterError(str(error)) from error
        if before is not None and mesh is before.mesh:
            return before
        # Compared with the cached read array by array rather than hashed: a new read is a new key.
        return Surface(terrain.name, mesh, "Terrain", None if self.cache is None else job_cache.read_key(terrain))

    def changes(self, surface: Surface) -> np.ndarray | None:
        """Where ``surface`` changed since the cached read (boxes, see :func:`.terrain_changes.changed_boxes`):
        known for the terrain only, None when unknown."""
        return self._terrain_changes if surface is self.terrain else None

    def of(self, layer: LayerInput) -> Surface:
        """Where ``layer`` places its instances."""
        targets = layer.input(Targets)
        if targets is None:
            assert self.terrain is not None  # scatter_spec.read refuses a layer without targets and terrain
            return self.terrain
        name = job_cache.source_id(targets.collection)
        if name not in self._targets:
            key = None if self.cache is None else targets.key(self.depsgraph)
            cached = None if self.cache is None else JobCache.get(self.cache.surfaces, name, key)
            if cached is None:
                try:
                    mesh = read_targets(targets.collection, self.depsgraph)
                except ValueError as error:
                    raise ScatterError(str(error)) from error
                cached = Surface(targets.collection.name, mesh, "Targets", key)
            if self.cache is not None:
                JobCache.put(self.cache.surfaces, name, key, cached)
            self._targets[name] = cached
        return self._targets[name]

    def fields_source(self, layer: LayerInput) -> Surface:
        """Where ``layer`` reads its density and masks (from above): the terrain, else its targets."""
        if self.terrain is not None:
            return self.terrain
        if layer.vertex_groups:
            raise ScatterError(rpt_('Layer "{name}": vertex groups are read from the terrain; pick a terrain or '
                                    "another density and mask").format(name=layer.name))
        return self.of(layer)


def view_region(camera: Camera, surface: Surface, source: Surface
                ) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The XY rectangle a culled layer samples: the camera's view (widened by the margin, cut at the clip
    distance) through the height range where the view mask looks (the fields source's surface; where it has no
    surface, the mask looks at the camera's height), or None when nothing of the surface is in view."""
    z = source.lookup.vertices[:, 2]
    low, high = float(np.min(z)), float(np.max(z))
    if source is not surface:
        eye = float(camera.view.location[2])
        low, high = min(low, eye), max(high, eye)
    return footprint(camera.view, surface.lookup.bounds.as_array(), (low, high), camera.margin or 0.0,
                     camera.max_distance)


def layer_steps(
    layer: LayerInput, surfaces: Surfaces, blockers: Samples | None, backend: Backend | None = None,
    keep: np.ndarray | None = None,
) -> Generator[float, None, LayerPoints]:
    """Sample one layer on its surface; ``blockers`` are earlier layers' points in 3-D (``ValueError`` for the
    user's mistakes, :class:`ScatterError` for the scene's). With the surfaces' cache, a layer whose sampling
    inputs are those of its cached points only places them again, and one whose terrain changed in a few places
    samples only the chunks there."""
    cache = surfaces.cache
    source = surfaces.fields_source(layer)
    surface = surfaces.of(layer)
    fields_key = None if cache is None else job_cache.fields_key(layer, source.key, surfaces.depsgraph)
    samples_key = job_cache.samples_key(layer, fields_key, surface.key, blockers, keep)
    fields = None if cache is None else JobCache.get(cache.fields, layer.layer_id, fields_key)
    if fields is None:
        fields = layer_fields.build(layer, source.lookup, source.mesh, surfaces.depsgraph)
        if cache is not None:
            JobCache.put(cache.fields, layer.layer_id, fields_key, fields)
    spec = dataclasses.replace(layer.spec, density=fields.density, mask=fields.mask)
    if layer.surface == SurfaceMode.ALL:
        return (yield from surface_layer_steps(surface.mesh.vertices, surface.mesh.triangles, spec, blockers,
                                               slope_range=layer.slope_range, keep=keep))
    samples = None if cache is None else JobCache.get(cache.samples, layer.layer_id, samples_key)
    camera = layer.input(Camera)
    if samples is None and camera is not None and camera.margin is not None:
        region = view_region(camera, surface, source)
        if region is None:  # the camera sees nothing of this surface
            samples = Samples(np.zeros((0, 2)), np.zeros(0))
        else:
            spec = dataclasses.replace(spec, region=region)
    if samples is not None:
        return place(surface.lookup, spec, samples)
    flat = None if blockers is None else Samples(blockers.positions[:, :2], blockers.radii)
    run_key = None if cache is None else job_cache.run_key(layer, fields_key, surface.name)
    previous = None if cache is None else JobCache.get(cache.runs, layer.layer_id, run_key)
    objects = None if run_key is None else object_changes.object_bounds(layer, surfaces.depsgraph)
    changed = surfaces.changes(surface)
    if previous is not None and changed is not None:
        before = JobCache.get(cache.objects, layer.layer_id, run_key) if cache is not None else None
        # The objects of the run before, where they stood: what moved changes the layer near it only.
        changed = None if before is None else np.concatenate(
            [np.asarray(changed, dtype=np.float64).reshape(-1, 2, 2), object_changes.changed_boxes(before, objects)])
    points, run = yield from scatter_layer_run(surface.lookup, spec, flat, backend, keep=keep, previous=previous,
                                               changed=changed)
    if cache is not None:
        JobCache.put(cache.runs, layer.layer_id, run_key if run is not None else None, run)
        JobCache.put(cache.objects, layer.layer_id, run_key if run is not None else None, objects)
        JobCache.put(cache.samples, layer.layer_id, samples_key, Samples(points.positions[:, :2].copy(),
                                                                     points.radii.copy()))
    return points
