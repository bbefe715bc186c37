"""Exclude keeps every instance the margin away from what its objects cover seen from above, exactly: Suzanne (whose
bent quads show their diagonals from above), a wall made thick by Solidify, a Bézier curve with and without a
bevel, and an asset (an empty instancing a collection that is not in the scene). The distances are measured apart
from Strew, on what Blender draws (``from_above_reference``)."""

from __future__ import annotations

import math
from collections.abc import Callable

import bpy
import numpy as np
import pytest
from conftest import enable_strew
from from_above_reference import drawn_geometry, xy_distance
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scenes import add_layer, instances_of, make_prefabs

MARGIN = 1.5


def _flat_terrain() -> bpy.types.Object:
    bpy.ops.mesh.primitive_plane_add(size=60.0)
    return bpy.context.active_object


def _into(collection: bpy.types.Collection, obj: bpy.types.Object) -> bpy.types.Object:
    for other in list(obj.users_collection):
        other.objects.unlink(obj)
    collection.objects.link(obj)
    return obj


def _suzanne(exclude: bpy.types.Collection) -> list[bpy.types.Object]:
    bpy.ops.mesh.primitive_monkey_add(size=10.0, location=(0.0, 0.0, 1.0))
    return [_into(exclude, bpy.context.active_object)]


def _wall(exclude: bpy.types.Collection) -> list[bpy.types.Object]:
    bpy.ops.mesh.primitive_plane_add(size=12.0, location=(2.0, -3.0, 2.0), rotation=(math.pi / 2, 0.2, 0.7))
    wall = _into(exclude, bpy.context.active_object)
    wall.modifiers.new("Solidify", 'SOLIDIFY').thickness = 0.4
    return [wall]


def _bezier(exclude: bpy.types.Collection, bevel: float) -> list[bpy.types.Object]:
    curve = bpy.data.curves.new("Path", 'CURVE')
    curve.dimensions = '3D'
    curve.bevel_depth = bevel
    spline = curve.splines.new('BEZIER')
    spline.bezier_points.add(2)
    for point, (x, y, z) in zip(spline.bezier_points, [(-18.0, -10.0, 0.5), (0.0, 12.0, 2.0), (17.0, -6.0, 0.0)],
                                strict=True):
        point.co = (x, y, z)
        point.handle_left_type = point.handle_right_type = 'AUTO'
    obj = bpy.data.objects.new("Path", curve)
    obj.rotation_euler = (0.0, 0.0, 0.3)
    return [_into(exclude, obj)]


def _barn(exclude: bpy.types.Collection) -> list[bpy.types.Object]:
    """A 10 m cube in a collection that is not in the scene, placed by an empty as a dragged-in asset is."""
    barn = bpy.data.collections.new("Barn")
    bpy.ops.mesh.primitive_cube_add(size=10.0)
    cube = bpy.context.active_object
    mesh = cube.data
    bpy.data.objects.remove(cube)
    barn.objects.link(bpy.data.objects.new("Barn", mesh))
    barn.objects["Barn"].location = (2.0, 1.0, 5.0)
    barn.instance_offset = (1.0, -1.0, 0.0)
    empty = bpy.data.objects.new("Barn asset", None)
    empty.instance_type = 'COLLECTION'
    empty.instance_collection = barn
    empty.location = (-3.0, 4.0, 0.0)
    empty.rotation_euler = (0.0, 0.0, 0.4)
    return [_into(exclude, empty)]


SHAPES: dict[str, Callable[[bpy.types.Collection], list[bpy.types.Object]]] = {
    "suzanne": _suzanne,
    "solidified-wall": _wall,
    "bezier-bevelled": lambda exclude: _bezier(exclude, 0.6),
    "bezier-plain": lambda exclude: _bezier(exclude, 0.0),
    "instanced-barn": _barn,
}


def _excluded_scatter(shape: str, seed: int, spacing: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scatter around ``shape``: (instance xy, each instance's reach from its origin seen from above, the XY
    distances from each instance to what the shape covers)."""
    scene = bpy.context.scene
    scene.strew.terrain = _flat_terrain()
    exclude = bpy.data.collections.new("Exclude")
    scene.collection.children.link(exclude)
    objects = SHAPES[shape](exclude)
    prefabs = make_prefabs("Grass")
    settings: dict[str, object] = {"exclusion_collection": exclude, "exclusion_margin": MARGIN, "spacing": spacing}
    if spacing == 'OBJECTS':
        settings.update(scale_min=0.5, scale_max=2.0)
    radius = 1.0 if spacing == 'RADIUS' else 0.4
    add_layer("Grass", prefabs, radius, radius, seed=seed, **settings)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    names, positions, matrices = instances_of("Strew Grass")
    assert len(names) > 300
    reach = np.zeros(len(names))
    for i, (name, matrix) in enumerate(zip(names, matrices, strict=True)):
        local = np.array([tuple(v.co) for v in bpy.data.objects[name].data.vertices])
        drawn = local @ matrix[:3, :3].T + matrix[:3, 3]
        reach[i] = np.sqrt(((drawn[:, :2] - matrix[:2, 3]) ** 2).sum(axis=1)).max()
    triangles, segments = drawn_geometry(objects)
    assert len(triangles) + len(segments) > 0
    xy = positions[:, :2]
    return xy, reach, xy_distance(xy, triangles, segments)


@pytest.mark.parametrize("spacing", ['RADIUS', 'OBJECTS'])
@pytest.mark.parametrize("seed", [2, 7, 11])
@pytest.mark.parametrize("shape", list(SHAPES))
def test_every_instance_keeps_the_margin_from_what_the_objects_cover(shape: str, seed: int, spacing: str) -> None:
    xy, reach, distance = _excluded_scatter(shape, seed, spacing)
    # Object Size spacing keeps the margin from each instance's drawn outline, Radius from its origin.
    needed = MARGIN + (reach if spacing == 'OBJECTS' else np.zeros(len(xy)))
    worst = int(np.argmin(distance - needed))
    assert distance[worst] >= needed[worst] - 1e-6, (
        f"instance at {xy[worst]} is {distance[worst]:.6f} m from {shape}, needs {needed[worst]:.6f}")
    # The margin is a margin, not a moat: instances come close to it.
    assert float((distance - needed).min()) < 0.5


_corner = st.tuples(st.floats(-9.0, 9.0), st.floats(-9.0, 9.0), st.floats(0.0, 6.0))


@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(quads=st.lists(st.tuples(_corner, _corner, _corner, _corner), min_size=1, max_size=6),
       margin=st.floats(0.2, 2.5), seed=st.integers(0, 2**20))
def test_bent_quads_keep_the_margin(quads: list[tuple[tuple[float, float, float], ...]], margin: float,
                                    seed: int) -> None:
    """Any quads, bent over themselves seen from above or not: no instance comes nearer than the margin."""
    bpy.ops.wm.read_homefile(use_empty=True)
    enable_strew()
    scene = bpy.context.scene
    scene.strew.terrain = _flat_terrain()
    exclude = bpy.data.collections.new("Exclude")
    scene.collection.children.link(exclude)
    mesh = bpy.data.meshes.new("Quads")
    mesh.from_pydata([corner for quad in quads for corner in quad], [],
                     [tuple(range(4 * k, 4 * k + 4)) for k in range(len(quads))])
    quads_object = bpy.data.objects.new("Quads", mesh)
    exclude.objects.link(quads_object)
    add_layer("Grass", make_prefabs("Grass"), 1.0, 1.0, seed=seed, exclusion_collection=exclude,
              exclusion_margin=margin)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    _, positions, _ = instances_of("Strew Grass")
    triangles, segments = drawn_geometry([quads_object])
    distance = xy_distance(positions[:, :2], triangles, segments)
    assert distance.min() >= margin - 1e-6
