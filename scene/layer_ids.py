"""Which layer an output belongs to: each layer's stable id, and the one lookup of a layer's output by it.

A layer's ``layer_id`` is set once (a random hex string, saved with the file); everything Strew writes for the
layer carries it as ``strew_layer_id``, so renaming the layer or its output object loses nothing. A layer copied
with its id (a script, a duplicate) gets a new one: the first layer in the list keeps it. Output written before
layers had ids is found once by its layer's name and takes the layer's id.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

import bpy
from bpy.app.handlers import persistent

from ..properties.layer_relations import relation_links
from .instancer import OUTPUT_COLLECTION, OWNER
from .ownership import LAYER_ID_KEY, LAYER_KEY, OWNER_KEY, is_current, is_owned, originals, owned_collection


def assign(scene: bpy.types.Scene) -> None:
    """Give each layer of ``scene`` without an id of its own a new one; a layer that had none adopts the output
    written for its name without an id. Keep-away rules follow the layers they name (:func:`bind_rules`)."""
    seen: set[str] = set()
    for layer in scene.strew.layers:
        had_none = not layer.layer_id
        if had_none or layer.layer_id in seen:
            layer.layer_id = uuid.uuid4().hex
        seen.add(layer.layer_id)
        if had_none:
            for block in _blocks(scene):
                if LAYER_ID_KEY not in block and is_owned(block, OWNER) and block.get(LAYER_KEY) == layer.name:
                    block[LAYER_ID_KEY] = layer.layer_id
    bind_rules(scene)


def bind_rules(scene: bpy.types.Scene) -> None:
    """Tie each keep-away rule, Around and On Layer link to the layer it names by that layer's id, and name it as
    the layer is named now: a renamed layer keeps the rules and links that name it. A rule naming no layer stays
    as it is (reading it says so)."""
    layers = scene.strew.layers
    by_id = {layer.layer_id: layer.name for layer in layers if layer.layer_id}
    by_name = {layer.name: layer.layer_id for layer in layers}
    for layer in layers:
        for rule in (*layer.keep_away_rules, *relation_links(layer)):
            name = by_id.get(rule.layer_id) if rule.layer_id else None
            if name is not None and name != rule.layer:
                rule.layer = name  # clears the id (a pick by hand): set again just below
                rule.layer_id = by_name[name]
            elif name is None and rule.layer in by_name:
                rule.layer_id = by_name[rule.layer]


def ids_of(scene: bpy.types.Scene, indices: Sequence[int]) -> list[str]:
    """The ids of the layers at ``indices`` (every layer has one afterwards)."""
    assign(scene)
    layers = scene.strew.layers
    return [layers[index].layer_id for index in indices]


def index_of(scene: bpy.types.Scene, layer_id: str) -> int | None:
    """Where the layer with ``layer_id`` stands in the list now, or None when it is gone."""
    return next((i for i, layer in enumerate(scene.strew.layers) if layer.layer_id == layer_id), None)


def outputs(scene: bpy.types.Scene, layer_id: str | None = None) -> list[bpy.types.ID]:
    """The layer's output in ``scene`` (its point object, or its collection of real objects), or every layer's
    with ``layer_id`` None. Copies the user made of an output are not in it (made before the output's last
    write: :func:`.ownership.is_current`; since: :func:`.ownership.originals`)."""
    output = owned_collection(scene, OUTPUT_COLLECTION, OWNER, create=False)
    marked: dict[tuple[str, object], list[bpy.types.ID]] = {}
    for block in _blocks(scene):
        key = block.get(LAYER_ID_KEY)
        if block.get(OWNER_KEY) != OWNER or (layer_id is not None and key != layer_id):
            continue
        if output is not None and key is not None and not is_current(output, key, block):
            continue
        if key is None:  # never adopted (no layer of that name): what the name rule found
            if is_owned(block, OWNER):
                marked.setdefault((type(block).__name__, block.as_pointer()), []).append(block)
        else:
            marked.setdefault((type(block).__name__, key), []).append(block)
    return [block for group in marked.values() for block in originals(group)]


def _blocks(scene: bpy.types.Scene) -> list[bpy.types.ID]:
    """What may be a layer's output: the objects and child collections of the scene's "Strew Output"."""
    output = owned_collection(scene, OUTPUT_COLLECTION, OWNER, create=False)
    return [] if output is None else [*output.objects, *output.children]


@persistent
def on_load(_file: str) -> None:
    """A file just loaded: its layers take their ids (and adopt their output) before the user can rename them."""
    for scene in bpy.data.scenes:
        if scene.library is None and getattr(scene, "strew", None) is not None:
            assign(scene)


def register() -> None:
    if on_load not in bpy.app.handlers.load_post:
        bpy.app.handlers.load_post.append(on_load)


def unregister() -> None:
    if on_load in bpy.app.handlers.load_post:
        bpy.app.handlers.load_post.remove(on_load)
