"""TerrainLookup on a real evaluated Blender terrain agrees with Blender's own BVHTree.ray_cast."""

from __future__ import annotations

import math

import bpy
import numpy as np
from mathutils import Matrix, Vector
from mathutils.bvhtree import BVHTree

from strew.core.fields import SlopeMask
from strew.core.terrain import TerrainLookup


def read_world_triangles(ob: bpy.types.Object) -> tuple[np.ndarray, np.ndarray]:
    """The evaluated mesh (modifiers applied) as world-space vertices and Blender's loop triangles."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    ob_eval = ob.evaluated_get(depsgraph)
    mesh = ob_eval.to_mesh()
    try:
        mesh.calc_loop_triangles()
        co = np.empty(len(mesh.vertices) * 3)
        mesh.vertices.foreach_get("co", co)
        tris = np.empty(len(mesh.loop_triangles) * 3, dtype=np.int32)
        mesh.loop_triangles.foreach_get("vertices", tris)
    finally:
        ob_eval.to_mesh_clear()
    matrix = np.array(ob.matrix_world)
    local = co.reshape(-1, 3)
    world = local @ matrix[:3, :3].T + matrix[:3, 3]
    return world, tris.reshape(-1, 3)


def make_terrain() -> bpy.types.Object:
    bpy.ops.mesh.primitive_grid_add(x_subdivisions=24, y_subdivisions=18, size=40.0)
    ob = bpy.context.active_object
    ob.name = "Terrain"
    subsurf = ob.modifiers.new("Subdivision", 'SUBSURF')
    subsurf.levels = 2
    subsurf.subdivision_type = 'SIMPLE'
    texture = bpy.data.textures.new("Hills", 'CLOUDS')
    texture.noise_scale = 0.6
    displace = ob.modifiers.new("Displace", 'DISPLACE')
    displace.texture = texture
    displace.strength = 4.0
    displace.direction = 'Z'
    ob.location = (123.0, -45.0, 7.0)
    ob.rotation_euler = (math.radians(8.0), math.radians(-5.0), math.radians(33.0))
    ob.scale = (1.5, 0.8, 1.2)
    bpy.context.view_layer.update()
    return ob


def blender_ray_cast(ob: bpy.types.Object, xy: np.ndarray, top: float):
    """Cast rays straight down in world space against Blender's BVH of the evaluated object."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    bvh = BVHTree.FromObject(ob, depsgraph)  # in the object's local space
    to_local = ob.matrix_world.inverted()
    down_local = (to_local.to_3x3() @ Vector((0.0, 0.0, -1.0))).normalized()
    normal_to_world = ob.matrix_world.to_3x3().inverted().transposed()
    mask = np.zeros(len(xy), dtype=bool)
    z = np.full(len(xy), np.nan)
    normal = np.full((len(xy), 3), np.nan)
    for i, (x, y) in enumerate(xy):
        origin = to_local @ Vector((x, y, top))
        location, face_normal, _index, _dist = bvh.ray_cast(origin, down_local)
        if location is None:
            continue
        mask[i] = True
        z[i] = (ob.matrix_world @ location).z
        n = (normal_to_world @ face_normal).normalized()
        normal[i] = np.array(n) * (1.0 if n.z >= 0 else -1.0)
    return mask, z, normal


def test_lookup_matches_bvhtree_ray_cast(empty_scene: bpy.types.Scene) -> None:
    ob = make_terrain()
    vertices, triangles = read_world_triangles(ob)
    assert len(triangles) > 5000
    lookup = TerrainLookup(vertices, triangles)
    rng = np.random.default_rng(0)
    lo, hi = lookup.bounds.min, lookup.bounds.max
    xy = rng.uniform(lo - 3.0, hi + 3.0, (3000, 2))  # includes points off the (rotated) terrain
    hit = lookup.sample(xy)
    mask, z, normal = blender_ray_cast(ob, xy, top=float(vertices[:, 2].max()) + 10.0)

    # Rays that graze the outline may go either way; elsewhere the verdicts agree exactly.
    differ = np.flatnonzero(hit.mask != mask)
    assert len(differ) <= 3, f"{len(differ)} rays disagree on hit/miss"
    assert 0.3 < mask.mean() < 0.95
    both = hit.mask & mask
    np.testing.assert_allclose(hit.z[both], z[both], atol=1e-5 * max(1.0, np.abs(z[both]).max()))
    np.testing.assert_allclose(hit.normal[both], normal[both], atol=1e-4)
    # the slope mask reads the same normals
    slope_ok = SlopeMask(lookup, math.radians(20))(xy)
    blender_ok = mask & (normal[:, 2] >= math.cos(math.radians(20)))
    assert np.mean(slope_ok[both] == blender_ok[both]) > 0.999


def test_lookup_sees_the_top_of_an_overhang(empty_scene: bpy.types.Scene) -> None:
    """Two stacked planes (a ledge over the ground): the lookup and the ray cast both see the ledge."""
    bpy.ops.mesh.primitive_plane_add(size=10.0, location=(0.0, 0.0, 0.0))
    ground = bpy.context.active_object
    bpy.ops.mesh.primitive_plane_add(size=4.0, location=(1.0, 1.0, 3.0))
    ledge = bpy.context.active_object
    ledge.rotation_euler = (0.2, 0.0, 0.5)
    bpy.ops.object.select_all(action='SELECT')
    bpy.context.view_layer.objects.active = ground
    bpy.ops.object.join()
    bpy.context.view_layer.update()
    vertices, triangles = read_world_triangles(ground)
    lookup = TerrainLookup(vertices, triangles)
    xy = np.random.default_rng(1).uniform(-6, 6, (500, 2))
    hit = lookup.sample(xy)
    mask, z, _ = blender_ray_cast(ground, xy, top=20.0)
    clear = np.abs(np.abs(xy) - 5.0).min(axis=1) > 1e-3
    np.testing.assert_array_equal(hit.mask[clear], mask[clear])
    both = hit.mask & mask
    np.testing.assert_allclose(hit.z[both], z[both], atol=1e-5)
    assert (hit.z[both] > 1.0).any()  # some rays really stop on the ledge
    assert Matrix.Identity(4) == ground.matrix_world
