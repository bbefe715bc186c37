"""The header panel of the "Strew" tab in the 3D Viewport sidebar."""

from __future__ import annotations

import bpy

from ..version import __version__


def property_layout(layout: bpy.types.UILayout) -> bpy.types.UILayout:
    """Blender's property-editor look: labels on the left, no animation decorators."""
    layout.use_property_split = True
    layout.use_property_decorate = False
    return layout


class STREW_PT_main(bpy.types.Panel):
    """Header panel of the Strew tab."""

    bl_idname = "STREW_PT_main"
    bl_label = "Strew"
    bl_space_type = 'VIEW_3D'
    bl_region_type = 'UI'
    bl_category = "Strew"

    def draw(self, context: bpy.types.Context) -> None:
        row = self.layout.row()
        row.label(text=f"Strew {__version__}", icon='OUTLINER_OB_POINTCLOUD')
        row.operator("strew.export_level", text="", icon='EXPORT')
        row.operator("strew.about", text="", icon='INFO')


classes = (STREW_PT_main,)

register, unregister = bpy.utils.register_classes_factory(classes)
