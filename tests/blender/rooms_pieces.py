"""Set pieces for the Tile Rooms tests: copies of kit tiles placed by hand, and what a piece's sockets are in the
room, read from its own world matrix (not from anything Strew stored)."""

from __future__ import annotations

import math

import bpy
import numpy as np
from mathutils import Matrix
from rooms_check import source_tile

SIDE_VECTORS = {"e": (1.0, 0.0, 0.0), "n": (0.0, 1.0, 0.0), "w": (-1.0, 0.0, 0.0), "s": (0.0, -1.0, 0.0)}


def place(obj: bpy.types.Object, tile: bpy.types.Object, origin, size, cell, degrees: float = 0.0,
          mirror_axis: int | None = None) -> bpy.types.Object:
    """Stand ``obj`` (a copy of ``tile``) in ``cell``: its origin at ``origin + size * cell``, turned ``degrees``
    about +Z, the tile's scale, negated along ``mirror_axis`` (0 = x, 1 = y) for a mirrored piece."""
    scale = list(tile.scale)
    if mirror_axis is not None:
        scale[mirror_axis] *= -1.0
    at = np.asarray(origin, dtype=float) + np.asarray(size, dtype=float) * np.asarray(cell, dtype=float)
    obj.matrix_world = (Matrix.Translation(at.tolist()) @ Matrix.Rotation(math.radians(degrees), 4, 'Z')
                        @ Matrix.Diagonal((*scale, 1.0)))
    return obj


def linked_copy(tile: bpy.types.Object, name: str) -> bpy.types.Object:
    """Alt D: a new object sharing the tile's mesh, in the scene's collection."""
    obj = bpy.data.objects.new(name, tile.data)
    for key, value in tile.items():
        obj[key] = value
    bpy.context.scene.collection.objects.link(obj)
    return obj


def full_copy(tile: bpy.types.Object) -> bpy.types.Object:
    """Shift D: the object and its mesh copied (Blender names them ``tile.001``)."""
    obj = tile.copy()
    obj.data = tile.data.copy()
    bpy.context.scene.collection.objects.link(obj)
    return obj


def instance_of(tile: bpy.types.Object, name: str) -> bpy.types.Object:
    """An empty instancing a collection that holds the tile alone (a tile's asset collection dragged in)."""
    holder = bpy.data.collections.get(f"{tile.name} asset") or bpy.data.collections.new(f"{tile.name} asset")
    if tile.name not in holder.objects:
        holder.objects.link(tile)
    obj = bpy.data.objects.new(name, None)
    obj.instance_type = 'COLLECTION'
    obj.instance_collection = holder
    holder.instance_offset = tile.location  # the tile's own place in the kit is the instance's origin
    bpy.context.scene.collection.objects.link(obj)
    return obj


def piece_sockets(obj: bpy.types.Object, tile: bpy.types.Object, room_matrix: np.ndarray) -> dict:
    """The sockets a set piece shows in the room: each side of its tile carried by the piece's own world matrix to
    the room side it faces (the kits these tests mirror have symmetric labels only, so a mirror changes no label)."""
    world = np.array(obj.matrix_world)
    if obj.type == 'EMPTY':  # the instanced tile's matrix under the empty
        offset = np.eye(4)
        offset[:3, 3] = -np.asarray(obj.instance_collection.instance_offset)
        world = world @ offset @ np.array(tile.matrix_world)
    local = np.linalg.inv(room_matrix) @ world
    linear = local[:3, :3]
    source = source_tile(tile)
    sockets = {}
    for side, vector in SIDE_VECTORS.items():
        facing = linear @ np.array(vector)
        facing /= np.linalg.norm(facing)
        to = max(SIDE_VECTORS, key=lambda s: float(np.dot(SIDE_VECTORS[s], facing)))
        sockets[to] = source["sockets"][side]
    return {"sockets": sockets, "walkable": source["walkable"], "passable": set()}
