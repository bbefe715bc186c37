"""Rings around circles seen from above: the gap from a place to the nearest of a set of circles, edge to edge, a
mask that keeps a place within a ring ``[near, far]`` of them, and a density that falls off across the ring.

A layer placed *Around* another one uses these: the circles are the other layer's instances (their footprints, or
radius 0), and a place's own circle is the footprint an instance drawn there would take (or 0).

>>> import numpy as np
>>> trees = CircleGaps(np.array([[0.0, 0.0], [10.0, 0.0]]), np.array([1.0, 0.0]), reach=3.0)
>>> trees.gaps(np.array([[2.5, 0.0], [10.0, 2.0], [5.0, 5.0]])).tolist()
[1.5, 2.0, inf]
>>> RingMask(trees, near=1.0, far=2.0)(np.array([[2.5, 0.0], [1.5, 0.0], [5.0, 5.0]])).tolist()
[True, False, False]
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .._grid import expand_ranges
from ..inputs import as_xy
from .field import Field
from .mask import Mask

Footprint = Callable[[NDArray[np.float64]], NDArray[np.float64]]
"""The radius of the circle a place's own instance would take (an array function over xy)."""


class CircleGaps:
    """Circles (``centres`` (N, 2), ``radii`` (N,) ≥ 0) hashed on a grid, for the gap from places to the nearest
    circle's edge up to ``reach`` (a place's own radius, at most ``largest_own``, is taken off too).

    A gap beyond ``reach`` (or with no circle at all) is ``inf``; within it, the exact ``min_j |p - c_j| - r_j -
    own``, computed element by element (the same bits on every machine).
    """

    def __init__(self, centres: Any, radii: Any, reach: float, largest_own: float = 0.0) -> None:
        centres = np.asarray(centres, dtype=np.float64).reshape(-1, 2)
        radii = np.asarray(radii, dtype=np.float64).reshape(-1)
        if len(radii) != len(centres):
            raise ValueError(f"circles: {len(centres)} centres but {len(radii)} radii")
        if not (np.isfinite(centres).all() and np.isfinite(radii).all() and (radii >= 0).all()):
            raise ValueError("circles: centres and radii must be finite, radii ≥ 0")
        if not (math.isfinite(reach) and reach >= 0 and math.isfinite(largest_own) and largest_own >= 0):
            raise ValueError(f"circles: reach and largest_own must be finite and ≥ 0, got {reach}, {largest_own}")
        self.centres, self.radii = centres, radii
        self.reach, self.largest_own = float(reach), float(largest_own)
        # A circle within reach of a place lies in the place's cell or one next to it: each circle is listed in the
        # nine cells around its own, so a place looks in its own cell only.
        largest = float(radii.max()) if len(radii) else 0.0
        self.cell = max(self.reach + self.largest_own + largest, 1e-9)
        self.origin = centres.min(axis=0) - self.cell if len(centres) else np.zeros(2)
        cells = np.floor((centres - self.origin) / self.cell).astype(np.int64)
        self.rows = int(cells[:, 1].max()) + 2 if len(cells) else 1
        self.columns = int(cells[:, 0].max()) + 2 if len(cells) else 1
        shifts = np.array([(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)], dtype=np.int64)
        around = (cells[:, None, :] + shifts[None, :, :]).reshape(-1, 2)
        keys = around[:, 0] * self.rows + around[:, 1]
        order = np.argsort(keys, kind="stable")
        self.items = (np.arange(len(around)) // len(shifts))[order]
        ordered = keys[order]
        first = np.ones(len(ordered), dtype=bool)
        first[1:] = ordered[1:] != ordered[:-1]
        self.keys = ordered[first]
        self.starts = np.append(np.flatnonzero(first), len(ordered))

    def bounds(self) -> tuple[tuple[float, float], tuple[float, float]] | None:
        """The XY rectangle holding every place with a circle within reach, or None without circles."""
        if not len(self.radii):
            return None
        grow = self.reach + self.largest_own + self.radii
        low, high = self.centres - grow[:, None], self.centres + grow[:, None]
        return ((float(low[:, 0].min()), float(low[:, 1].min())), (float(high[:, 0].max()), float(high[:, 1].max())))

    def reaches(self, low: Any, high: Any) -> bool:
        """Whether a place in the rectangle ``[low, high]`` may have a circle within reach."""
        if not len(self.radii):
            return False
        grow = (self.reach + self.largest_own + self.radii) * (1.0 + 1e-9) + 1e-9
        lo, hi = np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)
        near = ((self.centres + grow[:, None] >= lo) & (self.centres - grow[:, None] <= hi)).all(axis=1)
        return bool(near.any())

    def gaps(self, xy: Any, own: Any = None) -> NDArray[np.float64]:
        """Per place, the gap from its own circle (radius ``own``, default 0) to the nearest circle's edge; inf
        beyond ``reach``."""
        xy = as_xy(xy)
        best = np.full(len(xy), np.inf)
        if not len(self.keys) or not len(xy):
            return best
        cells = np.floor((xy - self.origin) / self.cell)
        inside = ((cells >= 0) & (cells < (self.columns, self.rows))).all(axis=1)
        places = np.flatnonzero(inside)
        keys = cells[places, 0].astype(np.int64) * self.rows + cells[places, 1].astype(np.int64)
        slot = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        listed = self.keys[slot] == keys
        places, slot = places[listed], slot[listed]
        counts = self.starts[slot + 1] - self.starts[slot]  # ≥ 1 for every listed cell
        owner, local = expand_ranges(counts)
        if len(owner):
            item = self.items[self.starts[slot[owner]] + local]
            delta = xy[places[owner]] - self.centres[item]
            gap = np.sqrt(delta[:, 0] * delta[:, 0] + delta[:, 1] * delta[:, 1]) - self.radii[item]
            best[places] = np.minimum.reduceat(gap, np.cumsum(counts) - counts)  # each place's run, in order
        if own is not None:
            best = best - np.asarray(own, dtype=np.float64).reshape(len(xy))
        best[best > self.reach] = np.inf
        return best


class RingMask(Mask):
    """True where the gap to the nearest circle lies in ``[near, far]`` (``own_at``: each place's own radius)."""

    def __init__(self, circles: CircleGaps, near: float, far: float, own_at: Footprint | None = None) -> None:
        if not (math.isfinite(near) and math.isfinite(far) and 0.0 <= near <= far):
            raise ValueError(f"ring needs 0 ≤ near ≤ far, got near={near}, far={far}")
        self.circles, self.near, self.far, self.own_at = circles, float(near), float(far), own_at

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        gap = self.circles.gaps(xy, None if self.own_at is None else self.own_at(xy))
        return (gap >= self.near) & (gap <= self.far)

    def empty_in(self, low: NDArray[np.float64], high: NDArray[np.float64]) -> bool:
        """No circle reaches the rectangle (its reach square, grown by a hair for rounding, misses it)."""
        return not self.circles.reaches(low, high)


class RingFalloff(Field):
    """Density 1 at the ring's inner edge falling linearly to 0 at its outer edge (0 outside the ring)."""

    def __init__(self, circles: CircleGaps, near: float, far: float, own_at: Footprint | None = None) -> None:
        self.ring = RingMask(circles, near, far, own_at)

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        ring = self.ring
        gap = ring.circles.gaps(xy, None if ring.own_at is None else ring.own_at(xy))
        width = ring.far - ring.near
        if width <= 0:
            return np.where(gap == ring.near, 1.0, 0.0)
        out = 1.0 - (gap - ring.near) / width
        out[~np.isfinite(gap)] = 0.0
        return np.clip(out, 0.0, 1.0)
