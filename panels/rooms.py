"""The "Tile Rooms" panel of the Strew tab, and the "Strew Tile" panel in Object Properties."""

from __future__ import annotations

import bpy
from bpy.app.translations import pgettext_iface as iface_

from ..core.wfc.counts import parse_counts
from ..core.wfc.socket_detect import SIDES
from ..scene.custom_props import PASSABLE_KEY, ROTATIONS_KEY, SOCKETS_KEY, WALKABLE_KEY, WEIGHT_KEY
from ..scene.room_output import room_collection
from ..scene.room_pieces import recorded
from .main import property_layout
from .room_spread import draw_spread


class STREW_UL_fixed_tiles(bpy.types.UIList):
    """Tiles pinned to cells."""

    bl_idname = "STREW_UL_fixed_tiles"

    def draw_item(self, context, layout, data, item, icon, active_data, active_propname, index=0):
        row = layout.row(align=True)
        if item.tile:
            row.label(text=item.tile.name, translate=False, icon='MESH_CUBE')
        else:
            row.label(text="(pick a tile)", icon='MESH_CUBE')
        row.label(text=iface_("{rotation}°  ({x}, {y}, {z})").format(
            rotation=item.rotation, x=item.cell[0], y=item.cell[1], z=item.cell[2]), translate=False)


class STREW_UL_entrances(bpy.types.UIList):
    """Cells that must hold a walkable tile, joined to each other."""

    bl_idname = "STREW_UL_entrances"

    def draw_item(self, context, layout, data, item, icon, active_data, active_propname, index=0):
        x, y, z = item.cell
        if any(c >= s for c, s in zip(item.cell, data.size, strict=True)):
            layout.label(text=iface_("({x}, {y}, {z}) is outside the room").format(x=x, y=y, z=z), translate=False,
                         icon='ERROR')
        else:
            layout.label(text=iface_("({x}, {y}, {z})").format(x=x, y=y, z=z), translate=False, icon='PIVOT_CURSOR')


class STREW_UL_regions(bpy.types.UIList):
    """Boxes of cells or mesh volumes whose tiles are restricted or weighted."""

    bl_idname = "STREW_UL_regions"

    def draw_item(self, context, layout, data, item, icon, active_data, active_propname, index=0):
        row = layout.row(align=True)
        row.prop(item, "name", text="", emboss=False, icon='MOD_BOOLEAN' if item.volume else 'SELECT_SET')
        if item.volume is not None:
            row.label(text=item.volume.name, translate=False, icon='MESH_DATA')
        else:
            low, high = tuple(item.box_min), tuple(item.box_max)
            row.label(text=iface_("{low} – {high}").format(low=low, high=high), translate=False)
        row.prop(item, "enabled", text="")


def draw_tile_settings(layout: bpy.types.UILayout, obj: bpy.types.Object) -> None:
    """A tile's sockets, weight, rotations and walkability; says when a custom property overrides a value."""
    property_layout(layout)
    settings = obj.strew
    if SOCKETS_KEY in obj:
        box = layout.box()
        box.label(text=iface_('Custom property "{key}" wins:').format(key=SOCKETS_KEY), translate=False, icon='INFO')
        value = obj[SOCKETS_KEY]
        value = value.to_dict() if hasattr(value, "to_dict") else value
        for side in SIDES:
            label = value.get(side, '') if hasattr(value, 'get') else '?'
            box.label(text=iface_("{side}: {label}").format(side=side, label=label), translate=False)
    else:
        column = layout.column(align=True)
        for side in SIDES:
            column.prop(settings, f"socket_{side}")
    for key, prop in ((WEIGHT_KEY, "weight"), (ROTATIONS_KEY, "rotations"), (WALKABLE_KEY, "walkable"),
                      (PASSABLE_KEY, "passable")):
        if key in obj:
            layout.label(text=iface_('{setting}: custom property "{key}" wins').format(
                setting=iface_(prop.title()), key=key), translate=False, icon='INFO')
        elif prop == "rotations":
            layout.row(heading=prop.title()).prop(settings, prop, expand=True)
        elif prop == "passable":  # two rows: the four sides, then up and down (one row cuts the words)
            column = layout.column(heading=prop.title(), align=True)
            for items in (('n', 'e', 's', 'w'), ('up', 'down')):
                row = column.row(align=True)
                for item in items:
                    row.prop_enum(settings, prop, item)
        else:
            layout.prop(settings, prop)
    layout.operator("strew.detect_sockets", text="Detect Sockets of Selected", icon='SNAP_EDGE').target = 'SELECTED'


def draw_counts(layout: bpy.types.UILayout, text: str) -> None:
    """The Counts field read back as one line per tile ("stairs: 0 – 4"), or why it cannot be read."""
    try:
        counts = parse_counts(text)
    except ValueError as error:
        layout.label(text=str(error), translate=False, icon='ERROR')
        return
    column = layout.box().column(align=True)
    for tile, (low, high) in counts.items():
        if high is None:
            amount = iface_("at least {low}").format(low=low)
        elif low == high:
            amount = iface_("exactly {low}").format(low=low)
        else:
            amount = iface_("{low} to {high}").format(low=low, high=high)
        column.label(text=iface_("{tile}: {amount}").format(tile=tile, amount=amount), translate=False,
                     icon='LINENUMBERS_ON')


class STREW_PT_tile(bpy.types.Panel):
    """Object Properties › Strew Tile."""

    bl_idname = "STREW_PT_tile"
    bl_label = "Strew Tile"
    bl_space_type = 'PROPERTIES'
    bl_region_type = 'WINDOW'
    bl_context = "object"
    bl_options = {'DEFAULT_CLOSED'}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.object is not None and hasattr(context.object, "strew")

    def draw(self, context: bpy.types.Context) -> None:
        draw_tile_settings(self.layout, context.object)


class _RoomsPanel:
    bl_space_type = 'VIEW_3D'
    bl_region_type = 'UI'
    bl_category = "Strew"


class STREW_PT_rooms(_RoomsPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_rooms"
    bl_label = "Tile Rooms"

    def draw(self, context: bpy.types.Context) -> None:
        room = context.scene.strew.room
        layout = property_layout(self.layout)
        row = layout.row(align=True)
        row.prop(room, "kit")
        row.operator("strew.build_demo_kit", text="", icon='ADD')
        row.operator("strew.import_mxgmn", text="", icon='IMPORT')
        layout.prop(room, "room_name")
        layout.prop(room, "size")
        layout.prop(room, "auto_cell_size")
        column = layout.column()
        column.enabled = not room.auto_cell_size
        column.prop(room, "cell_size", text="Cell")
        layout.prop(room, "origin")
        layout.prop(room, "seed")
        layout.prop(room, "output")
        layout.prop(room, "use_set_pieces")
        row = layout.row(align=True)
        row.scale_y = 1.4
        row.operator("strew.assemble_room", icon='MOD_BUILD')
        row.operator("strew.clear_room", text="", icon='TRASH')
        pieces = recorded(room_collection(context.scene, room.room_name))
        if pieces:
            layout.label(text=iface_("Built around {count} set piece(s)").format(count=len(pieces)), translate=False,
                         icon='PINNED')
        layout.operator("strew.detect_sockets", icon='SNAP_EDGE').target = 'KIT'


class STREW_PT_rooms_rules(_RoomsPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_rooms_rules"
    bl_order = 0  # Constraints, Entrances, Paths, Regions, Search, Regenerate Box, Active Tile
    bl_label = "Constraints"
    bl_parent_id = "STREW_PT_rooms"
    bl_options = {'DEFAULT_CLOSED'}

    def draw(self, context: bpy.types.Context) -> None:
        room = context.scene.strew.room
        layout = property_layout(self.layout)
        layout.prop(room, "periodic")
        layout.prop(room, "use_border")
        column = layout.column()
        column.enabled = room.use_border and not room.periodic
        column.prop(room, "border")
        layout.prop(room, "border_bottom")
        layout.prop(room, "border_top")
        layout.prop(room, "compatible")
        layout.prop(room, "connected")
        layout.prop(room, "counts")
        if room.counts.strip():
            draw_counts(layout, room.counts)
        draw_spread(layout, room)
        layout.label(text="Fixed Tiles")
        draw_list(layout, room, "fixed", "active_fixed_index", "STREW_UL_fixed_tiles",
                  "strew.fixed_tile_add", "strew.fixed_tile_remove")
        if 0 <= room.active_fixed_index < len(room.fixed):
            item = room.fixed[room.active_fixed_index]
            layout.prop(item, "tile")
            layout.prop(item, "rotation")
            layout.prop(item, "cell")


def draw_list(layout: bpy.types.UILayout, room: bpy.types.PropertyGroup, prop: str, active: str, ui_list: str,
              add: str, remove: str) -> None:
    """The room's list ``prop`` (its selected item's index in ``active``) with its add and remove buttons."""
    row = layout.row()
    row.template_list(ui_list, "", room, prop, room, active, rows=3)
    column = row.column(align=True)
    column.operator(add, icon='ADD', text="")
    column.operator(remove, icon='REMOVE', text="")


class STREW_PT_rooms_entrances(_RoomsPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_rooms_entrances"
    bl_order = 1
    bl_label = "Entrances"
    bl_parent_id = "STREW_PT_rooms"
    bl_options = {'DEFAULT_CLOSED'}

    def draw(self, context: bpy.types.Context) -> None:
        room = context.scene.strew.room
        layout = property_layout(self.layout)
        draw_list(layout, room, "entrances", "active_entrance_index", "STREW_UL_entrances",
                  "strew.entrance_add", "strew.entrance_remove")
        if 0 <= room.active_entrance_index < len(room.entrances):
            layout.prop(room.entrances[room.active_entrance_index], "cell")
        layout.operator("strew.pick_room_cell", icon='RESTRICT_SELECT_OFF')
        if len(room.entrances) and not room.connected:
            layout.label(text="Entrances join all walkable cells", icon='INFO')


class STREW_PT_rooms_regions(_RoomsPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_rooms_regions"
    bl_order = 3
    bl_label = "Regions"
    bl_parent_id = "STREW_PT_rooms"
    bl_options = {'DEFAULT_CLOSED'}

    def draw(self, context: bpy.types.Context) -> None:
        room = context.scene.strew.room
        layout = property_layout(self.layout)
        draw_list(layout, room, "regions", "active_region_index", "STREW_UL_regions",
                  "strew.region_add", "strew.region_remove")
        if not 0 <= room.active_region_index < len(room.regions):
            return
        region = room.regions[room.active_region_index]
        layout.prop(region, "volume")
        column = layout.column()
        column.enabled = region.volume is None
        column.prop(region, "box_min")
        column.prop(region, "box_max")
        column.operator("strew.pick_room_box", icon='RESTRICT_SELECT_OFF').target = 'REGION'
        layout.prop(region, "tiles")
        layout.prop(region, "only")
        layout.prop(region, "weight")


class STREW_PT_rooms_search(_RoomsPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_rooms_search"
    bl_order = 4
    bl_label = "Search"
    bl_parent_id = "STREW_PT_rooms"
    bl_options = {'DEFAULT_CLOSED'}

    def draw(self, context: bpy.types.Context) -> None:
        room = context.scene.strew.room
        layout = property_layout(self.layout)
        for prop in ("heuristic", "max_backtracks", "max_restarts", "time_limit"):
            layout.prop(room, prop)


class STREW_PT_rooms_edit(_RoomsPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_rooms_edit"
    bl_order = 5
    bl_label = "Regenerate Box"
    bl_parent_id = "STREW_PT_rooms"
    bl_options = {'DEFAULT_CLOSED'}

    def draw(self, context: bpy.types.Context) -> None:
        room = context.scene.strew.room
        layout = property_layout(self.layout)
        layout.operator("strew.pick_room_box", icon='RESTRICT_SELECT_OFF')
        layout.prop(room, "box_min")
        layout.prop(room, "box_max")
        layout.operator("strew.regenerate_room_box", icon='FILE_REFRESH')
        split = layout.split(factor=0.5, align=True)  # Grow | side | cells: the button keeps half the row
        split.operator("strew.grow_room", icon='FULLSCREEN_ENTER')
        row = split.row(align=True)
        row.prop(room, "grow_side", text="")
        row.prop(room, "grow_cells", text="")
        layout.prop(room, "grow_keep_walls")


class STREW_PT_rooms_tile(_RoomsPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_rooms_tile"
    bl_order = 6
    bl_label = "Active Tile"
    bl_parent_id = "STREW_PT_rooms"

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.active_object is not None

    def draw(self, context: bpy.types.Context) -> None:
        obj = context.active_object
        self.layout.label(text=obj.name, translate=False, icon='OBJECT_DATA')
        if "strew_tiles" in obj and obj.type == 'MESH':
            self.layout.label(text=iface_("Room of {count:,} tiles as points (strew_cell, strew_tile, "
                                          "strew_rotation)").format(count=len(obj.data.vertices)),
                              translate=False, icon='INFO')
            return
        if "strew_tile" in obj:
            self.layout.label(text=iface_("Placed: {tile} at {cell}, {rotation}°").format(
                tile=obj['strew_tile'], cell=tuple(obj['strew_cell']), rotation=obj['strew_rotation']),
                translate=False, icon='INFO')
            return
        draw_tile_settings(self.layout, obj)


classes = (STREW_UL_fixed_tiles, STREW_UL_entrances, STREW_UL_regions, STREW_PT_tile, STREW_PT_rooms,
           STREW_PT_rooms_rules, STREW_PT_rooms_entrances, STREW_PT_rooms_regions, STREW_PT_rooms_search,
           STREW_PT_rooms_edit, STREW_PT_rooms_tile)

register, unregister = bpy.utils.register_classes_factory(classes)
