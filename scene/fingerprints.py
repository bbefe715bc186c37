"""Condensed, comparable forms of what a scatter reads from the scene: an object's world matrix and evaluated
geometry, a collection's objects, a camera's settings, vertex group weights.

The live update compares these between runs (:mod:`.live_watch`, :mod:`.job_cache`), and each layer input gives
its cache key from them (:mod:`.layer_inputs`), so both speak of the same thing the same way.
"""

from __future__ import annotations

import hashlib
from typing import Any

import bpy
import numpy as np

from .drawn import GEOMETRY, Drawn, drawn, makes_instances
from .terrain import mesh_columns, read_weights


def digest(*arrays: np.ndarray) -> str:
    """A hash of the arrays' contents (shape and dtype included)."""
    h = hashlib.blake2b(digest_size=16)
    for array in arrays:
        array = np.ascontiguousarray(array)
        h.update(f"{array.dtype}{array.shape}".encode())
        h.update(array.tobytes())
    return h.hexdigest()


def fingerprint(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph) -> tuple[Any, ...]:
    """The object's world matrix and its evaluated geometry, condensed (vertex and face counts, a hash of the
    vertex coordinates and of the faces' vertex indices), with where the instances it places stand: equal exactly
    when a scatter on it would be."""
    evaluated = obj.evaluated_get(depsgraph)
    matrix = tuple(np.array(evaluated.matrix_world, dtype=np.float64).ravel().tolist())
    if isinstance(obj.data, bpy.types.Camera):
        return (*matrix, *camera_settings(obj.data))
    shape = _shape(evaluated) if obj.type in GEOMETRY else ()
    placed = (instances_digest(obj, depsgraph),) if makes_instances(obj) else ()
    collection = obj.instance_collection if obj.instance_type == 'COLLECTION' else None
    asset = (collection.name,) if collection is not None else ()
    return (*matrix, *shape, *placed, *asset)


def _shape(evaluated: bpy.types.Object) -> tuple[Any, ...]:
    """Vertex and face counts and a hash of an evaluated object's mesh."""
    mesh = evaluated.to_mesh()
    try:
        if mesh is None:
            return (0,)
        columns = mesh_columns(mesh)  # Blender's own arrays, one copy each (no pass over the items)
    finally:
        evaluated.to_mesh_clear()
    return (len(columns.positions) // 3, len(columns.face_sizes),
            digest(columns.positions, columns.corner_verts, columns.face_sizes, columns.edges))


def instances_digest(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph) -> str:
    """A hash of the instances ``obj`` places in the evaluated depsgraph: each one's matrix and what it draws."""
    pointer = obj.original.as_pointer() if obj.original is not None else obj.as_pointer()
    h = hashlib.blake2b(digest_size=16)
    for instance in depsgraph.object_instances:
        if instance.is_instance and instance.parent is not None and instance.parent.original.as_pointer() == pointer:
            h.update(np.array(instance.matrix_world, dtype=np.float64).tobytes())
            h.update(instance.object.name.encode())
            h.update(repr(_shape(instance.object) if instance.object.type in GEOMETRY else ()).encode())
    return h.hexdigest()


def drawn_print(placed: Drawn) -> tuple[Any, ...]:
    """Where a drawn object stands (its world matrix) and its geometry, condensed."""
    return (*placed.matrix.ravel().tolist(), *_shape(placed.obj))


def collection_key(collection: bpy.types.Collection | None, depsgraph: bpy.types.Depsgraph) -> Any:
    """A collection's name with everything it draws (:func:`.drawn.drawn`): each placement's objects and print
    (None for no collection)."""
    if collection is None:
        return None
    return (collection.name, tuple((placed.key, placed.name, drawn_print(placed))
                                   for placed in drawn(collection, depsgraph)))


def weight_digests(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph, names: set[str]) -> dict[str, str]:
    """A hash of each vertex group's weights on the evaluated mesh (groups the object lacks are left out)."""
    return {name: digest(w) for name, w in read_weights(obj, depsgraph, tuple(names)).items()}


def camera_settings(data: bpy.types.Camera) -> tuple[Any, ...]:
    """What of a camera's data changes its view (the frame also depends on the scene's resolution)."""
    return (data.type, data.lens, data.sensor_fit, data.sensor_width, data.sensor_height, data.shift_x,
            data.shift_y, data.ortho_scale, data.clip_start, data.clip_end)
