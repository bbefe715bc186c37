"""3-D spatial hashing: cubic cells folded onto a power-of-two table of buckets, listed with ``CellLists``.

Two cells may share a bucket; a query then sees a few extra candidates that its exact distance test rejects,
so the folding changes the work, never a result. The table needs memory for the buckets only, not for the
bounding box, so a thin surface in a large box costs no more than a flat one.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from .._grid import CellLists, expand_ranges

_PRIMES = np.array([73856093, 19349663, 83492791], dtype=np.int64)
MIN_BUCKETS = 1 << 10
MAX_BUCKETS = 1 << 23


def table_size(items: float) -> int:
    """A power of two with about two buckets per item, within ``[MIN_BUCKETS, MAX_BUCKETS]``."""
    wanted = min(max(2.0 * items, MIN_BUCKETS), MAX_BUCKETS)
    return 1 << (math.ceil(wanted) - 1).bit_length()  # the smallest power of two >= wanted


def cells_of(xyz: NDArray[np.float64], side: float) -> NDArray[np.int64]:
    """Integer cell coordinates (M, 3) of points (M, 3) on a grid of cubes of the given side."""
    return np.floor(xyz / side).astype(np.int64)


def bucket_of(cells: NDArray[np.int64], size: int) -> NDArray[np.int64]:
    """Bucket of every cell (..., 3) in a table of ``size`` (a power of two) buckets."""
    mixed = cells * _PRIMES
    return (mixed[..., 0] ^ mixed[..., 1] ^ mixed[..., 2]) & (size - 1)


def neighbour_buckets(cells: NDArray[np.int64], size: int) -> NDArray[np.int64]:
    """Buckets (M, 27) of the 27 cells around each cell (M, 3): the same as ``bucket_of`` on every
    neighbour, with the products taken per axis (9 instead of 81 per cell)."""
    step = np.array([-1, 0, 1], dtype=np.int64)
    x, y, z = ((cells[:, k, None] + step) * _PRIMES[k] for k in range(3))
    mixed = x[:, :, None, None] ^ y[:, None, :, None] ^ z[:, None, None, :]
    return mixed.reshape(len(cells), 27) & (size - 1)


def _candidates(lists: CellLists, buckets: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """(query row, item) for every item listed in the buckets of each row of ``buckets`` (M, K)."""
    slot, item = lists.candidates(buckets.ravel())
    return slot // buckets.shape[1], item.astype(np.int64)


class PointHash:
    """Points hashed by their own cell; a query visits the 27 cells around its own: a point closer than one
    cell side lies in one of them."""

    def __init__(self, positions: NDArray[np.float64], side: float, size: int) -> None:
        self.side, self.size = side, size
        buckets = bucket_of(cells_of(positions, side), size)
        self.table = CellLists.from_pairs(np.arange(len(positions), dtype=np.int64), buckets, size)

    def near(self, xyz: NDArray[np.float64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """(query, point) pairs that include every point closer than one cell side to its query."""
        return _candidates(self.table, neighbour_buckets(cells_of(xyz, self.side), self.size))


class ReachHash:
    """Balls listed in every cell their reach cube overlaps; a query visits its own cell only.

    A ball of radius ``r`` reaches ``max(r, floor)``, ``floor`` the largest radius a query can carry (with
    ``summed``, radii that add up: ``r + floor``). Suited to blockers, whose radii may be much larger than the
    sampler's: the cell side follows the typical reach, and a ball is listed in at most ``(2 * MAX_SPAN + 2) ** 3``
    cells.
    """

    MAX_SPAN = 8

    def __init__(
        self, positions: NDArray[np.float64], radius: NDArray[np.float64], floor: float, summed: bool = False
    ) -> None:
        reach = radius + floor if summed else np.maximum(radius, floor)
        self.side = max(floor, float(np.median(reach)), float(np.max(reach)) / self.MAX_SPAN)
        lo = cells_of(positions - reach[:, None], self.side)
        span = cells_of(positions + reach[:, None], self.side) - lo + 1
        ball, local = expand_ranges(span.prod(axis=1))
        sx, sy = span[ball, 0], span[ball, 1]
        offset = np.stack((local % sx, (local // sx) % sy, local // (sx * sy)), axis=1)
        self.size = table_size(len(ball))
        self.table = CellLists.from_pairs(ball.astype(np.int64), bucket_of(lo[ball] + offset, self.size), self.size)

    def near(self, xyz: NDArray[np.float64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """(query, ball) pairs that include every ball whose reach contains its query."""
        return _candidates(self.table, bucket_of(cells_of(xyz, self.side), self.size)[:, None])


class SizedHash:
    """Points whose radii span ``least .. largest``, by size class: a class holds radii up to ``FACTOR`` times its
    least (at most ``MAX_CLASSES`` classes), hashed on cells of its largest radius plus the reach a query needs.

    With radii that add up, a query among many small points and a few large ones then sees the few that can reach
    it, not every point within twice the largest radius.
    """

    FACTOR = 2.0
    MAX_CLASSES = 6

    def __init__(
        self, positions: NDArray[np.float64], radii: NDArray[np.float64], least: float, largest: float
    ) -> None:
        factor = max(self.FACTOR, (largest / least) ** (1.0 / self.MAX_CLASSES))
        count = max(1, min(self.MAX_CLASSES, math.ceil(math.log(largest / least) / math.log(factor) - 1e-9)))
        tops = least * factor ** np.arange(1, count + 1, dtype=np.float64)
        tops[-1] = largest  # every radius up to the largest has a class, whatever the rounding above
        size_class = np.minimum(np.searchsorted(tops, radii, side="left"), count - 1)
        self.positions = positions
        self.tops = [float(top) for top in tops]
        self.members = [np.flatnonzero(size_class == k) for k in range(count)]
        self._hashes: dict[tuple[int, float], PointHash] = {}

    def _hash(self, k: int, extra: float) -> PointHash:
        """Class ``k`` on cells of its largest radius plus ``extra`` (built once)."""
        key = (k, extra)
        if key not in self._hashes:
            members = self.members[k]
            self._hashes[key] = PointHash(self.positions[members], self.tops[k] + extra, table_size(members.size))
        return self._hashes[key]

    def near(
        self, xyz: NDArray[np.float64], radius: float | NDArray[np.float64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """(query, point) pairs that include every point closer to its query than the two radii added up: the
        queries' ``radius`` (one for all, or one each, at most ``largest``)."""
        queries, points = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
        if isinstance(radius, float):
            groups = [(np.arange(len(xyz)), radius)]
        else:  # each query by its own class, on cells of that class' largest radius plus the point class'
            size_class = np.minimum(np.searchsorted(self.tops, radius, side="left"), len(self.tops) - 1)
            groups = [(np.flatnonzero(size_class == a), top) for a, top in enumerate(self.tops)]
        for asking, reach in groups:
            for k, members in enumerate(self.members):
                if asking.size and members.size:
                    query, item = self._hash(k, reach).near(xyz[asking])
                    queries.append(asking[query])
                    points.append(members[item])
        return np.concatenate(queries), np.concatenate(points)

    def close_pairs(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Pairs ``(i, j)`` of the points, each once, that include every pair closer than the sum of their radii:
        a class asks its own and every larger class, on cells of the two classes' largest radii added up."""
        firsts, seconds = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
        for a, asking in enumerate(self.members):
            if not asking.size:
                continue
            for b in range(a, len(self.members)):
                if not self.members[b].size:
                    continue
                query, item = self._hash(b, self.tops[a]).near(self.positions[asking])
                i, j = asking[query], self.members[b][item]
                if a == b:  # found from both ends: keep one
                    keep = i < j
                    i, j = i[keep], j[keep]
                firsts.append(i)
                seconds.append(j)
        return np.concatenate(firsts), np.concatenate(seconds)
