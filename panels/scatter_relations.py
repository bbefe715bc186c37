"""The active layer's rows for Around and On Layer (drawn in the Objects sub-panel, under Targets)."""

from __future__ import annotations

import bpy


def draw_relations(layout: bpy.types.UILayout, context: bpy.types.Context, layer: bpy.types.PropertyGroup) -> None:
    """Pick an earlier layer to place around (with the ring and its falloff) or on."""
    layers = context.scene.strew
    layout.prop_search(layer.around, "layer", layers, "layers", text="Around", icon='OUTLINER_OB_POINTCLOUD')
    if layer.around.layer:
        column = layout.column(align=True)
        column.prop(layer, "around_min")
        column.prop(layer, "around_max")
        layout.prop(layer, "around_falloff")
    layout.prop_search(layer.on_layer, "layer", layers, "layers", text="On Layer", icon='OUTLINER_OB_POINTCLOUD')
    if layer.on_layer.layer:
        layout.label(text="Every face of its instances", icon='INFO')
