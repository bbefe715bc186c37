"""The Scatter settings of a scene, read once into frozen specs before any work.

:func:`read` is the one place that reads ``scene.strew`` and its ``StrewLayer`` items: it validates every value
(a :class:`ScatterError` says which layer and what to change), resolves each layer's prefabs and their weights,
and builds the core :class:`~strew.core.scatter.LayerSpec`. The rest of the job works on these specs only, so a
setting is interpreted in exactly one place.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TypeVar

import bpy
from bpy.app.translations import pgettext_rpt as rpt_

from ..core.modes import OutputMode, SpacingMode, SurfaceMode
from ..core.scatter import LayerSpec
from ..properties.numbers import check_numbers
from . import layer_ids, layer_surroundings
from .custom_props import CustomPropertyError
from .errors import ScatterError
from .footprints import footprints
from .instancer import LayerMark, Prefab, prefabs_of
from .layer_inputs import Input, Reading, Targets, read_inputs
from .layer_surroundings import Surroundings
from .output_cycle import output_in_prefabs
from .ownership import is_owned

InputT = TypeVar("InputT", bound=Input)


@dataclass(frozen=True)
class LayerInput:
    """One layer, validated: its prefabs in Pick Instance order and its core spec (fields not built yet)."""

    name: str
    layer_id: str  # ``StrewLayer.layer_id``: how the layer's output is found
    collection: bpy.types.Collection
    prefabs: tuple[Prefab, ...]
    output: OutputMode
    spec: LayerSpec
    surroundings: Surroundings
    surface: SurfaceMode = SurfaceMode.TOP
    slope_range: tuple[float, float] = (0.0, math.pi)  # Every Face: radians between the face normal and up
    inputs: tuple[Input, ...] = ()  # what it reads of the scene, one object per input in use (``layer_inputs``)

    @property
    def mark(self) -> LayerMark:
        """What the layer's output data-blocks carry."""
        return LayerMark(self.name, self.layer_id)

    def input(self, kind: type[InputT]) -> InputT | None:
        """The layer's input of class ``kind``, or None when it does not use one."""
        return next((found for found in self.inputs if isinstance(found, kind)), None)

    @property
    def targets(self) -> bpy.types.Collection | None:
        """The collection whose meshes the layer places on; None: the terrain."""
        found = self.input(Targets)
        return None if found is None else found.collection

    @property
    def vertex_groups(self) -> set[str]:
        """Names of terrain vertex groups the layer reads (read once per job with the terrain)."""
        return set().union(*(found.vertex_groups() for found in self.inputs))


@dataclass(frozen=True)
class ScatterInput:
    """Everything one Scatter run reads from the scene."""

    terrain: bpy.types.Object | None  # None when every layer has its own targets
    layers: tuple[LayerInput, ...]
    blocker_layers: tuple[LayerMark, ...]  # enabled layers above the first one run: their output keeps the rest away
    max_objects: int


def _layer(layer: bpy.types.PropertyGroup, chunk_size: float | None, scene: bpy.types.Scene,
           earlier: list[str]) -> LayerInput:
    name = rpt_('Layer "{name}"').format(name=layer.name)

    def fail(template: str, **values: object) -> ScatterError:
        return ScatterError(rpt_(template).format(layer=name, **values))

    try:
        check_numbers(layer)
    except ValueError as error:
        raise ScatterError(rpt_('Layer "{name}": {error}').format(name=layer.name, error=error)) from None
    collection = layer.collection
    if collection is None:
        raise fail("{layer} has no collection: pick the collection whose objects it should place")
    if is_owned(collection):
        raise fail('{layer}: "{collection}" is what Strew made; pick the collection whose objects it should place',
                   collection=collection.name)
    cycle = output_in_prefabs(collection)
    if cycle is not None:
        raise fail('{layer}: collection "{collection}" reaches Strew\'s own output "{output}" through "{through}", '
                   'which Blender cannot draw (a cycle); take "{through}" out of "{collection}"',
                   collection=collection.name, output=cycle[1].name, through=cycle[0].name)
    try:
        prefabs = tuple(prefabs_of(collection))
    except CustomPropertyError as error:
        raise ScatterError(rpt_('Layer "{name}": {error}').format(name=layer.name, error=error)) from error
    if not prefabs:
        raise fail('{layer}: collection "{collection}" is empty; add the objects to place', collection=collection.name)
    if sum(p.weight for p in prefabs) <= 0:
        raise fail('{layer}: every object in "{collection}" has weight 0; give one a weight > 0',
                   collection=collection.name)
    output = OutputMode(layer.output_mode)
    surface = SurfaceMode.ALL if layer.on_layer.layer else SurfaceMode(layer.surface)  # On Layer: every face
    try:  # a sphere on every face, a circle seen from above
        sizes = footprints(prefabs, output, surface) if layer.spacing == SpacingMode.OBJECTS else None
    except CustomPropertyError as error:
        raise ScatterError(rpt_('Layer "{name}": {error}').format(name=layer.name, error=error)) from error
    try:
        spec = LayerSpec(
            min_radius=layer.min_radius,
            max_radius=layer.max_radius,
            seed=layer.seed,
            start_points=layer.start_points,
            keep_away=layer.keep_away,
            max_slope=min(layer.max_slope, math.pi / 2),  # stored as float32: may exceed π/2 by 4e-8
            height_range=(layer.height_min, layer.height_max) if layer.use_height_range else None,
            align=layer.align_to_normal,
            random_yaw=layer.random_yaw,
            scale_range=(layer.scale_min, layer.scale_max),
            prefab_weights=tuple(p.weight for p in prefabs),
            tile_size=layer.tile_size if layer.use_tile else None,
            tile_keep=layer.tile_keep,
            chunk_size=chunk_size,
            tilt=layer.tilt,
            scale_by_density=layer.scale_by_density,
            scale_by_slope=layer.scale_by_slope,
            footprints=sizes,
        )
        surroundings = layer_surroundings.read(layer, scene, earlier)
        inputs = read_inputs(Reading(layer, scene, spec, surface))
    except ValueError as error:
        raise ScatterError(rpt_('Layer "{name}": {error}').format(name=layer.name, error=_labelled(error, layer))
                           ) from error
    if surface == SurfaceMode.ALL and layer.min_slope > layer.max_slope:
        raise fail("{layer}: Min Slope is above Max Slope")
    return LayerInput(layer.name, layer.layer_id, collection, prefabs, output,
                      spec, surroundings, surface=surface,
                      slope_range=(float(layer.min_slope), min(float(layer.max_slope), math.pi)), inputs=inputs)


def _labelled(error: ValueError, layer: bpy.types.PropertyGroup) -> str:
    """Core's message with each setting it names (``min_radius``) as the panel shows it (``Min Radius``)."""
    labels = layer.bl_rna.properties
    return _IDENTIFIER.sub(lambda m: labels[m[0]].name if m[0] in labels else m[0], str(error))


_IDENTIFIER = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def read(scene: bpy.types.Scene, layer_indices: list[int] | None = None) -> ScatterInput:
    """The scene's Scatter settings for the enabled layers (or exactly ``layer_indices``), validated."""
    layer_ids.assign(scene)
    settings = scene.strew
    try:
        check_numbers(settings, nested=False)
    except ValueError as error:
        raise ScatterError(rpt_("Scatter settings: {error}").format(error=error)) from None
    terrain = settings.terrain
    every = settings.layers
    indices = list(range(len(every))) if layer_indices is None else layer_indices
    chosen = [every[i] for i in indices if layer_indices is not None or every[i].enabled]
    if terrain is None and (not chosen or any(layer.targets is None and not layer.on_layer.layer for layer in chosen)):
        raise ScatterError(rpt_("No terrain: pick a mesh object as the terrain in the Scatter panel"))
    if terrain is not None and terrain.type != 'MESH':
        raise ScatterError(rpt_('Terrain "{name}" is a {kind}, not a mesh: pick a mesh object').format(
            name=terrain.name, kind=terrain.type.lower()))
    if not chosen:
        raise ScatterError(rpt_("No enabled layer: add a layer (+) or enable one"))
    names = [layer.name for layer in every if layer.enabled or layer in chosen]  # the layers this run reads
    if len(set(names)) != len(names):
        raise ScatterError(rpt_('Two layers have the same name: rename one (each layer writes "Strew <name>")'))
    enabled = [layer.name for layer in every if layer.enabled]
    chunk_size = settings.chunk_size or None  # 0: automatic
    layers = tuple(_layer(layer, chunk_size, scene, enabled[:enabled.index(layer.name)]
                          if layer.name in enabled else enabled) for layer in chosen)
    first = indices[0] if indices else 0
    blockers = tuple(LayerMark(layer.name, layer.layer_id) for layer in every[:first] if layer.enabled)
    return ScatterInput(terrain, layers, blockers, settings.max_objects)
