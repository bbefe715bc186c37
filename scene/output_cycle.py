"""A layer whose prefabs reach Strew's own output would instance itself: Blender reports a dependency cycle and
draws nothing, so Scatter refuses it before anything is written.

The prefabs are what the instancer's Collection Info sees: the collection's objects and child collections, and
what their empties instance, all the way down.
"""

from __future__ import annotations

import bpy

from .instancer import OUTPUT_COLLECTION, OWNER
from .ownership import LAYER_ID_KEY, NAME_KEY, OWNER_KEY


def _is_output(block: bpy.types.ID) -> bool:
    """Strew's output collection, a layer's output or a copy of one (each instances a layer's prefabs)."""
    return block.get(OWNER_KEY) == OWNER and (LAYER_ID_KEY in block or block.get(NAME_KEY) == OUTPUT_COLLECTION)


def _inside(block: bpy.types.ID) -> list[bpy.types.ID]:
    if isinstance(block, bpy.types.Collection):
        return [*block.children, *block.objects]
    if block.instance_type == 'COLLECTION' and block.instance_collection is not None:
        return [block.instance_collection]
    return []


def _reached(block: bpy.types.ID, seen: set[int]) -> bpy.types.ID | None:
    """Strew's output found in or through ``block``, or None."""
    stack = [block]
    while stack:
        current = stack.pop()
        if current.as_pointer() in seen:
            continue
        seen.add(current.as_pointer())
        if _is_output(current):
            return current
        stack += _inside(current)
    return None


def output_in_prefabs(collection: bpy.types.Collection) -> tuple[bpy.types.ID, bpy.types.ID] | None:
    """(the child of ``collection`` through which its prefabs reach Strew's output, that output), or None."""
    seen = {collection.as_pointer()}
    for child in _inside(collection):
        found = _reached(child, seen)
        if found is not None:
            return child, found
    return None
