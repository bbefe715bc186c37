"""Scene builders and read-back helpers shared by the Blender tests."""

from __future__ import annotations

import math

import bpy
import numpy as np
from mathutils import Vector
from mathutils.bvhtree import BVHTree


def make_terrain(name: str = "Terrain", size: float = 60.0, subdivisions: int = 24, displace: float = 2.5,
                 location=(13.0, -7.0, 2.0), rotation_z: float = 0.6, scale=(1.3, 0.9, 1.1)) -> bpy.types.Object:
    """A moved, rotated, scaled grid with a Subdivision and a Displace (clouds texture) modifier."""
    mesh = bpy.data.meshes.new(name)
    n = subdivisions + 1
    xs = np.linspace(-size / 2, size / 2, n)
    gx, gy = np.meshgrid(xs, xs, indexing="ij")
    vertices = np.column_stack([gx.ravel(), gy.ravel(), 0.8 * np.sin(gx.ravel() / 5.0) * np.cos(gy.ravel() / 7.0)])
    faces = []
    for i in range(subdivisions):
        for j in range(subdivisions):
            a = i * n + j
            faces.append((a, a + n, a + n + 1, a + 1))
    mesh.from_pydata(vertices.tolist(), [], faces)
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    obj.location = location
    obj.rotation_euler = (0.0, 0.0, rotation_z)
    obj.scale = scale
    sub = obj.modifiers.new("Subdivision", 'SUBSURF')
    sub.levels = 1
    texture = bpy.data.textures.new("Hills", 'CLOUDS')
    texture.noise_scale = 0.6
    disp = obj.modifiers.new("Displace", 'DISPLACE')
    disp.texture = texture
    disp.strength = displace
    disp.texture_coords = 'LOCAL'
    return obj


def make_prefabs(name: str, count: int = 3, names: list[str] | None = None) -> bpy.types.Collection:
    """A collection of small distinct meshes, excluded from the view layer like a hidden asset collection."""
    collection = bpy.data.collections.new(name)
    for k, object_name in enumerate(names or [f"{name} {k}" for k in range(count)]):
        mesh = bpy.data.meshes.new(f"{object_name}_mesh")
        mesh.from_pydata([(0, 0, 0), (0.2, 0, 0), (0, 0.2, 0), (0, 0, 0.3 + 0.1 * k)], [],
                         [(0, 1, 2), (0, 1, 3), (1, 2, 3), (0, 2, 3)])
        collection.objects.link(bpy.data.objects.new(object_name, mesh))
    bpy.context.scene.collection.children.link(collection)
    bpy.context.view_layer.layer_collection.children[collection.name].exclude = True
    return collection


def add_layer(name: str, collection: bpy.types.Collection, min_radius: float, max_radius: float, seed: int = 1,
              **settings: object) -> bpy.types.PropertyGroup:
    layer = bpy.context.scene.strew.layers.add()
    layer.name = name
    layer.collection = collection
    layer.min_radius, layer.max_radius = min_radius, max_radius
    layer.seed = seed
    for key, value in settings.items():
        setattr(layer, key, value)
    return layer


def terrain_bvh(obj: bpy.types.Object) -> BVHTree:
    """A BVH of the evaluated terrain in world space (the reference for heights and normals)."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    evaluated = obj.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    matrix = evaluated.matrix_world.copy()
    vertices = [matrix @ v.co for v in mesh.vertices]
    # Blender's own triangulation (what renders); FromPolygons would split non-planar quads its own way.
    mesh.calc_loop_triangles()
    polygons = [tuple(t.vertices) for t in mesh.loop_triangles]
    evaluated.to_mesh_clear()
    return BVHTree.FromPolygons(vertices, polygons)


def ray_down(bvh: BVHTree, xy: np.ndarray, top: float = 100.0) -> tuple[np.ndarray, np.ndarray]:
    """Heights and up-facing normals straight below each xy (NaN where the ray misses).

    The BVH works in float32: start the ray just above the terrain, or the hit height loses precision.
    """
    z = np.full(len(xy), np.nan)
    normals = np.full((len(xy), 3), np.nan)
    for i, (x, y) in enumerate(xy):
        location, normal, _, _ = bvh.ray_cast(Vector((x, y, top)), Vector((0.0, 0.0, -1.0)))
        if location is not None:
            z[i] = location.z
            n = np.array(normal)
            normals[i] = n if n[2] >= 0 else -n
    return z, normals


def instances_of(obj_name: str) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(prefab names, world positions (N,3), world matrices (N,4,4)) of the instances parented to ``obj_name``."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    depsgraph.update()
    names, matrices = [], []
    for inst in depsgraph.object_instances:
        if inst.is_instance and inst.parent is not None and inst.parent.original.name == obj_name:
            names.append(inst.instance_object.original.name)
            matrices.append(np.array(inst.matrix_world.copy()))
    m = np.array(matrices).reshape(-1, 4, 4)
    return names, m[:, :3, 3], m


def point_attributes(obj: bpy.types.Object) -> dict[str, np.ndarray]:
    mesh = obj.data
    count = len(mesh.vertices)
    out: dict[str, np.ndarray] = {}
    co = np.empty(count * 3)
    mesh.vertices.foreach_get("co", co)
    out["position"] = co.reshape(-1, 3) @ np.array(obj.matrix_world)[:3, :3].T + np.array(obj.matrix_world)[:3, 3]
    for name, width, field in (("strew_prefab", 1, "value"), ("strew_radius", 1, "value"),
                               ("strew_scale", 1, "value"), ("strew_rotation", 3, "vector")):
        dtype = np.int32 if name == "strew_prefab" else np.float32
        values = np.empty(count * width, dtype=dtype)
        mesh.attributes[name].data.foreach_get(field, values)
        out[name] = values.reshape(-1, width) if width > 1 else values
    return out


def scene_snapshot() -> dict[str, object]:
    """Everything a failed operator must leave as it was (world matrices brought up to date first)."""
    bpy.context.view_layer.update()
    return {
        "objects": sorted(
            (o.name, tuple(np.round(np.array(o.matrix_world), 9).ravel()), o.data.name if o.data else None)
            for o in bpy.data.objects
        ),
        "collections": sorted((c.name, tuple(sorted(o.name for o in c.objects))) for c in bpy.data.collections),
        "meshes": sorted(m.name for m in bpy.data.meshes),
        "node_groups": sorted(g.name for g in bpy.data.node_groups),
    }


def pairwise_min_ratio(xy: np.ndarray, radii: np.ndarray) -> float:
    """min over pairs of distance / max(r_i, r_j) (≥ 1 means no conflict); brute force in blocks."""
    worst = math.inf
    for start in range(0, len(xy), 2048):
        block = xy[start:start + 2048]
        d = np.sqrt(((block[:, None, :] - xy[None, :, :]) ** 2).sum(-1))
        limit = np.maximum(radii[start:start + 2048, None], radii[None, :])
        idx = np.arange(start, start + len(block))
        d[np.arange(len(block)), idx] = np.inf
        worst = min(worst, float((d / limit).min()))
    return worst


def make_road(points: list[tuple[float, float]], name: str = "Road", collection_name: str = "Roads"
              ) -> tuple[bpy.types.Collection, np.ndarray]:
    """A poly curve (a road) in its own collection; returns the collection and its world XY segments."""
    curve = bpy.data.curves.new(name, 'CURVE')
    curve.dimensions = '3D'
    spline = curve.splines.new('POLY')
    spline.points.add(len(points) - 1)
    for point, (x, y) in zip(spline.points, points, strict=True):
        point.co = (x, y, 0.0, 1.0)
    obj = bpy.data.objects.new(name, curve)
    collection = bpy.data.collections.new(collection_name)
    bpy.context.scene.collection.children.link(collection)
    collection.objects.link(obj)
    xy = np.array(points, dtype=float)
    return collection, np.stack([xy[:-1], xy[1:]], axis=1)


def distance_to_segments(xy: np.ndarray, segments: np.ndarray) -> np.ndarray:
    a, b = segments[:, 0], segments[:, 1]
    ab = b - a
    t = np.clip(((xy[:, None, :] - a[None]) * ab[None]).sum(-1) / (ab * ab).sum(-1)[None], 0.0, 1.0)
    nearest = a[None] + t[..., None] * ab[None]
    return np.sqrt(((xy[:, None, :] - nearest) ** 2).sum(-1)).min(axis=1)
