"""Grow Room: more cells on one side of the assembled room, every tile already there kept."""

from __future__ import annotations

import time

import bpy
from bpy.app.translations import pgettext_rpt as rpt_
from bpy.props import BoolProperty, EnumProperty, IntProperty

from ..properties.rooms import GROW_KEEP_WALLS, GROW_SIDE_ITEMS
from ..scene.room_grow import grow_room
from ..scene.room_job import RoomError
from .room_tools import has_room
from .rooms import STREW_OT_assemble_room, fill_from_panel, room_params


def _shift_panel(room: bpy.types.PropertyGroup, offset: tuple[int, int, int]) -> None:
    """The panel's cells counted from the grown room's origin: entrances, fixed tiles, paths, box regions and the
    box."""
    if not any(offset):
        return
    for item in (*room.entrances, *room.fixed):
        item.cell = tuple(int(c) + o for c, o in zip(item.cell, offset, strict=True))
    for path in room.paths:
        path.start = tuple(int(c) + o for c, o in zip(path.start, offset, strict=True))
        path.end = tuple(int(c) + o for c, o in zip(path.end, offset, strict=True))
    for region in room.regions:
        if region.volume is None:
            region.box_min = tuple(int(c) + o for c, o in zip(region.box_min, offset, strict=True))
            region.box_max = tuple(int(c) + o for c, o in zip(region.box_max, offset, strict=True))
    room.box_min = tuple(int(c) + o for c, o in zip(room.box_min, offset, strict=True))
    room.box_max = tuple(int(c) + o for c, o in zip(room.box_max, offset, strict=True))


class STREW_OT_grow_room(bpy.types.Operator):
    ("Add cells on one side of the room Strew assembled: the tiles already there stay (a wall facing the border on "
     "that side moves out, unless Keep Walls), the new cells are solved to fit them (growing on -X, -Y or -Z moves "
     "the room's origin; the old tiles keep their place)")

    bl_idname = "strew.grow_room"
    bl_label = "Grow"
    bl_options = {'REGISTER', 'UNDO'}

    __annotations__ = {
        "side": EnumProperty(name="Side", items=GROW_SIDE_ITEMS, default='+X', options={'SKIP_SAVE'}),
        "cells": IntProperty(name="Cells", default=1, min=1, soft_max=64, options={'SKIP_SAVE'},
                             description="How many cells to add on that side"),
        "keep_walls": BoolProperty(name="Keep Walls", default=False, options={'SKIP_SAVE'},
                                   description=GROW_KEEP_WALLS),
        **STREW_OT_assemble_room.__annotations__,
    }

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return has_room(cls, context)

    def execute(self, context: bpy.types.Context) -> set[str]:
        room = context.scene.strew.room
        given = self.properties.is_property_set
        side = self.side if given("side") else room.grow_side
        cells = self.cells if given("cells") else room.grow_cells
        keep_walls = self.keep_walls if given("keep_walls") else room.grow_keep_walls
        started = time.perf_counter()
        fill_from_panel(self, room)
        try:
            params = room_params(self, room)
            grown = grow_room(context.scene, params, side, cells, keep_walls)
        except RoomError as error:
            self.report({'ERROR'}, str(error))
            return {'CANCELLED'}
        room.size, room.origin = grown.size, grown.origin
        _shift_panel(room, grown.offset)
        message = rpt_("{name}: grown on {side} by {cells} cell(s) to {x} × {y} × {z}, {added:,} new cell(s), in "
                       "{seconds:.2f} s")
        if grown.walls:
            message = rpt_("{name}: grown on {side} by {cells} cell(s) to {x} × {y} × {z}, {added:,} new cell(s), "
                           "{walls:,} wall cell(s) on {side} re-solved, in {seconds:.2f} s")
        self.report({'INFO'}, message.format(
            name=grown.result.name, side=side, cells=cells, x=grown.size[0], y=grown.size[1], z=grown.size[2],
            added=grown.result.placed, walls=grown.walls, seconds=time.perf_counter() - started))
        return {'FINISHED'}


classes = (STREW_OT_grow_room,)

register, unregister = bpy.utils.register_classes_factory(classes)
