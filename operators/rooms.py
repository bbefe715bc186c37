"""Tile Rooms operators: Assemble Room (modal with ESC), Clear Room, Detect Sockets, Build Demo Kit, fixed tiles.

The work lives in ``scene.room_job`` / ``scene.room_kit`` (shared with the command line).
"""

from __future__ import annotations

import time
from typing import Any

import bpy
from bpy.app.translations import pgettext_rpt as rpt_
from bpy.props import BoolProperty, EnumProperty, FloatProperty, FloatVectorProperty, StringProperty

from ..core.wfc.room import DEFAULT_BORDER
from ..core.wfc.vocab import DEFAULT_CELL_SIZE
from ..demos.kit import build_demo_kit
from ..properties.room_paths import PATHS_DESCRIPTION
from ..properties.rooms import ENTRANCE_DESCRIPTION, REGIONS_DESCRIPTION, ROOM_OPTIONS, room_options, symmetry_value
from ..scene import room_job, socket_job, worker_pool
from ..scene.room_kit import (
    KitError,
    kit_cell_size,
    tile_objects,
)
from ..scene.room_regions import read_region_sources
from .list_edit import ListAdd, ListRemove
from .modal_job import ModalJob


def fill_from_panel(operator: bpy.types.Operator, room: bpy.types.PropertyGroup) -> None:
    """Copy the panel's values into the properties the caller left unset, so the operator's properties alone
    describe the call (and Adjust Last Operation shows and re-runs the room that was made)."""
    given = operator.properties.is_property_set
    for name in ROOM_OPTIONS:
        if not given(name):
            setattr(operator, name, getattr(room, name))
    if not given("kit") and room.kit is not None:
        operator.kit = room.kit.name
    if not given("border"):
        operator.border = room.border if room.use_border else ""
    if not given("cell_size") and not room.auto_cell_size:
        operator.cell_size = room.cell_size
    if not given("fixed"):
        operator.fixed = "; ".join(f"{item.tile.name}@{item.rotation} {item.cell[0]} {item.cell[1]} {item.cell[2]}"
                                   for item in room.fixed if item.tile is not None)
    if not given("entrances"):
        operator.entrances = "; ".join(" ".join(str(c) for c in item.cell) for item in room.entrances)
    if not given("paths"):
        operator.paths = "; ".join(":".join(",".join(str(c) for c in cell) for cell in (item.start, item.end))
                                   for item in room.paths)


def room_params(operator: bpy.types.Operator, room: bpy.types.PropertyGroup) -> room_job.RoomParams:
    """The operator's properties (after :func:`fill_from_panel`) and the regions (its ``regions`` text when given,
    else the panel's list) as one validated settings object."""
    given = operator.properties.is_property_set
    regions = room_job.parse_region_text(operator.regions) if given("regions") else read_region_sources(room)
    return room_job.RoomParams(
        region_sources=regions,
        kit=operator.kit, room_name=operator.room_name, size=tuple(operator.size), seed=operator.seed,
        cell_size=tuple(operator.cell_size) if given("cell_size") else None, origin=tuple(operator.origin),
        periodic=operator.periodic, border=operator.border or None, border_bottom=operator.border_bottom,
        border_top=operator.border_top, compatible=operator.compatible, connected=operator.connected,
        fixed=room_job.parse_room_text(operator.fixed), entrances=room_job.parse_entrance_text(operator.entrances),
        paths=room_job.parse_path_text(operator.paths), loops=operator.loops == 'ALLOWED',
        min_path_length=operator.min_path_length,
        counts=operator.counts, separation=operator.separation, max_runs=operator.max_runs,
        symmetry=symmetry_value(operator.symmetry),
        heuristic=operator.heuristic, max_backtracks=operator.max_backtracks,
        max_restarts=operator.max_restarts, time_limit=operator.time_limit, output=operator.output,
        use_set_pieces=operator.use_set_pieces,
    )


def report_room(operator: bpy.types.Operator, result: room_job.RoomResult) -> None:
    """The room's summary, then each note as a warning (the tiles the room left out), so the note is what the
    status bar shows last; background runs print both (the command line's output)."""
    operator.report({'INFO'}, result.summary())
    if result.pieces:
        operator.report({'INFO'}, result.pieces_line())
    for note in result.notes:
        operator.report({'WARNING'}, note)


class STREW_OT_assemble_room(ModalJob):
    ("Fill a grid with the kit's tiles so that every side fits its neighbour; replaces only Strew's previous room of "
     "the same name")

    bl_idname = "strew.assemble_room"
    bl_label = "Assemble Room"
    bl_options = {'REGISTER', 'UNDO'}

    # Every property overrides the Tile Rooms panel's value when a script sets it.
    __annotations__ = {
        "kit": StringProperty(name="Kit", description="Name of the kit collection", options={'SKIP_SAVE'}),
        "cell_size": FloatVectorProperty(name="Cell Size", size=3, default=DEFAULT_CELL_SIZE, min=0.001,
                                         subtype='XYZ_LENGTH', unit='LENGTH', options={'SKIP_SAVE'}),
        "border": StringProperty(name="Border", default=DEFAULT_BORDER or "",
                                 description="Label(s) outside the four walls; empty: no border",
                                 options={'SKIP_SAVE'}),
        "fixed": StringProperty(
            name="Fixed Tiles", description="TILE[@ROTATION] X Y Z separated by ';' (replaces the panel's list)",
            options={'SKIP_SAVE'}),
        "entrances": StringProperty(
            name="Entrances", description=ENTRANCE_DESCRIPTION + "; X Y Z separated by ';' (replaces the panel's "
            "list)", options={'SKIP_SAVE'}),
        "regions": StringProperty(name="Regions", description=REGIONS_DESCRIPTION, options={'SKIP_SAVE'}),
        "paths": StringProperty(
            name="Paths", description=PATHS_DESCRIPTION + "; X,Y,Z:X,Y,Z separated by ';' (replaces the panel's "
            "list)", options={'SKIP_SAVE'}),
        **room_options(operator=True),
    }

    job_error = room_job.RoomError
    cancel_message = "Assemble Room cancelled; the scene is unchanged"

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.scene is not None and hasattr(context.scene, "strew")

    def _params(self, context: bpy.types.Context) -> room_job.RoomParams | None:
        fill_from_panel(self, context.scene.strew.room)
        try:
            return room_params(self, context.scene.strew.room)
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
        report_room(self, result)
        return {'FINISHED'}

    def invoke(self, context: bpy.types.Context, event: bpy.types.Event) -> set[str]:
        if context.window is None:  # no window to run a modal operator in (e.g. a background script)
            return self.execute(context)
        params = self._params(context)
        if params is None:
            return {'CANCELLED'}
        # The solve runs in a worker process: the window draws its progress without slowing it down.
        pool = worker_pool.for_rooms(context.scene)
        return self.start_job(context, room_job.assemble(context.scene, params, pool))

    def report_done(self, result: room_job.RoomResult) -> None:
        report_room(self, result)


class STREW_OT_clear_room(bpy.types.Operator):
    """Remove the room Strew assembled; the kit and your own objects are never touched"""

    bl_idname = "strew.clear_room"
    bl_label = "Clear Room"
    bl_options = {'REGISTER', 'UNDO'}

    room_name: StringProperty(name="Room", description="Room to clear (default: the panel's)",
                              options={'SKIP_SAVE'})

    def execute(self, context: bpy.types.Context) -> set[str]:
        name = self.room_name or context.scene.strew.room.room_name
        removed = room_job.clear_room(context.scene, name)
        self.report({'INFO'}, rpt_('Cleared {count:,} tile(s) of "{name}"').format(count=removed, name=name))
        return {'FINISHED'}


class STREW_OT_detect_sockets(ModalJob):
    ("Label the four sides of the tiles from the faces lying on the cell's boundary planes (rasterised and hashed; "
     "mirrored profiles get labels x and x~ that fit each other). Review them afterwards")

    bl_idname = "strew.detect_sockets"
    bl_label = "Detect Sockets"
    bl_options = {'REGISTER', 'UNDO'}

    target: EnumProperty(
        name="Tiles", items=[('KIT', "Whole Kit", "Every tile of the panel's kit"),
                             ('SELECTED', "Selected", "The selected objects")], default='KIT')
    kit: StringProperty(name="Kit", description="Kit collection (default: the panel's)",
                        options={'SKIP_SAVE'})
    quantum: FloatProperty(
        name="Precision", default=0.01, min=1e-5, soft_max=0.1, subtype='DISTANCE', unit='LENGTH',
        description="Vertices are rounded to this step before hashing; geometry off by more gets another label")
    vertical: BoolProperty(
        name="Up and Down", default=False,
        description="Also label the top and bottom from the geometry (off: they stay as set, since how storeys "
        "stack, through floors, stairs and voids, is rarely what the top and bottom faces show)")

    job_error = KitError
    cancel_message = "Detect Sockets cancelled; the kit is unchanged"

    def _job(self, context: bpy.types.Context):
        """The detection job for the chosen tiles, or None (reported) when there is nothing to label."""
        room = context.scene.strew.room
        collection = bpy.data.collections.get(self.kit) if self.kit else room.kit
        if self.target == 'KIT':
            if collection is None:
                self.report({'ERROR'}, "No kit: pick the kit collection in the Tile Rooms panel")
                return None
            objects = tile_objects(collection)
        else:
            objects = list(context.selected_objects)
        if not objects:
            self.report({'ERROR'}, "No tile to label: the kit is empty or nothing is selected")
            return None
        try:
            if collection is not None and room.auto_cell_size:
                size = kit_cell_size(collection, tile_objects(collection))
            else:
                size = tuple(room.cell_size)
        except (KitError, ValueError) as error:
            self.report({'ERROR'}, str(error))
            return None
        follows = self.target == 'KIT' and collection is not None and collection == room.kit
        return socket_job.detect_job(objects, size, self.quantum, self.vertical, room if follows else None)

    def execute(self, context: bpy.types.Context) -> set[str]:
        job = self._job(context)
        if job is None:
            return {'CANCELLED'}
        try:
            found = socket_job.run_to_end(job)
        except KitError as error:
            self.report({'ERROR'}, str(error))
            return {'CANCELLED'}
        self.report_done(found)
        return {'FINISHED'}

    def invoke(self, context: bpy.types.Context, event: bpy.types.Event) -> set[str]:
        if context.window is None:  # no window to run a modal operator in (e.g. a background script)
            return self.execute(context)
        job = self._job(context)
        return {'CANCELLED'} if job is None else self.start_job(context, job)

    def report_done(self, result: socket_job.SocketsFound) -> None:
        size, off = result.size, result.off
        if off:
            each = rpt_("{name} ({distance:.1f} cm)")
            listed = ", ".join(each.format(name=name, distance=d * 100) for name, d in off[:8])
            listed += " …" if len(off) > 8 else ""
            self.report({'WARNING'}, rpt_(
                "{count} tile(s) reach outside their {x:g} × {y:g} × {z:g} cell "
                "(origin at the centre of the bottom face?): {listed}"
            ).format(count=len(off), x=size[0], y=size[1], z=size[2], listed=listed))
        self.report({'INFO'}, rpt_(
            "Labelled {tiles} tile(s) with {sockets} distinct socket(s); cell {x:g} × {y:g} × {z:g}"
        ).format(tiles=result.tiles, sockets=result.labels, x=size[0], y=size[1], z=size[2]))


class STREW_OT_build_demo_kit(bpy.types.Operator):
    ("Build a modular kit of 53 tiles (floors, walls, corners, doors, arches, windows, corridors, stairs, balconies, "
     "air) with sockets set, in a new collection")

    bl_idname = "strew.build_demo_kit"
    bl_label = "Build Demo Kit"
    bl_options = {'REGISTER', 'UNDO'}

    name: StringProperty(name="Name", default="Tiles")

    def execute(self, context: bpy.types.Context) -> set[str]:
        started = time.perf_counter()
        collection = build_demo_kit(context.scene, self.name)
        self.report({'INFO'}, rpt_('Kit "{name}": {count} tiles in {seconds:.2f} s').format(
            name=collection.name, count=len(collection.objects), seconds=time.perf_counter() - started))
        return {'FINISHED'}


def _fixed_tiles(context: bpy.types.Context) -> tuple[Any, str, str]:
    return context.scene.strew.room, "fixed", "active_fixed_index"


class STREW_OT_fixed_tile_add(ListAdd, bpy.types.Operator):
    """Pin a tile to a cell (the active object, when it is a tile of the kit)"""

    bl_idname = "strew.fixed_tile_add"
    bl_label = "Add Fixed Tile"
    bl_options = {'REGISTER', 'UNDO'}

    @classmethod
    def target(cls, context: bpy.types.Context) -> tuple[Any, str, str] | None:
        return _fixed_tiles(context)

    def fill(self, context: bpy.types.Context, owner: Any, item: Any) -> None:
        active = context.active_object
        if active is not None and owner.kit is not None and active.name in owner.kit.all_objects:
            item.tile = active


class STREW_OT_fixed_tile_remove(ListRemove, bpy.types.Operator):
    """Remove the selected fixed tile"""

    bl_idname = "strew.fixed_tile_remove"
    bl_label = "Remove Fixed Tile"
    bl_options = {'REGISTER', 'UNDO'}
    empty = "There is no fixed tile to remove"

    @classmethod
    def target(cls, context: bpy.types.Context) -> tuple[Any, str, str] | None:
        return _fixed_tiles(context)


def _entrances(context: bpy.types.Context) -> tuple[Any, str, str]:
    return context.scene.strew.room, "entrances", "active_entrance_index"


class STREW_OT_entrance_add(ListAdd, bpy.types.Operator):
    ("Add an entrance: a cell that must hold a walkable tile, reachable from the other entrances (Pick Cell sets it "
     "on the room)")

    bl_idname = "strew.entrance_add"
    bl_label = "Add Entrance"
    bl_options = {'REGISTER', 'UNDO'}

    @classmethod
    def target(cls, context: bpy.types.Context) -> tuple[Any, str, str] | None:
        return _entrances(context)


class STREW_OT_entrance_remove(ListRemove, bpy.types.Operator):
    """Remove the selected entrance"""

    bl_idname = "strew.entrance_remove"
    bl_label = "Remove Entrance"
    bl_options = {'REGISTER', 'UNDO'}
    empty = "There is no entrance to remove"

    @classmethod
    def target(cls, context: bpy.types.Context) -> tuple[Any, str, str] | None:
        return _entrances(context)


def name_region(room: bpy.types.PropertyGroup, item: bpy.types.PropertyGroup) -> None:
    """Give a new region the first free name "Region N" (N its place in the list, or more)."""
    taken = {region.name for region in room.regions if region != item}
    number = len(room.regions)
    while f"Region {number}" in taken:
        number += 1
    item.name = f"Region {number}"


def _regions(context: bpy.types.Context) -> tuple[Any, str, str]:
    return context.scene.strew.room, "regions", "active_region_index"


class STREW_OT_region_add(ListAdd, bpy.types.Operator):
    """Add a region: a box of cells (or a mesh volume) whose tiles are restricted or weighted"""

    bl_idname = "strew.region_add"
    bl_label = "Add Region"
    bl_options = {'REGISTER', 'UNDO'}

    @classmethod
    def target(cls, context: bpy.types.Context) -> tuple[Any, str, str] | None:
        return _regions(context)

    def fill(self, context: bpy.types.Context, owner: Any, item: Any) -> None:
        name_region(owner, item)
        item.box_min, item.box_max = owner.box_min, owner.box_max  # Regenerate Box's box, a place to start


class STREW_OT_region_remove(ListRemove, bpy.types.Operator):
    """Remove the selected region"""

    bl_idname = "strew.region_remove"
    bl_label = "Remove Region"
    bl_options = {'REGISTER', 'UNDO'}
    empty = "There is no region to remove"

    @classmethod
    def target(cls, context: bpy.types.Context) -> tuple[Any, str, str] | None:
        return _regions(context)


classes = (STREW_OT_assemble_room, STREW_OT_clear_room, STREW_OT_detect_sockets, STREW_OT_build_demo_kit,
           STREW_OT_fixed_tile_add, STREW_OT_fixed_tile_remove, STREW_OT_entrance_add, STREW_OT_entrance_remove,
           STREW_OT_region_add, STREW_OT_region_remove)

register, unregister = bpy.utils.register_classes_factory(classes)
