"""What Strew creates it marks, so Clear and re-runs find it after save and reload.

Marks are plain custom properties (``id["strew_owner"]``): they survive without the extension installed and
are never set on the user's own data, so Strew never deletes or alters what it did not create.
"""

from __future__ import annotations

from collections.abc import Iterable

import bpy

OWNER_KEY = "strew_owner"
LAYER_KEY = "strew_layer"


def mark(datablock: bpy.types.ID, owner: str, **extra: object) -> None:
    """Tag a datablock Strew created (``owner`` is the feature: "scatter", "room")."""
    datablock[OWNER_KEY] = owner
    for key, value in extra.items():
        datablock[key] = value


def is_owned(datablock: bpy.types.ID, owner: str | None = None) -> bool:
    tag = datablock.get(OWNER_KEY)
    return tag is not None and (owner is None or tag == owner)


def owned_collection(scene: bpy.types.Scene, name: str, owner: str, create: bool = True) -> bpy.types.Collection | None:
    """The scene's top-level collection ``name`` that Strew owns; created (and linked) when missing.

    A user's collection that happens to have the same name is left alone: ours gets Blender's ``.001`` suffix.
    """
    for child in scene.collection.children:
        if is_owned(child, owner) and child.get("strew_name", child.name) == name:
            return child
    if not create:
        return None
    collection = bpy.data.collections.new(name)
    mark(collection, owner, strew_name=name)
    scene.collection.children.link(collection)
    return collection


def remove_owned(datablocks: Iterable[bpy.types.ID], owner: str) -> int:
    """Remove the given datablocks that carry Strew's mark for ``owner``; the rest are left untouched."""
    doomed = [block for block in datablocks if is_owned(block, owner)]
    # Data (meshes) created together with owned objects go too, once nothing else uses them.
    data = [
        obj.data for obj in doomed
        if isinstance(obj, bpy.types.Object) and obj.data is not None and is_owned(obj.data, owner)
    ]
    if doomed:
        bpy.data.batch_remove(doomed)
    orphans = [block for block in data if block.users == 0]
    if orphans:
        bpy.data.batch_remove(orphans)
    return len(doomed)
