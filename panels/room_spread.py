"""The Tile Rooms panel's rows for separation, maximum runs and symmetry (with why a field cannot be read)."""

from __future__ import annotations

import bpy

from ..core.wfc.tile_groups import parse_tile_numbers

_FIELDS = (("separation", "separation", "distance"), ("max_runs", "max run", "length"))


def draw_spread(layout: bpy.types.UILayout, room: bpy.types.PropertyGroup) -> None:
    """*Separation*, *Max Run* (each followed by its error when the text cannot be read) and *Symmetry*."""
    for prop, what, unit in _FIELDS:
        layout.prop(room, prop)
        text = getattr(room, prop)
        if text.strip():
            try:
                parse_tile_numbers(text, what, unit)
            except ValueError as error:
                layout.label(text=str(error), translate=False, icon='ERROR')
    layout.prop(room, "symmetry")
