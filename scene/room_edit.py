"""Regenerate a box of an assembled room: read the room back, re-solve the box's cells, keep every other cell.

The room is read from Strew's output (either mode, see room_output), the kit's current rules give each
placed tile its variant, and ``core.wfc.regenerate`` solves the box with the cells around it as fixed tiles.
The room is then rewritten in the same mode where it stands (see room_frame), a Real Objects room keeping every
object whose tile stays; on any error the scene is unchanged.
"""

from __future__ import annotations

import dataclasses

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ..core.modes import RoomOutput
from ..core.wfc import Contradiction, regenerate
from ..core.wfc.layout import Fixed
from .ownership import is_owned
from .room_frame import room_frame, room_instancer
from .room_grow import old_grid
from .room_job import RoomError, RoomParams, RoomResult, prepare
from .room_output import CELL_KEY, OWNER, Plan, build_steps, read_placed, room_collection
from .room_pieces import pinned, record, recorded, with_recorded


def _box(box_min, box_max, shape: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(start, stop) per axis from inclusive corners given in any order; ``RoomError`` when outside the room."""
    box = tuple((min(int(a), int(b)), max(int(a), int(b)) + 1) for a, b in zip(box_min, box_max, strict=True))
    if any(start < 0 or stop > size for (start, stop), size in zip(box, shape, strict=True)):
        raise RoomError(rpt_("Box {low} – {high} reaches outside the room of {size} cells; pick cells from "
                             "(0, 0, 0) to {last}").format(low=tuple(box_min), high=tuple(box_max), size=shape,
                                                            last=tuple(s - 1 for s in shape)))
    return box


def _unchanged_objects(collection: bpy.types.Collection, same: np.ndarray
                       ) -> dict[tuple[int, int, int], bpy.types.Object]:
    """The Real Objects room's objects whose cell keeps its tile, by cell: they stay as they are."""
    kept = {}
    for obj in collection.objects:
        if is_owned(obj, OWNER) and CELL_KEY in obj:
            x, y, z = (int(c) for c in obj[CELL_KEY])
            if same[x, y, z]:
                kept[(x, y, z)] = obj
    return kept


def regenerate_box(scene: bpy.types.Scene, params: RoomParams, box_min, box_max) -> RoomResult:
    """Re-solve the cells from ``box_min`` to ``box_max`` (inclusive) of the room ``params.room_name``, where the
    room stands (moved or turned by hand too); a Real Objects room keeps every object whose tile stays."""
    collection = room_collection(scene, params.room_name)
    frame = room_frame(collection) if collection is not None else None
    if collection is None or frame is None:
        raise RoomError(rpt_('There is no room "{name}" to regenerate: assemble it first').format(
            name=params.room_name))
    ox, oy, oz = (float(c) for c in collection["strew_origin"])
    origin, shape = (ox, oy, oz), frame.shape
    box = _box(box_min, box_max, shape)
    mode = RoomOutput.INSTANCES if room_instancer(collection) is not None else RoomOutput.OBJECTS
    # The cells outside the box keep their tiles: only the entrances inside it still ask for a walkable tile, and
    # any entrance keeps the walkable cells joined, as when the room was assembled.
    inside = tuple(e for e in params.entrances if all(a <= c < b for c, (a, b) in zip(e, box, strict=True)))
    # The cells keep the size they were assembled with (a kit tile rescaled since changes only that tile).
    params = dataclasses.replace(params, size=shape, fixed=(), output=mode, origin=origin, entrances=inside,
                                 connected=params.connected or bool(params.entrances),
                                 cell_size=(float(frame.size[0]), float(frame.size[1]), float(frame.size[2])))
    pieces = recorded(collection)  # the set pieces it was built around: fixed, written by no one
    placed = with_recorded(read_placed(collection), pieces)
    sizes = {tile: (int(f[1]), int(f[0]), int(f[2])) if rotation in (90, 270) else (int(f[0]), int(f[1]), int(f[2]))
             for tile, f, rotation in zip(placed.tiles, placed.footprints.tolist(), placed.rotations.tolist(),
                                          strict=True)}  # the cells each tile covered, unturned
    # a region's volume is read where the room stands
    kit, problem = prepare(params, (frame.matrix, frame.size), sizes)
    rules, options = problem.rules, dict(problem.options)
    grid = old_grid(rules, placed, shape)
    options.pop("fixed", None)  # the cells outside the box are the fixed ones
    flat = rules.dims == 2
    if pieces:  # and the set pieces' cells inside it
        keep = pinned(grid, pieces)
        options["constraints"] = [*options.get("constraints", ()), Fixed(keep[:, :, 0] if flat else keep)]
    try:
        new = regenerate(rules, grid[:, :, 0] if flat else grid, box[:2] if flat else box, int(params.seed),
                         **options)
    except (Contradiction, ValueError) as error:
        raise RoomError(rpt_("No room found: {error}").format(error=error)) from error
    plan = Plan(kit, rules, np.asarray(new).reshape(shape), 0, 0, frozenset(piece.cell for piece in pieces))
    destination = params.destination
    if frame.moved_from(origin) or frame.parent is not None:
        destination = dataclasses.replace(destination, matrix=tuple(float(v) for v in frame.matrix.ravel()),
                                          parent=frame.parent)
    same = plan.grid == grid
    kept = _unchanged_objects(collection, same) if mode == RoomOutput.OBJECTS else {}
    for _ in build_steps(scene, plan, destination, kept):
        pass
    rebuilt = room_collection(scene, params.room_name)
    if rebuilt is not None:
        record(rebuilt, pieces)
    changed = int((~same).sum())  # cells
    return RoomResult(params.room_name, changed, len({rules.tiles[v] for v in np.unique(plan.grid)}), 0, 0)
