"""Strew's viewport-only modifiers (Viewport Display, Proxy Beyond) switched off for a moment, so what is read
from the viewport's depsgraph is what renders show: every instance, each with its own prefab.

Export Level reads the viewport's depsgraph; without this a level would carry a layer's viewport share, its
bounding boxes or its proxies instead of its instances.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import bpy

from .instancer import OWNER
from .ownership import is_owned

VIEWPORT_ONLY = {"viewport", "proxies"}  # the ``strew_kind`` of the Viewport Display and Proxy Beyond node groups


def _viewport_only(modifier: bpy.types.Modifier) -> bool:
    group = getattr(modifier, "node_group", None)
    return group is not None and is_owned(group, OWNER) and group.get("strew_kind") in VIEWPORT_ONLY


@contextmanager
def drawn_as_rendered(scene: bpy.types.Scene) -> Iterator[None]:
    """Switch off the viewport-only modifiers of the scene's objects, and back on afterwards."""
    muted = []
    for obj in scene.objects:
        for modifier in obj.modifiers:
            if modifier.type == 'NODES' and modifier.show_viewport and _viewport_only(modifier):
                modifier.show_viewport = False
                muted.append((obj.name, modifier.name))
    try:
        yield
    finally:
        for name, modifier_name in muted:
            obj = bpy.data.objects.get(name)
            modifier = None if obj is None else obj.modifiers.get(modifier_name)
            if modifier is not None:
                modifier.show_viewport = True
