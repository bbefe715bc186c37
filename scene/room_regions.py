"""A room's regions from the Tile Rooms panel: a box of cells or a mesh volume whose tiles are restricted or
weighted (``core.wfc.room.RoomRegion``).

The panel's list is read into plain :class:`RegionSource` values before any work; once the kit's cell size and
where the room stands are known, :func:`resolve_regions` turns each into a core region: a box as it is, a volume
into the cells whose centres lie inside the mesh (its evaluated geometry, world space).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ..core import fpmath
from ..core.wfc.room import RoomRegion

CENTRE = np.array([0.0, 0.0, 0.5])  # a cell's centre, in cells from its tile's origin (the bottom face's centre)


@dataclass(frozen=True)
class RegionSource:
    """One region as the panel gives it: its box, or the name of a mesh whose volume it is, and its tiles."""

    name: str
    low: tuple[int, int, int]
    high: tuple[int, int, int]
    tiles: str
    only: bool
    weight: float
    volume: str = ""


class RegionError(Exception):
    """A region's volume cannot be read (its message is translated)."""


def read_region_sources(room: bpy.types.PropertyGroup) -> tuple[RegionSource, ...]:
    """The enabled regions of the panel's list (``scene.strew.room.regions``)."""
    return tuple(RegionSource(item.name, tuple(item.box_min), tuple(item.box_max), item.tiles, item.only,
                              float(item.weight), item.volume.name if item.volume is not None else "")
                 for item in room.regions if item.enabled)


def _inside(obj: bpy.types.Object, points: np.ndarray) -> np.ndarray:
    """Which world ``points`` lie inside the closed mesh ``obj`` (its evaluated geometry): the nearest face
    faces away from the point."""
    from mathutils import Vector
    from mathutils.bvhtree import BVHTree

    depsgraph = bpy.context.evaluated_depsgraph_get()
    tree = BVHTree.FromObject(obj, depsgraph)  # type: ignore[arg-type]  # the stubs name another Object class
    local = fpmath.transform(points, np.linalg.inv(np.array(obj.matrix_world, dtype=np.float64)))
    out = np.zeros(len(points), dtype=bool)
    for i, point in enumerate(local.tolist()):
        where, normal, _index, _distance = tree.find_nearest(Vector(point))
        out[i] = where is not None and (where - Vector(point)).dot(normal) > 0.0
    return out


def volume_cells(obj: bpy.types.Object, matrix: np.ndarray, cell_size, shape) -> list[tuple[int, int, int]]:
    """The cells of a room (cell ``c``'s origin at ``matrix @ (cell_size * c)``) whose centres lie inside ``obj``."""
    size = np.asarray(cell_size, dtype=np.float64)
    corners = np.array(list(itertools.product(*zip(obj.bound_box[0], obj.bound_box[6], strict=True))))
    world = fpmath.transform(corners, np.array(obj.matrix_world, dtype=np.float64))
    inverse = np.linalg.inv(matrix)
    cells_at = fpmath.transform(world, inverse) / size - CENTRE  # the object's bounds in cells (any turn)
    low = np.clip(np.floor(cells_at.min(axis=0)).astype(int), 0, np.array(shape) - 1)
    high = np.clip(np.ceil(cells_at.max(axis=0)).astype(int), 0, np.array(shape) - 1)
    candidates = np.array(list(itertools.product(*(range(a, b + 1) for a, b in zip(low, high, strict=True)))),
                          dtype=np.int64).reshape(-1, 3)
    centres = fpmath.transform(size * (candidates + CENTRE), matrix)
    inside = _inside(obj, centres)
    return [(int(x), int(y), int(z)) for x, y, z in candidates[inside]]


def resolve_regions(sources: tuple[RegionSource | RoomRegion, ...], matrix: np.ndarray, cell_size,
                    shape: tuple[int, int, int]) -> tuple[RoomRegion, ...]:
    """Core regions of ``sources`` in a room whose cell ``c`` stands at ``matrix @ (cell_size * c)``; a source that
    is a core region already (given as text) stays as it is.

    Raises ``RegionError`` for a volume that is gone, not a mesh or holds no cell's centre, and the core's
    ``RoomInputError`` for the rest (bad tiles, weight).
    """
    out = []
    for source in sources:
        if isinstance(source, RoomRegion):
            out.append(source)
            continue
        if not source.volume:
            out.append(RoomRegion(name=source.name, low=source.low, high=source.high, tiles=source.tiles,
                                  only=source.only, weight=source.weight))
            continue
        obj = bpy.data.objects.get(source.volume)
        if obj is None or obj.type != 'MESH':
            raise RegionError(rpt_('Region "{region}": its volume "{name}" is not a mesh object of this file; pick '
                                   "a closed mesh").format(region=source.name, name=source.volume))
        cells = volume_cells(obj, matrix, cell_size, shape)
        if not cells:
            raise RegionError(rpt_('Region "{region}": the volume "{name}" holds no cell\'s centre of the room; '
                                   "move it over the room or make it larger").format(region=source.name,
                                                                                     name=source.volume))
        x0, y0, z0 = (int(v) for v in np.min(cells, axis=0))
        x1, y1, z1 = (int(v) for v in np.max(cells, axis=0))
        out.append(RoomRegion(name=source.name, low=(x0, y0, z0), high=(x1, y1, z1), tiles=source.tiles,
                              only=source.only, weight=source.weight, cells=tuple(cells)))
    return tuple(out)
