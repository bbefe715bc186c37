"""The "Scatter" panel of the Strew tab: terrain, the layer list, the active layer's settings."""

from __future__ import annotations

import bpy
from bpy.app.translations import pgettext_iface as iface_

from ..core.modes import DensityMode, SpacingMode, SurfaceMode
from ..core.pool import default_workers
from ..core.worker_choice import AUTO
from ..scene import live_update
from ..scene.custom_props import WEIGHT_KEY, CustomPropertyError
from ..scene.instancer import prefabs_of
from .main import property_layout
from .scatter_relations import draw_relations


class STREW_UL_layers(bpy.types.UIList):
    """Scatter layers, top to bottom (big objects first)."""

    bl_idname = "STREW_UL_layers"

    def draw_item(self, context, layout, data, item, icon, active_data, active_propname, index=0):
        # The name takes the row; the collection is in the Objects sub-panel, the switch is one icon at the end.
        row = layout.row(align=True)
        row.prop(item, "name", text="", emboss=False, icon='OUTLINER_OB_POINTCLOUD')
        row.prop(item, "enabled", text="", emboss=False,
                 icon='CHECKBOX_HLT' if item.enabled else 'CHECKBOX_DEHLT')


class _ScatterPanel:
    bl_space_type = 'VIEW_3D'
    bl_region_type = 'UI'
    bl_category = "Strew"


def _active_layer(context: bpy.types.Context):
    settings = context.scene.strew
    if 0 <= settings.active_layer_index < len(settings.layers):
        return settings.layers[settings.active_layer_index]
    return None


class _LayerPanel(_ScatterPanel):
    """A sub-panel of the Scatter panel that shows the active layer's settings."""

    bl_parent_id = "STREW_PT_scatter"

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return _active_layer(context) is not None

    def _layout(self) -> bpy.types.UILayout:
        return property_layout(self.layout)


class STREW_PT_scatter(_ScatterPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_scatter"
    bl_label = "Scatter"

    def draw(self, context: bpy.types.Context) -> None:
        settings = context.scene.strew
        layout = property_layout(self.layout)
        layout.prop(settings, "terrain")

        row = layout.row()
        row.template_list("STREW_UL_layers", "", settings, "layers", settings, "active_layer_index", rows=4)
        column = row.column(align=True)
        column.operator("strew.layer_add", icon='ADD', text="")
        column.operator("strew.layer_remove", icon='REMOVE', text="")
        column.separator()
        column.operator("strew.layer_move", icon='TRIA_UP', text="").direction = 'UP'
        column.operator("strew.layer_move", icon='TRIA_DOWN', text="").direction = 'DOWN'
        column.separator()
        column.menu("STREW_MT_layer_presets", icon='PRESET', text="")

        # The main action on its own row; the narrower ones below it (fits Russian at the default width).
        column = layout.column(align=True)
        row = column.row(align=True)
        row.scale_y = 1.4
        row.operator("strew.scatter", icon='PARTICLES')
        row = column.row(align=True)
        layer_op = row.operator("strew.scatter", text="This Layer")
        layer_op.layer_index = settings.active_layer_index
        row.operator("strew.clear", icon='TRASH')
        layout.prop(settings, "show_preview", icon='HIDE_OFF')
        layout.prop(settings, "live_update", icon='FILE_REFRESH')
        problem = live_update.problem(context.scene) if settings.live_update else None
        if problem:
            layout.label(text=problem, icon='ERROR', translate=False)


class STREW_PT_scatter_source(_LayerPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_scatter_source"
    bl_label = "Objects"

    def draw(self, context: bpy.types.Context) -> None:
        layer = _active_layer(context)
        layout = self._layout()
        layout.prop(layer, "surface")
        layout.prop(layer, "targets")
        draw_relations(layout, context, layer)
        layout.prop(layer, "collection")
        if layer.collection is None:
            return
        try:
            prefabs = prefabs_of(layer.collection)
        except CustomPropertyError as error:  # shown here; Scatter refuses the layer with the same line
            layout.label(text=str(error), icon='ERROR', translate=False)
            layout.prop(layer, "output_mode")
            return
        if not prefabs:
            layout.label(text="The collection is empty", icon='ERROR')
        column = layout.column(align=True)
        for prefab in prefabs:
            block = prefab.datablock
            if isinstance(block, bpy.types.Object):
                if WEIGHT_KEY in block:
                    column.prop(block, f'["{WEIGHT_KEY}"]', text=block.name)
                else:
                    column.prop(block.strew, "weight", text=block.name)
            else:
                column.label(text=iface_("{name} (collection, weight {weight:g})").format(
                    name=block.name, weight=prefab.weight), translate=False)
        layout.prop(layer, "output_mode")


class STREW_PT_scatter_spacing(_LayerPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_scatter_spacing"
    bl_label = "Spacing"

    def draw(self, context: bpy.types.Context) -> None:
        layer = _active_layer(context)
        layout = self._layout()
        layout.prop(layer, "spacing")
        by_size = layer.spacing == SpacingMode.OBJECTS  # the radius is then the gap between footprints
        column = layout.column(align=True)
        column.prop(layer, "min_radius", text="Min Gap" if by_size else "Min Radius")
        row = column.row()
        row.active = layer.density_mode != DensityMode.NONE  # Uniform density places every instance at Min Radius
        row.prop(layer, "max_radius", text="Max Gap" if by_size else "Max Radius")
        if layer.density_mode == DensityMode.NONE and layer.max_radius > layer.min_radius:
            layout.label(text="Uniform density uses Min Gap" if by_size else "Uniform density uses Min Radius",
                         icon='INFO')
        layout.prop(layer, "keep_away")
        layout.prop(layer, "seed")


class STREW_PT_scatter_density(_LayerPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_scatter_density"
    bl_label = "Density"
    bl_options = {'DEFAULT_CLOSED'}

    def draw(self, context: bpy.types.Context) -> None:
        layer = _active_layer(context)
        settings = context.scene.strew
        layout = self._layout()
        layout.prop(layer, "density_mode")
        if layer.density_mode == DensityMode.NOISE:
            layout.prop(layer, "noise_scale")
            layout.prop(layer, "noise_octaves")
        elif layer.density_mode == DensityMode.VERTEX_GROUP:
            if settings.terrain is not None:
                layout.prop_search(layer, "density_vertex_group", settings.terrain, "vertex_groups")
            else:
                layout.prop(layer, "density_vertex_group")
        elif layer.density_mode == DensityMode.IMAGE:
            layout.template_ID(layer, "density_image", open="image.open")
        if layer.density_mode != DensityMode.NONE:
            column = layout.column(align=True)
            column.prop(layer, "density_low")
            column.prop(layer, "density_high")
            layout.prop(layer, "density_invert")


class STREW_PT_scatter_masks(_LayerPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_scatter_masks"
    bl_label = "Masks"
    bl_options = {'DEFAULT_CLOSED'}

    def draw(self, context: bpy.types.Context) -> None:
        layer = _active_layer(context)
        settings = context.scene.strew
        layout = self._layout()
        if layer.surface == SurfaceMode.ALL:
            column = layout.column(align=True)
            column.prop(layer, "min_slope")
            column.prop(layer, "max_slope")
        else:
            layout.prop(layer, "max_slope")
        layout.prop(layer, "use_height_range")
        column = layout.column(align=True)
        column.active = layer.use_height_range
        column.prop(layer, "height_min")
        column.prop(layer, "height_max")
        if settings.terrain is not None:
            layout.prop_search(layer, "mask_vertex_group", settings.terrain, "vertex_groups")
        else:
            layout.prop(layer, "mask_vertex_group")
        row = layout.row()
        row.active = bool(layer.mask_vertex_group)
        row.prop(layer, "mask_threshold")
        layout.prop(layer, "mask_image")
        row = layout.row()
        row.active = layer.mask_image is not None
        row.prop(layer, "mask_image_threshold")
        layout.prop(layer, "exclusion_collection")
        row = layout.row()
        row.active = layer.exclusion_collection is not None
        row.prop(layer, "exclusion_margin")


class STREW_PT_scatter_placement(_LayerPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_scatter_placement"
    bl_label = "Placement"
    bl_options = {'DEFAULT_CLOSED'}

    def draw(self, context: bpy.types.Context) -> None:
        layer = _active_layer(context)
        layout = self._layout()
        row = layout.row()
        row.active = layer.surface != SurfaceMode.ALL  # Every Face: always along the face normal
        row.prop(layer, "align_to_normal", slider=True)
        layout.prop(layer, "random_yaw")
        column = layout.column(align=True)
        column.prop(layer, "scale_min")
        column.prop(layer, "scale_max")


class STREW_PT_scatter_large(_ScatterPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_scatter_large"
    bl_label = "Large Worlds"
    bl_parent_id = "STREW_PT_scatter"
    bl_order = 100  # scene-wide settings after every layer sub-panel
    bl_options = {'DEFAULT_CLOSED'}

    def draw(self, context: bpy.types.Context) -> None:
        settings = context.scene.strew
        layer = _active_layer(context)
        layout = property_layout(self.layout)
        if settings.chunk_size:
            layout.prop(settings, "chunk_size")
        else:  # 0: a layer's reach decides (core.scatter.spec.chunk_side)
            layout.prop(settings, "chunk_size", text=iface_("Chunk Size (Automatic)"))
        if settings.workers == AUTO:  # each layer picks one process or the pool (core.worker_choice)
            layout.prop(settings, "workers", text=iface_("Workers (Auto)"))
        else:
            layout.prop(settings, "workers")
        cores = default_workers()
        if settings.workers > cores:
            layout.label(text=iface_("This machine has {cores} cores: {cores} workers run").format(cores=cores),
                         icon='INFO')
        layout.prop(settings, "max_objects")
        if layer is not None:
            layout.prop(layer, "use_tile")
            column = layout.column()
            column.active = layer.use_tile
            column.prop(layer, "tile_size")
            column.prop(layer, "tile_keep", slider=True)


classes = (
    STREW_UL_layers,
    STREW_PT_scatter,
    STREW_PT_scatter_source,
    STREW_PT_scatter_spacing,
    STREW_PT_scatter_density,
    STREW_PT_scatter_masks,
    STREW_PT_scatter_placement,
    STREW_PT_scatter_large,
)

register, unregister = bpy.utils.register_classes_factory(classes)
