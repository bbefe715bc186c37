"""Every number setting checked against the range its property declares, by core's one validator.

Blender clamps a number typed in a field or set from a script to the property's range, but NaN passes every
comparison and a saved file or an older version may hold anything, so the readers of the settings (Scatter,
Live Update, presets, farm tasks, the command line) check the values with :func:`strew.core.inputs.bounded`
against the ``hard_min``/``hard_max`` the properties declare — each limit is written once, in the property.
"""

from __future__ import annotations

from typing import Any

import bpy

from ..core.inputs import bounded


def check_value(prop: bpy.types.Property, value: Any, name: str | None = None) -> Any:
    """``value`` for the number property ``prop`` when it lies in its range; else a one-line ValueError naming
    ``name`` (default: the setting as the panel shows it)."""
    label = prop.name if name is None else name
    return bounded(value, label, prop.hard_min, prop.hard_max, integer=prop.type == 'INT')


def check_numbers(group: bpy.types.PropertyGroup, nested: bool = True, within: str = "") -> None:
    """Every number setting of ``group`` within its range (and, with ``nested``, those of its lists' items, named
    "List › Setting"); ``within`` prefixes the names."""
    for prop in group.bl_rna.properties:
        if prop.type in ('FLOAT', 'INT') and not prop.is_readonly:
            value = getattr(group, prop.identifier)
            for item in (value[:] if prop.is_array else (value,)):
                check_value(prop, item, within + prop.name)
        elif nested and prop.type == 'COLLECTION':
            for item in getattr(group, prop.identifier):
                check_numbers(item, within=f"{within}{prop.name} › ")


def setting(group: Any, identifier: str) -> bpy.types.Property:
    """The property ``identifier`` of settings (a property group, or its RNA struct) — for its range."""
    return getattr(group, "bl_rna", group).properties[identifier]


def layer_settings() -> Any:
    """The RNA struct of a scatter layer's settings (``scene.strew.layers`` items)."""
    return bpy.types.Scene.bl_rna.properties["strew"].fixed_type.properties["layers"].fixed_type


def room_settings() -> Any:
    """The RNA struct of the Tile Rooms panel's settings (``scene.strew.room``): the room options' hard ranges."""
    return bpy.types.Scene.bl_rna.properties["strew"].fixed_type.properties["room"].fixed_type
