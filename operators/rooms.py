"""Tile Rooms operators: Assemble Room (modal with ESC), Clear Room, Detect Sockets, Build Demo Kit, fixed tiles.

The work lives in ``scene.room_job`` / ``scene.room_kit`` (shared with the command line).
"""

from __future__ import annotations

import time

import bpy
from bpy.app.translations import pgettext_rpt as rpt_
from bpy.props import (
    BoolProperty,
    EnumProperty,
    FloatProperty,
    FloatVectorProperty,
    IntProperty,
    IntVectorProperty,
    StringProperty,
)

from ..core.wfc.socket_detect import SIDES
from ..properties.rooms import HEURISTIC_ITEMS
from ..scene import room_job
from ..scene.demo_kit import build_demo_kit
from ..scene.room_kit import (
    KitError,
    detect_object_sockets,
    kit_cell_size,
    tile_objects,
    tiles_off_cell,
    write_sockets,
)
from .modal_job import ModalJob

# Operator property -> room setting it overrides when a script sets it.
_OVERRIDES = ("size", "seed", "periodic", "connected", "heuristic", "max_backtracks", "max_restarts", "time_limit",
              "origin", "compatible", "border_bottom", "border_top", "output")


def room_params(operator: bpy.types.Operator, scene: bpy.types.Scene) -> room_job.RoomParams:
    """The call's settings: the panel's (``scene.strew.room``), overridden by operator properties set by the caller."""
    room = scene.strew.room
    given = operator.properties.is_property_set

    def pick(name: str):
        return getattr(operator, name) if given(name) else getattr(room, name)

    kit = operator.kit if given("kit") else (room.kit.name if room.kit is not None else "")
    if given("cell_size"):
        cell_size = tuple(operator.cell_size)
    else:
        cell_size = None if room.auto_cell_size else tuple(room.cell_size)
    border = (operator.border or None) if given("border") else (room.border if room.use_border else None)
    if given("fixed"):
        fixed = room_job.parse_fixed(operator.fixed)
    else:
        fixed = tuple(room_job.FixedTile(item.tile.name, int(item.rotation), tuple(item.cell))
                      for item in room.fixed if item.tile is not None)
    values = {name: pick(name) for name in _OVERRIDES}
    return room_job.RoomParams(
        kit=kit, room_name=operator.room_name if given("room_name") else room.room_name,
        size=(int(values["size"][0]), int(values["size"][1]), int(values["size"][2])),
        seed=int(values["seed"]), cell_size=cell_size,
        origin=tuple(values["origin"]), periodic=bool(values["periodic"]), border=border,
        border_bottom=values["border_bottom"], border_top=values["border_top"], compatible=values["compatible"],
        connected=bool(values["connected"]), fixed=fixed, heuristic=values["heuristic"],
        max_backtracks=int(values["max_backtracks"]), max_restarts=int(values["max_restarts"]),
        time_limit=float(values["time_limit"]), output=values["output"],
    )


class STREW_OT_assemble_room(ModalJob):
    """Fill a grid with the kit's tiles so every side fits its neighbour (Wave Function Collapse)"""

    bl_idname = "strew.assemble_room"
    bl_label = "Assemble Room"
    bl_description = ("Fill a grid with the kit's tiles so that every side fits its neighbour; replaces only "
                      "Strew's previous room of the same name")
    bl_options = {'REGISTER', 'UNDO'}

    # Every property overrides the Tile Rooms panel's value when a script sets it.
    kit: StringProperty(name="Kit", description="Name of the kit collection",  # type: ignore[valid-type]
                        options={'SKIP_SAVE'})
    room_name: StringProperty(name="Room", options={'SKIP_SAVE'})  # type: ignore[valid-type]
    size: IntVectorProperty(name="Size", size=3, default=(12, 12, 1), min=1,  # type: ignore[valid-type]
                            options={'SKIP_SAVE'})
    cell_size: FloatVectorProperty(name="Cell Size", size=3, default=(2.0, 2.0, 2.0), min=0.001,  # type: ignore[valid-type]
                                   subtype='XYZ_LENGTH', unit='LENGTH', options={'SKIP_SAVE'})
    origin: FloatVectorProperty(name="Origin", size=3, subtype='TRANSLATION', unit='LENGTH',  # type: ignore[valid-type]
                                options={'SKIP_SAVE'})
    seed: IntProperty(name="Seed", min=0, options={'SKIP_SAVE'})  # type: ignore[valid-type]
    periodic: BoolProperty(name="Periodic", options={'SKIP_SAVE'})  # type: ignore[valid-type]
    border: StringProperty(  # type: ignore[valid-type]
        name="Border", description="Label(s) outside the four walls; empty: no border", options={'SKIP_SAVE'})
    border_bottom: StringProperty(name="Below", options={'SKIP_SAVE'})  # type: ignore[valid-type]
    border_top: StringProperty(name="Above", options={'SKIP_SAVE'})  # type: ignore[valid-type]
    compatible: StringProperty(name="Compatible", options={'SKIP_SAVE'})  # type: ignore[valid-type]
    connected: BoolProperty(name="All Walkable Connected", options={'SKIP_SAVE'})  # type: ignore[valid-type]
    fixed: StringProperty(  # type: ignore[valid-type]
        name="Fixed Tiles", description="TILE[@ROTATION] X Y Z separated by ';' (replaces the panel's list)",
        options={'SKIP_SAVE'})
    heuristic: EnumProperty(name="Heuristic", items=HEURISTIC_ITEMS, default='AUTO',  # type: ignore[valid-type]
                            options={'SKIP_SAVE'})
    max_backtracks: IntProperty(name="Backtracking Budget", default=2000, min=0,  # type: ignore[valid-type]
                                options={'SKIP_SAVE'})
    max_restarts: IntProperty(name="Restarts", default=20, min=0, options={'SKIP_SAVE'})  # type: ignore[valid-type]
    time_limit: FloatProperty(name="Time Limit", default=60.0, min=0.1, options={'SKIP_SAVE'})  # type: ignore[valid-type]
    output: EnumProperty(name="Output", items=room_job.OUTPUT_ITEMS, default='INSTANCES',  # type: ignore[valid-type]
                         options={'SKIP_SAVE'})

    job_error = room_job.RoomError
    cancel_message = "Assemble Room cancelled; the scene is unchanged"
    timer_step = 0.02

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.scene is not None and hasattr(context.scene, "strew")

    def _params(self, context: bpy.types.Context) -> room_job.RoomParams | None:
        try:
            return room_params(self, context.scene)
        except room_job.RoomError as error:
            self.report({'ERROR'}, str(error))
            return None

    def execute(self, context: bpy.types.Context) -> set[str]:
        params = self._params(context)
        if params is None:
            return {'CANCELLED'}
        try:
            result = room_job.run_to_end(context.scene, params)
        except room_job.RoomError as error:
            self.report({'ERROR'}, str(error))
            return {'CANCELLED'}
        self.report({'INFO'}, result.summary())
        return {'FINISHED'}

    def _fill_from_panel(self, context: bpy.types.Context) -> None:
        """Copy the panel's values into the properties the caller left unset (so Adjust Last Operation shows
        and re-runs the room that was made)."""
        room = context.scene.strew.room
        given = self.properties.is_property_set
        for name in _OVERRIDES:
            if not given(name):
                setattr(self, name, getattr(room, name))
        if not given("kit") and room.kit is not None:
            self.kit = room.kit.name
        if not given("room_name"):
            self.room_name = room.room_name
        if not given("border"):
            self.border = room.border if room.use_border else ""

    def invoke(self, context: bpy.types.Context, event: bpy.types.Event) -> set[str]:
        self._fill_from_panel(context)
        if context.window is None:  # no window to run a modal operator in (e.g. a background script)
            return self.execute(context)
        params = self._params(context)
        if params is None:
            return {'CANCELLED'}
        return self.start_job(context, room_job.assemble(context.scene, params, threaded=True))

    def report_done(self, result: room_job.RoomResult) -> None:
        self.report({'INFO'}, result.summary())


class STREW_OT_clear_room(bpy.types.Operator):
    """Remove the room Strew assembled (only objects Strew created)"""

    bl_idname = "strew.clear_room"
    bl_label = "Clear Room"
    bl_description = "Remove the room Strew assembled; the kit and your own objects are never touched"
    bl_options = {'REGISTER', 'UNDO'}

    room_name: StringProperty(name="Room", description="Room to clear (default: the panel's)",  # type: ignore[valid-type]
                              options={'SKIP_SAVE'})

    def execute(self, context: bpy.types.Context) -> set[str]:
        name = self.room_name or context.scene.strew.room.room_name
        removed = room_job.clear_room(context.scene, name)
        self.report({'INFO'}, rpt_('Cleared {count:,} tile(s) of "{name}"').format(count=removed, name=name))
        return {'FINISHED'}


class STREW_OT_detect_sockets(bpy.types.Operator):
    """Label each tile side from the geometry on that side of the cell"""

    bl_idname = "strew.detect_sockets"
    bl_label = "Detect Sockets"
    bl_description = ("Label each side of the tiles from the vertices on the cell's boundary plane (quantised and "
                      "hashed; mirrored profiles get labels x and x~ that fit each other). Review them afterwards")
    bl_options = {'REGISTER', 'UNDO'}

    target: EnumProperty(  # type: ignore[valid-type]
        name="Tiles", items=[('KIT', "Whole Kit", "Every tile of the panel's kit"),
                             ('SELECTED', "Selected", "The selected objects")], default='KIT')
    kit: StringProperty(name="Kit", description="Kit collection (default: the panel's)",  # type: ignore[valid-type]
                        options={'SKIP_SAVE'})
    quantum: FloatProperty(  # type: ignore[valid-type]
        name="Precision", default=0.01, min=1e-5, soft_max=0.1, subtype='DISTANCE', unit='LENGTH',
        description="Vertices are rounded to this step before hashing; geometry off by more gets another label")
    vertical: BoolProperty(  # type: ignore[valid-type]
        name="Up and Down", default=False,
        description="Also label the top and bottom from the geometry (off: they stay as set, since how storeys "
        "stack, through floors, stairs and voids, is rarely what the top and bottom faces show)")

    def execute(self, context: bpy.types.Context) -> set[str]:
        room = context.scene.strew.room
        collection = bpy.data.collections.get(self.kit) if self.kit else room.kit
        if self.target == 'KIT':
            if collection is None:
                self.report({'ERROR'}, "No kit: pick the kit collection in the Tile Rooms panel")
                return {'CANCELLED'}
            objects = tile_objects(collection)
        else:
            objects = list(context.selected_objects)
        if not objects:
            self.report({'ERROR'}, "No tile to label: the kit is empty or nothing is selected")
            return {'CANCELLED'}
        try:
            if collection is not None and room.auto_cell_size:
                size = kit_cell_size(collection, tile_objects(collection))
            else:
                size = tuple(room.cell_size)
            sides = SIDES if self.vertical else SIDES[:4]
            found = {obj.name: {side: label for side, label in detect_object_sockets(obj, size, self.quantum).items()
                                if side in sides} for obj in objects}
            off = tiles_off_cell(objects, size, self.quantum, vertical=self.vertical)
        except (KitError, ValueError) as error:
            self.report({'ERROR'}, str(error))
            return {'CANCELLED'}
        if off:
            each = rpt_("{name} ({distance:.1f} cm)")
            listed = ", ".join(each.format(name=name, distance=d * 100) for name, d in off[:8])
            listed += " …" if len(off) > 8 else ""
            self.report({'WARNING'}, rpt_(
                "{count} tile(s) reach outside their {x:g} × {y:g} × {z:g} cell "
                "(origin at the centre of the bottom face?): {listed}"
            ).format(count=len(off), x=size[0], y=size[1], z=size[2], listed=listed))
        for obj in objects:
            write_sockets(obj, found[obj.name])
        labels = {label for sockets in found.values() for label in sockets.values()}
        self.report({'INFO'}, rpt_(
            "Labelled {tiles} tile(s) with {sockets} distinct socket(s); cell {x:g} × {y:g} × {z:g}"
        ).format(tiles=len(objects), sockets=len(labels), x=size[0], y=size[1], z=size[2]))
        return {'FINISHED'}


class STREW_OT_build_demo_kit(bpy.types.Operator):
    """Build the procedural 50+ tile demo kit and set up the Tile Rooms panel for a two-storey room"""

    bl_idname = "strew.build_demo_kit"
    bl_label = "Build Demo Kit"
    bl_description = ("Build a modular kit of 53 tiles (floors, walls, corners, doors, arches, windows, corridors, "
                      "stairs, balconies, air) with sockets set, in a new collection")
    bl_options = {'REGISTER', 'UNDO'}

    name: StringProperty(name="Name", default="Tiles")  # type: ignore[valid-type]

    def execute(self, context: bpy.types.Context) -> set[str]:
        started = time.perf_counter()
        collection = build_demo_kit(context.scene, self.name)
        self.report({'INFO'}, rpt_('Kit "{name}": {count} tiles in {seconds:.2f} s').format(
            name=collection.name, count=len(collection.objects), seconds=time.perf_counter() - started))
        return {'FINISHED'}


class STREW_OT_fixed_tile_add(bpy.types.Operator):
    """Pin a tile to a cell (the active object, when it is a tile of the kit)"""

    bl_idname = "strew.fixed_tile_add"
    bl_label = "Add Fixed Tile"
    bl_options = {'REGISTER', 'UNDO'}

    def execute(self, context: bpy.types.Context) -> set[str]:
        room = context.scene.strew.room
        item = room.fixed.add()
        active = context.active_object
        if active is not None and room.kit is not None and active.name in room.kit.all_objects:
            item.tile = active
        room.active_fixed_index = len(room.fixed) - 1
        return {'FINISHED'}


class STREW_OT_fixed_tile_remove(bpy.types.Operator):
    """Remove the selected fixed tile"""

    bl_idname = "strew.fixed_tile_remove"
    bl_label = "Remove Fixed Tile"
    bl_options = {'REGISTER', 'UNDO'}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return len(context.scene.strew.room.fixed) > 0

    def execute(self, context: bpy.types.Context) -> set[str]:
        room = context.scene.strew.room
        room.fixed.remove(room.active_fixed_index)
        room.active_fixed_index = max(0, min(room.active_fixed_index, len(room.fixed) - 1))
        return {'FINISHED'}


classes = (STREW_OT_assemble_room, STREW_OT_clear_room, STREW_OT_detect_sockets, STREW_OT_build_demo_kit,
           STREW_OT_fixed_tile_add, STREW_OT_fixed_tile_remove)

register, unregister = bpy.utils.register_classes_factory(classes)
