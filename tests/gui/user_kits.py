"""Kits a user brings, made with plain custom properties (no Strew data): the GUI session assembles them.

"Streets" is flat (planes at z = 0, like the 2-D road tiles of WFC tutorials): its cells are cubic. "Garden" is
modelled in boxes with labels of its own ("lawn", "path", "hedge"); its tile "hedge_path" is chiral and marked
``strew_mirror``, so rooms also hold its mirror image. "Courtyard" adds a big tile to lawn and paths: a
pavilion over 2 × 2 cells (``strew_size``), modelled from the centre of its first cell's floor.
"""

from __future__ import annotations

import bpy

COLORS = {"verge": (0.35, 0.5, 0.25), "asphalt": (0.12, 0.12, 0.13), "lawn": (0.3, 0.55, 0.2),
          "gravel": (0.75, 0.7, 0.6), "hedge": (0.1, 0.3, 0.1), "roof": (0.6, 0.2, 0.15)}


def _material(name: str) -> bpy.types.Material:
    material = bpy.data.materials.get(name) or bpy.data.materials.new(name)
    material.diffuse_color = (*COLORS[name], 1.0)  # what the solid view shows
    return material


def _object(name: str, parts: list[tuple], collection: bpy.types.Collection) -> bpy.types.Object:
    """One mesh of flat rectangles (material, x0, x1, y0, y1, z) and boxes (material, x0, x1, y0, y1, z0, z1)."""
    vertices: list[tuple] = []
    faces: list[tuple] = []
    materials: list[str] = []
    for material, *part in parts:
        n = len(vertices)
        if len(part) == 5:
            x0, x1, y0, y1, z = part
            vertices += [(x0, y0, z), (x1, y0, z), (x1, y1, z), (x0, y1, z)]
            faces.append((n, n + 1, n + 2, n + 3))
        else:
            x0, x1, y0, y1, z0, z1 = part
            vertices += [(x, y, z) for x in (x0, x1) for y in (y0, y1) for z in (z0, z1)]
            faces += [tuple(n + i for i in face) for face in ((0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1),
                                                              (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3))]
        materials += [material] * (len(faces) - len(materials))
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(vertices, [], faces)
    names = sorted(set(materials))
    for material in names:
        mesh.materials.append(_material(material))
    for polygon, material in zip(mesh.polygons, materials, strict=True):
        polygon.material_index = names.index(material)
    obj = bpy.data.objects.new(name, mesh)
    collection.objects.link(obj)
    obj.location = (40.0 + 6.0 * len(collection.objects), 40.0 + (0.0 if collection.name == "Streets" else 8.0), 0.0)
    return obj


def _kit(name: str) -> bpy.types.Collection:
    kit = bpy.data.collections.new(name)
    bpy.context.scene.collection.children.link(kit)
    return kit


def streets() -> bpy.types.Collection:
    """Planes 4 m square: grass verge, and asphalt 1.6 m wide from the centre to each "asphalt" side (5 mm
    above the verge: no height a cell could take)."""
    kit = _kit("Streets")
    arms = {"n": ("asphalt", -0.8, 0.8, -0.8, 2.0, 0.005), "e": ("asphalt", -0.8, 2.0, -0.8, 0.8, 0.005),
            "s": ("asphalt", -0.8, 0.8, -2.0, 0.8, 0.005), "w": ("asphalt", -2.0, 0.8, -0.8, 0.8, 0.005)}
    for tile, roads, rotations, weight in (("verge", "", [0], 3.0), ("road", "ns", [0, 90], 1.0),
                                           ("bend", "ne", [0, 90, 180, 270], 0.8),
                                           ("tee", "new", [0, 90, 180, 270], 0.4), ("cross", "nesw", [0], 0.2)):
        obj = _object(tile, [("verge", -2.0, 2.0, -2.0, 2.0, 0.0)] + [arms[side] for side in roads], kit)
        obj["strew_sockets"] = {side: "asphalt" if side in roads else "verge" for side in "nesw"}
        obj["strew_rotations"] = rotations
        obj["strew_weight"] = weight
    return kit


def garden() -> bpy.types.Collection:
    """Boxes on a 2 m grid: a lawn slab, gravel paths and a hedge; "hedge_path" is used mirrored too."""
    kit = _kit("Garden")
    slab = ("lawn", -1.0, 1.0, -1.0, 1.0, 0.0, 0.1)
    path_n, path_e = ("gravel", -0.3, 0.3, -0.3, 1.0, 0.1, 0.12), ("gravel", -0.3, 1.0, -0.3, 0.3, 0.1, 0.12)
    path_s = ("gravel", -0.3, 0.3, -1.0, 0.3, 0.1, 0.12)
    hedge = ("hedge", 0.6, 1.0, -1.0, 1.0, 0.1, 1.2)
    tiles = (("lawn", [slab], {}, [0], 3.0), ("path", [slab, path_n, path_s], {"n": "path", "s": "path"}, [0, 90], 1.0),
             ("path_bend", [slab, path_n, path_e], {"n": "path", "e": "path"}, [0, 90, 180, 270], 0.6),
             ("hedge_path", [slab, path_n, hedge], {"n": "path", "e": "hedge"}, [0, 90, 180, 270], 0.8))
    for tile, parts, sockets, rotations, weight in tiles:
        obj = _object(tile, parts, kit)
        obj["strew_sockets"] = {side: sockets.get(side, "lawn") for side in "nesw"}
        obj["strew_rotations"] = rotations
        obj["strew_weight"] = weight
    kit.objects["hedge_path"]["strew_mirror"] = True
    return kit


def courtyard() -> bpy.types.Collection:
    """Lawn and gravel paths on a 2 m grid, and a pavilion (a slab, four posts and a roof) over 2 × 2 cells."""
    kit = _kit("Courtyard")
    slab = ("lawn", -1.0, 1.0, -1.0, 1.0, 0.0, 0.1)
    path = [slab, ("gravel", -0.3, 0.3, -1.0, 1.0, 0.1, 0.12)]
    posts = [("hedge", x, x + 0.3, y, y + 0.3, 0.1, 2.2) for x in (-0.9, 2.6) for y in (-0.9, 2.6)]
    pavilion = [("gravel", -1.0, 3.0, -1.0, 3.0, 0.0, 0.15), *posts, ("roof", -1.0, 3.0, -1.0, 3.0, 2.2, 2.5)]
    for tile, parts, sockets, rotations, weight in (("lawn", [slab], {}, [0], 3.0),
                                                    ("path", path, {"n": "path", "s": "path"}, [0, 90], 1.0),
                                                    ("pavilion", pavilion, {}, [0], 1.0)):
        obj = _object(tile, parts, kit)
        obj["strew_sockets"] = {side: sockets.get(side, "lawn") for side in "nesw"}
        obj["strew_rotations"] = rotations
        obj["strew_weight"] = weight
    kit.objects["pavilion"]["strew_size"] = [2, 2, 1]
    return kit
