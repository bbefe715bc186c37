"""The Scatter demo scene: a procedural valley with a river and a road, and three scatter layers.

Everything is built from numbers here (no assets), so the demo runs on a fresh clone with the ``bpy`` wheel.
"""

from __future__ import annotations

import math

import bpy
import numpy as np

from ..core.modes import DensityMode, SpacingMode
from ..scene.custom_props import WEIGHT_KEY
from .render import camera

TERRAIN_SIZE = 240.0
TERRAIN_QUADS = 240
WATER_LEVEL = 0.6
ROAD = np.array([[-120.0, -70.0], [-60.0, -40.0], [-10.0, -45.0], [40.0, -10.0], [80.0, 30.0], [120.0, 45.0]])


def _river_x(y: np.ndarray) -> np.ndarray:
    return 25.0 * np.sin(y / 45.0) + 10.0


def _heights(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    hills = (
        6.0 * np.sin(x / 31.0) * np.cos(y / 27.0)
        + 3.0 * np.sin((x + 2.0 * y) / 17.0)
        + 1.2 * np.cos((3.0 * x - y) / 9.0)
        + 0.04 * (np.abs(x) + np.abs(y))
    )
    valley = np.exp(-(((x - _river_x(y)) / 14.0) ** 2))
    return hills * (1.0 - valley) + 8.0 - 9.5 * valley


def _segment_distance(xy: np.ndarray, polyline: np.ndarray) -> np.ndarray:
    a, b = polyline[:-1], polyline[1:]
    ab = b - a
    t = np.clip(((xy[:, None] - a[None]) * ab[None]).sum(-1) / (ab * ab).sum(-1), 0.0, 1.0)
    return np.linalg.norm(xy[:, None] - (a[None] + t[..., None] * ab[None]), axis=-1).min(axis=1)


def _material(name: str, color: tuple[float, float, float], roughness: float = 0.8) -> bpy.types.Material:
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    bsdf = material.node_tree.nodes.get("Principled BSDF")
    bsdf.inputs["Base Color"].default_value = (*color, 1.0)
    bsdf.inputs["Roughness"].default_value = roughness
    material.diffuse_color = (*color, 1.0)
    return material


def _grid_mesh(name: str, heights_of, size: float, quads: int) -> bpy.types.Mesh:
    n = quads + 1
    xs = np.linspace(-size / 2, size / 2, n)
    gx, gy = np.meshgrid(xs, xs, indexing="ij")
    z = heights_of(gx, gy)
    vertices = np.column_stack([gx.ravel(), gy.ravel(), z.ravel()])
    i, j = np.meshgrid(np.arange(quads), np.arange(quads), indexing="ij")
    a = (i * n + j).ravel()
    faces = np.column_stack([a, a + n, a + n + 1, a + 1])
    mesh = bpy.data.meshes.new(name)
    mesh.vertices.add(len(vertices))
    mesh.vertices.foreach_set("co", vertices.astype(np.float32).ravel())
    mesh.loops.add(faces.size)
    mesh.loops.foreach_set("vertex_index", faces.astype(np.int32).ravel())
    mesh.polygons.add(len(faces))
    mesh.polygons.foreach_set("loop_start", np.arange(0, faces.size, 4, dtype=np.int32))
    mesh.polygons.foreach_set("loop_total", np.full(len(faces), 4, dtype=np.int32))
    mesh.update(calc_edges=True)
    mesh.validate()
    mesh.polygons.foreach_set("use_smooth", np.ones(len(faces), dtype=bool))
    return mesh


def _road_height(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The road runs on a bench that never dips into the river (a causeway where it crosses)."""
    return np.maximum(_heights(x, y), WATER_LEVEL + 1.5)


def build_terrain(scene: bpy.types.Scene) -> bpy.types.Object:
    def heights(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        d = _segment_distance(np.column_stack([x.ravel(), y.ravel()]), ROAD).reshape(x.shape)
        blend = np.clip(1.0 - (d - 3.0) / 6.0, 0.0, 1.0)
        return _heights(x, y) * (1.0 - blend) + _road_height(x, y) * blend

    mesh = _grid_mesh("Terrain", heights, TERRAIN_SIZE, TERRAIN_QUADS)
    mesh.materials.append(_material("Grass", (0.18, 0.32, 0.09)))
    terrain = bpy.data.objects.new("Terrain", mesh)
    scene.collection.objects.link(terrain)

    water = bpy.data.objects.new("Water", _grid_mesh("Water", lambda x, y: np.full_like(x, WATER_LEVEL),
                                                     TERRAIN_SIZE, 1))
    water.data.materials.append(_material("Water", (0.05, 0.18, 0.3), roughness=0.05))
    scene.collection.objects.link(water)
    return terrain


def build_road(scene: bpy.types.Scene, width: float = 5.0) -> bpy.types.Collection:
    """A flat ribbon mesh along ROAD, following the road bench; it goes in the "Roads" exclusion collection."""
    collection = bpy.data.collections.new("Roads")
    scene.collection.children.link(collection)
    lengths = np.linalg.norm(np.diff(ROAD, axis=0), axis=1)
    t = np.linspace(0.0, lengths.sum(), int(lengths.sum() / 2.0) + 1)
    centre = np.column_stack([np.interp(t, np.r_[0, np.cumsum(lengths)], ROAD[:, k]) for k in (0, 1)])
    tangent = np.gradient(centre, axis=0)
    tangent /= np.linalg.norm(tangent, axis=1, keepdims=True)
    side = np.column_stack([-tangent[:, 1], tangent[:, 0]]) * width / 2
    left, right = centre + side, centre - side
    vertices = []
    for edge in (left, right):
        z = _road_height(edge[:, 0], edge[:, 1]) + 0.15
        vertices.append(np.column_stack([edge, z]))
    vertices = np.concatenate(vertices)
    n = len(centre)
    faces = [(k, k + 1, n + k + 1, n + k) for k in range(n - 1)]
    mesh = bpy.data.meshes.new("Road")
    mesh.from_pydata(vertices.tolist(), [], faces)
    mesh.materials.append(_material("Road", (0.25, 0.2, 0.15)))
    road = bpy.data.objects.new("Road", mesh)
    collection.objects.link(road)
    return collection


def _prefab_collection(scene: bpy.types.Scene, name: str) -> bpy.types.Collection:
    collection = bpy.data.collections.new(name)
    scene.collection.children.link(collection)
    bpy.context.view_layer.layer_collection.children[name].exclude = True
    return collection


def _cone(radius: float, height: float, z0: float, segments: int = 12):
    angles = np.linspace(0, 2 * np.pi, segments, endpoint=False)
    ring = [(radius * math.cos(a), radius * math.sin(a), z0) for a in angles]
    vertices = [*ring, (0.0, 0.0, z0 + height)]
    faces = [(k, (k + 1) % segments, segments) for k in range(segments)]
    faces.append(tuple(reversed(range(segments))))
    return vertices, faces


def _merge(*parts):
    vertices, faces = [], []
    for part_vertices, part_faces in parts:
        offset = len(vertices)
        vertices.extend(part_vertices)
        faces.extend(tuple(i + offset for i in face) for face in part_faces)
    return vertices, faces


def _blob(radius: float, squash: float, seed: int, bumps: float):
    rng = np.random.default_rng(seed)
    bpy_mesh = bpy.data.meshes.new("tmp")
    import bmesh

    bm = bmesh.new()
    bmesh.ops.create_icosphere(bm, subdivisions=2, radius=radius)
    for vertex in bm.verts:
        vertex.co *= 1.0 + bumps * rng.uniform(-1, 1)
        vertex.co.z *= squash
        vertex.co.z += radius * squash * 0.6
    bm.to_mesh(bpy_mesh)
    bm.free()
    vertices = [tuple(v.co) for v in bpy_mesh.vertices]
    faces = [tuple(p.vertices) for p in bpy_mesh.polygons]
    bpy.data.meshes.remove(bpy_mesh)
    return vertices, faces


def _prefab(collection: bpy.types.Collection, name: str, geometry, material: bpy.types.Material,
            weight: float = 1.0) -> None:
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(geometry[0], [], geometry[1])
    mesh.materials.append(material)
    mesh.polygons.foreach_set("use_smooth", np.ones(len(mesh.polygons), dtype=bool))
    obj = bpy.data.objects.new(name, mesh)
    obj[WEIGHT_KEY] = weight
    collection.objects.link(obj)


def _tinted(material: bpy.types.Material, other: tuple[float, float, float]) -> bpy.types.Material:
    """Each instance's own shade between the material's colour and ``other``: the instance's ``strew_random``
    (Attribute node, type Instancer) through a Color Ramp into Base Color."""
    nodes, links = material.node_tree.nodes, material.node_tree.links
    bsdf = nodes.get("Principled BSDF")
    attribute = nodes.new("ShaderNodeAttribute")
    attribute.attribute_type, attribute.attribute_name = 'INSTANCER', "strew_random"
    ramp = nodes.new("ShaderNodeValToRGB")
    ramp.color_ramp.elements[0].color = tuple(bsdf.inputs["Base Color"].default_value)
    ramp.color_ramp.elements[1].color = (*other, 1.0)
    links.new(attribute.outputs["Fac"], ramp.inputs["Fac"])
    links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])
    return material


def build_prefabs(scene: bpy.types.Scene) -> dict[str, bpy.types.Collection]:
    bark = _material("Bark", (0.2, 0.12, 0.06))
    leaves = _tinted(_material("Leaves", (0.05, 0.22, 0.05)), (0.16, 0.26, 0.03))  # two tints of green
    bush_green, stone = _material("Bush", (0.12, 0.3, 0.08)), _material("Stone", (0.4, 0.4, 0.38))
    trees, bushes, rocks = (_prefab_collection(scene, n) for n in ("Trees", "Bushes", "Rocks"))
    for k, (height, radius) in enumerate([(7.0, 2.2), (9.0, 2.6), (5.5, 1.8)]):
        trunk = _cone(0.35, height * 0.5, 0.0, 8)
        crown = _merge(_cone(radius, height * 0.55, height * 0.3), _cone(radius * 0.7, height * 0.45, height * 0.6))
        tree = _merge(trunk, crown)
        mesh_name = f"Fir {k}"
        _prefab(trees, mesh_name, tree, leaves, weight=[1.0, 0.6, 1.2][k])
        trees.objects[mesh_name].data.materials.append(bark)
        faces = trees.objects[mesh_name].data.polygons
        trunk_faces = len(trunk[1])
        faces.foreach_set("material_index", np.array([1] * trunk_faces + [0] * (len(faces) - trunk_faces)))
    for k in range(3):
        _prefab(bushes, f"Bush {k}", _blob(0.6 + 0.2 * k, 0.7, k, 0.15), bush_green)
    for k in range(3):
        _prefab(rocks, f"Rock {k}", _blob(0.4 + 0.25 * k, 0.55, 10 + k, 0.3), stone)
    return {"Trees": trees, "Bushes": bushes, "Rocks": rocks}


def configure_layers(scene: bpy.types.Scene, terrain: bpy.types.Object, prefabs, roads) -> None:
    settings = scene.strew
    settings.terrain = terrain
    common = {"exclusion_collection": roads, "use_height_range": True, "height_min": WATER_LEVEL + 0.4,
              "height_max": 1000.0}
    layers = [
        ("Trees", dict(min_radius=4.0, max_radius=10.0, seed=42, density_mode=DensityMode.NOISE, noise_scale=60.0,
                       density_low=0.35, density_high=0.65, max_slope=math.radians(28), exclusion_margin=4.0,
                       scale_min=0.8, scale_max=1.25)),
        ("Bushes", dict(min_radius=1.6, max_radius=3.5, seed=43, keep_away=2.0, density_mode=DensityMode.NOISE,
                        noise_scale=25.0, max_slope=math.radians(35), exclusion_margin=2.5, align_to_normal=0.4)),
        # Spaced by their own size: boulders and pebbles pack with 0.4-2.5 m between their edges.
        ("Rocks", dict(spacing=SpacingMode.OBJECTS, min_radius=0.4, max_radius=2.5, seed=44, keep_away=1.0,
                       density_mode=DensityMode.NOISE, noise_scale=15.0, density_invert=True,
                       max_slope=math.radians(60), exclusion_margin=1.0, align_to_normal=1.0, scale_min=0.6,
                       scale_max=1.6)),
    ]
    for name, values in layers:
        layer = settings.layers.add()
        layer.name = name
        layer.collection = prefabs[name]
        for key, value in {**common, **values}.items():
            setattr(layer, key, value)


def views(scene: bpy.types.Scene) -> list[tuple[bpy.types.Object, str]]:
    """The valley's three cameras and the PNG each renders: from above, in perspective, a close-up."""
    clip = (0.1, 2000.0)
    top = camera(scene, "Top View", (0.0, 0.0, 300.0), (0.0, 0.0, 0.0), ortho=TERRAIN_SIZE, clip=clip)
    perspective = camera(scene, "Perspective", (-95.0, -120.0, 55.0), (10.0, 0.0, 0.0), clip=clip)
    eye, spot = np.array([-78.0, 30.0]), np.array([-52.0, 62.0])
    eye_z = float(_heights(*eye)) + 26.0
    close = camera(scene, "Close-up", (*eye, eye_z), (*spot, float(_heights(*spot))), clip=clip)
    return [(top, "scatter_top.png"), (perspective, "scatter_perspective.png"), (close, "scatter_closeup.png")]
