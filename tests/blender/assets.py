"""Assets as they arrive in a scene, for the tests: a collection that is not in the scene placed by an empty (what
dragging one in from the Asset Browser makes), nested ones, one linked from a library, and Geometry Nodes
instances."""

from __future__ import annotations

from pathlib import Path

import bpy


def box(name: str, size: float, location: tuple[float, float, float] = (0.0, 0.0, 0.0),
        rotation: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> bpy.types.Object:
    """A cube object of side ``size`` in no collection."""
    half = size / 2
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata([(x, y, z) for x in (-half, half) for y in (-half, half) for z in (-half, half)], [],
                     [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)])
    obj = bpy.data.objects.new(name, mesh)
    obj.location, obj.rotation_euler = location, rotation
    return obj


def asset(name: str, *objects: bpy.types.Object, offset: tuple[float, float, float] = (0.0, 0.0, 0.0)
          ) -> bpy.types.Collection:
    """A collection holding ``objects``, linked into no scene."""
    collection = bpy.data.collections.new(name)
    for obj in objects:
        collection.objects.link(obj)
    collection.instance_offset = offset
    return collection


def placed(collection: bpy.types.Collection, name: str, location: tuple[float, float, float],
           rotation_z: float = 0.0, scale: float = 1.0, into: bpy.types.Collection | None = None) -> bpy.types.Object:
    """An empty instancing ``collection`` (linked into ``into`` when given)."""
    empty = bpy.data.objects.new(name, None)
    empty.instance_type = 'COLLECTION'
    empty.instance_collection = collection
    empty.location = location
    empty.rotation_euler = (0.0, 0.0, rotation_z)
    empty.scale = (scale, scale, scale)
    if into is not None:
        into.objects.link(empty)
    return empty


def barn() -> bpy.types.Collection:
    """The 10 m cube "barn", standing on the ground, off the collection's instance offset."""
    return asset("Barn", box("Barn", 10.0, location=(2.0, 1.0, 5.0)), offset=(1.0, -1.0, 0.0))


def farm() -> bpy.types.Collection:
    """A collection holding a shed and two empties that place the barn: nested instancing."""
    barn_asset = barn()
    shed = box("Shed", 3.0, location=(0.0, 0.0, 1.5), rotation=(0.0, 0.0, 0.5))
    farm_asset = asset("Farm", shed)
    placed(barn_asset, "Barn east", (9.0, 0.0, 0.0), rotation_z=0.3, into=farm_asset)
    placed(barn_asset, "Barn north", (-4.0, 12.0, 0.0), scale=0.6, into=farm_asset)
    return farm_asset


def linked_shed(folder: Path) -> bpy.types.Collection:
    """A collection "Library Shed" written to a .blend in ``folder`` and linked back from it."""
    local = asset("Library Shed", box("Library Shed", 6.0, location=(0.0, 0.0, 3.0), rotation=(0.0, 0.0, 0.2)))
    path = folder / "library.blend"
    bpy.data.libraries.write(str(path), {local}, fake_user=True)
    for obj in list(local.objects):
        mesh = obj.data
        bpy.data.objects.remove(obj)
        bpy.data.meshes.remove(mesh)
    bpy.data.collections.remove(local)
    with bpy.data.libraries.load(str(path), link=True) as (_source, target):
        target.collections = ["Library Shed"]
    linked = target.collections[0]
    assert linked.library is not None
    return linked


def instancing_grid(name: str, size: float, cuts: int, block: float) -> bpy.types.Object:
    """A grid object whose Geometry Nodes modifier puts a cube object of side ``block`` on each of its vertices
    (Instance on Points of an Object Info "As Instance"), drawing no mesh of its own."""
    mesh = bpy.data.meshes.new(name)
    step = size / cuts
    mesh.from_pydata([(-size / 2 + i * step, -size / 2 + j * step, 0.0) for i in range(cuts + 1)
                      for j in range(cuts + 1)], [], [])
    grid = bpy.data.objects.new(name, mesh)
    cube = box(f"{name} block", block, location=(0.0, 0.0, block / 2))
    tree = bpy.data.node_groups.new(f"{name} nodes", 'GeometryNodeTree')
    tree.interface.new_socket("Geometry", in_out='INPUT', socket_type='NodeSocketGeometry')
    tree.interface.new_socket("Geometry", in_out='OUTPUT', socket_type='NodeSocketGeometry')
    nodes = tree.nodes
    source, sink = nodes.new('NodeGroupInput'), nodes.new('NodeGroupOutput')
    to_points = nodes.new('GeometryNodeMeshToPoints')
    on_points = nodes.new('GeometryNodeInstanceOnPoints')
    info = nodes.new('GeometryNodeObjectInfo')
    info.inputs['Object'].default_value = cube
    info.inputs['As Instance'].default_value = True
    tree.links.new(source.outputs[0], to_points.inputs['Mesh'])
    tree.links.new(to_points.outputs['Points'], on_points.inputs['Points'])
    tree.links.new(info.outputs['Geometry'], on_points.inputs['Instance'])
    tree.links.new(on_points.outputs['Instances'], sink.inputs[0])
    grid.modifiers.new("Instances", 'NODES').node_group = tree
    return grid
