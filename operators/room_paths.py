"""Tile Rooms paths: add and remove a path, and pick its two endpoints on the assembled room."""

from __future__ import annotations

from typing import Any

import bpy
from bpy.app.translations import pgettext_iface as iface_
from bpy.app.translations import pgettext_rpt as rpt_

from .list_edit import ListAdd, ListRemove
from .room_pick import _in_viewport, _PickCells


def _paths(context: bpy.types.Context) -> tuple[Any, str, str]:
    return context.scene.strew.room, "paths", "active_path_index"


def set_path(room: bpy.types.PropertyGroup, first: tuple[int, int, int], last: tuple[int, int, int]) -> str:
    """The active path takes the two picked cells (a new path when none is active); the report."""
    if not 0 <= room.active_path_index < len(room.paths):
        room.paths.add()
        room.active_path_index = len(room.paths) - 1
    item = room.paths[room.active_path_index]
    item.start, item.end = first, last
    return rpt_("Path {number}: from {first} to {last}").format(number=room.active_path_index + 1,
                                                               first=tuple(first), last=tuple(last))


class STREW_OT_room_path_add(ListAdd, bpy.types.Operator):
    ("Add a path: two cells that must hold walkable tiles joined through walkable cells (Pick Endpoints sets them "
     "on the room)")

    bl_idname = "strew.room_path_add"
    bl_label = "Add Path"
    bl_options = {'REGISTER', 'UNDO'}

    @classmethod
    def target(cls, context: bpy.types.Context) -> tuple[Any, str, str] | None:
        return _paths(context)

    def fill(self, context: bpy.types.Context, owner: Any, item: Any) -> None:
        size = tuple(owner.size)
        item.start = (0, 0, 0)
        item.end = (max(size[0] - 1, 0), max(size[1] - 1, 0), 0)  # the opposite corner of the ground floor


class STREW_OT_room_path_remove(ListRemove, bpy.types.Operator):
    """Remove the selected path"""

    bl_idname = "strew.room_path_remove"
    bl_label = "Remove Path"
    bl_options = {'REGISTER', 'UNDO'}
    empty = "There is no path to remove"

    @classmethod
    def target(cls, context: bpy.types.Context) -> tuple[Any, str, str] | None:
        return _paths(context)


class STREW_OT_pick_room_path(_PickCells):
    ("Click a path's first endpoint on the room in the viewport, then its second: the selected path takes them (a "
     "new path when none is selected; Esc keeps it as it was)")

    bl_idname = "strew.pick_room_path"
    bl_label = "Pick Endpoints"
    bl_options = {'REGISTER', 'UNDO'}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return _in_viewport(cls, context, iface_("Pick the endpoints from the 3D Viewport"))

    def execute(self, context: bpy.types.Context) -> set[str]:
        self.report({'ERROR'}, rpt_("Pick Endpoints works in the 3D Viewport: click its button there"))
        return {'CANCELLED'}

    def header(self) -> str:
        return iface_("Pick Endpoints: click the path's first cell on the room, then its second; Esc to cancel")

    def cancelled(self) -> str:
        return rpt_("Pick Endpoints cancelled; the path is as it was")

    def apply(self, context: bpy.types.Context, first: tuple[int, int, int], last: tuple[int, int, int]) -> str:
        return set_path(context.scene.strew.room, first, last)


classes = (STREW_OT_room_path_add, STREW_OT_room_path_remove, STREW_OT_pick_room_path)

register, unregister = bpy.utils.register_classes_factory(classes)
