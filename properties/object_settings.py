"""Per-object Strew settings (``object.strew``): prefab weight for scatter layers."""

from __future__ import annotations

import bpy
from bpy.props import FloatProperty, PointerProperty


class StrewObjectSettings(bpy.types.PropertyGroup):
    """Settings Strew reads from an object used as a scatter prefab (or, later, a room tile)."""

    weight: FloatProperty(  # type: ignore[valid-type]
        name="Weight",
        description=(
            "How often this object is picked relative to the other objects of its collection "
            "(a plain custom property \"strew_weight\" on the object wins over this value)"
        ),
        default=1.0,
        min=0.0,
        soft_max=10.0,
    )


classes = (StrewObjectSettings,)
_register, _unregister = bpy.utils.register_classes_factory(classes)


def register() -> None:
    _register()
    bpy.types.Object.strew = PointerProperty(type=StrewObjectSettings)


def unregister() -> None:
    del bpy.types.Object.strew
    _unregister()
