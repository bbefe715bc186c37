"""What Strew creates it marks, so Clear and re-runs find it after save and reload, wherever the user moved it.

Marks are plain custom properties (``id["strew_owner"]``): they survive without the extension installed and
are never set on the user's own data, so Strew never deletes or alters what it did not create. A mark also
records the name the data-block had when Strew made it: a copy the user makes (Shift+D gives "Strew Trees.001")
carries the mark but not its own name, so it counts as the user's and Clear never deletes it. Outputs also
carry a token of their write, recorded on the collection that holds them (:func:`set_current`): a copy made of
an earlier output is never taken for the current one, whatever the user renamed.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence

import bpy

OWNER_KEY = "strew_owner"
SELF_KEY = "strew_self"  # the data-block's own name when marked: tells Strew's data-block from a copy of it
NAME_KEY = "strew_name"  # the name Strew asked for (Blender adds ".001" when the user already has it)
LAYER_KEY = "strew_layer"  # the layer's name when written (display only: outputs are found by LAYER_ID_KEY)
LAYER_ID_KEY = "strew_layer_id"  # the stable id of the layer that wrote it (``StrewLayer.layer_id``)
TOKEN_KEY = "strew_token"  # a data-block's token of when it was written (a copy made later carries it too)
CURRENT_KEY = "strew_current"  # on the collection holding outputs: {layer id: token of the layer's output now}


def mark(datablock: bpy.types.ID, owner: str, **extra: object) -> None:
    """Tag a datablock Strew created (``owner`` is the feature: "scatter", "room")."""
    datablock[OWNER_KEY] = owner
    datablock[SELF_KEY] = datablock.name
    for key, value in extra.items():
        datablock[key] = value


def rename(datablock: bpy.types.ID, name: str) -> None:
    """Rename a data-block Strew owns, keeping it Strew's (Blender may add a ".001" suffix)."""
    datablock.name = name
    datablock[SELF_KEY] = datablock.name


def is_owned(datablock: bpy.types.ID, owner: str | None = None) -> bool:
    """True for a data-block Strew created (for ``owner``), False for the user's data and the user's copies."""
    tag = datablock.get(OWNER_KEY)
    if tag is None or (owner is not None and tag != owner):
        return False
    return datablock.get(SELF_KEY, datablock.name) == datablock.name


def set_current(holder: bpy.types.ID, key: str, block: bpy.types.ID | None) -> None:
    """Record ``block`` as what ``key`` has in ``holder`` now (None: nothing, after a Clear). A copy the user made
    of an earlier one carries an older token, so it is never taken for the current one."""
    token = uuid.uuid4().hex
    if block is not None:
        block[TOKEN_KEY] = token
    if CURRENT_KEY not in holder:
        holder[CURRENT_KEY] = {}
    holder[CURRENT_KEY][key] = token


def is_current(holder: bpy.types.ID, key: str, block: bpy.types.ID) -> bool:
    """Whether ``block`` may be what ``key`` has in ``holder`` now (always, for data written before tokens)."""
    record = holder.get(CURRENT_KEY)
    token = None if record is None else record.get(key)
    return token is None or block.get(TOKEN_KEY) == token


def originals(blocks: Sequence[bpy.types.ID]) -> list[bpy.types.ID]:
    """Strew's own among data-blocks that carry one and the same mark (one layer's output): those with the name
    Strew gave them; when none has it, the one left after the copies (named "<a name among them>.001", as
    Blender names a copy), which the user renamed. Copies stay the user's; with several left it is unclear which
    is Strew's, and none is."""
    named = [block for block in blocks if block.get(SELF_KEY, block.name) == block.name]
    if named:
        return named
    names = {block.name for block in blocks} | {str(block.get(SELF_KEY)) for block in blocks}
    left = [block for block in blocks if not _copy_name(block.name, names)]
    return left if len(left) == 1 else []


def _copy_name(name: str, names: set[str]) -> bool:
    base, dot, digits = name.rpartition(".")
    return bool(dot) and len(digits) >= 3 and digits.isdigit() and base in names


def owned_collection(scene: bpy.types.Scene, name: str, owner: str, create: bool = True) -> bpy.types.Collection | None:
    """The collection ``name`` Strew owns anywhere in the scene's collection tree; made (at the top) when missing.

    A user's collection that happens to have the same name is left alone: ours gets Blender's ``.001`` suffix.
    """
    for child in scene.collection.children_recursive:
        if is_owned(child, owner) and child.get(NAME_KEY, child.name) == name:
            return child
    if not create:
        return None
    collection = bpy.data.collections.new(name)
    mark(collection, owner, **{NAME_KEY: name})
    scene.collection.children.link(collection)
    return collection


def disown(datablock: bpy.types.ID) -> None:
    """Hand a data-block over to the user (it holds user data Strew must not delete)."""
    for key in (OWNER_KEY, SELF_KEY, NAME_KEY, LAYER_KEY, LAYER_ID_KEY, TOKEN_KEY):
        if key in datablock:
            del datablock[key]


def remove_owned(datablocks: Iterable[bpy.types.ID], owner: str) -> int:
    """Remove the given datablocks that carry Strew's mark for ``owner``; the rest are left untouched."""
    return remove([block for block in datablocks if is_owned(block, owner)], owner)


def remove(doomed: list[bpy.types.ID], owner: str) -> int:
    """Remove data-blocks known to be Strew's, with the data Strew made for them once nothing else uses it."""
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
