"""The active layer's curves: which it follows and how (a sub-panel of Scatter)."""

from __future__ import annotations

import bpy

from ..core.modes import AlongMode
from .scatter import _active_layer, _LayerPanel


class STREW_PT_scatter_along(_LayerPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_scatter_along"
    bl_label = "Along Curves"
    bl_options = {'DEFAULT_CLOSED'}

    def draw(self, context: bpy.types.Context) -> None:
        layer = _active_layer(context)
        layout = self._layout()
        layout.prop(layer, "along_curve")
        layout.prop(layer, "along_curves")
        body = layout.column()
        body.active = layer.along_curve is not None or layer.along_curves is not None
        body.prop(layer, "along_mode")
        if layer.along_mode == AlongMode.STEP:
            column = body.column(align=True)
            column.prop(layer, "along_step")
            column.prop(layer, "along_jitter", slider=True)
        elif layer.along_mode == AlongMode.BAND:
            body.prop(layer, "along_width")
        column = body.column(align=True)
        column.prop(layer, "along_offset")
        row = column.row()
        row.active = layer.along_offset != 0
        row.prop(layer, "along_both_sides")
        if layer.along_mode != AlongMode.BAND:
            body.prop(layer, "along_place")
            body.prop(layer, "along_follow")


classes = (STREW_PT_scatter_along,)

register, unregister = bpy.utils.register_classes_factory(classes)
