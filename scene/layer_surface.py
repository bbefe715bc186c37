"""The surface each layer scatters on, read once per job, and the core call for it.

A layer scatters on the terrain or on the meshes of its Targets collection, *From Above* (the top-most
surface, ``core.scatter``) or on *Every Face* (``core.surface``). Density and masks are read from above, from
the terrain when there is one (its vertex groups), else from the layer's targets.

:class:`Sampler` is how the Scatter job reads the surfaces and samples each layer: plainly here, every time from
the scene. The live update hands the job a sampler that keeps what did not change between runs
(:mod:`.live_cache`); this module knows nothing of it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Generator
from typing import Any

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ..core.camera import footprint
from ..core.chunks import Backend
from ..core.curve import curve_layer
from ..core.modes import SurfaceMode
from ..core.poisson import Samples
from ..core.scatter import LayerPoints, LayerSpec, place, scatter_layer_run
from ..core.surface.layer import surface_layer_steps
from ..core.terrain import TerrainLookup
from . import layer_fields
from .layer_fields import LayerFields
from .layer_inputs import Along, Camera, Key, Targets
from .scatter_spec import LayerInput, ScatterError, ScatterInput
from .targets import read_targets
from .terrain import MeshArrays, read_mesh

NO_SAMPLES = Samples(np.zeros((0, 2)), np.zeros(0))


class Surface:
    """A mesh in world space and, built when first asked for, its from-above lookup; ``key`` says which read it
    is (for a cache; None: not kept)."""

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
    """The terrain (read with every vertex group the layers use) and each Targets collection, read once."""

    def __init__(self, job: ScatterInput, depsgraph: bpy.types.Depsgraph) -> None:
        self.depsgraph = depsgraph
        self.terrain: Surface | None = None
        self._targets: dict[int, Surface] = {}
        if job.terrain is not None:
            groups = tuple({name for layer in job.layers for name in layer.vertex_groups})
            self.terrain = self._read_terrain(job.terrain, groups)

    def _read_terrain(self, terrain: bpy.types.Object, groups: tuple[str, ...]) -> Surface:
        """The terrain read with the weights of ``groups``."""
        return Surface(terrain.name, self._read_mesh(terrain, groups), "Terrain")

    def _read_mesh(self, terrain: bpy.types.Object, groups: tuple[str, ...], before: MeshArrays | None = None,
                   ) -> MeshArrays:
        try:
            return read_mesh(terrain, self.depsgraph, groups, before)
        except ValueError as error:
            raise ScatterError(str(error)) from error

    def _read_targets(self, targets: Targets, key: Key = None) -> Surface:
        """The meshes of a Targets collection as one surface."""
        try:
            mesh = read_targets(targets.collection, self.depsgraph)
        except ValueError as error:
            raise ScatterError(str(error)) from error
        return Surface(targets.collection.name, mesh, "Targets", key)

    def of(self, layer: LayerInput) -> Surface:
        """Where ``layer`` places its instances."""
        targets = layer.input(Targets)
        if targets is None:
            assert self.terrain is not None  # scatter_spec.read refuses a layer without targets and terrain
            return self.terrain
        uid = targets.collection.session_uid
        if uid not in self._targets:
            self._targets[uid] = self._read_targets(targets)
        return self._targets[uid]

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


def with_fields(layer: LayerInput, fields: LayerFields) -> LayerSpec:
    """The layer's core spec with its density and mask."""
    return dataclasses.replace(layer.spec, density=fields.density, mask=fields.mask)


def every_face_steps(layer: LayerInput, surface: Surface, spec: LayerSpec, blockers: Samples | None,
                     keep: np.ndarray | None) -> Generator[float, None, LayerPoints]:
    """An *Every Face* layer: sampled on the surface's faces in 3-D."""
    return (yield from surface_layer_steps(surface.mesh.vertices, surface.mesh.triangles, spec, blockers,
                                           slope_range=layer.slope_range, keep=keep))


def culled(layer: LayerInput, spec: LayerSpec, surface: Surface, source: Surface) -> LayerSpec | None:
    """``spec`` cut to what the layer's culling camera sees of ``surface`` (unchanged without culling); None when
    it sees nothing of it."""
    camera = layer.input(Camera)
    if camera is None or camera.margin is None:
        return spec
    region = view_region(camera, surface, source)
    return None if region is None else dataclasses.replace(spec, region=region)


def banded(layer: LayerInput, spec: LayerSpec, depsgraph: bpy.types.Depsgraph) -> LayerSpec:
    """``spec`` cut to the box of the layer's band along curves (unchanged for other layers)."""
    along = layer.input(Along)
    if along is None or along.samples_curve:
        return spec
    try:
        box = along.bounds(depsgraph)
    except ValueError as error:
        raise ScatterError(rpt_('Layer "{name}": {error}').format(name=layer.name, error=error)) from error
    if box is None:
        return spec
    if spec.region is not None:
        box = ((max(box[0][0], spec.region[0][0]), max(box[0][1], spec.region[0][1])),
               (min(box[1][0], spec.region[1][0]), min(box[1][1], spec.region[1][1])))
    return dataclasses.replace(spec, region=box)


def curve_steps(layer: LayerInput, along: Along, surface: Surface, spec: LayerSpec, blockers: Samples | None,
                keep: np.ndarray | None, depsgraph: bpy.types.Depsgraph) -> Generator[float, None, LayerPoints]:
    """A layer along curves: sampled on their lines, whole (fast: 10 km of curve in well under a second)."""
    yield 0.0
    try:
        shape = along.spec(depsgraph)
    except ValueError as error:
        raise ScatterError(rpt_('Layer "{name}": {error}').format(name=layer.name, error=error)) from error
    return curve_layer(shape, spec, surface.lookup, blockers, keep)


def flat(blockers: Samples | None) -> Samples | None:
    """3-D blockers as the from-above sampler takes them (x, y)."""
    return None if blockers is None else Samples(blockers.positions[:, :2], blockers.radii)


def layer_steps(
    layer: LayerInput, surfaces: Surfaces, blockers: Samples | None, backend: Backend | None = None,
    keep: np.ndarray | None = None,
) -> Generator[float, None, LayerPoints]:
    """Sample one layer on its surface; ``blockers`` are earlier layers' points in 3-D (``ValueError`` for the
    user's mistakes, :class:`ScatterError` for the scene's)."""
    source = surfaces.fields_source(layer)
    surface = surfaces.of(layer)
    spec = with_fields(layer, layer_fields.build(layer, source.lookup, source.mesh, surfaces.depsgraph))
    along = layer.input(Along)
    if along is not None and along.samples_curve:
        return (yield from curve_steps(layer, along, surface, spec, blockers, keep, surfaces.depsgraph))
    spec = banded(layer, spec, surfaces.depsgraph)
    if layer.surface == SurfaceMode.ALL:
        return (yield from every_face_steps(layer, surface, spec, blockers, keep))
    region = culled(layer, spec, surface, source)
    if region is None:  # the camera sees nothing of this surface
        return place(surface.lookup, spec, NO_SAMPLES)
    points, _ = yield from scatter_layer_run(surface.lookup, region, flat(blockers), backend, keep=keep)
    return points


class Sampler:
    """How the Scatter job reads the surfaces and samples a layer: from the scene, every time. The live update's
    sampler (:class:`.live_cache.CachedSampler`) keeps what did not change instead."""

    def surfaces(self, job: ScatterInput, depsgraph: bpy.types.Depsgraph) -> Surfaces:
        return Surfaces(job, depsgraph)

    def layer_steps(self, layer: LayerInput, surfaces: Any, blockers: Samples | None, backend: Backend | None,
                    keep: np.ndarray | None) -> Generator[float, None, LayerPoints]:
        return layer_steps(layer, surfaces, blockers, backend, keep)

    def finished(self, scene: bpy.types.Scene, job: ScatterInput) -> None:
        """The job wrote its output (nothing to keep here)."""
