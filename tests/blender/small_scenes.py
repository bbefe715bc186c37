"""Small scenes that run in hundredths of a second: for tables of bad input and for fuzzing."""

from __future__ import annotations

import bpy
from scenes import make_prefabs, make_terrain

# The tiles of a small road kit, authored with plain custom properties only.
ROAD_TILES = {
    "straight": ({"n": "road", "e": "grass", "s": "road", "w": "grass"}, [0, 90]),
    "turn": ({"n": "road", "e": "road", "s": "grass", "w": "grass"}, [0, 90, 180, 270]),
    "grass": ({"n": "grass", "e": "grass", "s": "grass", "w": "grass"}, [0]),
}
ROOM = {"kit": "Roads", "size": (4, 4, 1), "seed": 1, "border": ""}


def scatter_scene() -> bpy.types.Collection:
    """A small terrain and one layer of two stones (a run takes a few hundredths of a second)."""
    scene = bpy.context.scene
    scene.strew.terrain = make_terrain(size=20.0, subdivisions=6)
    stones = make_prefabs("Stones", 2)
    layer = scene.strew.layers.add()
    layer.name, layer.collection, layer.seed = "Stones", stones, 3
    layer.min_radius = layer.max_radius = 2.5
    return stones


def road_kit() -> bpy.types.Collection:
    kit = bpy.data.collections.new("Roads")
    bpy.context.scene.collection.children.link(kit)
    for number, (name, (sockets, rotations)) in enumerate(ROAD_TILES.items()):
        mesh = bpy.data.meshes.new(name)
        mesh.from_pydata([(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0), (0, 0, 0.5)], [],
                         [(0, 1, 4), (1, 2, 4), (2, 3, 4), (3, 0, 4), (3, 2, 1, 0)])
        obj = bpy.data.objects.new(name, mesh)
        obj.location = (3.0 * number, 20.0, 0.0)
        obj["strew_sockets"] = sockets
        obj["strew_rotations"] = rotations
        kit.objects.link(obj)
    kit["strew_cell_size"] = (2.0, 2.0, 1.0)
    return kit
