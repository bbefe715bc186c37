"""Paint and erase a layer's instances by hand (the Paint brush's work, headless-callable).

A stroke works on the layer's Point Instancer output: new points fill each dab's disk with the layer's own rules
(its radius field, masks, slope, its spacing against its own points and its keep-away from the layers above) and
are flagged as painted, so a later Scatter keeps them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ..core.brush import erase, paint
from ..core.modes import OutputMode, SurfaceMode
from ..core.poisson import Samples
from ..core.scatter import layer_functions, place
from ..core.terrain import TerrainLookup
from . import layer_fields, scatter_spec
from .instances import PointSet
from .layer_points import output_object, read_points, replace_points
from .scatter_job import blockers_for, existing_points
from .scatter_spec import ScatterError
from .terrain import read_mesh

ArrayFunction = Callable[[np.ndarray], np.ndarray]


@dataclass
class Brush:
    """Everything a stroke needs, read once when the stroke starts."""

    scene: bpy.types.Scene
    layer: scatter_spec.LayerInput
    terrain: TerrainLookup
    radius_at: ArrayFunction | None
    is_allowed: ArrayFunction
    others: Samples | None
    keep: np.ndarray | None
    points: PointSet

    @staticmethod
    def start(context: bpy.types.Context, layer_index: int) -> Brush:
        scene = context.scene
        job = scatter_spec.read(scene, [layer_index])
        layer = job.layers[0]
        obj = output_object(scene, layer.layer_id)
        if job.terrain is None or layer.targets is not None or layer.surface != SurfaceMode.TOP:
            raise ScatterError(rpt_('Layer "{name}": the brush paints From Above on the terrain; set the layer\'s '
                                    "Surface to From Above and clear its Targets").format(name=layer.name))
        if layer.output != OutputMode.GEOMETRY_NODES:
            raise ScatterError(rpt_('Layer "{name}": painting needs the Point Instancer output').format(
                name=layer.name))
        # The brush puts instances where the hand paints: camera culling, clipping and falloff (a render
        # saving) do not apply to it; every other rule of the layer does.
        layer = dataclasses.replace(layer, look=dataclasses.replace(layer.look, camera=None))
        depsgraph = context.evaluated_depsgraph_get()
        mesh = read_mesh(job.terrain, depsgraph, tuple(layer.vertex_groups))
        terrain = TerrainLookup(mesh.vertices, mesh.triangles)
        fields = layer_fields.build(layer, terrain, mesh, depsgraph)
        spec = dataclasses.replace(layer.spec, density=fields.density, mask=fields.mask)
        layer = dataclasses.replace(layer, spec=spec)
        radius_at, is_allowed = layer_functions(terrain, spec)
        placed = {above.name: found for above in job.blocker_layers
                  if (found := existing_points(scene, above.layer_id)) is not None}
        others, keep = blockers_for(placed, layer.look.keep_away)
        if others is not None:  # the brush works from above: blockers in x, y
            others = Samples(others.positions[:, :2], others.radii)
        points = read_points(obj) if obj is not None else PointSet.of(place(
            terrain, spec, Samples(np.zeros((0, 2)), np.zeros(0))), False)
        return Brush(scene, layer, terrain, radius_at, is_allowed, others, keep, points)

    def _blockers(self) -> Samples:
        own = Samples(self.points.positions[:, :2], self.points.radii)
        if self.others is None:
            return own
        spec = self.layer.spec
        reach = np.maximum(self.keep, max(spec.min_radius, spec.keep_away))
        return Samples(np.concatenate([own.positions, self.others.positions]), np.concatenate([own.radii, reach]))

    def dab(self, centre: tuple[float, float], radius: float, seed: int) -> int:
        """Add instances in one dab; returns how many."""
        spec = self.layer.spec
        new = paint(self._blockers(), centre, radius, spec.min_radius, spec.max_radius, self.radius_at,
                    self.is_allowed, seed)
        if not len(new.radii):
            return 0
        self.points = PointSet.join(self.points, PointSet.of(place(self.terrain, spec, new), True))
        return len(new.radii)

    def rub(self, centre: tuple[float, float], radius: float) -> int:
        """Erase the instances in one dab; returns how many."""
        gone = erase(self.points.positions, centre, radius)
        self.points = self.points.take(~gone)
        return int(gone.sum())

    def commit(self) -> bpy.types.Object:
        return replace_points(self.scene, self.layer.mark, self.layer.collection, self.points)
