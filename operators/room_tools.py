"""Tile Rooms tools beside Assemble Room: Regenerate Box (re-solve a box of cells, keep the rest) and Import
mxgmn XML (a simple-tiled tileset as a kit)."""

from __future__ import annotations

import time

import bpy
from bpy.app.translations import pgettext_rpt as rpt_
from bpy.props import IntVectorProperty, StringProperty
from bpy_extras.io_utils import ImportHelper

from ..scene.room_edit import regenerate_box
from ..scene.room_job import RoomError
from ..scene.room_mxgmn import import_mxgmn
from ..scene.room_output import room_collection
from .rooms import STREW_OT_assemble_room, fill_from_panel, room_params


def has_room(operator: type[bpy.types.Operator], context: bpy.types.Context) -> bool:
    """Poll of the tools that edit the assembled room: there is one (else the operator says so)."""
    scene = context.scene
    if scene is None or not hasattr(scene, "strew"):
        return False
    if room_collection(scene, scene.strew.room.room_name) is None:
        operator.poll_message_set("Assemble a room first")
        return False
    return True


class STREW_OT_regenerate_room_box(bpy.types.Operator):
    ("Re-solve the cells of the box (From … To, inclusive) of the room Strew assembled; the cells around it keep "
     "their tiles and the new ones fit them")

    bl_idname = "strew.regenerate_room_box"
    bl_label = "Regenerate Box"
    bl_options = {'REGISTER', 'UNDO'}

    # The box, and every option of Assemble Room (a script may override the panel's, e.g. the seed).
    __annotations__ = {
        "box_min": IntVectorProperty(name="From", size=3, min=0, options={'SKIP_SAVE'}),
        "box_max": IntVectorProperty(name="To", size=3, min=0, options={'SKIP_SAVE'}),
        **STREW_OT_assemble_room.__annotations__,
    }

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return has_room(cls, context)

    def execute(self, context: bpy.types.Context) -> set[str]:
        room = context.scene.strew.room
        given = self.properties.is_property_set
        box_min = tuple(self.box_min) if given("box_min") else tuple(room.box_min)
        box_max = tuple(self.box_max) if given("box_max") else tuple(room.box_max)
        started = time.perf_counter()
        fill_from_panel(self, room)
        try:
            params = room_params(self, room)
            result = regenerate_box(context.scene, params, box_min, box_max)
        except RoomError as error:
            self.report({'ERROR'}, str(error))
            return {'CANCELLED'}
        cells = 1
        for a, b in zip(box_min, box_max, strict=True):
            cells *= abs(int(a) - int(b)) + 1
        self.report({'INFO'}, rpt_('{name}: regenerated {cells:,} cell(s), {changed:,} changed, in {seconds:.2f} s')
                    .format(name=result.name, cells=cells, changed=result.placed,
                            seconds=time.perf_counter() - started))
        return {'FINISHED'}


class STREW_OT_import_mxgmn(bpy.types.Operator, ImportHelper):
    ("Import an mxgmn (WaveFunctionCollapse) simple-tiled XML tileset as a kit of flat 1 m tiles that keeps the "
     "tileset's own adjacency rules; pictures beside the XML become textures")

    bl_idname = "strew.import_mxgmn"
    bl_label = "Import mxgmn XML"
    bl_options = {'REGISTER', 'UNDO'}

    filename_ext = ".xml"
    filter_glob: StringProperty(name="File Filter", default="*.xml", options={'HIDDEN'})
    subset: StringProperty(
        name="Subset", description="Name of a <subset> of the tileset to use (empty: every tile)")

    def execute(self, context: bpy.types.Context) -> set[str]:
        try:
            collection = import_mxgmn(context.scene, self.filepath, self.subset)
        except ValueError as error:
            self.report({'ERROR'}, str(error))
            return {'CANCELLED'}
        self.report({'INFO'}, rpt_('Kit "{name}": {count} tiles from the mxgmn tileset').format(
            name=collection.name, count=len(collection.objects)))
        return {'FINISHED'}


classes = (STREW_OT_regenerate_room_box, STREW_OT_import_mxgmn)

register, unregister = bpy.utils.register_classes_factory(classes)
