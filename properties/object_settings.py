"""Per-object Strew settings (``object.strew``): prefab weight for scatter layers, tile sockets for rooms.

Plain custom properties win over these settings when both exist, so kits made by scripts or other tools work:
``strew_weight``, ``strew_sockets`` (a dict of side -> label), ``strew_rotations`` (list of degrees),
``strew_walkable`` and ``strew_passable`` (list of sides).
"""

from __future__ import annotations

import bpy
from bpy.props import BoolProperty, EnumProperty, FloatProperty, PointerProperty, StringProperty

from ..core.wfc.vocab import ROTATIONS

_ROTATION_TEXTS = {
    0: "The tile as modelled",
    90: "Turned a quarter counter-clockwise (seen from above): east faces north",
    180: "Turned half a turn",
    270: "Turned three quarters counter-clockwise",
}
ROTATION_ITEMS = [(str(turn), f"{turn}°", _ROTATION_TEXTS[turn]) for turn in ROTATIONS]
PASSABLE_ITEMS = [
    ('n', "North", "A visitor can leave through the north side (+Y)"),
    ('e', "East", "A visitor can leave through the east side (+X)"),
    ('s', "South", "A visitor can leave through the south side (-Y)"),
    ('w', "West", "A visitor can leave through the west side (-X)"),
    ('up', "Up", "A visitor can climb to the cell above (bottom of a stair)"),
    ('down', "Down", "A visitor can climb down to the cell below (top of a stair)"),
]


def _socket(side: str, axis: str) -> StringProperty:
    return StringProperty(
        name=side,
        description=(
            f"Label of the tile's {side} side ({axis}). Facing sides fit when their labels are equal or form a "
            "compatible pair; empty means open/nothing and fits only another empty side"
        ),
    )


DEFAULT_WEIGHT = 1.0
"""A prefab's weight until the user sets one."""


class StrewObjectSettings(bpy.types.PropertyGroup):
    """Settings Strew reads from an object used as a scatter prefab or a room tile."""

    weight: FloatProperty(
        name="Weight",
        description=(
            "How often this object is picked relative to the other objects of its collection "
            "(a plain custom property \"strew_weight\" on the object wins over this value)"
        ),
        default=DEFAULT_WEIGHT,
        min=0.0,
        soft_max=10.0,
    )
    # Room tile settings (a plain custom property "strew_sockets" wins over all six).
    socket_n: _socket("North", "+Y")
    socket_e: _socket("East", "+X")
    socket_s: _socket("South", "-Y")
    socket_w: _socket("West", "-X")
    socket_up: _socket("Up", "+Z, the top face")
    socket_down: _socket("Down", "-Z, the bottom face")
    rotations: EnumProperty(
        name="Rotations", items=ROTATION_ITEMS, options={'ENUM_FLAG'}, default={str(turn) for turn in ROTATIONS},
        description="Turns of this tile the room may use (counter-clockwise about +Z seen from above)",
    )
    walkable: BoolProperty(
        name="Walkable", default=False,
        description="A visitor can stand on this tile (used by \"All Walkable Connected\")",
    )
    passable: EnumProperty(
        name="Passable", items=PASSABLE_ITEMS, options={'ENUM_FLAG'}, default={'n', 'e', 's', 'w'},
        description="Sides of a walkable tile a visitor can leave through (doors, openings, stairs)",
    )


classes = (StrewObjectSettings,)
_register, _unregister = bpy.utils.register_classes_factory(classes)


def register() -> None:
    _register()
    bpy.types.Object.strew = PointerProperty(type=StrewObjectSettings)


def unregister() -> None:
    del bpy.types.Object.strew
    _unregister()
