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

from ..core.chunks import Backend
from ..core.poisson import Samples
from ..core.scatter import LayerPoints, scatter_layer_steps
from ..core.surface.layer import surface_layer_steps
from ..core.terrain import TerrainLookup
from ..properties.modes import SurfaceMode
from . import layer_fields
from .scatter_spec import LayerInput, ScatterError, ScatterInput
from .targets import read_targets
from .terrain import MeshArrays, read_mesh


class Surface:
    """A mesh in world space and, built when first asked for, its from-above lookup."""

    def __init__(self, name: str, mesh: MeshArrays, kind: str) -> None:
        self.name, self.mesh, self.kind = name, mesh, kind
        self._lookup: TerrainLookup | None = None

    @property
    def lookup(self) -> TerrainLookup:
        if self._lookup is None:
            try:
                self._lookup = TerrainLookup(self.mesh.vertices, self.mesh.triangles)
            except ValueError as error:
                raise ScatterError(rpt_('{kind} "{name}": {error}').format(
                    kind=rpt_(self.kind), name=self.name, error=error)) from error
        return self._lookup


class Surfaces:
    """The terrain (read with every vertex group the layers use) and each Targets collection, read once."""

    def __init__(self, job: ScatterInput, depsgraph: bpy.types.Depsgraph) -> None:
        self.depsgraph = depsgraph
        self.terrain: Surface | None = None
        self._targets: dict[str, Surface] = {}
        if job.terrain is not None:
            groups = tuple({name for layer in job.layers for name in layer.vertex_groups})
            try:
                mesh = read_mesh(job.terrain, depsgraph, groups)
            except ValueError as error:
                raise ScatterError(str(error)) from error
            self.terrain = Surface(job.terrain.name, mesh, "Terrain")

    def of(self, layer: LayerInput) -> Surface:
        """Where ``layer`` places its instances."""
        if layer.targets is None:
            assert self.terrain is not None  # scatter_spec.read refuses a layer without targets and terrain
            return self.terrain
        name = layer.targets.name
        if name not in self._targets:
            try:
                mesh = read_targets(layer.targets, self.depsgraph)
            except ValueError as error:
                raise ScatterError(str(error)) from error
            self._targets[name] = Surface(name, mesh, "Targets")
        return self._targets[name]

    def fields_source(self, layer: LayerInput) -> Surface:
        """Where ``layer`` reads its density and masks (from above): the terrain, else its targets."""
        if self.terrain is not None:
            return self.terrain
        if layer.vertex_groups:
            raise ScatterError(rpt_('Layer "{name}": vertex groups are read from the terrain; pick a terrain or '
                                    "another density and mask").format(name=layer.name))
        return self.of(layer)


def layer_steps(
    layer: LayerInput, surfaces: Surfaces, blockers: Samples | None, backend: Backend | None = None,
    keep: np.ndarray | None = None,
) -> Generator[float, None, LayerPoints]:
    """Sample one layer on its surface; ``blockers`` are earlier layers' points in 3-D (``ValueError`` for the
    user's mistakes, :class:`ScatterError` for the scene's)."""
    source = surfaces.fields_source(layer)
    fields = layer_fields.build(layer, source.lookup, source.mesh, surfaces.depsgraph)
    spec = dataclasses.replace(layer.spec, density=fields.density, mask=fields.mask)
    surface = surfaces.of(layer)
    if layer.surface == SurfaceMode.ALL:
        return (yield from surface_layer_steps(surface.mesh.vertices, surface.mesh.triangles, spec, blockers,
                                               slope_range=layer.slope_range, keep=keep))
    flat = None if blockers is None else Samples(blockers.positions[:, :2], blockers.radii)
    return (yield from scatter_layer_steps(surface.lookup, spec, flat, backend, keep=keep))
