"""The layer-preset menu beside the layer list: shipped biomes, the user's presets (each with Rename and
Delete), Save."""

from __future__ import annotations

import bpy

from ..scene import presets


class STREW_MT_layer_presets(bpy.types.Menu):
    bl_idname = "STREW_MT_layer_presets"
    bl_label = "Layer Presets"

    def draw(self, context: bpy.types.Context) -> None:
        layout = self.layout
        mine = presets.user_presets()
        column = layout.column(align=True)
        for name in presets.available():
            row = column.row(align=True)
            row.operator("strew.preset_load", text=name, icon='PRESET', translate=False).preset = name
            if name in mine:  # the user's own file: Rename and Delete beside it, as Blender's presets do
                row.operator("strew.preset_rename", text="", icon='GREASEPENCIL').preset = name
                row.operator("strew.preset_delete", text="", icon='TRASH').preset = name
        layout.separator()
        layout.operator("strew.preset_save", icon='ADD', text="Save Layers as Preset…")


classes = (STREW_MT_layer_presets,)

register, unregister = bpy.utils.register_classes_factory(classes)
