"""Viewport display of a layer's instancer: a share of the instances, their bounding boxes or points only.

A second Geometry Nodes modifier, "Strew Viewport", after the instancer. It changes nothing outside the
viewport (an *Is Viewport* switch), so renders always show every instance in full. Bounds are drawn by
instancing one wire box per prefab, from a Strew-owned collection "Strew Bounds <layer>" whose children keep
the prefabs' Pick Instance order.

The settings only change how the output is drawn, so they are read when the output is drawn, not when it is
sampled: a change of them redraws the layer's output at once (:func:`redisplay`, through
``properties/hooks.py``), without a Scatter, and a run in progress writes with the settings as they are then.
"""

from __future__ import annotations

from typing import Any

import bpy
import numpy as np

from ..core.modes import DisplayMode
from ..properties import hooks
from .compat import modifier_input_values, set_modifier_inputs
from .instancer import OWNER, RADIUS_ATTRIBUTE, pick_order
from .layer_points import output_object
from .node_parts import named, picked_instances
from .ownership import LAYER_ID_KEY, LAYER_KEY, is_owned, mark
from .proxies import show_proxies

NODE_GROUP_NAME = "Strew Viewport"
NODE_GROUP_VERSION = 1
MODIFIER_NAME = "Strew Viewport"
BOUNDS_KEY = "strew_bounds"  # on a bounds collection: the id of the layer whose boxes it holds
POINT_SIZE = 0.15  # drawn point radius, as a share of the instance's spacing radius


def _box(name: str, low: np.ndarray, high: np.ndarray) -> bpy.types.Mesh:
    corners = [(x, y, z) for x in (low[0], high[0]) for y in (low[1], high[1]) for z in (low[2], high[2])]
    edges = [(0, 1), (2, 3), (4, 5), (6, 7), (0, 2), (1, 3), (4, 6), (5, 7), (0, 4), (1, 5), (2, 6), (3, 7)]
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(corners, edges, [])
    return mesh


def _bounds(block: bpy.types.ID) -> tuple[np.ndarray, np.ndarray]:
    """Low and high corners of what one instance of the prefab ``block`` shows, in the instance's own space."""
    if isinstance(block, bpy.types.Object):
        corners = np.array([tuple(c) for c in block.bound_box], dtype=np.float64)  # Reset Children: local space
    else:
        offset = np.array(block.instance_offset, dtype=np.float64)
        parts = [np.array([(obj.matrix_world @ _vector(tuple(c)))[:] for c in obj.bound_box]) - offset
                 for obj in block.all_objects]
        corners = np.concatenate(parts) if parts else np.zeros((1, 3))
    return corners.min(axis=0), corners.max(axis=0)


def _vector(values: tuple[float, ...]):  # mathutils is importable only inside Blender
    from mathutils import Vector

    return Vector(values)


def _bounds_collection(output: bpy.types.Object, prefabs: list[bpy.types.ID]) -> bpy.types.Collection:
    """A fresh "Strew Bounds <layer>" collection for the output ``output``: one wire box per prefab, named in Pick
    Instance order. The one it replaces goes once nothing uses it (:func:`remove_unused_bounds`): a copy the user
    made of the output keeps its boxes, and another layer that took the name keeps its own."""
    layer_name, key = str(output.get(LAYER_KEY, output.name)), str(output.get(LAYER_ID_KEY) or output.name)
    collection = bpy.data.collections.new(f"Strew Bounds {layer_name}")
    mark(collection, OWNER, **{LAYER_KEY: layer_name, BOUNDS_KEY: key})
    for number, prefab in enumerate(prefabs):
        name = f"Strew Bounds {layer_name} {number:05d}"
        mesh = _box(name, *_bounds(prefab))
        mark(mesh, OWNER, strew_layer=layer_name)
        obj = bpy.data.objects.new(name, mesh)
        obj.display_type = 'WIRE'
        mark(obj, OWNER, strew_layer=layer_name)
        collection.objects.link(obj)
    return collection


def remove_unused_bounds() -> None:
    """Remove the bounds collections no instancer uses any more (after Clear or a re-scatter)."""
    for collection in [c for c in bpy.data.collections if is_owned(c, OWNER) and c.get(BOUNDS_KEY)]:
        if collection.users == 0:
            remove_bounds(collection)


def remove_bounds(collection: bpy.types.Collection) -> None:
    """Remove a bounds collection with its boxes (all Strew's)."""
    objects = [o for o in collection.objects if is_owned(o, OWNER)]
    meshes = [o.data for o in objects if o.data is not None and is_owned(o.data, OWNER)]
    bpy.data.batch_remove([*objects, *meshes, collection])


def viewport_node_group() -> bpy.types.NodeTree:
    """The shared "Strew Viewport" node group (rebuilt when missing or from another version)."""
    for group in bpy.data.node_groups:
        if is_owned(group, OWNER) and group.get("strew_version") == NODE_GROUP_VERSION \
                and group.get("strew_kind") == "viewport":
            return group
    group = bpy.data.node_groups.new(NODE_GROUP_NAME, 'GeometryNodeTree')
    mark(group, OWNER, strew_version=NODE_GROUP_VERSION, strew_kind="viewport")
    interface = group.interface
    interface.new_socket("Geometry", in_out='INPUT', socket_type='NodeSocketGeometry')  # type: ignore[arg-type]
    interface.new_socket("Share", in_out='INPUT', socket_type='NodeSocketFloat')  # type: ignore[arg-type]
    interface.new_socket("Bounds", in_out='INPUT', socket_type='NodeSocketBool')  # type: ignore[arg-type]
    interface.new_socket("Points", in_out='INPUT', socket_type='NodeSocketBool')  # type: ignore[arg-type]
    interface.new_socket("Boxes", in_out='INPUT', socket_type='NodeSocketCollection')  # type: ignore[arg-type]
    interface.new_socket("Geometry", in_out='OUTPUT', socket_type='NodeSocketGeometry')  # type: ignore[arg-type]
    nodes, links = group.nodes, group.links
    group_in, group_out = nodes.new('NodeGroupInput'), nodes.new('NodeGroupOutput')

    def switch(condition, when_false, when_true) -> bpy.types.NodeSocket:
        node = nodes.new('GeometryNodeSwitch')
        node.input_type = 'GEOMETRY'
        links.new(condition, node.inputs['Switch'])
        links.new(when_false, node.inputs['False'])
        links.new(when_true, node.inputs['True'])
        return node.outputs[0]

    viewport = nodes.new('GeometryNodeIsViewport').outputs[0]
    keep = nodes.new('FunctionNodeRandomValue')
    keep.data_type = 'BOOLEAN'
    links.new(group_in.outputs['Share'], keep.inputs['Probability'])
    drop = nodes.new('FunctionNodeBooleanMath')
    drop.operation = 'NIMPLY'  # viewport and not kept
    links.new(viewport, drop.inputs[0])
    links.new(next(o for o in keep.outputs if o.type == 'BOOLEAN'), drop.inputs[1])
    thinned = nodes.new('GeometryNodeDeleteGeometry')
    thinned.domain = 'INSTANCE'
    links.new(group_in.outputs['Geometry'], thinned.inputs['Geometry'])
    links.new(drop.outputs[0], thinned.inputs['Selection'])

    points = nodes.new('GeometryNodeInstancesToPoints')
    links.new(thinned.outputs[0], points.inputs['Instances'])
    sized = nodes.new('GeometryNodeSetPointRadius')
    radius = nodes.new('ShaderNodeMath')
    radius.operation = 'MULTIPLY'
    radius.inputs[1].default_value = POINT_SIZE
    links.new(named(group, RADIUS_ATTRIBUTE, 'FLOAT'), radius.inputs[0])
    links.new(points.outputs[0], sized.inputs['Points'])
    links.new(radius.outputs[0], sized.inputs['Radius'])

    boxes = picked_instances(group, group_in.outputs['Boxes'], points.outputs[0])

    shown = switch(group_in.outputs['Bounds'], thinned.outputs[0], boxes)
    shown = switch(group_in.outputs['Points'], shown, sized.outputs[0])
    links.new(switch(viewport, thinned.outputs[0], shown), group_out.inputs[0])
    for x, node in enumerate(nodes):
        node.location = (x * 200.0, 0.0)
    return group


def _is_display(modifier: bpy.types.Modifier) -> bool:
    group = getattr(modifier, "node_group", None)
    return group is not None and is_owned(group, OWNER) and group.get("strew_kind") == "viewport"


def _prefabs(obj: bpy.types.Object) -> list[bpy.types.ID]:
    """What the object's instancer picks from, in Pick Instance order."""
    for modifier in obj.modifiers:
        if modifier.type == 'NODES' and not _is_display(modifier):
            collection = modifier_input_values(modifier).get("Prefabs")
            if isinstance(collection, bpy.types.Collection):
                return pick_order(collection)
    return []


def show_as_set(obj: bpy.types.Object, layer: Any) -> None:
    """Give a layer's instancer object the layer's Viewport Display settings as they are now, in place of the
    ones it had (full display of all needs no modifier)."""
    for modifier in [m for m in obj.modifiers if _is_display(m)]:
        set_modifier_inputs(modifier, {"Boxes": None})  # removing the modifier alone leaves the boxes a user
        obj.modifiers.remove(modifier)
    show_proxies(obj, layer, _prefabs(obj))
    mode, share = DisplayMode(layer.display_mode), layer.viewport_percent / 100.0
    if mode != DisplayMode.FULL or share < 1.0:
        modifier = obj.modifiers.new(MODIFIER_NAME, 'NODES')
        modifier.node_group = viewport_node_group()
        values: dict[str, Any] = {"Share": share, "Bounds": mode == DisplayMode.BOUNDS,
                                  "Points": mode == DisplayMode.POINTS}
        if mode == DisplayMode.BOUNDS:
            values["Boxes"] = _bounds_collection(obj, _prefabs(obj))
        set_modifier_inputs(modifier, values)
    remove_unused_bounds()


def redisplay(layer: Any) -> None:
    """A layer's Viewport Display setting changed: draw its current Point Instancer output with the settings
    (Real Objects have no viewport display)."""
    obj = output_object(layer.id_data, layer.layer_id) if layer.layer_id else None
    if obj is not None:
        show_as_set(obj, layer)


def register() -> None:
    if redisplay not in hooks.DISPLAY_CHANGED:
        hooks.DISPLAY_CHANGED.append(redisplay)


def unregister() -> None:
    if redisplay in hooks.DISPLAY_CHANGED:
        hooks.DISPLAY_CHANGED.remove(redisplay)
