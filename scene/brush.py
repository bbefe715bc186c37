"""Paint, erase and rescatter a layer's instances by hand (the Paint brush's and Rescatter Region's work,
headless-callable).

A stroke works on the layer's Point Instancer output: new points fill each dab's disk with the layer's own rules
(its radius field, masks, slope, its spacing against its own points and its keep-away from the layers above) and
are flagged as painted, so a later Scatter keeps them. :func:`rescatter_region` removes the instances of a box or
a circle and fills it the same way with another seed (and the band around its rim where one more fits); the
instances around it stay bit for bit.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ..core.brush import Box, Circle, Region, clipped, erase, fill, paint, probes, rim_band
from ..core.modes import OutputMode, SurfaceMode
from ..core.poisson import Samples
from ..core.scatter import blocker_radii, layer_functions, place
from ..core.scatter.spec import conflict_rule, spacing_radii
from ..core.terrain import TerrainLookup
from . import layer_fields, scatter_spec
from .instances import PointSet
from .layer_inputs import Along, Camera
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
    def start(context: bpy.types.Context, layer_index: int, camera: bool = False) -> Brush:
        """Read the layer, the terrain and the layers above; ``camera``: keep the layer's camera culling, clipping
        and falloff (Rescatter Region samples as Scatter does; the brush puts instances where the hand paints)."""
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
        along = layer.input(Along)
        if along is not None and along.samples_curve:
            raise ScatterError(rpt_('Layer "{name}" follows its curves: edit the curves (or its Seed) instead of '
                                    "painting; a Band layer can be painted").format(name=layer.name))
        # The brush puts instances where the hand paints: camera culling, clipping and falloff (a render
        # saving) do not apply to it; every other rule of the layer does.
        if not camera:
            layer = dataclasses.replace(layer, inputs=tuple(i for i in layer.inputs if not isinstance(i, Camera)))
        depsgraph = context.evaluated_depsgraph_get()
        mesh = read_mesh(job.terrain, depsgraph, tuple(layer.vertex_groups))
        terrain = TerrainLookup(mesh.vertices, mesh.triangles)
        fields = layer_fields.build(layer, terrain, mesh, depsgraph)
        spec = dataclasses.replace(layer.spec, density=fields.density, mask=fields.mask)
        layer = dataclasses.replace(layer, spec=spec)
        radius_at, is_allowed = layer_functions(terrain, spec)
        placed = {above.name: found for above in job.blocker_layers
                  if (found := existing_points(scene, above.layer_id)) is not None}
        others, keep = blockers_for(placed, layer.surroundings.keep_away)
        if others is not None:  # the brush works from above: blockers in x, y
            others = Samples(others.positions[:, :2], others.radii)
        points = read_points(obj) if obj is not None else PointSet.of(place(
            terrain, spec, Samples(np.zeros((0, 2)), np.zeros(0))), False)
        return Brush(scene, layer, terrain, radius_at, is_allowed, others, keep, points)

    def _blockers(self) -> Samples:
        own = Samples(self.points.positions[:, :2], self.points.radii)
        if self.others is None:
            return own
        reach = blocker_radii(self.layer.spec, len(self.others.radii), self.keep)
        return Samples(np.concatenate([own.positions, self.others.positions]), np.concatenate([own.radii, reach]))

    def _spacing(self) -> tuple[float, float, str]:
        """The sampler's least and largest radius and its conflict rule for this layer (radii add up when it is
        spaced by its objects' size)."""
        spec = self.layer.spec
        return (*spacing_radii(spec), conflict_rule(spec))

    def dab(self, centre: tuple[float, float], radius: float, seed: int) -> int:
        """Add instances in one dab; returns how many."""
        spec = self.layer.spec
        low, high, conflict = self._spacing()
        new = paint(self._blockers(), centre, radius, low, high, self.radius_at, self.is_allowed, seed, conflict)
        if not len(new.radii):
            return 0
        self.points = PointSet.join(self.points, PointSet.of(place(self.terrain, spec, new), True))
        return len(new.radii)

    def rub(self, centre: tuple[float, float], radius: float) -> int:
        """Erase the instances in one dab; returns how many."""
        gone = erase(self.points.positions, centre, radius)
        self.points = self.points.take(~gone)
        return int(gone.sum())

    def rescatter(self, region: Region, seed: int) -> tuple[int, int]:
        """Remove the instances whose centre lies in ``region`` and fill it again with ``seed``, against every
        instance outside it and the layers above; returns (removed, added). The new ones are flagged painted.

        The removed instances also held the spacing a little way outside the rim: the fill covers that band too
        (:func:`~strew.core.brush.rim_band`), adding instances only where one fits, so the layer stays maximal
        across the rim and every instance outside the region stays."""
        gone = region.contains(self.points.positions)
        low, high, conflict = self._spacing()
        band = rim_band(high, self.points.radii[gone], conflict)
        self.points = self.points.take(~gone)
        spec = self.layer.spec
        new = fill(self._blockers(), region, low, high, self.radius_at, self.is_allowed, seed, conflict,
                   within=self._ground(), band=band)
        # Those at the rim first: the same seed on the same region again keeps them and gives the region's
        # instances back in the same order, so the output's bytes do not change.
        rim_first = np.argsort(region.contains(new.positions), kind="stable")
        new = Samples(new.positions[rim_first], new.radii[rim_first])
        self.points = PointSet.join(self.points, PointSet.of(place(self.terrain, spec, new), True))
        return int(gone.sum()), len(new.radii)

    def _ground(self) -> tuple[np.ndarray, np.ndarray]:
        """The terrain's x, y bounds: a region is sampled only where they meet it."""
        return self.terrain.bounds.min, self.terrain.bounds.max

    def on_terrain(self, region: Region) -> bool:
        """Whether any ground of the terrain lies in ``region`` (or an instance of the layer does)."""
        if clipped(region, self._ground()) is None:
            return False
        if region.contains(self.points.positions).any():
            return True
        return bool(self.terrain.sample(probes(region, within=self._ground())).mask.any())

    def commit(self, keep_origin: bool = False) -> bpy.types.Object:
        return replace_points(self.scene, self.layer.mark, self.layer.collection, self.points, keep_origin)


@dataclass
class Rescattered:
    """What :func:`rescatter_region` did."""

    layer: str
    removed: int
    added: int


def region_of(shape: str, box_min: tuple[float, float], box_max: tuple[float, float],
              centre: tuple[float, float], radius: float) -> Region:
    """The region Rescatter Region works on: ``shape`` 'BOX' (two corners) or 'CIRCLE' (centre, radius), world x, y;
    :class:`ScatterError` when it has no area."""
    try:
        return Circle(centre, radius) if shape == 'CIRCLE' else Box(box_min, box_max)
    except ValueError:
        if shape == 'CIRCLE':
            raise ScatterError(rpt_("Empty region: the circle needs a finite centre and a radius above 0")) from None
        raise ScatterError(rpt_("Empty region: the box needs finite corners, a width and a depth")) from None


def rescatter_region(context: bpy.types.Context, layer_index: int, region: Region, seed: int) -> Rescattered:
    """Sample ``region`` of layer ``layer_index`` again with ``seed`` and keep the rest of the layer.

    The layer's instances whose centre lies in the region (painted or not) go; the region is filled with the
    layer's own rules (radius field, masks, slope, camera, Keep Away and the pair rules against the layers above)
    with every instance outside it as a blocker, so nothing new comes closer than the layer's spacing to what is
    kept at the rim, and the band around the rim that the removed instances held is filled where one more fits, so
    the layer stays maximal there too. The new instances are flagged painted: a later Scatter keeps them.
    Instances outside the region stay bit for bit; the same inputs and seed give the same result. Raises
    :class:`ScatterError` (one line, nothing changed) when the layer cannot be rescattered there.
    """
    brush = Brush.start(context, layer_index, camera=True)
    name = brush.layer.name
    if output_object(context.scene, brush.layer.layer_id) is None:
        raise ScatterError(rpt_('Layer "{name}" has no instances to rescatter: Scatter it first').format(name=name))
    if not brush.on_terrain(region):
        raise ScatterError(rpt_("The region lies off the terrain: move it over the ground"))
    try:
        removed, added = brush.rescatter(region, seed)
    except ValueError as error:
        raise ScatterError(rpt_('Layer "{name}": {error}').format(name=name, error=error)) from error
    if removed or added:
        brush.commit(keep_origin=len(brush.points) > added)
    return Rescattered(name, removed, added)
