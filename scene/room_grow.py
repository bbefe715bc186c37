"""Grow an assembled room: more cells on one side, the tiles already there kept, the new cells solved.

The room is read back from Strew's output (as Regenerate Box reads it), its tiles become the fixed cells of the
larger grid (``core.wfc.grow``), and the room is written again where it stands: a Real Objects room keeps every
object whose tile stays (only their ``strew_cell`` is renumbered when the room grows on -X, -Y or -Z), an Instances
room keeps every such point's tile, turn, mirror and place. When the grown side has a border (Closed Room, Below,
Above), the old wall layer on that side is solved again with the new cells, so the wall moves outwards; fixed tiles
and set pieces there stay; *Keep Walls* keeps every old tile. Growing on a lower side moves the room's origin by
the new cells, so the old tiles keep their world place. On any error the scene is unchanged.
"""

from __future__ import annotations

import dataclasses

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ..core.modes import RoomOutput
from ..core.wfc import Contradiction
from ..core.wfc.big_tiles import fill_parts
from ..core.wfc.grow import grow, grown_box, walls_to_resolve
from ..core.wfc.layout import fixed_array
from ..core.wfc.room_input import RoomInputError
from ..core.wfc.room_regions import RoomRegion
from .ownership import is_owned
from .room_frame import room_frame, room_instancer
from .room_job import RoomError, RoomParams, RoomResult, prepare
from .room_output import CELL_KEY, OWNER, Plan, build_steps, read_placed, room_collection
from .room_pieces import record, recorded, with_recorded
from .room_regions import RegionSource


@dataclasses.dataclass(frozen=True)
class Grown:
    """What a grow did: the room's result, its new size and origin, how far its old cells moved, and how many
    old cells of the wall layer were solved again (0 with Keep Walls or no border on that side)."""

    result: RoomResult
    size: tuple[int, int, int]
    origin: tuple[float, float, float]
    offset: tuple[int, int, int]
    walls: int = 0


def _shift(cell, offset) -> tuple[int, int, int]:
    x, y, z = (int(c) + int(o) for c, o in zip(cell, offset, strict=True))
    return x, y, z


def shifted_regions(regions, offset) -> tuple:
    """Box regions counted from the grown room's origin (a volume is read where it stands)."""
    out = []
    for region in regions:
        if isinstance(region, RegionSource) and not region.volume:
            region = dataclasses.replace(region, low=_shift(region.low, offset), high=_shift(region.high, offset))
        elif isinstance(region, RoomRegion):
            cells = None if region.cells is None else tuple(_shift(c, offset) for c in region.cells)
            region = dataclasses.replace(region, low=_shift(region.low, offset), high=_shift(region.high, offset),
                                         cells=cells)
        out.append(region)
    return tuple(out)


def old_grid(rules, placed, shape: tuple[int, int, int]) -> np.ndarray:
    """The room's placed tiles as variants of ``rules`` (every part of a big tile), on the room's old grid;
    ``RoomError`` when a tile is no longer in the rules or a cell holds none."""
    reflected = rules.reflected or (False,) * rules.count
    variant = {(rules.tiles[v], int(rules.rotations[v]), bool(reflected[v])): v
               for v in np.flatnonzero(rules.anchor_mask()).tolist()}
    anchors = []
    for cell, tile, rotation, mirrored in zip(placed.cells.tolist(), placed.tiles, placed.rotations.tolist(),
                                              placed.mirrored.tolist(), strict=True):
        key = (tile, int(rotation), bool(mirrored))
        if key not in variant:
            raise RoomError(rpt_("Tile {tile!r} at {cell} (turned {rotation}°) is no longer in the kit's rules; "
                                 "assemble the room again").format(tile=tile, cell=tuple(cell), rotation=rotation))
        anchors.append(variant[key])
    try:
        old = fill_parts(rules, shape, placed.cells.reshape(-1, 3), np.array(anchors, dtype=np.int64))
    except ValueError:
        old = np.full(shape, -1, dtype=np.int64)
    if (old < 0).any():
        raise RoomError(rpt_("The room has cells without a tile (edited by hand?); assemble it again"))
    return old


def _fixed_cells(rules, shape, fixed, pieces, old: np.ndarray, offset) -> np.ndarray:
    """The grown grid's fixed cells: the room's fixed tiles and its set pieces (as they stand in ``old``)."""
    out = np.asarray(fixed_array(rules, shape, fixed), dtype=np.int64).copy()
    for piece in pieces:
        for cell in piece.covered():
            index = tuple(int(c) + int(o) for c, o in zip(cell, offset, strict=True))[: len(shape)]
            out[index] = old[tuple(cell)[: old.ndim]]
    return out


def grow_room(scene: bpy.types.Scene, params: RoomParams, side: str, cells: int, keep_walls: bool = False) -> Grown:
    """Add ``cells`` cells on ``side`` (``-X`` … ``+Z``) of the room ``params.room_name``, where it stands; the old
    tiles are kept as they are and the new ones fit them, but for the old wall layer on a side with a border, which
    is solved again with them unless ``keep_walls``. ``params``' cells (entrances, fixed tiles, regions) count from
    the room's origin before the grow."""
    collection = room_collection(scene, params.room_name)
    frame = room_frame(collection) if collection is not None else None
    if collection is None or frame is None:
        raise RoomError(rpt_('There is no room "{name}" to grow: assemble it first').format(name=params.room_name))
    try:
        size, offset = grown_box(frame.shape, side, cells)
    except RoomInputError as error:
        raise RoomError(rpt_(error.template).format(**error.fields)) from None
    side = side.strip().upper()
    old_origin = np.asarray(collection["strew_origin"], dtype=np.float64)
    step = frame.size * np.asarray(offset, dtype=np.float64)
    ox, oy, oz = (float(c) for c in old_origin - step)
    origin = (ox, oy, oz)
    move = np.eye(4)
    move[:3, 3] = -step
    matrix = frame.matrix @ move  # the grown grid's cell (0, 0, 0), where the room stands
    mode = RoomOutput.INSTANCES if room_instancer(collection) is not None else RoomOutput.OBJECTS
    params = dataclasses.replace(
        params, size=size, output=mode, origin=origin,
        fixed=tuple(dataclasses.replace(f, cell=_shift(f.cell, offset)) for f in params.fixed),
        entrances=tuple(_shift(e, offset) for e in params.entrances),
        paths=tuple(tuple(_shift(cell, offset) for cell in path) for path in params.paths),
        region_sources=shifted_regions(params.region_sources, offset),
        regions=shifted_regions(params.regions, offset),
        cell_size=(float(frame.size[0]), float(frame.size[1]), float(frame.size[2])))
    pieces = recorded(collection)
    placed = with_recorded(read_placed(collection), pieces)
    sizes = {tile: (int(f[1]), int(f[0]), int(f[2])) if rotation in (90, 270) else (int(f[0]), int(f[1]), int(f[2]))
             for tile, f, rotation in zip(placed.tiles, placed.footprints.tolist(), placed.rotations.tolist(),
                                          strict=True)}
    kit, problem = prepare(params, (matrix, frame.size), sizes)
    rules, options = problem.rules, dict(problem.options)
    old = old_grid(rules, placed, frame.shape)
    flat = rules.dims == 2
    grid = old[:, :, 0] if flat else old
    shape = size[: rules.dims]
    options["fixed"] = fixed = _fixed_cells(rules, shape, options.get("fixed"), pieces, grid, offset)
    walls = walls_to_resolve(rules, grid, shape, offset, border=options.get("border"),
                             border_sides=options.get("border_sides"), periodic=options.get("periodic", False),
                             fixed=fixed)
    try:
        new = grow(rules, grid, size, offset, int(params.seed), keep_walls=keep_walls, **options)
    except (Contradiction, ValueError) as error:
        if keep_walls and walls.any():
            raise RoomError(rpt_("Cannot grow the room on {side} keeping its walls: no tiles fit beyond them "
                                 "({error}); turn off Keep Walls to move the wall out").format(
                side=side, error=error)) from error
        raise RoomError(rpt_("Cannot grow the room on {side}: no tiles fit along the old tiles there ({error}); try "
                             "another seed or side").format(side=side, error=error)) from error
    moved = [piece.shifted(offset) for piece in pieces]
    plan = Plan(kit, rules, np.asarray(new).reshape(size), 0, 0, frozenset(piece.cell for piece in moved))
    region = tuple(slice(o, o + s) for o, s in zip(offset, frame.shape, strict=True))
    same = plan.grid[region] == old  # the old cells that keep their tile (all but re-solved wall cells that changed)
    destination = params.destination
    if frame.moved_from(old_origin) or frame.parent is not None:
        destination = dataclasses.replace(destination, matrix=tuple(float(v) for v in matrix.ravel()),
                                          parent=frame.parent)
    kept: dict[tuple[int, int, int], bpy.types.Object] = {}
    if mode == RoomOutput.OBJECTS:
        for obj in collection.objects:
            if is_owned(obj, OWNER) and CELL_KEY in obj and same[tuple(int(c) for c in obj[CELL_KEY])]:
                kept[_shift(obj[CELL_KEY], offset)] = obj
    for _ in build_steps(scene, plan, destination, kept):
        pass
    for cell, obj in kept.items():  # renumbered only once the new room stands
        if tuple(int(c) for c in obj[CELL_KEY]) != cell:
            obj[CELL_KEY] = cell
    rebuilt = room_collection(scene, params.room_name)
    if rebuilt is not None:
        record(rebuilt, moved)
    added = int(np.prod(size)) - int(np.prod(frame.shape))
    result = RoomResult(params.room_name, added, len({rules.tiles[v] for v in np.unique(plan.grid)}), 0, 0)
    return Grown(result, size, origin, offset, 0 if keep_walls else int(walls.sum()))
