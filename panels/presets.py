"""The layer-preset menu beside the layer list: shipped biomes, the user's presets, Save."""

from __future__ import annotations

import bpy

from ..scene import presets


class STREW_MT_layer_presets(bpy.types.Menu):
    bl_idname = "STREW_MT_layer_presets"
    bl_label = "Layer Presets"

    def draw(self, context: bpy.types.Context) -> None:
        layout = self.layout
        for name in presets.available():
            layout.operator("strew.preset_load", text=name, icon='PRESET').preset = name
        layout.separator()
        layout.operator("strew.preset_save", icon='ADD', text="Save Layers as Preset…")


classes = (STREW_MT_layer_presets,)

register, unregister = bpy.utils.register_classes_factory(classes)
