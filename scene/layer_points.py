"""A layer's Point Instancer output as arrays: read it, write it, and tell painted instances apart.

Instances painted by hand carry the point attribute ``strew_painted = 1``; Scatter keeps them (they block the
new sample and are written back with it) until Clear removes the layer's output.
"""

from __future__ import annotations

import bpy
import numpy as np

from ..core import fpmath
from ..core.hashing import Stream, hash_uniform
from . import layer_ids
from .compat import modifier_input_values, set_modifier_inputs
from .instancer import (
    OUTPUT_COLLECTION,
    OWNER,
    PREFAB_ATTRIBUTE,
    RADIUS_ATTRIBUTE,
    RANDOM_ATTRIBUTE,
    ROTATION_ATTRIBUTE,
    SCALE_ATTRIBUTE,
    LayerMark,
    write_point_instancer,
)
from .instances import PointSet
from .ownership import is_owned, owned_collection

PAINTED = "strew_painted"
_ATTRIBUTES = {  # name: (type, foreach field, components)
    PREFAB_ATTRIBUTE: ('INT', "value", 1),
    ROTATION_ATTRIBUTE: ('FLOAT_VECTOR', "vector", 3),
    SCALE_ATTRIBUTE: ('FLOAT', "value", 1),
    RADIUS_ATTRIBUTE: ('FLOAT', "value", 1),
    RANDOM_ATTRIBUTE: ('FLOAT', "value", 1),
}


def output_object(scene: bpy.types.Scene, layer_id: str) -> bpy.types.Object | None:
    """The layer's Point Instancer object, wherever the user moved Strew's output collection."""
    return next((block for block in layer_ids.outputs(scene, layer_id)
                 if isinstance(block, bpy.types.Object) and block.type == 'MESH'), None)


def read_points(obj: bpy.types.Object) -> PointSet:
    """The instances of a Point Instancer object, in world space."""
    mesh = obj.data
    count = len(mesh.vertices)
    co = np.empty(count * 3)
    mesh.vertices.foreach_get("co", co)
    positions = fpmath.transform(co.reshape(-1, 3), np.array(obj.matrix_world))
    values: dict[str, np.ndarray] = {}
    for name, (kind, field, width) in _ATTRIBUTES.items():
        data = np.zeros(count * width, dtype=np.int32 if kind == 'INT' else np.float32)
        if name in mesh.attributes:
            mesh.attributes[name].data.foreach_get(field, data)
        values[name] = data.reshape(-1, 3) if width == 3 else data
    painted = np.zeros(count, dtype=np.int32)
    if PAINTED in mesh.attributes:
        mesh.attributes[PAINTED].data.foreach_get("value", painted)
    if RANDOM_ATTRIBUTE not in mesh.attributes:  # an output written before the attribute existed
        values[RANDOM_ATTRIBUTE] = hash_uniform(positions[:, :2], 0, Stream.RANDOM)
    return PointSet(positions=positions, rotations=values[ROTATION_ATTRIBUTE].astype(np.float64),
                    scales=values[SCALE_ATTRIBUTE].astype(np.float64),
                    prefab_index=values[PREFAB_ATTRIBUTE].astype(np.int64),
                    radii=values[RADIUS_ATTRIBUTE].astype(np.float64),
                    randoms=values[RANDOM_ATTRIBUTE].astype(np.float64), painted=painted.astype(bool))


def write_instancer(output: bpy.types.Collection, layer: LayerMark, collection: bpy.types.Collection,
                    points: PointSet, origin: np.ndarray | None = None) -> bpy.types.Object:
    """A new Point Instancer object for ``points``, painted flags included (``origin``: see
    :func:`~.instancer.write_point_instancer`)."""
    obj = write_point_instancer(output, layer, collection, points, origin)
    flags = obj.data.attributes.new(PAINTED, 'INT', 'POINT')
    flags.data.foreach_set("value", points.painted.astype(np.int32))
    return obj


def painted_points(scene: bpy.types.Scene, layer_id: str) -> PointSet | None:
    """The instances painted by hand in the layer's current output, or None."""
    obj = output_object(scene, layer_id)
    if obj is None or PAINTED not in obj.data.attributes:
        return None
    flags = obj.data.attributes[PAINTED]
    painted = np.zeros(len(flags.data), dtype=np.int32)
    flags.data.foreach_get("value", painted)
    if not painted.any():  # the usual case: no need to read every instance
        return None
    points = read_points(obj)
    return points.take(points.painted) if points.painted.any() else None


def replace_points(scene: bpy.types.Scene, layer: LayerMark, collection: bpy.types.Collection,
                   points: PointSet, keep_origin: bool = False) -> bpy.types.Object:
    """Replace the layer's Point Instancer object by one holding ``points`` (keeping its viewport settings).

    ``keep_origin``: the new object stands where the old one stood (when that was a plain move), so every point
    that was there before is written with the same float32 offset, bit for bit, whatever points came or went.
    """
    old = output_object(scene, layer.layer_id)
    extra = []  # the old object's other Geometry Nodes modifiers (viewport display), to carry over
    origin = None
    if old is not None and keep_origin:
        matrix = np.array(old.matrix_world, dtype=np.float64)
        if np.array_equal(matrix[:3, :3], np.eye(3)) and np.array_equal(matrix[3], [0.0, 0.0, 0.0, 1.0]):
            origin = matrix[:3, 3]
    if old is not None:
        for modifier in list(old.modifiers)[1:]:
            if modifier.type == 'NODES':
                extra.append((modifier.name, modifier.node_group, modifier_input_values(modifier)))
        mesh = old.data
        bpy.data.objects.remove(old)
        if isinstance(mesh, bpy.types.Mesh) and mesh.users == 0 and is_owned(mesh, OWNER):
            bpy.data.meshes.remove(mesh)
    obj = write_instancer(owned_collection(scene, OUTPUT_COLLECTION, OWNER), layer, collection, points, origin)
    for name, group, values in extra:
        modifier = obj.modifiers.new(name, 'NODES')
        modifier.node_group = group
        set_modifier_inputs(modifier, values)
    return obj
