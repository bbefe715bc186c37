"""Regenerate a box of an assembled room: read the room back, re-solve the box's cells, keep every other cell.

The room is read from Strew's output (either mode, see room_output), the kit's current rules give each
placed tile its variant, and ``core.wfc.regenerate`` solves the box with the cells around it as fixed tiles.
The room is then rewritten in the same mode; on any error the scene is unchanged.
"""

from __future__ import annotations

import dataclasses

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ..core.modes import RoomOutput
from ..core.wfc import Contradiction, regenerate
from .room_job import RoomError, RoomParams, RoomResult, prepare
from .room_output import CELL_KEY, TILES_KEY, Plan, build_steps, read_placed, room_collection


def _box(box_min, box_max, shape: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(start, stop) per axis from inclusive corners given in any order; ``RoomError`` when outside the room."""
    box = tuple((min(int(a), int(b)), max(int(a), int(b)) + 1) for a, b in zip(box_min, box_max, strict=True))
    if any(start < 0 or stop > size for (start, stop), size in zip(box, shape, strict=True)):
        raise RoomError(rpt_("Box {low} – {high} reaches outside the room of {size} cells; pick cells from "
                             "(0, 0, 0) to {last}").format(low=tuple(box_min), high=tuple(box_max), size=shape,
                                                            last=tuple(s - 1 for s in shape)))
    return box


HALF_ACROSS = np.array([0.5, 0.5, 0.0])  # a cell spans ± half a cell across, from its floor up
UP = np.array([0.0, 0.0, 1.0])


def room_frame(collection: bpy.types.Collection) -> tuple[np.ndarray, np.ndarray, tuple[int, int, int]] | None:
    """The assembled room's origin, cell size and grid shape as Strew stored them, or None."""
    try:
        origin = np.asarray(collection["strew_origin"], dtype=np.float64)
        size = np.asarray(collection[CELL_KEY + "_size"], dtype=np.float64)
        shape = tuple(int(s) for s in collection["strew_grid_shape"])
    except (KeyError, TypeError, ValueError):
        return None
    return origin, size, (shape[0], shape[1], shape[2])


def cell_at(collection: bpy.types.Collection, point) -> tuple[int, int, int] | None:
    """The room's cell that holds a world point, or None outside the room.

    A tile's origin is the centre of its cell's bottom face (docs/rooms.md): cell ``c`` spans
    ``origin + size * c ± size / 2`` across and ``origin.z + size.z * c.z + [0, size.z]`` up.
    """
    frame = room_frame(collection)
    if frame is None:
        return None
    origin, size, shape = frame
    local = (np.asarray(point, dtype=np.float64) - origin) / size
    cell = np.floor(local + HALF_ACROSS).astype(int)
    if np.any(cell < 0) or np.any(cell >= shape):
        return None
    return int(cell[0]), int(cell[1]), int(cell[2])


def cell_box_corners(collection: bpy.types.Collection, low, high) -> list[tuple[float, float, float]] | None:
    """The 8 world corners of the box of cells ``low`` … ``high`` (inclusive), for drawing it."""
    frame = room_frame(collection)
    if frame is None:
        return None
    origin, size, _shape = frame
    lo = origin + size * (np.minimum(low, high) - HALF_ACROSS)
    hi = origin + size * (np.maximum(low, high) + HALF_ACROSS + UP)
    return [(float(x), float(y), float(z)) for z in (lo[2], hi[2]) for y in (lo[1], hi[1]) for x in (lo[0], hi[0])]


def regenerate_box(scene: bpy.types.Scene, params: RoomParams, box_min, box_max) -> RoomResult:
    """Re-solve the cells from ``box_min`` to ``box_max`` (inclusive) of the room ``params.room_name``."""
    collection = room_collection(scene, params.room_name)
    frame = room_frame(collection) if collection is not None else None
    if collection is None or frame is None:
        raise RoomError(rpt_('There is no room "{name}" to regenerate: assemble it first').format(
            name=params.room_name))
    origin, _size, shape = frame
    box = _box(box_min, box_max, shape)
    mode = RoomOutput.INSTANCES if any(TILES_KEY in obj for obj in collection.objects) else RoomOutput.OBJECTS
    params = dataclasses.replace(params, size=shape, fixed=(), output=mode,
                                 origin=(float(origin[0]), float(origin[1]), float(origin[2])))
    kit, problem = prepare(params)
    rules, options = problem.rules, dict(problem.options)
    placed = read_placed(collection)
    reflected = rules.reflected or (False,) * rules.count
    variant = {(rules.tiles[v], int(rules.rotations[v]), bool(reflected[v])): v
               for v in range(rules.count)}
    grid = np.full(shape, -1, dtype=np.int64)
    for cell, tile, rotation, mirrored in zip(placed.cells.tolist(), placed.tiles, placed.rotations.tolist(),
                                              placed.mirrored.tolist(), strict=True):
        key = (tile, int(rotation), bool(mirrored))
        if key not in variant:
            raise RoomError(rpt_("Tile {tile!r} at {cell} (turned {rotation}°) is no longer in the kit's rules; "
                                 "assemble the room again").format(tile=tile, cell=tuple(cell), rotation=rotation))
        grid[tuple(cell)] = variant[key]
    if (grid < 0).any():
        raise RoomError(rpt_("The room has cells without a tile (edited by hand?); assemble it again"))
    for option in ("fixed", "entrances"):
        options.pop(option, None)
    flat = rules.dims == 2
    try:
        new = regenerate(rules, grid[:, :, 0] if flat else grid, box[:2] if flat else box, int(params.seed),
                         **options)
    except (Contradiction, ValueError) as error:
        raise RoomError(rpt_("No room found: {error}").format(error=error)) from error
    plan = Plan(kit, rules, np.asarray(new).reshape(shape), 0, 0)
    for _ in build_steps(scene, plan, params.destination):
        pass
    changed = int((plan.grid != grid).sum())
    return RoomResult(params.room_name, changed, len({rules.tiles[v] for v in np.unique(plan.grid)}), 0, 0)
