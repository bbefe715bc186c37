"""Kits the Tile Rooms tests build: a flat road kit with labels of its own, planes, and small helpers."""

from __future__ import annotations

import importlib

import bpy
from conftest import ADDON_MODULE
from rooms_check import STEP


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
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(vertices, [], faces)
    obj = bpy.data.objects.new(name, mesh)
    collection.objects.link(obj)
    return obj


def road_kit(name: str = "Streets") -> bpy.types.Collection:
    """The seed article's 2-D road tiles as planes (no height), with labels of their own (no "wall")."""
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

