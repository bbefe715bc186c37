"""Write scattered points back into Blender: a point object with a Geometry Nodes instancer, or real objects.

The default output is one mesh of loose points per layer carrying the attributes ``strew_prefab`` (int),
``strew_rotation`` (Euler XYZ, radians), ``strew_scale`` (float), ``strew_radius`` (float), ``strew_random``
(float in [0, 1), a hash of the point's position and the layer's seed: it stays with the point through a
re-scatter) and ``strew_id`` (int, the point's number in the output), and a
"Strew Instancer" node group modifier (Collection Info with Separate Children + Instance on Points with
Pick Instance). Pick Instance counts the collection's children in Blender's name order, which
:func:`prefabs_of` reproduces.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import bpy
import numpy as np
from mathutils import Matrix

from ..core.orient import rotation_matrices
from .compat import set_modifier_inputs
from .custom_props import prefab_weight
from .instances import PointSet
from .naming import natural_name_key
from .ownership import LAYER_ID_KEY, LAYER_KEY, is_owned, mark, set_current

OWNER = "scatter"
NODE_GROUP_NAME = "Strew Instancer"
NODE_GROUP_VERSION = 1
OUTPUT_COLLECTION = "Strew Output"
# Per-point attributes of the point instancer (``RADIUS`` is also the custom property of real-object output).
PREFAB_ATTRIBUTE = "strew_prefab"
ROTATION_ATTRIBUTE = "strew_rotation"
SCALE_ATTRIBUTE = "strew_scale"
RADIUS_ATTRIBUTE = "strew_radius"
RANDOM_ATTRIBUTE = "strew_random"
ID_ATTRIBUTE = "strew_id"
"""Geometry Nodes' Instance on Points hands point attributes to the instances, so a material's Attribute node
(type Instancer) reads ``strew_random`` and ``strew_id``; real objects carry both as custom properties (type
Object)."""


@dataclass(frozen=True)
class LayerMark:
    """Whose output a data-block is: the layer's name (shown) and its stable id (how Strew finds it)."""

    name: str
    layer_id: str

    @property
    def marks(self) -> dict[str, str]:
        return {LAYER_KEY: self.name, LAYER_ID_KEY: self.layer_id}


@dataclass(frozen=True)
class Prefab:
    """One child of a layer's collection, in Pick Instance order."""

    name: str
    datablock: bpy.types.ID  # an Object or a child Collection
    weight: float


def pick_order(collection: bpy.types.Collection) -> list[bpy.types.ID]:
    """The collection's direct children (objects and collections) in the order Pick Instance uses."""
    children: list[bpy.types.ID] = [*collection.children, *collection.objects]
    children.sort(key=lambda block: natural_name_key(block.name))
    return children


def prefabs_of(collection: bpy.types.Collection) -> list[Prefab]:
    """The collection's prefabs in Pick Instance order, with their weights (``CustomPropertyError`` for an
    unusable ``strew_weight``)."""
    return [Prefab(block.name, block, prefab_weight(block)) for block in pick_order(collection)]


Wiring = Callable[[bpy.types.Nodes, Callable[[str, str], bpy.types.NodeSocket], bpy.types.Node], None]


def build_instancer_group(name: str, owner: str, version: int, wire: Wiring) -> bpy.types.NodeTree:
    """The owned node group ``name`` (rebuilt when missing or from another version): the Geometry input's points
    instance the children of the "Prefabs" collection (Separate Children, Reset Children, Pick Instance).

    ``wire(nodes, named, on_points)`` connects Instance Index, Rotation and Scale of ``on_points``;
    ``named(attribute, data_type)`` returns the output of a new Named Attribute node.
    """
    for group in bpy.data.node_groups:
        if is_owned(group, owner) and group.get("strew_version") == version:
            return group
    group = bpy.data.node_groups.new(name, 'GeometryNodeTree')
    mark(group, owner, strew_version=version)
    interface = group.interface
    interface.new_socket("Geometry", in_out='INPUT', socket_type='NodeSocketGeometry')  # type: ignore[arg-type]
    interface.new_socket("Prefabs", in_out='INPUT', socket_type='NodeSocketCollection')  # type: ignore[arg-type]
    interface.new_socket("Geometry", in_out='OUTPUT', socket_type='NodeSocketGeometry')  # type: ignore[arg-type]

    nodes, links = group.nodes, group.links
    group_in = nodes.new('NodeGroupInput')
    group_out = nodes.new('NodeGroupOutput')
    info = nodes.new('GeometryNodeCollectionInfo')
    info.transform_space = 'ORIGINAL'
    info.inputs['Separate Children'].default_value = True
    info.inputs['Reset Children'].default_value = True
    on_points = nodes.new('GeometryNodeInstanceOnPoints')
    on_points.inputs['Pick Instance'].default_value = True

    def named(attribute: str, data_type: str) -> bpy.types.NodeSocket:
        node = nodes.new('GeometryNodeInputNamedAttribute')
        node.data_type = data_type
        node.inputs['Name'].default_value = attribute
        return node.outputs['Attribute']

    links.new(group_in.outputs[0], on_points.inputs['Points'])
    links.new(group_in.outputs[1], info.inputs['Collection'])
    links.new(info.outputs[0], on_points.inputs['Instance'])
    wire(nodes, named, on_points)
    links.new(on_points.outputs[0], group_out.inputs[0])
    for x, node in enumerate((group_in, info, on_points, group_out)):
        node.location = (x * 250.0, 0.0)
    return group


def _wire_scatter(nodes: bpy.types.Nodes, named: Callable[[str, str], bpy.types.NodeSocket],
                  on_points: bpy.types.Node) -> None:
    links = on_points.id_data.links
    links.new(named(PREFAB_ATTRIBUTE, 'INT'), on_points.inputs['Instance Index'])
    links.new(named(ROTATION_ATTRIBUTE, 'FLOAT_VECTOR'), on_points.inputs['Rotation'])
    links.new(named(SCALE_ATTRIBUTE, 'FLOAT'), on_points.inputs['Scale'])


def instancer_node_group() -> bpy.types.NodeTree:
    """The shared "Strew Instancer" node group of Scatter."""
    return build_instancer_group(NODE_GROUP_NAME, OWNER, NODE_GROUP_VERSION, _wire_scatter)


def set_instancer_modifier(obj: bpy.types.Object, group: bpy.types.NodeTree,
                           collection: bpy.types.Collection) -> bpy.types.Modifier:
    """Give ``obj`` the "Strew Instancer" modifier running ``group`` on the children of ``collection``."""
    modifier = obj.modifiers.new("Strew Instancer", 'NODES')
    modifier.node_group = group
    set_modifier_inputs(modifier, {"Prefabs": collection})
    return modifier


def _set_attribute(mesh: bpy.types.Mesh, name: str, kind: str, field: str, values: np.ndarray) -> None:
    attribute = mesh.attributes.new(name, kind, 'POINT')  # type: ignore[arg-type]
    attribute.data.foreach_set(field, np.ascontiguousarray(values).ravel())


def write_point_instancer(
    output: bpy.types.Collection, layer: LayerMark, collection: bpy.types.Collection, points: PointSet,
    origin: np.ndarray | None = None,
) -> bpy.types.Object:
    """Create the layer's point object "Strew <layer>" with the instancer modifier, standing at ``origin`` (a
    whole-metre place near the points; None: :func:`origin_of` them)."""
    name = f"Strew {layer.name}"
    mesh = bpy.data.meshes.new(name)
    mark(mesh, OWNER, **layer.marks)
    if origin is None:
        origin = origin_of(points.positions)
    mesh.vertices.add(len(points))
    mesh.vertices.foreach_set("co", offsets(points.positions, origin).ravel())
    _set_attribute(mesh, PREFAB_ATTRIBUTE, 'INT', "value", points.prefab_index.astype(np.int32))
    _set_attribute(mesh, ROTATION_ATTRIBUTE, 'FLOAT_VECTOR', "vector", points.rotations.astype(np.float32))
    _set_attribute(mesh, SCALE_ATTRIBUTE, 'FLOAT', "value", points.scales.astype(np.float32))
    _set_attribute(mesh, RADIUS_ATTRIBUTE, 'FLOAT', "value", points.radii.astype(np.float32))
    _set_attribute(mesh, RANDOM_ATTRIBUTE, 'FLOAT', "value", points.randoms.astype(np.float32))
    _set_attribute(mesh, ID_ATTRIBUTE, 'INT', "value", np.arange(len(points), dtype=np.int32))
    mesh.update()

    obj = bpy.data.objects.new(name, mesh)
    mark(obj, OWNER, **layer.marks)
    obj.matrix_world = Matrix.Translation(origin.tolist())
    set_instancer_modifier(obj, instancer_node_group(), collection)
    output.objects.link(obj)
    set_current(output, layer.layer_id, obj)
    return obj


def origin_of(positions: np.ndarray) -> np.ndarray:
    """Where a layer's output object stands: the centre of its points' bounding box in whole metres, exact in float32
    (Blender's precision for locations and vertices), so the points' float32 offsets from it stay small and precise
    however far from the world origin the points lie. Every point counts (not a sample by index), so an edit that
    moves none of the outermost points writes every other point's offset bit for bit as before."""
    if not len(positions):
        return np.zeros(3)
    columns = positions.T  # by column: an axis-0 reduction is 20 times slower
    centre = np.array([(column.min() + column.max()) / 2.0 for column in columns])
    return np.round(centre).astype(np.float32).astype(np.float64)


BLUR_SHARE = 1e-3  # the share of a layer's spacing that Blender's world precision may take before a warning


def world_blur(far: float) -> float:
    """How much closer or farther apart than they are stored Blender may draw and render two instances ``far``
    metres from the world origin: its world space is float32 (instance matrices, whatever the output's origin), so
    each x and y rounds by up to half a float32 step there, and a distance by up to √2 steps."""
    return float(np.sqrt(2.0) * np.spacing(np.float32(far), dtype=np.float32))


def offsets(positions: np.ndarray, origin: np.ndarray) -> np.ndarray:
    """``positions - origin`` as float32, computed in float64 a block at a time (half the time of one pass)."""
    out = np.empty(positions.shape, dtype=np.float32)
    for start in range(0, len(positions), _BLOCK):
        out[start:start + _BLOCK] = positions[start:start + _BLOCK] - origin
    return out


_BLOCK = 8192


def world_positions(objects: Sequence[bpy.types.Object]) -> np.ndarray:
    """(N, 3) world positions in float64 from each object's location and its parents' transforms (exact for a
    point far from the origin, and right before Blender has evaluated objects just made)."""
    out = np.array([obj.location[:] for obj in objects], dtype=np.float64).reshape(-1, 3)
    frames: dict[int, tuple[np.ndarray, list[int]]] = {}  # parent -> (its world matrix, the children it carries)
    for number, obj in enumerate(objects):
        parent = obj.parent
        if parent is None:
            continue
        if obj.matrix_parent_inverse == _IDENTITY:
            frames.setdefault(parent.as_pointer(), (_world_matrix(parent), []))[1].append(number)
        else:
            frame = _world_matrix(parent) @ np.array(obj.matrix_parent_inverse, dtype=np.float64)
            out[number] = frame[:3, :3] @ out[number] + frame[:3, 3]
    for frame, numbers in frames.values():
        out[numbers] = out[numbers] @ frame[:3, :3].T + frame[:3, 3]
    return out


def _world_matrix(obj: bpy.types.Object) -> np.ndarray:
    matrix = np.array(obj.matrix_basis, dtype=np.float64)
    while obj.parent is not None:
        matrix = (np.array(obj.parent.matrix_basis, dtype=np.float64)
                  @ np.array(obj.matrix_parent_inverse, dtype=np.float64) @ matrix)
        obj = obj.parent
    return matrix


_IDENTITY = Matrix.Identity(4)


def instance_matrices(points: PointSet, origin: np.ndarray) -> np.ndarray:
    """(N, 4, 4) matrices relative to ``origin``: translate · rotate (Euler XYZ) · uniform scale."""
    matrices = np.zeros((len(points), 4, 4))
    matrices[:, :3, :3] = rotation_matrices(points.rotations) * points.scales[:, None, None]
    matrices[:, :3, 3] = points.positions - origin
    matrices[:, 3, 3] = 1.0
    return matrices


def write_objects(
    output: bpy.types.Collection,
    layer: LayerMark,
    prefabs: list[Prefab],
    points: PointSet,
    linked_duplicates: bool,
) -> bpy.types.Collection:
    """Real objects in a child collection "Strew <layer>": empties instancing collections, or linked duplicates,
    each a child of the empty "Strew <layer>" that stands at the points' origin (:func:`origin_of`) and carrying
    its spacing radius, its random value and its number as the custom properties ``strew_radius``,
    ``strew_random`` and ``strew_id``.

    Object prefabs become linked duplicates (shared mesh data) in both modes when ``linked_duplicates`` is set;
    otherwise each object prefab is wrapped in a Strew-owned collection that the empties instance.
    """
    layer_name = layer.name
    layer_collection = bpy.data.collections.new(f"Strew {layer_name}")
    mark(layer_collection, OWNER, **layer.marks)
    output.children.link(layer_collection)
    set_current(output, layer.layer_id, layer_collection)
    origin = origin_of(points.positions)
    parent = bpy.data.objects.new(f"Strew {layer_name}", None)
    mark(parent, OWNER, **layer.marks)
    parent.matrix_world = Matrix.Translation(origin.tolist())
    layer_collection.objects.link(parent)
    wrappers: dict[int, bpy.types.Collection] = {}
    matrices = instance_matrices(points, origin)
    for number, (index, matrix, radius, random) in enumerate(zip(points.prefab_index.tolist(), matrices,
                                                                 points.radii.tolist(), points.randoms.tolist(),
                                                                 strict=True)):
        prefab = prefabs[index]
        source = prefab.datablock
        if linked_duplicates and isinstance(source, bpy.types.Object):
            obj = source.copy()
            obj.name = f"{layer_name}.{number:06d}"
        else:
            obj = bpy.data.objects.new(f"{layer_name}.{number:06d}", None)
            obj.instance_type = 'COLLECTION'
            if isinstance(source, bpy.types.Collection):
                obj.instance_collection = source
            else:
                if index not in wrappers:
                    wrapper = bpy.data.collections.new(f"Strew Prefab {source.name}")
                    mark(wrapper, OWNER, strew_layer=layer_name)
                    wrapper.objects.link(source)
                    wrapper.instance_offset = source.matrix_world.translation
                    wrappers[index] = wrapper
                obj.instance_collection = wrappers[index]
        mark(obj, OWNER, **layer.marks)
        obj[RADIUS_ATTRIBUTE] = radius
        obj[RANDOM_ATTRIBUTE] = random
        obj[ID_ATTRIBUTE] = number
        obj.parent = parent
        obj.matrix_parent_inverse = Matrix.Identity(4)
        obj.matrix_basis = Matrix(matrix.tolist())
        layer_collection.objects.link(obj)
    return layer_collection
