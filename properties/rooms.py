"""Tile Rooms settings (``scene.strew.room``): the kit, the grid, the constraints of the Assemble Room operator.

The options a script can also give the operator ``strew.assemble_room`` are declared once (:func:`room_options`);
any of them set by a script overrides the panel's value.
"""

from __future__ import annotations

from typing import Any

import bpy
from bpy.props import (
    BoolProperty,
    CollectionProperty,
    EnumProperty,
    FloatProperty,
    FloatVectorProperty,
    IntProperty,
    IntVectorProperty,
    PointerProperty,
    StringProperty,
)

from ..core.inputs import MAX_DISTANCE
from ..core.modes import RoomOutput
from ..core.wfc.grow import GROW_SIDES
from ..core.wfc.room import BORDER_LABEL, DEFAULT_BORDER, REGION_EXAMPLE, REGION_SYNTAX
from ..core.wfc.symmetry import SYMMETRIES
from ..core.wfc.vocab import (
    DEFAULT_CELL_SIZE,
    DEFAULT_MAX_BACKTRACKS,
    DEFAULT_MAX_RESTARTS,
    DEFAULT_TIME_LIMIT,
    ROOM_HEURISTICS,
    Heuristic,
)
from .object_settings import ROTATION_ITEMS
from .room_paths import LOOP_ITEMS, PATHS_DESCRIPTION, StrewRoomPath

_HEURISTIC_LABELS = {
    Heuristic.AUTO: ("Auto", "Minimum entropy first, scanline after a few restarts (with connectivity: scanline "
                             "and a growing front in turn)"),
    Heuristic.ENTROPY: ("Minimum Entropy", "Collapse the least certain cell first"),
    Heuristic.MRV: ("Fewest Options", "Collapse the cell with the fewest tiles left"),
    Heuristic.SCANLINE: ("Scanline", "Fill row by row (one growing front: fewer dead ends with connectivity)"),
}
HEURISTIC_ITEMS = [(str(heuristic), *_HEURISTIC_LABELS[heuristic]) for heuristic in ROOM_HEURISTICS]
"""Enum items of the heuristics a room offers: the identifier is the core's value (``Heuristic``), unchanged."""
_OUTPUT_LABELS = {
    RoomOutput.INSTANCES: ("Instances", "One object per room: points instancing the tiles with Geometry Nodes "
                                        "(fast, light; the cell, tile and turn are point attributes)"),
    RoomOutput.OBJECTS: ("Real Objects", "One linked duplicate per cell, to edit by hand (slow for large rooms)"),
}
OUTPUT_ITEMS = [(str(mode), *_OUTPUT_LABELS[mode]) for mode in RoomOutput]
_SYMMETRY_LABELS = {
    "": ("None", "The room need not mirror itself"),
    "x": ("X", "The room mirrors itself across its middle in x: the tile at (x, y) is the mirror of the one at "
               "(width - 1 - x, y)"),
    "y": ("Y", "The room mirrors itself across its middle in y"),
    "xy": ("XY", "The room mirrors itself across its middle in x and in y"),
}
SYMMETRY_ITEMS = [(value.upper() or "NONE", *_SYMMETRY_LABELS[value]) for value in ("", *SYMMETRIES)]
"""Enum items of a room's symmetry: the identifier is the core's value in capitals, ``NONE`` for none."""


def symmetry_value(identifier: str) -> str:
    """The core's symmetry (``""``, ``"x"``, ``"y"``, ``"xy"``) of an enum identifier of :data:`SYMMETRY_ITEMS`."""
    return "" if identifier == "NONE" else identifier.lower()


_GROW_LABELS = {
    "-X": "Before the first column: the room's origin moves by the new cells, the old tiles stay where they are",
    "+X": "After the last column",
    "-Y": "Before the first row: the room's origin moves by the new cells, the old tiles stay where they are",
    "+Y": "After the last row",
    "-Z": "A storey below: the room's origin moves down, the old tiles stay where they are",
    "+Z": "A storey on top",
}
GROW_SIDE_ITEMS = [(side, side, _GROW_LABELS[side]) for side in GROW_SIDES]
"""Enum items of the sides Grow adds cells on (the core's names, unchanged)."""
GROW_KEEP_WALLS = ("Keep every old tile, the wall on the grown side too (the grow is refused when nothing fits "
                   "beyond it); off: the old wall layer on that side is solved again with the new cells, so the "
                   "wall moves out")
"""The tooltip of Grow's Keep Walls, the panel's and the operator's."""


def room_options(*, operator: bool) -> dict[str, Any]:
    """The room options the Tile Rooms panel and the Assemble Room operator share, declared once.

    The operator's copies skip saving (``SKIP_SAVE``): a property a script did not set falls back to the panel.
    Their bounds are soft, so a script's out-of-range value is reported by the room's validation instead
    of being clamped in silence (``size=(0, 0, 0)`` is an error, not a 1 × 1 × 1 room).
    """
    flags: Any = {'SKIP_SAVE'} if operator else {'ANIMATABLE'}

    def at_least(value: float) -> dict[str, Any]:
        return {"soft_min": value} if operator else {"min": value}

    def within(low: float, high: float) -> dict[str, Any]:
        return {"soft_min": low, "soft_max": high} if operator else {"min": low, "max": high}

    return {
        "room_name": StringProperty(
            name="Room", default="Strew Room", options=flags,
            description="Name of the output collection; assembling again replaces only this room"),
        "size": IntVectorProperty(
            name="Size", size=3, default=(12, 12, 1), **at_least(1), soft_max=64, options=flags,
            description="Number of cells along x, y and z (floors)"),
        "origin": FloatVectorProperty(
            name="Origin", size=3, default=(0.0, 0.0, 0.0), **within(-MAX_DISTANCE, MAX_DISTANCE),
            subtype='TRANSLATION', unit='LENGTH', options=flags,
            description="World position of cell (0, 0, 0): the centre of its bottom face (the tiles' origin)"),
        "seed": IntProperty(name="Seed", default=0, **at_least(0), options=flags),
        "periodic": BoolProperty(
            name="Periodic", default=False, options=flags,
            description="Wrap around in x and y (the room tiles seamlessly)"),
        "border_bottom": StringProperty(
            name="Below", default="", options=flags,
            description="Socket label below the lowest floor (empty: no constraint)"),
        "border_top": StringProperty(
            name="Above", default="", options=flags,
            description="Socket label above the top floor (empty: no constraint)"),
        "compatible": StringProperty(
            name="Compatible", default="", options=flags,
            description="Extra pairs of labels that fit each other, as a=b separated by commas (added to the "
            "kit's own \"strew_compatible\"; labels x and x~ always pair)"),
        "connected": BoolProperty(
            name="All Walkable Connected", default=False, options=flags,
            description="Every walkable tile can be reached from every other (through passable sides and stairs)"),
        "counts": StringProperty(
            name="Counts", default="", options=flags,
            description="How often tiles may appear, all turns together: TILE=N or TILE=MIN..MAX (MAX * for no "
            "limit) separated by ';', e.g. \"entrance=1; stairs=0..4\""),
        "loops": EnumProperty(
            name="Loops", items=LOOP_ITEMS, default='ALLOWED', options=flags,
            description="Whether the walkable cells joined to a path may form loops"),
        "min_path_length": IntProperty(
            name="Minimum Path Length", default=0, **at_least(0), soft_max=500, options=flags,
            description="Cells the shortest walk between a path's endpoints visits at least, both counted "
            "(0: no minimum)"),
        "separation": StringProperty(
            name="Separation", default="", options=flags,
            description="Tiles kept apart: TILE=N separated by ';', N the least distance in cells between two of them "
            "(straight, centre to centre); names separated by commas keep apart from each other too, e.g. "
            "\"shrine=8; pillar, statue=3\""),
        "max_runs": StringProperty(
            name="Max Run", default="", options=flags,
            description="Tiles never more than N in a row along x or y (each floor on its own): TILE=N separated by "
            "';', names separated by commas counting together, e.g. \"wall=6\""),
        "symmetry": EnumProperty(
            name="Symmetry", items=SYMMETRY_ITEMS, default="NONE", options=flags,
            description="The room mirrors itself across its middle (tiles placed as their mirror twins)"),
        "heuristic": EnumProperty(name="Heuristic", items=HEURISTIC_ITEMS, default=Heuristic.AUTO, options=flags),
        "max_backtracks": IntProperty(
            name="Backtracking Budget", default=DEFAULT_MAX_BACKTRACKS, **at_least(0), options=flags,
            description="Undo steps allowed per attempt before starting over (0: restarts only)"),
        "max_restarts": IntProperty(
            name="Restarts", default=DEFAULT_MAX_RESTARTS, **at_least(0), options=flags,
            description="Fresh attempts after a dead end before giving up"),
        "time_limit": FloatProperty(
            name="Give Up After", default=DEFAULT_TIME_LIMIT, **at_least(0.1), subtype='TIME_ABSOLUTE',
            unit='TIME_ABSOLUTE',
            options=flags, description="Give up after this many seconds"),
        "use_set_pieces": BoolProperty(
            name="Use Set Pieces", default=True, options=flags,
            description="Copies of the kit's tiles standing in the room's box (linked or full copies, instances) "
            "become fixed cells: the room is assembled around them and leaves them where they are"),
        "output": EnumProperty(
            name="Output", items=OUTPUT_ITEMS, default=RoomOutput.INSTANCES, options=flags,
            description="How the room is written: one instancer object, or one real object per cell"),
    }


ROOM_OPTIONS = tuple(room_options(operator=True))
"""Names of the shared options (the same on ``scene.strew.room`` and on ``strew.assemble_room``)."""


class StrewFixedTile(bpy.types.PropertyGroup):
    """A tile pinned to a cell (e.g. the entrance)."""

    tile: PointerProperty(
        name="Tile", type=bpy.types.Object, description="Tile of the kit to place in this cell",
    )
    rotation: EnumProperty(name="Rotation", items=ROTATION_ITEMS, default='0')
    cell: IntVectorProperty(
        name="Cell", size=3, min=0, description="Grid cell (x, y, z) counted from the room origin",
    )


ENTRANCE_DESCRIPTION = ("Cells that must hold a walkable tile, all reachable from each other: with any entrance every "
                        "walkable cell joins one region, as with All Walkable Connected")
"""What an entrance means, said once for the panel's list and the operator's option."""


class StrewEntrance(bpy.types.PropertyGroup):
    """A cell that must hold a walkable tile and join the other entrances (a door, the stair up)."""

    cell: IntVectorProperty(
        name="Cell", size=3, min=0,
        description="Entrance cell (x, y, z) counted from the room origin; the same cell twice counts once",
    )


REGIONS_DESCRIPTION = (f"Regions as {REGION_SYNTAX} separated by ';', e.g. \"{REGION_EXAMPLE}\" (replaces the panel's "
                       "list; empty: no regions; mesh volumes are set in the panel only)")
"""The operator's ``regions`` text: the syntax and example said by the core's parser, and what it replaces."""


def _is_mesh(_self: Any, obj: bpy.types.Object) -> bool:
    return obj.type == 'MESH'


class StrewRoomRegion(bpy.types.PropertyGroup):
    """A box of cells or a mesh volume whose tiles are restricted or weighted (a cellar storey, a garden wing)."""

    enabled: BoolProperty(name="Enabled", default=True, description="Use this region (off: the room ignores it)")
    box_min: IntVectorProperty(
        name="From", size=3, min=0, description="First cell (x, y, z) of the region's box")
    box_max: IntVectorProperty(
        name="To", size=3, default=(2, 2, 0), min=0, description="Last cell (x, y, z) of the region's box, included")
    volume: PointerProperty(
        name="Volume", type=bpy.types.Object, poll=_is_mesh,
        description="A closed mesh: the region is the room's cells whose centres lie inside it (From and To are "
        "then not used)")
    tiles: StringProperty(
        name="Tiles", default="",
        description="The tiles the region allows or weighs: TILE or TILE=FACTOR separated by commas, e.g. "
        "\"hedge=3, pond, stair=0\" (each tile with all its turns and mirrors)")
    only: BoolProperty(
        name="Only These Tiles", default=False,
        description="Only the listed tiles may stand in the region (off: every tile may, the listed ones weighed "
        "by their factors)")
    weight: FloatProperty(
        name="Weight", default=1.0, min=0.0, soft_max=10.0,
        description="Factor on the weight of each listed tile that has no =FACTOR of its own (0: kept out of the "
        "region)")


class StrewRoomSettings(bpy.types.PropertyGroup):
    """Settings of the Tile Rooms panel (one room per scene setting; the room name picks the output)."""

    __annotations__ = {
        "kit": PointerProperty(
            name="Kit", type=bpy.types.Collection,
            description="Collection whose objects are the tiles (each with sockets in Object Properties › "
            "Strew Tile)"),
        "auto_cell_size": BoolProperty(
            name="Cell Size from Kit", default=True,
            description="Take the cell size from the kit (its \"strew_cell_size\" property, else the tiles' "
            "bounds)"),
        "cell_size": FloatVectorProperty(
            name="Cell Size", size=3, default=DEFAULT_CELL_SIZE, min=0.001, soft_max=50.0, subtype='XYZ_LENGTH',
            unit='LENGTH', description="Width, depth and height of one cell"),
        "use_border": BoolProperty(
            name="Closed Room", default=DEFAULT_BORDER is not None,
            description="Only sides fitting the border socket(s) face outwards (the demo kit turns it on)"),
        "border": StringProperty(
            name="Border", default=DEFAULT_BORDER or BORDER_LABEL,
            description="Socket label(s) outside the four walls (comma separated: e.g. \"wall, window\")"),
        "fixed": CollectionProperty(type=StrewFixedTile),
        "active_fixed_index": IntProperty(default=0, min=0),
        "entrances": CollectionProperty(type=StrewEntrance, name="Entrances", description=ENTRANCE_DESCRIPTION),
        "active_entrance_index": IntProperty(name="Active Entrance", default=0, min=0),
        "paths": CollectionProperty(type=StrewRoomPath, name="Paths", description=PATHS_DESCRIPTION),
        "active_path_index": IntProperty(name="Active Path", default=0, min=0),
        "regions": CollectionProperty(
            type=StrewRoomRegion, name="Regions",
            description="Boxes of cells or mesh volumes whose tiles are restricted or weighted (a cellar storey, a "
            "garden wing)"),
        "active_region_index": IntProperty(name="Active Region", default=0, min=0),
        "box_min": IntVectorProperty(
            name="From", size=3, min=0, description="First cell (x, y, z) of the box Regenerate Box re-solves"),
        "box_max": IntVectorProperty(
            name="To", size=3, default=(2, 2, 0), min=0,
            description="Last cell (x, y, z) of the box, included; the cells outside the box keep their tiles"),
        "grow_side": EnumProperty(name="Side", items=GROW_SIDE_ITEMS, default='+X',
                                  description="The side of the room Grow adds cells on"),
        "grow_cells": IntProperty(name="Cells", default=1, min=1, soft_max=64,
                                  description="How many cells Grow adds on that side"),
        "grow_keep_walls": BoolProperty(name="Keep Walls", default=False, description=GROW_KEEP_WALLS),
        **room_options(operator=False),
    }


classes = (StrewFixedTile, StrewEntrance, StrewRoomRegion, StrewRoomPath, StrewRoomSettings)
register, unregister = bpy.utils.register_classes_factory(classes)
