"""Sub-panels of the active layer for heavy scenes and variety: keep-away rules, proximity, camera, display."""

from __future__ import annotations

import bpy

from ..core.modes import OutputMode, ProxyKind
from .scatter import _active_layer, _LayerPanel


class STREW_UL_keep_away(bpy.types.UIList):
    """Keep-away rules of the active layer: an earlier layer and the distance to keep from it."""

    bl_idname = "STREW_UL_keep_away"

    def draw_item(self, context, layout, data, item, icon, active_data, active_propname, index=0):
        row = layout.row(align=True)
        row.prop_search(item, "layer", context.scene.strew, "layers", text="", icon='OUTLINER_OB_POINTCLOUD')
        row.prop(item, "distance", text="")


class STREW_PT_scatter_paint(_LayerPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_scatter_paint"
    bl_label = "Paint Brush"
    bl_options = {'DEFAULT_CLOSED'}

    def draw(self, context: bpy.types.Context) -> None:
        layout = self._layout()
        layout.operator("strew.paint", icon='BRUSH_DATA')
        column = layout.column(align=True)
        column.label(text="Ctrl+drag erases", icon='INFO')
        column.label(text="Painted ones stay on Scatter", icon='BLANK1')
        column = layout.column(align=True)
        column.operator("strew.rescatter_region", text="Rescatter Box", icon='SELECT_SET').shape = 'BOX'
        column.operator("strew.rescatter_region", text="Rescatter Circle", icon='MESH_CIRCLE').shape = 'CIRCLE'
        column = layout.column(align=True)
        column.label(text="Box: selected object or cursor", icon='INFO')
        column.label(text="Circle: around the cursor", icon='BLANK1')


class STREW_PT_scatter_keep_away(_LayerPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_scatter_keep_away"
    bl_label = "Keep Away per Layer"
    bl_options = {'DEFAULT_CLOSED'}

    def draw(self, context: bpy.types.Context) -> None:
        layer = _active_layer(context)
        row = self.layout.row()
        row.template_list("STREW_UL_keep_away", "", layer, "keep_away_rules", layer, "active_rule_index", rows=2)
        column = row.column(align=True)
        column.operator("strew.keep_away_add", icon='ADD', text="")
        column.operator("strew.keep_away_remove", icon='REMOVE', text="")


class STREW_PT_scatter_variety(_LayerPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_scatter_variety"
    bl_label = "Variety"
    bl_options = {'DEFAULT_CLOSED'}

    def draw(self, context: bpy.types.Context) -> None:
        layer = _active_layer(context)
        layout = self._layout()
        layout.prop(layer, "tilt")
        layout.prop(layer, "scale_by_density", slider=True)
        layout.prop(layer, "scale_by_slope", slider=True)


class STREW_PT_scatter_proximity(_LayerPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_scatter_proximity"
    bl_label = "Proximity"
    bl_options = {'DEFAULT_CLOSED'}

    def draw(self, context: bpy.types.Context) -> None:
        layer = _active_layer(context)
        layout = self._layout()
        layout.prop(layer, "proximity_collection")
        column = layout.column()
        column.active = layer.proximity_collection is not None
        column.prop(layer, "proximity_mode")
        sub = column.column(align=True)
        sub.prop(layer, "proximity_near")
        sub.prop(layer, "proximity_far")


class STREW_PT_scatter_camera(_LayerPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_scatter_camera"
    bl_label = "Camera"
    bl_options = {'DEFAULT_CLOSED'}

    def draw(self, context: bpy.types.Context) -> None:
        layer = _active_layer(context)
        layout = self._layout()
        layout.prop(layer, "camera")
        layout.prop(layer, "camera_cull")
        column = layout.column(align=True)
        column.active = layer.camera_cull
        column.prop(layer, "camera_margin")
        column.prop(layer, "camera_max_distance")
        layout.prop(layer, "camera_falloff")
        column = layout.column(align=True)
        column.active = layer.camera_falloff
        column.prop(layer, "camera_falloff_start")
        column.prop(layer, "camera_falloff_end")
        column.prop(layer, "camera_falloff_floor", slider=True)


class STREW_PT_scatter_display(_LayerPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_scatter_display"
    bl_label = "Viewport Display"
    bl_options = {'DEFAULT_CLOSED'}

    def draw(self, context: bpy.types.Context) -> None:
        layer = _active_layer(context)
        layout = self._layout()
        layout.prop(layer, "display_mode")
        layout.prop(layer, "viewport_percent", slider=True)
        layout.prop(layer, "proxy_beyond")
        column = layout.column(align=True)
        column.active = layer.proxy_beyond
        column.prop(layer, "proxy_distance")
        column.prop(layer, "proxy_kind")
        row = column.row()
        row.active = layer.proxy_beyond and layer.proxy_kind == ProxyKind.DECIMATE
        row.prop(layer, "proxy_ratio", slider=True)
        if layer.proxy_beyond and layer.output_mode != OutputMode.GEOMETRY_NODES:
            layout.label(text="Proxies: Point Instancer output only", icon='INFO')


classes = (
    STREW_PT_scatter_paint,
    STREW_UL_keep_away,
    STREW_PT_scatter_keep_away,
    STREW_PT_scatter_variety,
    STREW_PT_scatter_proximity,
    STREW_PT_scatter_camera,
    STREW_PT_scatter_display,
)

register, unregister = bpy.utils.register_classes_factory(classes)
