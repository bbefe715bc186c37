"""A terrain lookup after an edit: the tables a fresh build of the edited mesh makes, worked out from the previous
ones where few triangles changed.

A terrain edit (a sculpted bump, vertices moved, a quad whose diagonal flips) changes a few triangles of hundreds of
thousands. A fresh build plans every triangle again; here only the changed ones are, and the others keep what
they had:

- corners that moved in height only: the grid, the numbering and the barycentric table stay as they are; the
  changed triangles' rows of the height and normal tables are computed again;
- corners that moved across too: the changed triangles leave the numbering and the cell lists and come back at
  their new first cell, with their rows computed again; the other triangles keep their rows and cells, renumbered.

Every value is computed triangle by triangle with the build's own functions, so the tables are the fresh build's
bit for bit. When the edit reaches the terrain's outline, changes how many triangles are usable or would change
the grid's cells (see :meth:`.grid.GridFrame.fit`), or changes most triangles, :func:`edited` returns None and the
caller builds afresh.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .._grid import CellLists, distinct_sorted
from .build import Built, corner_boxes
from .grid import Boxes, GridFrame, PairCollector, TriangleGrid
from .planes import BARY_ROWS, HEIGHT_COLUMNS, planes, usable

MOST = 0.25
"""More changed triangles than this share of the terrain's: a fresh build costs about as much."""


def changed_rows(old_verts: NDArray[np.float64], old_tris: NDArray[np.int64], verts: NDArray[np.float64],
                 tris: NDArray[np.int64]) -> NDArray[np.intp]:
    """The triangles (as many before as after) whose corners differ: another vertex, or one that moved (bit for
    bit, so a coordinate going from 0.0 to -0.0 counts)."""
    if old_verts.shape == verts.shape:
        moved = (old_verts.view(np.uint64) != verts.view(np.uint64)).any(axis=1)
        rows = moved[tris].any(axis=1)
        rows |= (old_tris != tris).any(axis=1)
    else:
        rows = (old_verts[old_tris].view(np.uint64) != verts[tris].view(np.uint64)).any(axis=(1, 2))
    return np.flatnonzero(rows)


def edited(before: Built, old_verts: NDArray[np.float64], old_tris: NDArray[np.int64], verts: NDArray[np.float64],
           tris: NDArray[np.int64], changed: NDArray[np.integer]) -> Built | None:
    """The tables of ``build(verts, tris)`` from ``before = build(old_verts, old_tris)`` (as many triangles), where
    only the triangles ``changed`` may have other corners (every other triangle's corners are the same, bit for
    bit); None when there is no shortcut (see the module docstring)."""
    count = len(tris)
    rows = distinct_sorted(np.sort(np.asarray(changed, dtype=np.intp).ravel()))
    if len(rows) == 0:
        return before
    if len(rows) > MOST * count or len(old_tris) != count:
        return None
    grid = before.grid
    frame = GridFrame(grid.origin, grid.inv_cell, grid.shape)
    old_corners, corners = old_tris[rows].T, tris[rows].T
    old_xs, old_ys = old_verts[old_corners, 0], old_verts[old_corners, 1]
    xs, ys, zs = verts[corners, 0], verts[corners, 1], verts[corners, 2]
    was_usable = usable(old_xs, old_ys)
    old_boxes = corner_boxes(old_xs, old_ys)
    old_keys = _sort_keys(frame, old_boxes, rows, count)[was_usable]
    removed = np.searchsorted(before.order, old_keys)  # the changed triangles' numbers before
    if not np.array_equal(before.order[np.minimum(removed, len(before.order) - 1)], old_keys):
        return None  # ``before`` is not the build of ``old_verts, old_tris``
    same_xy = ((old_xs.view(np.uint64) == xs.view(np.uint64)) & (old_ys.view(np.uint64) == ys.view(np.uint64))
               ).all(axis=0)
    if same_xy.all():
        return _heights_only(before, removed, xs[:, was_usable], ys[:, was_usable], zs[:, was_usable])
    now_usable = usable(xs, ys)
    if int(np.count_nonzero(now_usable)) != int(np.count_nonzero(was_usable)) or not before.first_frame:
        return None  # the grid's cell size follows the usable triangles' count and the first frame's fit
    boxes = corner_boxes(xs, ys)
    lo, hi = before.bounds
    gone, came = _pick(old_boxes, was_usable), _pick(boxes, now_usable)
    # The outline stays where it was when no changed triangle made it before and none passes it now.
    if not ((gone[0] > lo[0]).all() and (gone[1] > lo[1]).all() and (gone[2] < hi[0]).all()
            and (gone[3] < hi[1]).all() and (came[0] >= lo[0]).all() and (came[1] >= lo[1]).all()
            and (came[2] <= hi[0]).all() and (came[3] <= hi[1]).all()):
        return None
    pairs = before.pairs - _covered(frame, gone) + _covered(frame, came)
    if not frame.fits(pairs, len(before.kept)):
        return None
    return _renumbered(before, frame, np.sort(removed), rows[now_usable], _sort_keys(frame, boxes, rows, count)[
        now_usable], came, xs[:, now_usable], ys[:, now_usable], zs[:, now_usable], pairs)


def _sort_keys(frame: GridFrame, boxes: Boxes, rows: NDArray[np.intp], count: int) -> NDArray[np.int64]:
    """The build's sort key of triangles ``rows`` with these boxes: first cell, then input index."""
    keys = frame.first_cells(boxes)
    keys *= count
    keys += rows
    return keys


def _pick(boxes: Boxes, which: NDArray[np.bool_] | NDArray[np.intp]) -> Boxes:
    return boxes[0][which], boxes[1][which], boxes[2][which], boxes[3][which]


def _covered(frame: GridFrame, boxes: Boxes) -> int:
    """How many cells the boxes cover in all (as :meth:`GridFrame.fit` counts them)."""
    _, _, width, height = frame.cell_ranges(boxes)
    return int(np.dot(width, height))


def _planes(xs: NDArray[np.float64], ys: NDArray[np.float64], zs: NDArray[np.float64]
            ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    count = xs.shape[1]
    bary, height, normal = np.empty((BARY_ROWS, count)), np.empty((count, HEIGHT_COLUMNS)), np.empty((count, 3))
    planes(xs, ys, zs, bary, height, normal)
    return bary, height, normal


def _heights_only(before: Built, slots: NDArray[np.intp], xs: NDArray[np.float64], ys: NDArray[np.float64],
                  zs: NDArray[np.float64]) -> Built:
    """Corners moved in height only: new height and normal rows ``slots``, everything else shared."""
    _, rows_height, rows_normal = _planes(xs, ys, zs)
    height, normal = before.height.copy(), before.normal.copy()
    height[slots] = rows_height
    normal[slots] = rows_normal
    return Built(before.kept, before.bary, height, normal, before.grid, before.bounds, before.order, before.pairs,
                 before.first_frame)


def _renumbered(before: Built, frame: GridFrame, removed: NDArray[np.intp], added: NDArray[np.intp],
                keys: NDArray[np.int64], boxes: Boxes, xs: NDArray[np.float64], ys: NDArray[np.float64],
                zs: NDArray[np.float64], pairs: int) -> Built:
    """The changed triangles (``removed``: their numbers before; ``added``: the usable ones now, with their sort
    ``keys``, boxes and corners) taken out of the numbering and the cell lists and put back where they belong."""
    by_key = np.argsort(keys, kind="stable")
    keys, added = keys[by_key], added[by_key]
    xs, ys, zs = xs[:, by_key], ys[:, by_key], zs[:, by_key]
    boxes = _pick(boxes, by_key)
    staying = np.delete(before.order, removed)
    at = np.searchsorted(staying, keys)
    order = np.insert(staying, at, keys)
    kept = np.insert(np.delete(before.kept, removed), at, added)
    slots = at + np.arange(len(at))  # the added triangles' numbers
    used = len(kept)
    left = np.zeros(used, dtype=bool)
    left[removed] = True
    arrived = np.zeros(used, dtype=bool)
    arrived[slots] = True
    renumber: NDArray[np.int64] | None = None
    if np.array_equal(removed, slots):  # every other triangle keeps its number
        bary, height, normal = before.bary.copy(), before.height.copy(), before.normal.copy()
    else:
        old, new = np.flatnonzero(~left), np.flatnonzero(~arrived)
        renumber = np.full(used, -1, dtype=np.int64)
        renumber[old] = new
        bary = np.empty_like(before.bary)
        bary[:, new] = before.bary[:, old]
        height, normal = np.empty_like(before.height), np.empty_like(before.normal)
        height[new] = before.height[old]
        normal[new] = before.normal[old]
    bary[:, slots], height[slots], normal[slots] = _planes(xs, ys, zs)
    cells = _cell_lists(before.grid.cells, frame, left, renumber, slots, boxes, xs, ys)
    grid = TriangleGrid(frame.origin, frame.inv_cell, frame.shape, cells)
    return Built(kept, bary, height, normal, grid, before.bounds, order, pairs, True)


def _cell_lists(lists: CellLists, frame: GridFrame, left: NDArray[np.bool_], renumber: NDArray[np.int64] | None,
                slots: NDArray[np.intp], boxes: Boxes, xs: NDArray[np.float64], ys: NDArray[np.float64]
                ) -> CellLists:
    """The cell lists without the triangles that ``left`` and with those at ``slots`` (boxes, corners) added; every
    cell's triangles ascending, as a build lists them."""
    used = len(left)
    cell_count = len(lists.starts) - 1
    counts = np.diff(lists.starts)
    entry_cell = np.repeat(np.arange(cell_count, dtype=np.int64), counts)
    stays = ~left[lists.items]
    counts -= np.bincount(entry_cell[~stays], minlength=cell_count)
    entry_cell, items = entry_cell[stays], lists.items[stays]
    if renumber is not None:
        items = renumber[items]
    cx0, cy0, width, height = frame.cell_ranges(boxes)
    collector = PairCollector(frame, len(slots))
    collector.add((cx0.astype(np.int32), cy0.astype(np.int32), width.astype(np.int32), height.astype(np.int32)),
                  xs, ys, 0)
    pair_cell, local = collector.pairs()
    pair_item = slots[local]
    # Both in (cell, number) order: the new pairs go in where they belong.
    new_keys = pair_cell * used + pair_item
    by_key = np.argsort(new_keys, kind="stable")
    at = np.searchsorted(entry_cell * used + items, new_keys[by_key])
    items = np.insert(items, at, pair_item[by_key])
    counts += np.bincount(pair_cell, minlength=cell_count)
    starts = np.zeros(cell_count + 1, dtype=np.int64)
    np.cumsum(counts, out=starts[1:])
    return CellLists(items, starts)
