"""Layer settings that tie a layer to an earlier one: placed in a ring *Around* its instances, or *On* them.

Declared as an annotation mixin of ``StrewLayer``; read in one place each (``scene.layer_inputs.around`` and
``scene.layer_inputs.on_layer``). Each link names the layer and keeps its ``layer_id`` (``scene.layer_ids``
binds it), so renaming the layer keeps the link.
"""

from __future__ import annotations

from collections.abc import Iterator

import bpy
from bpy.props import BoolProperty, FloatProperty, PointerProperty, StringProperty

from ..core.inputs import MAX_DISTANCE


def _unbind(link: bpy.types.PropertyGroup, _context: bpy.types.Context) -> None:
    """A layer picked by name: the id that followed the earlier pick through renames no longer applies."""
    if link.layer_id:
        link.layer_id = ""


class StrewLayerLink(bpy.types.PropertyGroup):
    """One earlier layer this layer is placed around or on (empty: none)."""

    layer: StringProperty(name="Layer", description="An earlier, enabled layer", update=_unbind)
    layer_id: StringProperty(
        name="Layer ID", description="The id of the layer the link names, so the link follows it through a rename "
        "(set by Strew)", options={'HIDDEN'},
    )


class LayerRelationSettings:
    """Around: a ring about each instance of an earlier layer. On: the surfaces of an earlier layer's instances."""

    around: PointerProperty(
        type=StrewLayerLink, name="Around",
        description="Place this layer only in a ring around the instances of an earlier layer (mushrooms at the "
        "feet of trees)",
    )
    around_min: FloatProperty(
        name="Around Min", default=0.5, min=0.0, max=MAX_DISTANCE, soft_max=50.0, subtype='DISTANCE', unit='LENGTH',
        description="Inner edge of the ring: the least distance from the nearest instance of that layer (between "
        "footprint edges when either layer is spaced by Object Size)",
    )
    around_max: FloatProperty(
        name="Around Max", default=2.0, min=0.0, max=MAX_DISTANCE, soft_max=100.0, subtype='DISTANCE',
        unit='LENGTH', description="Outer edge of the ring: the largest distance from the nearest instance of that "
        "layer",
    )
    around_falloff: BoolProperty(
        name="Falloff", default=False,
        description="Densest at the ring's inner edge, thinning out to the layer's sparsest (Max Radius) at its "
        "outer edge",
    )
    on_layer: PointerProperty(
        type=StrewLayerLink, name="On Layer",
        description="Place this layer on every face of the instances of an earlier layer (moss on rocks), spaced "
        "in 3-D",
    )


def relation_links(layer: bpy.types.PropertyGroup) -> Iterator[bpy.types.PropertyGroup]:
    """The layer's links to other layers (each with ``layer`` and ``layer_id``), set or not."""
    yield layer.around
    yield layer.on_layer


classes = (StrewLayerLink,)
