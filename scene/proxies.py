"""Proxies by distance: a layer's instances near the view drawn in full, farther ones as light proxies.

A Geometry Nodes modifier, "Strew Proxies", right after the instancer of a Point Instancer output. It measures each
instance's distance from the empty "Strew View" (an Object Info node; :mod:`.proxy_view` keeps the empty at the
3D view's eye, or at the scene camera where there is no 3D view) and, in the viewport only (an *Is Viewport*
switch), instances the prefab's proxy from a Strew-owned collection "Strew Proxies <layer>" in place of the
prefab beyond the layer's Distance. Renders always show every instance in full. The proxies' meshes are made once
per prefab (:mod:`.proxy_meshes`) and removed with the last output that uses them; the user's prefabs are only
read.
"""

from __future__ import annotations

from typing import Any

import bpy
from mathutils import Vector

from ..core.modes import ProxyKind
from .compat import set_modifier_inputs
from .instancer import OWNER
from .node_parts import picked_instances
from .ownership import LAYER_ID_KEY, LAYER_KEY, NAME_KEY, is_owned, mark, rename
from .proxy_meshes import KIND_KEY, proxy_mesh, remove_unused_meshes

NODE_GROUP_NAME = "Strew Proxies"
NODE_GROUP_VERSION = 1
GROUP_KIND = "proxies"
MODIFIER_NAME = "Strew Proxies"
PROXIES_KEY = "strew_proxies"  # on a proxy collection: the id of the layer whose proxies it holds
VIEW_NAME = "Strew View"
VIEW_KIND = "view"


def proxy_node_group() -> bpy.types.NodeTree:
    """The shared "Strew Proxies" node group (rebuilt when missing or from another version)."""
    for group in bpy.data.node_groups:
        if is_owned(group, OWNER) and group.get("strew_version") == NODE_GROUP_VERSION \
                and group.get(KIND_KEY) == GROUP_KIND:
            return group
    group = bpy.data.node_groups.new(NODE_GROUP_NAME, 'GeometryNodeTree')
    mark(group, OWNER, strew_version=NODE_GROUP_VERSION, **{KIND_KEY: GROUP_KIND})
    interface = group.interface
    for name, socket in (("Geometry", 'NodeSocketGeometry'), ("Proxies", 'NodeSocketCollection'),
                         ("View", 'NodeSocketObject'), ("Distance", 'NodeSocketFloat')):
        interface.new_socket(name, in_out='INPUT', socket_type=socket)  # type: ignore[arg-type]
    interface.new_socket("Geometry", in_out='OUTPUT', socket_type='NodeSocketGeometry')  # type: ignore[arg-type]
    nodes, links = group.nodes, group.links
    group_in, group_out = nodes.new('NodeGroupInput'), nodes.new('NodeGroupOutput')

    view = nodes.new('GeometryNodeObjectInfo')
    view.transform_space = 'RELATIVE'  # the view's place in the output object's space, where the instances are
    links.new(group_in.outputs['View'], view.inputs['Object'])
    distance = nodes.new('ShaderNodeVectorMath')
    distance.operation = 'DISTANCE'
    links.new(nodes.new('GeometryNodeInputPosition').outputs[0], distance.inputs[0])
    links.new(view.outputs['Location'], distance.inputs[1])
    beyond = nodes.new('FunctionNodeCompare')
    beyond.data_type = 'FLOAT'
    beyond.operation = 'GREATER_THAN'
    links.new(distance.outputs['Value'], beyond.inputs['A'])
    links.new(group_in.outputs['Distance'], beyond.inputs['B'])
    far = nodes.new('FunctionNodeBooleanMath')
    far.operation = 'AND'
    links.new(beyond.outputs[0], far.inputs[0])
    links.new(nodes.new('GeometryNodeIsViewport').outputs[0], far.inputs[1])
    numbered = nodes.new('GeometryNodeStoreNamedAttribute')  # a Share thinning after this keeps its picks
    numbered.data_type = 'INT'
    numbered.domain = 'INSTANCE'
    numbered.inputs['Name'].default_value = "id"
    links.new(group_in.outputs['Geometry'], numbered.inputs['Geometry'])
    links.new(nodes.new('GeometryNodeInputIndex').outputs[0], numbered.inputs['Value'])
    split = nodes.new('GeometryNodeSeparateGeometry')
    split.domain = 'INSTANCE'
    links.new(numbered.outputs[0], split.inputs['Geometry'])
    links.new(far.outputs[0], split.inputs['Selection'])

    points = nodes.new('GeometryNodeInstancesToPoints')  # keeps the instances' attributes on the points
    links.new(split.outputs['Selection'], points.inputs['Instances'])
    proxies = picked_instances(group, group_in.outputs['Proxies'], points.outputs[0])

    joined = nodes.new('GeometryNodeJoinGeometry')
    links.new(proxies, joined.inputs[0])
    links.new(split.outputs['Inverted'], joined.inputs[0])
    links.new(joined.outputs[0], group_out.inputs[0])
    for x, node in enumerate(nodes):
        node.location = (x * 200.0, 0.0)
    return group


def is_proxy_group(group: bpy.types.NodeTree | None) -> bool:
    return group is not None and is_owned(group, OWNER) and group.get(KIND_KEY) == GROUP_KIND


def is_proxy_modifier(modifier: bpy.types.Modifier) -> bool:
    return is_proxy_group(getattr(modifier, "node_group", None))


def view_object(create: bool = True) -> bpy.types.Object | None:
    """The empty "Strew View" whose place the proxies measure from (made at the view point when missing). It is
    linked to no scene: only the modifiers use it."""
    known = bpy.data.objects.get(_view_name[0]) if _view_name else None  # a lookup by name, not a pass
    if known is not None and is_owned(known, OWNER) and known.get(KIND_KEY) == VIEW_KIND:
        return known
    found = next((obj for obj in bpy.data.objects if is_owned(obj, OWNER) and obj.get(KIND_KEY) == VIEW_KIND), None)
    if found is None and create:
        found = bpy.data.objects.new(VIEW_NAME, None)
        mark(found, OWNER, **{KIND_KEY: VIEW_KIND})
    _view_name[:] = [] if found is None else [found.name]
    return found


_view_name: list[str] = []  # the view empty's name when last found (a name, never the object: undo frees it)


def place_view(obj: bpy.types.Object, point: Vector | None) -> bool:
    """Move the view empty to ``point`` (a world position, None: leave it); whether it moved."""
    if point is None or (obj.location - point).length == 0.0:
        return False
    obj.location = point
    return True


def camera_point(scene: bpy.types.Scene) -> Vector | None:
    """Where the scene camera is (the view point without a 3D view), or None without a camera."""
    return None if scene.camera is None else scene.camera.matrix_world.translation.copy()


def _proxy_collection(output: bpy.types.Object, prefabs: list[bpy.types.ID], kind: ProxyKind,
                      ratio: float) -> bpy.types.Collection:
    """A fresh "Strew Proxies <layer>" collection: one object per prefab, in Pick Instance order, showing the
    prefab's proxy mesh. The one it replaces goes once nothing uses it (:func:`remove_unused_proxies`)."""
    layer_name, key = str(output.get(LAYER_KEY, output.name)), str(output.get(LAYER_ID_KEY) or output.name)
    wanted = f"Strew Proxies {layer_name}"
    collection = bpy.data.collections.new(wanted)
    mark(collection, OWNER, **{LAYER_KEY: layer_name, PROXIES_KEY: key, NAME_KEY: wanted})
    depsgraph = bpy.context.evaluated_depsgraph_get()
    for number, prefab in enumerate(prefabs):
        name = f"Strew Proxy {layer_name} {number:05d}"
        obj = bpy.data.objects.new(name, proxy_mesh(prefab, kind, ratio, depsgraph))
        mark(obj, OWNER, **{LAYER_KEY: layer_name, NAME_KEY: name})
        collection.objects.link(obj)
    return collection


def remove_unused_proxies(keep_meshes: bool = False) -> None:
    """Remove the proxy collections, proxy meshes (unless ``keep_meshes``: a new output is about to reuse them)
    and the view empty that no output uses any more."""
    for collection in [c for c in bpy.data.collections if is_owned(c, OWNER) and c.get(PROXIES_KEY)]:
        if collection.users == 0:
            objects = [o for o in collection.objects if is_owned(o, OWNER)]
            bpy.data.batch_remove([*objects, collection])
    if not keep_meshes:
        remove_unused_meshes()
    if not _view_name and not any(is_proxy_group(group) for group in bpy.data.node_groups):
        return  # proxies were never used here: no pass over every object (real-object outputs have many)
    view = view_object(create=False)
    if view is not None and view.users == 0:
        bpy.data.objects.remove(view)


def _drop(obj: bpy.types.Object) -> None:
    for modifier in [m for m in obj.modifiers if is_proxy_modifier(m)]:
        set_modifier_inputs(modifier, {"Proxies": None, "View": None})  # removal alone leaves them a user
        obj.modifiers.remove(modifier)


def show_proxies(obj: bpy.types.Object, layer: Any, prefabs: list[bpy.types.ID]) -> None:
    """Give a layer's instancer object the layer's Proxy Beyond settings as they are now: the proxy modifier right
    after the instancer (so a Viewport Display modifier after it sees the proxies), or none when it is off."""
    if not layer.proxy_beyond:
        _drop(obj)
        remove_unused_proxies()
        return
    collection = _proxy_collection(obj, prefabs, ProxyKind(layer.proxy_kind), layer.proxy_ratio)
    view = view_object()
    if view.users == 0:  # a new one: at the camera until a 3D view draws
        place_view(view, camera_point(layer.id_data))
    _drop(obj)
    modifier = obj.modifiers.new(MODIFIER_NAME, 'NODES')
    modifier.node_group = proxy_node_group()
    set_modifier_inputs(modifier, {"Proxies": collection, "View": view, "Distance": layer.proxy_distance})
    _move_after_instancer(obj, modifier)
    remove_unused_proxies()
    _take_names(collection)


def _take_names(collection: bpy.types.Collection) -> None:
    """Give a new proxy collection and its objects the names they asked for, once the ones they replace are gone
    (a name still taken, by the user or another layer, keeps Blender's suffix)."""
    for block in (collection, *collection.objects):
        wanted = str(block.get(NAME_KEY, block.name))
        if block.name != wanted and wanted not in bpy.data.collections and wanted not in bpy.data.objects:
            rename(block, wanted)


def _move_after_instancer(obj: bpy.types.Object, modifier: bpy.types.Modifier) -> None:
    """Put ``modifier`` second, right after the instancer."""
    index = list(obj.modifiers).index(modifier)
    if index > 1:
        obj.modifiers.move(index, 1)
