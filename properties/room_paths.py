"""Tile Rooms paths (``scene.strew.room.paths``): pairs of cells that must be joined through walkable cells."""

from __future__ import annotations

import bpy
from bpy.props import IntVectorProperty

PATHS_DESCRIPTION = ("Pairs of cells that must hold walkable tiles joined through walkable cells; other walkable "
                     "pockets may stay sealed unless All Walkable Connected is on")
"""What a path means, said once for the panel's list and the operator's option."""

LOOP_ITEMS = [
    ('ALLOWED', "Allowed", "The walkable cells joined to a path may form loops"),
    ('NONE', "None", "The walkable cells joined to a path form no loop: one way between any two of them"),
]


class StrewRoomPath(bpy.types.PropertyGroup):
    """Two cells that must hold walkable tiles joined through walkable cells (the entrance to the exit)."""

    start: IntVectorProperty(
        name="From", size=3, min=0, description="First endpoint (x, y, z) counted from the room origin")
    end: IntVectorProperty(
        name="To", size=3, default=(1, 0, 0), min=0,
        description="Second endpoint (x, y, z) counted from the room origin")


classes = (StrewRoomPath,)
