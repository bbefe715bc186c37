"""Callbacks that the scene side installs for property updates that must start work.

Properties sit below the scene code (``core ← properties ← scene ← operators ← panels``) and cannot import it;
a property's ``update`` calls the functions listed here instead, which the scene side adds when it registers.
"""

from __future__ import annotations

from collections.abc import Callable

import bpy

LIVE_UPDATE_SWITCHED: list[Callable[[bpy.types.Scene], None]] = []
"""Called with the scene after its Live Update setting changed."""


def live_update_switched(scene: bpy.types.Scene) -> None:
    for callback in LIVE_UPDATE_SWITCHED:
        callback(scene)


DISPLAY_CHANGED: list[Callable[[bpy.types.PropertyGroup], None]] = []
"""Called with the layer after one of its Viewport Display settings changed."""


def display_changed(layer: bpy.types.PropertyGroup) -> None:
    for callback in DISPLAY_CHANGED:
        callback(layer)
