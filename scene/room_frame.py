"""Where an assembled room stands: its cell grid's world matrix, for Pick Box and Regenerate Box.

Assemble Room puts cell ``c``'s tile origin at ``origin + size * c``; the user may then move, turn or scale the
room (its instancer object, or all its real objects together) or parent it to something. The frame follows: the
instancer's world matrix, or the matrix most real objects agree on, so a tile moved by hand does not move the
room; and the parent the room's object (or most of its tiles) follows.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import bpy
import numpy as np

from ..core import fpmath
from ..core.wfc.tile_parts import origin_cell
from .ownership import is_owned
from .room_output import CELL_KEY, FOOTPRINT_KEY, MIRROR_KEY, OWNER, ROTATION_KEY, SCALE_KEY, TILE_KEY, TILES_KEY

HALF_ACROSS = np.array([0.5, 0.5, 0.0])  # a cell spans ± half a cell across, from its floor up
UP = np.array([0.0, 0.0, 1.0])
_ALIKE = 1e-4  # placements closer than this (share of a cell, or of a unit rotation) are the same room frame


def _translation(origin) -> np.ndarray:
    """The matrix of a room Assemble Room placed at ``origin``, unturned."""
    matrix = np.eye(4)
    matrix[:3, 3] = np.asarray(origin, dtype=np.float64)
    return matrix


@dataclass(frozen=True)
class RoomFrame:
    """Where an assembled room stands: the world matrix of its cell grid, its cell size and its shape.

    Cell ``c``'s tile origin (the centre of its bottom face, docs/rooms.md) is ``matrix @ (size * c)``: the
    matrix is the room object's (Instances) or the one its tiles agree on (Real Objects), so a room moved,
    turned or scaled as a whole is picked and regenerated where it stands.
    """

    matrix: np.ndarray  # (4, 4)
    size: np.ndarray  # (3,)
    shape: tuple[int, int, int]
    parent: bpy.types.Object | None = None  # what the room follows: its object's parent, or most tiles'

    def cell_at(self, point) -> tuple[int, int, int] | None:
        """The cell that holds a world point, or None outside the room."""
        try:
            inverse = np.linalg.inv(self.matrix)
        except np.linalg.LinAlgError:  # a room scaled to nothing along an axis has no cells to pick
            return None
        local = fpmath.transform(np.asarray(point, dtype=np.float64), inverse)[0] / self.size
        cell = np.floor(local + HALF_ACROSS).astype(int)
        if np.any(cell < 0) or np.any(cell >= self.shape):
            return None
        return int(cell[0]), int(cell[1]), int(cell[2])

    def moved_from(self, origin) -> bool:
        """Does the room stand elsewhere than at ``origin``, unturned (where Assemble Room put it)?"""
        placed = _translation(origin)
        scale = np.concatenate([np.ones(3), np.full(1, float(self.size.max()))])
        return bool(np.any(np.abs(self.matrix - placed)[:3] > _ALIKE * scale))

    def box_corners(self, low, high) -> list[tuple[float, float, float]]:
        """The 8 world corners of the box of cells ``low`` … ``high`` (inclusive), x fastest, then y, then z."""
        lo = self.size * (np.minimum(low, high) - HALF_ACROSS)
        hi = self.size * (np.maximum(low, high) + HALF_ACROSS + UP)
        local = [(x, y, z) for z in (lo[2], hi[2]) for y in (lo[1], hi[1]) for x in (lo[0], hi[0])]
        return [(float(x), float(y), float(z)) for x, y, z in fpmath.transform(np.array(local), self.matrix)]


SAMPLE = 512  # tiles a Real Objects room's frame is read from, evenly spread: enough for a clear majority


def _sample(count: int) -> list[int]:
    """At most ``SAMPLE`` indices spread evenly over ``count`` objects (all of them in a smaller room)."""
    return list(range(count)) if count <= SAMPLE else np.linspace(0, count - 1, SAMPLE).round().astype(int).tolist()


_TURNS = {0: (1.0, 0.0), 90: (0.0, 1.0), 180: (-1.0, 0.0), 270: (0.0, -1.0)}  # exact cos, sin of each turn


def _placed_scale(obj: bpy.types.Object, sources: dict[str, tuple[float, ...] | None]) -> tuple[float, ...] | None:
    """The kit tile's scale a placed tile was written with (its record; for older rooms the kit tile's now)."""
    recorded = obj.get(SCALE_KEY)
    try:
        scale = None if recorded is None else tuple(float(c) for c in recorded)
    except (TypeError, ValueError):
        scale = None
    if scale is not None and len(scale) == 3 and all(np.isfinite(scale)):
        return scale
    name = str(obj.get(TILE_KEY, ""))
    if name not in sources:  # a few kit tiles for thousands of placed ones: look each up once
        source = bpy.data.objects.get(name)
        sources[name] = None if source is None else tuple(float(c) for c in source.scale)
    return sources[name]


def _drawn_cell(obj: bpy.types.Object) -> tuple[float, ...]:
    """The cell a placed tile is drawn from: its cell, or for a big tile its origin's cell (room_output)."""
    cell = tuple(float(c) for c in obj[CELL_KEY])
    footprint = tuple(int(n) for n in obj.get(FOOTPRINT_KEY, (1, 1, 1)))
    if footprint == (1, 1, 1) or len(footprint) != 3:
        return cell
    origin = origin_cell((footprint[0], footprint[1], footprint[2]), int(obj.get(ROTATION_KEY, 0)),
                         bool(obj.get(MIRROR_KEY, False)))
    return tuple(c + o for c, o in zip(cell, origin, strict=True))


def _tiles_matrix(collection: bpy.types.Collection, size: np.ndarray) -> np.ndarray | None:
    """The room matrix most of a Real Objects room's tiles (an even sample of them) agree on: each tile's world
    matrix less its cell's offset, turn, mirror and its kit tile's scale when placed (a kit tile rescaled or renamed
    since changes nothing); None when no tile tells."""
    objects = collection.objects
    flat = np.empty(len(objects) * 16, dtype=np.float32)
    objects.foreach_get("matrix_world", flat)
    worlds = flat.astype(np.float64).reshape(-1, 4, 4).transpose(0, 2, 1)  # stored column by column
    sources: dict[str, tuple[float, ...] | None] = {}
    rows, offsets, turns, scales = [], [], [], []
    for row in _sample(len(objects)):
        obj = objects[row]
        if CELL_KEY not in obj or not is_owned(obj, OWNER):
            continue
        scale, turn = _placed_scale(obj, sources), _TURNS.get(int(obj.get(ROTATION_KEY, -1)))
        if scale is None or turn is None or 0.0 in scale:
            continue
        rows.append(row)
        offsets.append(_drawn_cell(obj))
        turns.append(turn)
        scales.append((-scale[0] if bool(obj.get(MIRROR_KEY, False)) else scale[0], scale[1], scale[2]))
    if not rows:
        return None
    cos, sin = np.array(turns).T
    zero, one = np.zeros(len(rows)), np.ones(len(rows))
    unturn = np.stack([np.stack([cos, sin, zero], -1), np.stack([-sin, cos, zero], -1),
                       np.stack([zero, zero, one], -1)], 1)  # the turns undone
    inverse = unturn / np.asarray(scales)[:, :, None]  # then the scale and the mirror: (turn · scale · mirror)⁻¹
    undo = np.tile(np.eye(4), (len(rows), 1, 1))
    undo[:, :3, :3] = inverse
    undo[:, :3, 3] = -np.einsum("nij,nj->ni", inverse, size * np.asarray(offsets, dtype=np.float64))
    frames = worlds[rows] @ undo
    units = np.concatenate([np.ones(3), np.full(1, float(size.max()))])  # rotation columns, then translation
    keys = np.round(frames[:, :3, :] / (_ALIKE * units)).astype(np.int64).reshape(len(frames), -1)
    _unique, group, counts = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
    return frames[int(np.flatnonzero(group.ravel() == int(np.argmax(counts)))[0])]


def room_instancer(collection: bpy.types.Collection | None) -> bpy.types.Object | None:
    """The object of an Instances room (None for a Real Objects room)."""
    return None if collection is None else next(
        (obj for obj in collection.objects if TILES_KEY in obj and is_owned(obj, OWNER)), None)


def room_frame(collection: bpy.types.Collection) -> RoomFrame | None:
    """Where the assembled room stands (see :class:`RoomFrame`), or None for a collection Strew did not build."""
    try:
        origin = np.asarray(collection["strew_origin"], dtype=np.float64)
        size = np.asarray(collection[CELL_KEY + "_size"], dtype=np.float64)
        shape = tuple(int(s) for s in collection["strew_grid_shape"])
    except (KeyError, TypeError, ValueError):
        return None
    instancer = room_instancer(collection)
    matrix = np.array(instancer.matrix_world, dtype=np.float64) if instancer is not None else (
        _tiles_matrix(collection, size))
    if matrix is None:
        matrix = _translation(origin)
    objects = collection.objects
    parents = Counter(objects[row].parent for row in _sample(len(objects)) if is_owned(objects[row], OWNER))
    parent = instancer.parent if instancer is not None else (parents.most_common(1)[0][0] if parents else None)
    return RoomFrame(matrix, size, (shape[0], shape[1], shape[2]), parent)


def cell_at(collection: bpy.types.Collection, point) -> tuple[int, int, int] | None:
    """The room's cell that holds a world point, or None outside the room (see :class:`RoomFrame`)."""
    frame = room_frame(collection)
    return None if frame is None else frame.cell_at(point)


def cell_box_corners(collection: bpy.types.Collection, low, high) -> list[tuple[float, float, float]] | None:
    """The 8 world corners of the box of cells ``low`` … ``high`` (inclusive), for drawing it."""
    frame = room_frame(collection)
    return None if frame is None else frame.box_corners(low, high)
