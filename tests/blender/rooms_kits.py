"""Kits the Tile Rooms tests build (the demo kit, a hand-made road kit, a flat road kit, boxes and planes) and the
read-back check of an assembled room."""

from __future__ import annotations

import importlib
import math

import bpy
import numpy as np
from conftest import ADDON_MODULE
from rooms_check import STEP, border_violations, check_positions, placed_tiles, read_room, violations


def module(name: str):
    return importlib.import_module(f"{ADDON_MODULE}.{name}")


def pairs(text: str) -> set[frozenset]:
    return {frozenset(p.strip() for p in item.split("=")) for item in text.split(",") if item.strip()}


def plane(name: str, collection: bpy.types.Collection, size: float, marks=()) -> bpy.types.Object:
    """A flat tile: a square of side ``size`` at z = 0, plus flat marks (x0, x1, y0, y1) drawn as extra faces."""
    h = size / 2
    vertices = [(-h, -h, 0), (h, -h, 0), (h, h, 0), (-h, h, 0)]
    faces = [(0, 1, 2, 3)]
    for x0, x1, y0, y1 in marks:
        n = len(vertices)
        vertices += [(x0, y0, 0), (x1, y0, 0), (x1, y1, 0), (x0, y1, 0)]
        faces.append((n, n + 1, n + 2, n + 3))
    return mesh_object(name, vertices, faces, collection)


def demo_kit() -> bpy.types.Collection:
    """The demo kit, built by its operator."""
    assert bpy.ops.strew.build_demo_kit() == {'FINISHED'}
    return bpy.data.collections["Tiles"]


def box(x0, x1, y0, y1, z0, z1) -> tuple[list, list]:
    """Corners and quad faces of an axis-aligned box."""
    v = [(x, y, z) for x in (x0, x1) for y in (y0, y1) for z in (z0, z1)]
    f = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    return v, f


def mesh_object(name: str, vertices: list, faces: list, collection: bpy.types.Collection) -> bpy.types.Object:
    """A mesh object of these vertices and faces, linked to ``collection``."""
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(vertices, [], faces)
    obj = bpy.data.objects.new(name, mesh)
    collection.objects.link(obj)
    return obj


def boxes_object(name: str, boxes: list[tuple], collection: bpy.types.Collection,
                 turns: list[int] | None = None) -> bpy.types.Object:
    """One mesh of axis-aligned boxes (x0, x1, y0, y1, z0, z1), box ``i`` turned ``turns[i]`` quarters about z."""
    vertices, faces = [], []
    for number, corners in enumerate(boxes):
        v, f = box(*corners)
        a = (turns[number] if turns else 0) * math.pi / 2
        faces += [tuple(i + len(vertices) for i in face) for face in f]
        vertices += [(round(x * math.cos(a) - y * math.sin(a), 6), round(x * math.sin(a) + y * math.cos(a), 6), z)
                     for x, y, z in v]
    return mesh_object(name, vertices, faces, collection)


def hand_kit(name: str = "Roads") -> bpy.types.Collection:
    """Roads on grass, authored only with plain custom properties (the scripting contract)."""
    kit = bpy.data.collections.new(name)
    bpy.context.scene.collection.children.link(kit)
    slab = (-1, 1, -1, 1, 0, 0.1)
    road = {"n": "road", "e": "grass", "s": "road", "w": "grass"}
    turn_ = {"n": "road", "e": "road", "s": "grass", "w": "grass"}
    cross = {"n": "road", "e": "road", "s": "road", "w": "road"}
    for tile, sockets, rotations, extra in (("straight", road, [0, 90], (-0.2, 0.2, -1, 1, 0.1, 0.2)),
                                            ("turn", turn_, [0, 90, 180, 270], (-0.2, 1, -0.2, 0.2, 0.1, 0.2)),
                                            ("cross", cross, [0], (-0.3, 0.3, -0.3, 0.3, 0.1, 0.3)),
                                            ("grass", {s: "grass" for s in "nesw"}, [0], (0.5, 0.7, 0.5, 0.7, 0, 1))):
        obj = boxes_object(tile, [slab, extra], kit)
        obj.location = (len(kit.objects) * 3.0, 20.0, 0.0)
        obj["strew_sockets"] = sockets
        obj["strew_rotations"] = rotations
        obj["strew_walkable"] = tile != "grass"
        obj["strew_passable"] = [s for s, label in sockets.items() if label == "road"]
    kit.objects["grass"]["strew_weight"] = 3.0
    kit.objects["grass"].strew.socket_n = "bogus"  # the custom property wins, so this is never read
    kit["strew_cell_size"] = (2.0, 2.0, 1.0)
    return kit


def check_room(kit: bpy.types.Collection, shape, origin, cell_size, pairs, border=None, periodic=False,
               bottom=None, top=None) -> dict:
    """Read the assembled room back and check cells, positions, sockets and borders independently of the solver."""
    room = read_room()
    assert sorted(room) == sorted(np.ndindex(*shape))
    check_positions(room, origin, cell_size)
    tiles = placed_tiles(room, kit)
    assert violations(tiles, shape, pairs, periodic) == []
    if border is not None:
        assert border_violations(tiles, shape, border, pairs) == []
    if bottom is not None:
        assert border_violations(tiles, shape, [bottom], pairs, sides=("down",)) == []
    if top is not None:
        assert border_violations(tiles, shape, [top], pairs, sides=("up",)) == []
    return {"room": room, "tiles": tiles}


def road_kit(name: str = "Streets") -> bpy.types.Collection:
    """2-D road tiles as planes (no height), with labels of their own (no "wall")."""
    kit = bpy.data.collections.new(name)
    bpy.context.scene.collection.children.link(kit)
    tiles = {
        "verge": ({"n": "verge", "e": "verge", "s": "verge", "w": "verge"}, [0], 3.0),
        "street": ({"n": "asphalt", "e": "verge", "s": "asphalt", "w": "verge"}, [0, 90], 1.0),
        "bend": ({"n": "asphalt", "e": "asphalt", "s": "verge", "w": "verge"}, [0, 90, 180, 270], 1.0),
        "junction": ({"n": "asphalt", "e": "asphalt", "s": "asphalt", "w": "verge"}, [0, 90, 180, 270], 0.5),
    }
    for number, (tile, (sockets, rotations, weight)) in enumerate(tiles.items()):
        # the asphalt: a face from the centre to each "asphalt" side, 1 m wide (its edge ends on the side)
        marks = [{"n": (-0.5, 0.5, -0.5, 1.5), "e": (-0.5, 1.5, -0.5, 0.5), "s": (-0.5, 0.5, -1.5, 0.5),
                  "w": (-1.5, 0.5, -0.5, 0.5)}[side] for side, label in sockets.items() if label == "asphalt"]
        obj = plane(tile, kit, 3.0, marks=marks)
        obj.location = (number * 5.0, -30.0, 0.0)
        obj["strew_sockets"] = sockets
        obj["strew_rotations"] = rotations
        obj["strew_weight"] = weight
    return kit


def adjacent_pairs(room: dict):
    for (x, y, z), value in room.items():
        for side in ("e", "n", "up"):
            dx, dy, dz = STEP[side]
            other = room.get((x + dx, y + dy, z + dz))
            if other is not None:
                yield (x, y, z), side, value, other

