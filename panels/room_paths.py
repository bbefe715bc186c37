"""The Paths sub-panel of Tile Rooms: pairs of cells joined through walkable cells, loops and a minimum length."""

from __future__ import annotations

import bpy
from bpy.app.translations import pgettext_iface as iface_

from .main import property_layout
from .rooms import _RoomsPanel, draw_list


class STREW_UL_room_paths(bpy.types.UIList):
    """Pairs of cells joined through walkable cells."""

    bl_idname = "STREW_UL_room_paths"

    def draw_item(self, context, layout, data, item, icon, active_data, active_propname, index=0):
        start, end = tuple(item.start), tuple(item.end)
        outside = any(c >= s for cell in (start, end) for c, s in zip(cell, data.size, strict=True))
        if outside:
            layout.label(text=iface_("{start} → {end} is outside the room").format(start=start, end=end),
                         translate=False, icon='ERROR')
        elif start == end:
            layout.label(text=iface_("{start} → {end}: give two different cells").format(start=start, end=end),
                         translate=False, icon='ERROR')
        else:
            layout.label(text=iface_("{start} → {end}").format(start=start, end=end), translate=False,
                         icon='TRACKING')


class STREW_PT_rooms_paths(_RoomsPanel, bpy.types.Panel):
    bl_idname = "STREW_PT_rooms_paths"
    bl_order = 2  # after Entrances (panels/rooms.py numbers the others)
    bl_label = "Paths"
    bl_parent_id = "STREW_PT_rooms"
    bl_options = {'DEFAULT_CLOSED'}

    def draw(self, context: bpy.types.Context) -> None:
        room = context.scene.strew.room
        layout = property_layout(self.layout)
        draw_list(layout, room, "paths", "active_path_index", "STREW_UL_room_paths", "strew.room_path_add",
                  "strew.room_path_remove")
        if 0 <= room.active_path_index < len(room.paths):
            item = room.paths[room.active_path_index]
            layout.prop(item, "start")
            layout.prop(item, "end")
        layout.operator("strew.pick_room_path", icon='RESTRICT_SELECT_OFF')
        layout.prop(room, "loops")
        layout.prop(room, "min_path_length", text="Min Length")


classes = (STREW_UL_room_paths, STREW_PT_rooms_paths)

register, unregister = bpy.utils.register_classes_factory(classes)
