"""Independent read-back checks for Tile Rooms tests (no solver code): sockets of placed, turned tiles,
adjacency, borders and walkable connectivity by BFS."""

from __future__ import annotations

import math
import re
from collections import deque

import bpy
import numpy as np

SIDES = ("n", "e", "s", "w", "up", "down")
CCW = {"e": "n", "n": "w", "w": "s", "s": "e"}  # where a side goes after a quarter turn counter-clockwise
OPPOSITE = {"e": "w", "w": "e", "n": "s", "s": "n", "up": "down", "down": "up"}
STEP = {"e": (1, 0, 0), "w": (-1, 0, 0), "n": (0, 1, 0), "s": (0, -1, 0), "up": (0, 0, 1), "down": (0, 0, -1)}


def source_tile(obj: bpy.types.Object) -> dict:
    """A kit tile's own settings as the docs describe them (custom property first, then ``object.strew``)."""
    if "strew_sockets" in obj:
        sockets = {k: str(v or "") for k, v in obj["strew_sockets"].to_dict().items()}
    else:
        sockets = {side: getattr(obj.strew, f"socket_{side}") for side in SIDES}
    walkable = bool(obj["strew_walkable"]) if "strew_walkable" in obj else obj.strew.walkable
    passable = set(obj["strew_passable"]) if "strew_passable" in obj else set(obj.strew.passable)
    return {"sockets": sockets, "walkable": walkable, "passable": passable if walkable else set()}


def turn(tile: dict, degrees: int) -> dict:
    """Sockets and passable sides after ``degrees`` counter-clockwise (":k" vertical labels add the turns)."""
    quarter = degrees // 90
    sockets, passable = {}, set()
    for side, label in tile["sockets"].items():
        target = side
        for _ in range(quarter):
            target = CCW.get(target, target)
        match = re.match(r"^(.*):([0-3])$", label)
        if side in ("up", "down") and match:
            label = f"{match.group(1)}:{(int(match.group(2)) + quarter) % 4}"
        sockets[target] = label
        if side in tile["passable"]:
            passable.add(target)
    return {"sockets": sockets, "walkable": tile["walkable"], "passable": passable}


def mirror(tile: dict) -> dict:
    """The tile mirrored x -> -x (the docs' rule): east and west swap; a label ``x~`` and ``x`` swap; an
    oriented vertical label ``x:k`` becomes ``x~:(-k mod 4)``."""
    def twin(label: str) -> str:
        return label[:-1] if label.endswith("~") else label + "~"

    swap = {"e": "w", "w": "e"}
    sockets = {}
    for side, label in tile["sockets"].items():
        match = re.match(r"^(.*):([0-3])$", label)
        if side in ("up", "down") and match:
            label = f"{twin(match.group(1))}:{(-int(match.group(2))) % 4}"
        elif side not in ("up", "down") and (label.endswith("~") or re.match(r"^m[0-9a-f]{8}$", label)):
            label = twin(label)
        sockets[swap.get(side, side)] = label
    passable = {swap.get(side, side) for side in tile["passable"]}
    return {"sockets": sockets, "walkable": tile["walkable"], "passable": passable}


def fits(a: str, b: str, pairs: set[frozenset]) -> bool:
    paired = set().union(*pairs) if pairs else set()
    if a in paired or b in paired:
        return frozenset((a, b)) in pairs
    return a == b


class Placed:
    """One placed tile as the scene shows it: its world matrix, whether it is mirrored (``strew_mirror``) and,
    in the Real Objects mode, the object."""

    def __init__(self, matrix: np.ndarray, mirrored: bool, obj: bpy.types.Object | None = None) -> None:
        self.matrix_world = matrix
        self.mirrored = mirrored
        self.obj = obj


def room_collection(name: str = "Strew Room") -> bpy.types.Collection:
    """The room Strew built in the scene, found by its owner mark (never by the collection's name)."""
    owned = [c for c in bpy.context.scene.collection.children
             if c.get("strew_owner") == "room" and c.get("strew_name") == name]
    assert len(owned) == 1, f"expected one room {name!r}, found {len(owned)}"
    return owned[0]


def _instances(room: bpy.types.Object) -> list[tuple[str, np.ndarray]]:
    """(tile name, world matrix) of every instance the room's Geometry Nodes instancer makes, evaluated."""
    bpy.context.view_layer.update()
    depsgraph = bpy.context.evaluated_depsgraph_get()
    return [(inst.instance_object.original.name, np.array(inst.matrix_world))
            for inst in depsgraph.object_instances
            if inst.is_instance and inst.parent is not None and inst.parent.original == room]


def read_instancer(obj: bpy.types.Object, cell_size) -> dict:
    """cell -> (tile, rotation, Placed) from the point attributes, as docs/rooms.md tells a script to read them,
    checked against what Geometry Nodes really instances at each cell."""
    mesh, n = obj.data, len(obj.data.vertices)
    cells = np.empty(n * 3, dtype=np.float32)
    mesh.attributes["strew_cell"].data.foreach_get("vector", cells)
    tiles = np.empty(n, dtype=np.int32)
    mesh.attributes["strew_tile"].data.foreach_get("value", tiles)
    rotations = np.empty(n, dtype=np.int32)
    mesh.attributes["strew_rotation"].data.foreach_get("value", rotations)
    mirrored = np.empty(n, dtype=bool)
    mesh.attributes["strew_mirror"].data.foreach_get("value", mirrored)
    names = list(obj["strew_tiles"])
    instances = _instances(obj)
    matrix = np.array(obj.matrix_world)
    out = {}
    flags = {}
    for cell, tile, rotation, flag in zip(np.rint(cells.reshape(n, 3)).astype(int).tolist(), tiles.tolist(),
                                          rotations.tolist(), mirrored.tolist(), strict=True):
        assert tuple(cell) not in out, f"two points in cell {cell}"
        out[tuple(cell)] = [names[tile], rotation, None]
        flags[tuple(cell)] = flag
    assert len(instances) == n, (len(instances), n)
    for tile, world in instances:
        local = np.linalg.inv(matrix) @ world[:, 3]
        cell = tuple(int(c) for c in np.rint(local[:3] / np.array(cell_size)))
        assert out[cell][0] == tile, (cell, out[cell][0], tile)
        assert out[cell][2] is None, f"two instances in cell {cell}"
        assert flags[cell] == (np.linalg.det(world[:3, :3]) < 0), (cell, flags[cell])  # mirrored: negative scale
        out[cell][2] = Placed(world, flags[cell])
    return {cell: tuple(value) for cell, value in out.items()}


def read_room(name: str = "Strew Room") -> dict[tuple[int, int, int], tuple[str, int, Placed]]:
    """cell -> (source tile, rotation, Placed), from the instancer's points or the placed objects' properties."""
    room = room_collection(name)
    out = {}
    for obj in room.objects:
        if "strew_tiles" in obj:
            assert len(room.objects) == 1
            return read_instancer(obj, tuple(room["strew_cell_size"]))
        cell = tuple(int(c) for c in obj["strew_cell"])
        assert cell not in out, f"two objects in cell {cell}"
        out[cell] = (obj["strew_tile"], int(obj["strew_rotation"]),
                     Placed(np.array(obj.matrix_world), bool(obj.get("strew_mirror", False)), obj))
    return out


def placed_tiles(room: dict, kit: bpy.types.Collection) -> dict[tuple[int, int, int], dict]:
    out = {}
    for cell, (tile, rotation, placed) in room.items():
        source = source_tile(kit.all_objects[tile])
        out[cell] = turn(mirror(source) if placed.mirrored else source, rotation)
    return out


def check_positions(room: dict, origin, cell_size) -> None:
    """Every placed object sits at origin + cell_size * cell, turned by its stored rotation about +Z."""
    bpy.context.view_layer.update()
    for cell, (_, rotation, placed) in room.items():
        m = placed.matrix_world
        np.testing.assert_allclose(m[:3, 3], np.array(origin) + np.array(cell_size) * np.array(cell), atol=1e-5)
        a = math.radians(rotation)
        sign = -1.0 if placed.mirrored else 1.0  # a mirrored tile has its x axis negated, then turned
        np.testing.assert_allclose(sign * m[:2, 0] / np.linalg.norm(m[:3, 0]), [math.cos(a), math.sin(a)],
                                   atol=1e-6)


def violations(tiles: dict, shape, pairs: set[frozenset], periodic: bool = False) -> list:
    bad = []
    for (x, y, z), tile in tiles.items():
        for side in ("e", "n", "up"):
            dx, dy, dz = STEP[side]
            other = (x + dx, y + dy, z + dz)
            if periodic and side != "up":
                other = (other[0] % shape[0], other[1] % shape[1], other[2])
            if other not in tiles:
                continue
            a, b = tile["sockets"][side], tiles[other]["sockets"][OPPOSITE[side]]
            if not fits(a, b, pairs):
                bad.append(((x, y, z), side, a, b))
    return bad


def border_violations(tiles: dict, shape, labels: list[str], pairs, sides=("n", "e", "s", "w")) -> list:
    bad = []
    for (x, y, z), tile in tiles.items():
        for side in sides:
            dx, dy, dz = STEP[side]
            nx, ny, nz = x + dx, y + dy, z + dz
            outside = not (0 <= nx < shape[0] and 0 <= ny < shape[1] and 0 <= nz < shape[2])
            if outside and not any(fits(tile["sockets"][side], label, pairs) for label in labels):
                bad.append(((x, y, z), side, tile["sockets"][side]))
    return bad


def walkable_regions(tiles: dict) -> list[set]:
    """Regions of walkable cells joined through sides passable on both tiles (BFS)."""
    seen: set = set()
    regions = []
    for start, tile in tiles.items():
        if not tile["walkable"] or start in seen:
            continue
        region, queue = {start}, deque([start])
        seen.add(start)
        while queue:
            x, y, z = cell = queue.popleft()
            for side in tiles[cell]["passable"]:
                dx, dy, dz = STEP[side]
                other = (x + dx, y + dy, z + dz)
                if other in tiles and other not in seen and tiles[other]["walkable"] \
                        and OPPOSITE[side] in tiles[other]["passable"]:
                    seen.add(other)
                    region.add(other)
                    queue.append(other)
        regions.append(region)
    return regions
