"""On Layer: a layer placed on every face of an earlier layer's instances. Checked against what Blender draws for
that layer's output (the evaluated depsgraph's instances, not Strew's own arrays): every instance lies on a drawn
triangle, the 3-D spacing holds for every pair."""

from __future__ import annotations

import bpy
import numpy as np
import pytest
from mathutils import Vector
from mathutils.bvhtree import BVHTree
from scenes import add_layer, make_terrain, point_attributes

ON_SURFACE = 1e-4


def _rock(name: str, collection: bpy.types.Collection, size: float, subdivide: bool) -> bpy.types.Object:
    """A box rock standing on its base (a Subdivision modifier rounds one of them: the evaluated mesh counts)."""
    mesh = bpy.data.meshes.new(name)
    h = size
    mesh.from_pydata([(-h, -h, 0), (h, -h, 0), (h, h, 0), (-h, h, 0), (-h, -h, h), (h, -h, h), (h, h, h), (-h, h, h)],
                     [], [(0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)])
    obj = bpy.data.objects.new(name, mesh)
    obj.location, obj.rotation_euler, obj.scale = (50.0, 3.0, 1.0), (0.2, 0.0, 0.5), (1.5, 1.0, 1.0)  # ignored
    if subdivide:
        obj.modifiers.new("Round", 'SUBSURF').levels = 2
    collection.objects.link(obj)
    return obj


def _scene(seed: int, output: str = 'GEOMETRY_NODES') -> None:
    bpy.context.scene.strew.terrain = make_terrain(size=30.0, subdivisions=8)
    rocks = bpy.data.collections.new("Rocks")
    bpy.context.scene.collection.children.link(rocks)
    _rock("Rock A", rocks, 0.8, subdivide=True)
    _rock("Rock B", rocks, 0.5, subdivide=False)
    bpy.context.view_layer.layer_collection.children["Rocks"].exclude = True
    moss = bpy.data.collections.new("Moss")
    bpy.context.scene.collection.children.link(moss)
    tuft = bpy.data.meshes.new("Tuft")
    tuft.from_pydata([(0, 0, 0), (0.05, 0, 0), (0, 0.05, 0.05)], [], [(0, 1, 2)])
    moss.objects.link(bpy.data.objects.new("Tuft", tuft))
    add_layer("Rocks", rocks, 6.0, 6.0, seed=seed, output_mode=output, tilt=0.6, scale_min=0.7, scale_max=1.4)
    add_layer("Moss", moss, 0.15, 0.15, seed=seed + 1).on_layer.layer = "Rocks"


def _drawn_rocks() -> BVHTree:
    """Every triangle Blender draws for the Rocks output, in world space (from the evaluated depsgraph)."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    output = bpy.data.collections["Strew Output"]
    ours = {obj.name for obj in output.all_objects if obj.get("strew_layer") == "Rocks"}
    vertices: list[Vector] = []
    faces: list[tuple[int, ...]] = []
    for inst in depsgraph.object_instances:
        source = inst.instance_object if inst.is_instance else inst.object
        owner = inst.parent.original.name if inst.is_instance else inst.object.original.name
        if owner not in ours or source.type != 'MESH':
            continue
        mesh = source.to_mesh()
        mesh.calc_loop_triangles()
        base = len(vertices)
        matrix = inst.matrix_world.copy()
        vertices += [matrix @ v.co for v in mesh.vertices]
        faces += [tuple(base + i for i in t.vertices) for t in mesh.loop_triangles]
        source.to_mesh_clear()
    assert faces, "no drawn rock"
    return BVHTree.FromPolygons(vertices, faces)


def _moss() -> np.ndarray:
    return point_attributes(bpy.data.objects["Strew Moss"])["position"]


@pytest.mark.parametrize(("seed", "output"), [(1, 'GEOMETRY_NODES'), (2, 'GEOMETRY_NODES'), (3, 'EMPTIES'),
                                              (4, 'DUPLICATES')])
def test_every_instance_lies_on_a_drawn_rock_and_keeps_its_spacing_in_3d(seed: int, output: str) -> None:
    _scene(seed, output)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    moss = _moss()
    rocks = bpy.data.collections["Strew Output"]
    assert len(moss) > 100, len(moss)
    drawn = _drawn_rocks()
    distances = np.array([drawn.find_nearest(Vector(p))[3] for p in moss])
    assert distances.max() <= ON_SURFACE, (distances.max(), rocks)
    d = np.sqrt(((moss[:, None] - moss[None]) ** 2).sum(-1)) + np.eye(len(moss)) * 1e9
    assert d.min() >= 0.15 - 1e-4


def test_moss_follows_the_rocks_when_only_the_rocks_run_again() -> None:
    _scene(5)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    first = _moss()
    layers = bpy.context.scene.strew.layers
    layers["Rocks"].seed = 9
    assert bpy.ops.strew.scatter(layer_index=0) == {'FINISHED'}  # This Layer on Rocks: the layers below run too
    moved = _moss()
    assert len(moved) != len(first) or not np.array_equal(moved, first)
    drawn = _drawn_rocks()
    assert max(drawn.find_nearest(Vector(p))[3] for p in moved) <= ON_SURFACE


def test_moss_alone_reads_the_rocks_in_the_scene_and_gives_the_same_bytes() -> None:
    _scene(6)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    whole = point_attributes(bpy.data.objects["Strew Moss"])
    assert bpy.ops.strew.scatter(layer_index=1) == {'FINISHED'}  # Moss only: the Rocks as written
    alone = point_attributes(bpy.data.objects["Strew Moss"])
    for key in whole:
        np.testing.assert_array_equal(whole[key], alone[key])


@pytest.mark.parametrize("output", ['EMPTIES', 'DUPLICATES'])
def test_moss_alone_reads_real_object_rocks_from_the_scene(output: str) -> None:
    _scene(7, output)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    whole = _moss()
    assert bpy.ops.strew.scatter(layer_index=1) == {'FINISHED'}  # the Rocks read back from their objects
    alone = _moss()
    assert abs(len(alone) - len(whole)) <= 0.02 * len(whole)
    drawn = _drawn_rocks()
    assert max(drawn.find_nearest(Vector(p))[3] for p in alone) <= ON_SURFACE
