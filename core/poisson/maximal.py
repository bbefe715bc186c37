"""Maximal Poisson-disk sampling: darts in time order on the background grid, then grid refinement.

The result has the distribution of sequential random adsorption run to saturation (each point uniform
over the places still free when it is placed). Darts come as a Poisson process in space and time over
the *live boxes* (boxes that may still hold a free place): every round throws a Poisson number of darts
into each live box (all boxes of a round have one size, so the darts are uniform over their union), in a
random time order, and a dart is kept exactly when it fits every point placed before it in time
(``darts.resolve_in_time_order``). Removing a box only removes places that are no longer free, so the
darts that can still be kept stay uniform over the free places.

1. Rounds on the background grid's cells (or, for a variable radius, on boxes of ``coarse x coarse``
   cells, about one max-radius point each, so the work follows the number of points).
2. Refinement (Ebeida et al. 2011/2012): every box still alive is split into four; a box dies when a single
   conflict disk holds all four of its corners (a disk is convex), when its cell already holds a point, or
   when it is masked out; one round of darts goes into the survivors; repeat with halved boxes until none
   survives (a constant radius without a mask: exact maximality, see docs/poisson.md) or, with a mask or a
   variable radius, until the surviving area is negligible.

All boxes of one level have the same size (the grid divides the rectangle exactly), so boxes are arrays of
lower-left corners plus their lower-left cell, and their side is a scalar.
"""

from __future__ import annotations

import numpy as np

from .cover import own_cover_reach, split_cover_reach
from .darts import resolve_in_time_order
from .placed import reach_index
from .prune import Boxes, Values, prune_boxes
from .state import SamplerState
from .throw import throw

LEVEL0_ROUNDS = 3
DARTS_PER_BOX = 0.5  # mean darts per live box in a round (fewer darts per round: fewer pairs to resolve)
DARTS_PER_COARSE_BOX = 2.0  # ... per box of several cells (a variable radius' first rounds)
MAX_LEVEL = 60
# With a mask or a variable radius, refinement stops at boxes this much smaller than a cell (a box's fate
# depends only on what is near it, so a local rule, not the live area left over the whole rectangle, keeps an
# edit's effect local).
APPROX_SIDE = 2.0**-12
# Radii that add up (objects' own sizes, drawn per place) leave slivers where only the smallest object fits; a place
# is free only where the object drawn *there* fits, which boxes this much smaller than a cell already resolve (no
# free place among a million probes on the benchmark layer) at a third of the finest level's work.
APPROX_SIDE_SUMMED = 2.0**-6
# Refinement stops if more boxes than this (per grid cell) are alive: only a mask or radius field that
# changes on a scale far below the cell size gets there (a constant radius keeps about one per cell).
BOX_BUDGET_PER_CELL = 8


def _take(boxes: Boxes, sel: np.ndarray) -> Boxes:
    return boxes[0][sel], boxes[1][sel], boxes[2][sel]


def _round(st: SamplerState, boxes: Boxes, bw: float, bh: float, cells: int, darts_per_box: float,
           round_no: int) -> None:
    """One round of dart throwing: darts uniform over the boxes (``darts_per_box`` per box on average), in a
    random time order; a dart is kept when it fits the points placed before it (``resolve_in_time_order``
    for the darts of this round), so the round equals throwing the darts one by one."""
    keys = boxes[2]
    # A Poisson process over the union of the boxes (a Poisson number per box, uniform in it), in a random
    # time order, all from hashes of the boxes' world positions (``throw``): a box's darts do not depend on
    # what happens elsewhere.
    x, y, box, time = throw(st, boxes, bw, bh, cells, darts_per_box, round_no)
    if cells > 1:  # a box of several cells may stick out of the rectangle: darts outside are misses
        sel = np.flatnonzero((x < st.w) & (y < st.h))
        x, y, time = x[sel], y[sel], time[sel]
        ids = st.cell_of(x, y)
    else:
        ids = keys[box]
        # Rounding may land a dart on the far edge of the rectangle: keep it inside [0, w) x [0, h).
        np.minimum(x, np.nextafter(st.w, 0.0), out=x)
        np.minimum(y, np.nextafter(st.h, 0.0), out=y)
    near2 = None
    if st.count == 0:  # nothing placed yet: no neighbour to test against
        near2 = np.full(x.size, np.inf) if st.variable else None
    elif st.variable and st.summed:
        # Radii add up: drop darts a placed point reaches for the least radius; the rest once radii are known.
        placed = reach_index(st)
        sel = np.flatnonzero(~(st.covered_nearest_near(x, y, ids)[0] if placed is None else placed.covers(
            x, y, 0.0, 0.0)))
        x, y, ids, time = x[sel], y[sel], ids[sel], time[sel]
    elif st.variable:
        # Near cells first: inside a placed disk, else the nearest distance for the radius. The far cells
        # (most of a wide window) are read below, only for darts that are allowed and fit the near points.
        covered, near2 = st.covered_nearest_near(x, y, ids)
        sel = np.flatnonzero(~covered)
        x, y, ids, time, near2 = x[sel], y[sel], ids[sel], time[sel], near2[sel]
    else:
        sel = np.flatnonzero(~st.own_conflicts(x, y, None, ids))
        x, y, ids, time = x[sel], y[sel], ids[sel], time[sel]
    if st.settings.is_allowed is not None and x.size:
        sel = np.flatnonzero(st.allowed(x, y))
        x, y, ids, time = x[sel], y[sel], ids[sel], time[sel]
        near2 = None if near2 is None else near2[sel]
    r = None
    if st.variable and st.summed and x.size:
        r = st.radius(x, y)
        if st.count:
            sel = np.flatnonzero(~_own_conflicts(st, x, y, r, ids))
            x, y, ids, time, r = x[sel], y[sel], ids[sel], time[sel], r[sel]
    elif near2 is not None and x.size:
        r = st.radius(x, y)
        sel = np.flatnonzero(r * r <= near2)  # conflict when closer than its own radius to any point
        x, y, ids, time, r = x[sel], y[sel], ids[sel], time[sel], r[sel]
        if st.count and st.far is not None and x.size:
            sel = np.flatnonzero(~st.far_conflicts(x, y, r, ids))
            x, y, ids, time, r = x[sel], y[sel], ids[sel], time[sel], r[sel]
    if st.blockers is not None and x.size:
        sel = np.flatnonzero(~st.blocked(x, y, r))
        x, y, ids, time = x[sel], y[sel], ids[sel], time[sel]
        r = None if r is None else r[sel]
    if x.size:
        sel = resolve_in_time_order(st, x, y, r, ids, time)
        st.insert(x[sel], y[sel], None if r is None else r[sel], ids[sel])


def _own_conflicts(st: SamplerState, x: np.ndarray, y: np.ndarray, r: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Whether darts of radius ``r`` conflict with placed points: small darts through the index of the placed
    points' reach (a few hash cells), large ones through the window of background cells."""
    placed = reach_index(st)
    if placed is None:
        return st.own_conflicts(x, y, r, ids)
    out = np.empty(x.size, dtype=bool)
    small = placed.near_enough(r)
    out[small] = placed.conflicts(x[small], y[small], r[small])
    large = np.flatnonzero(~small)
    out[large] = st.own_conflicts(x[large], y[large], r[large], ids[large])
    return out


def _reach_test(st: SamplerState, bw: float, bh: float) -> bool:
    """Whether boxes of this size get the variable-radius reach test of ``prune_boxes``. Boxes of a cell or more
    are skipped: they are hardly ever within reach everywhere (about 1-2% die that way on the benchmark),
    and the radius calls would cost more than the few darts they save; smaller boxes always get it. Radii that
    add up (objects' own sizes) need not vary smoothly: a box's corners bound nothing, so they never get it."""
    return st.variable and not st.summed and bw < 0.99 * st.sx and bh < 0.99 * st.sy


def _drop_covered(
    st: SamplerState, boxes: Boxes, bw: float, bh: float, cells: int
) -> tuple[Boxes, np.ndarray | None]:
    """Boxes not inside a placed point's own disk, and their reach (variable radius; see ``prune_boxes``)."""
    x0, y0, ids = boxes
    covered, reach2 = own_cover_reach(st,
        x0 + 0.5 * bw, y0 + 0.5 * bh, 0.5 * bw, 0.5 * bh, ids, cells, _reach_test(st, bw, bh)
    )
    sel = np.flatnonzero(~covered)
    return _take(boxes, sel), None if reach2 is None else reach2[sel]


def _split(st: SamplerState, boxes: Boxes, bw: float, bh: float, cells: int) -> Boxes:
    """The four children of every box (lower-left, lower-right, upper-left, upper-right)."""
    x0, y0, ids = boxes
    hx, hy = 0.5 * bw, 0.5 * bh
    step = cells // 2
    right, up = step, step * st.stride
    return (
        np.concatenate((x0, x0 + hx, x0, x0 + hx)),
        np.concatenate((y0, y0, y0 + hy, y0 + hy)),
        np.concatenate((ids, ids + right, ids + up, ids + right + up)),
    )


def fill_maximal(st: SamplerState) -> None:
    """Fill ``st`` with a maximal conflict-free set of points."""
    cells = st.coarse
    gx, gy = np.meshgrid(np.arange(0, st.cols, cells), np.arange(0, st.rows, cells))
    ix, iy = gx.ravel(), gy.ravel()
    bw, bh = st.sx * cells, st.sy * cells
    boxes: Boxes = (ix * st.sx, iy * st.sy, st.cell_ids(ix, iy))
    if st.blockers is not None:
        cx, cy = boxes[0] + 0.5 * bw, boxes[1] + 0.5 * bh
        boxes = _take(boxes, np.flatnonzero(~st.blocker_covers(cx, cy, 0.5 * bw, 0.5 * bh)))
    for sweep in range(LEVEL0_ROUNDS):
        if sweep:
            if cells == 1:
                boxes = _take(boxes, np.flatnonzero(st.slots[boxes[2]] < 0))
            boxes, reach2 = _drop_covered(st, boxes, bw, bh, cells)
            if st.variable and (st.blockers is not None or reach2 is not None or reach_index(st) is not None):
                boxes = prune_boxes(st, boxes, bw, bh, cells, False, reach2)[0]
        _round(st, boxes, bw, bh, cells, DARTS_PER_BOX if cells == 1 else DARTS_PER_COARSE_BOX, sweep)

    masked = st.settings.is_allowed is not None
    exact = not masked and not st.variable
    smallest = 0.0 if exact else (APPROX_SIDE_SUMMED if st.summed else APPROX_SIDE) * min(st.sx, st.sy)
    if cells == 1:
        boxes = _take(boxes, np.flatnonzero(st.slots[boxes[2]] < 0))
    box_budget = BOX_BUDGET_PER_CELL * st.cols * st.rows + 100_000
    # Boxes stay several float steps wide: below that, corners and darts would round onto each other.
    resolution = 64.0 * float(np.spacing(max(st.w, st.h)))
    level = 0
    centre: Values | None = None  # mask and radius at each box's centre, where the last prune asked
    while boxes[0].size and level < MAX_LEVEL and min(bw, bh) > max(2.0 * resolution, smallest):
        level += 1
        if cells > 1:
            covered, reach = split_cover_reach(st, *boxes, bw, bh, _reach_test(st, 0.5 * bw, 0.5 * bh), cells)
            boxes = _split(st, boxes, bw, bh, cells)
            bw, bh, cells = 0.5 * bw, 0.5 * bh, cells // 2
            ix, iy = st.cell_xy(boxes[2])  # by cell, not by coordinate: rounding must not keep a box outside
            keep = ~covered.ravel() & (ix < st.cols) & (iy < st.rows)
            if cells == 1:
                keep &= st.slots[boxes[2]] < 0
            sel = np.flatnonzero(keep)
        else:
            x0, y0, ids = boxes
            covered, reach = split_cover_reach(st, x0, y0, ids, bw, bh, _reach_test(st, 0.5 * bw, 0.5 * bh))
            bw, bh = 0.5 * bw, 0.5 * bh
            boxes = (
                np.concatenate((x0, x0 + bw, x0, x0 + bw)),
                np.concatenate((y0, y0, y0 + bh, y0 + bh)),
                np.tile(ids, 4),
            )
            sel = np.flatnonzero(~covered.ravel())
        boxes, reach2 = _take(boxes, sel), None if reach is None else reach.ravel()[sel]
        # A parent's centre is a corner of each of its children (children in quadrant order: tile by 4).
        hint = None if centre is None else (np.tile(centre[0], 4)[sel], np.tile(centre[1], 4)[sel])
        boxes, centre = prune_boxes(st, boxes, bw, bh, cells, masked, reach2, hint)
        if boxes[0].size > box_budget:
            break  # a mask/radius too rough to resolve (e.g. white noise)
        _round(st, boxes, bw, bh, cells, DARTS_PER_BOX if cells == 1 else DARTS_PER_COARSE_BOX,
               LEVEL0_ROUNDS + level)
        if cells == 1:
            sel = np.flatnonzero(st.slots[boxes[2]] < 0)
            boxes, centre = _take(boxes, sel), None if centre is None else (centre[0][sel], centre[1][sel])
