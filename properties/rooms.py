"""Tile Rooms settings (``scene.strew.room``): the kit, the grid, the constraints of the Assemble Room operator.

The operator ``strew.assemble_room`` reads these; any operator property given by a script overrides them.
"""

from __future__ import annotations

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

from ..scene.room_output import OUTPUT_ITEMS
from .object_settings import ROTATION_ITEMS

HEURISTIC_ITEMS = [
    ('AUTO', "Auto", "Minimum entropy first, scanline after a few restarts (scanline when connectivity is on)"),
    ('ENTROPY', "Minimum Entropy", "Collapse the least certain cell first"),
    ('MRV', "Fewest Options", "Collapse the cell with the fewest tiles left"),
    ('SCANLINE', "Scanline", "Fill row by row (one growing front: fewer dead ends with connectivity)"),
]


class StrewFixedTile(bpy.types.PropertyGroup):
    """A tile pinned to a cell (e.g. the entrance)."""

    tile: PointerProperty(  # type: ignore[valid-type]
        name="Tile", type=bpy.types.Object, description="Tile of the kit to place in this cell",
    )
    rotation: EnumProperty(name="Rotation", items=ROTATION_ITEMS, default='0')  # type: ignore[valid-type]
    cell: IntVectorProperty(  # type: ignore[valid-type]
        name="Cell", size=3, min=0, description="Grid cell (x, y, z) counted from the room origin",
    )


class StrewRoomSettings(bpy.types.PropertyGroup):
    """Settings of the Tile Rooms panel (one room per scene setting; the room name picks the output)."""

    kit: PointerProperty(  # type: ignore[valid-type]
        name="Kit", type=bpy.types.Collection,
        description="Collection whose objects are the tiles (each with sockets in Object Properties › Strew Tile)",
    )
    room_name: StringProperty(  # type: ignore[valid-type]
        name="Room", default="Strew Room",
        description="Name of the output collection; assembling again replaces only this room",
    )
    size: IntVectorProperty(  # type: ignore[valid-type]
        name="Size", size=3, default=(12, 12, 1), min=1, soft_max=64,
        description="Number of cells along x, y and z (floors)",
    )
    auto_cell_size: BoolProperty(  # type: ignore[valid-type]
        name="Cell Size from Kit", default=True,
        description="Take the cell size from the kit (its \"strew_cell_size\" property, else the tiles' bounds)",
    )
    cell_size: FloatVectorProperty(  # type: ignore[valid-type]
        name="Cell Size", size=3, default=(2.0, 2.0, 2.0), min=0.001, soft_max=50.0, subtype='XYZ_LENGTH',
        unit='LENGTH', description="Width, depth and height of one cell",
    )
    origin: FloatVectorProperty(  # type: ignore[valid-type]
        name="Origin", size=3, default=(0.0, 0.0, 0.0), subtype='TRANSLATION', unit='LENGTH',
        description="World position of cell (0, 0, 0): the centre of its bottom face (the tiles' origin)",
    )
    seed: IntProperty(name="Seed", default=0, min=0)  # type: ignore[valid-type]
    periodic: BoolProperty(  # type: ignore[valid-type]
        name="Periodic", default=False, description="Wrap around in x and y (the room tiles seamlessly)",
    )
    use_border: BoolProperty(  # type: ignore[valid-type]
        name="Closed Room", default=False,
        description="Only sides fitting the border socket(s) face outwards (the demo kit turns it on)",
    )
    border: StringProperty(  # type: ignore[valid-type]
        name="Border", default="wall",
        description="Socket label(s) outside the four walls (comma separated: e.g. \"wall, window\")",
    )
    border_bottom: StringProperty(  # type: ignore[valid-type]
        name="Below", default="", description="Socket label below the lowest floor (empty: no constraint)",
    )
    border_top: StringProperty(  # type: ignore[valid-type]
        name="Above", default="", description="Socket label above the top floor (empty: no constraint)",
    )
    compatible: StringProperty(  # type: ignore[valid-type]
        name="Compatible", default="",
        description="Extra pairs of labels that fit each other, as a=b separated by commas (added to the "
        "kit's own \"strew_compatible\"; labels x and x~ always pair)",
    )
    connected: BoolProperty(  # type: ignore[valid-type]
        name="All Walkable Connected", default=False,
        description="Every walkable tile can be reached from every other (through passable sides and stairs)",
    )
    fixed: CollectionProperty(type=StrewFixedTile)  # type: ignore[valid-type]
    active_fixed_index: IntProperty(default=0, min=0)  # type: ignore[valid-type]
    heuristic: EnumProperty(name="Heuristic", items=HEURISTIC_ITEMS, default='AUTO')  # type: ignore[valid-type]
    max_backtracks: IntProperty(  # type: ignore[valid-type]
        name="Backtracking Budget", default=2000, min=0,
        description="Undo steps allowed per attempt before starting over (0: restarts only)",
    )
    max_restarts: IntProperty(name="Restarts", default=20, min=0,  # type: ignore[valid-type]
                              description="Fresh attempts after a dead end before giving up")
    time_limit: FloatProperty(  # type: ignore[valid-type]
        name="Time Limit", default=60.0, min=0.1, subtype='TIME_ABSOLUTE', unit='TIME_ABSOLUTE',
        description="Give up after this many seconds",
    )
    output: EnumProperty(  # type: ignore[valid-type]
        name="Output", items=OUTPUT_ITEMS, default='INSTANCES',
        description="How the room is written: one instancer object, or one real object per cell",
    )
    box_min: IntVectorProperty(  # type: ignore[valid-type]
        name="From", size=3, min=0, description="First cell (x, y, z) of the box Regenerate Box re-solves",
    )
    box_max: IntVectorProperty(  # type: ignore[valid-type]
        name="To", size=3, default=(2, 2, 0), min=0,
        description="Last cell (x, y, z) of the box, included; the cells outside the box keep their tiles",
    )


classes = (StrewFixedTile, StrewRoomSettings)
register, unregister = bpy.utils.register_classes_factory(classes)
