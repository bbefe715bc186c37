"""Cell lists of a uniform grid (CSR): which items touch which cell, and the items a query's cell holds.

The one spatial-grid helper of core: the terrain's triangles, polyline segments, polygon edges and the
sampler's blocker disks are all binned with :class:`CellLists` and queried with
:meth:`CellLists.candidates`, which expands (query, item) pairs with ``np.repeat`` instead of looping.
"""

from __future__ import annotations

from typing import TypeVar, cast

import numpy as np
from numpy.typing import NDArray

IntArray = TypeVar("IntArray", bound=NDArray[np.integer])


def expand_ranges(counts: NDArray[np.integer]) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """For runs of the given lengths: (run index, position inside the run) of every item, run after run.

    >>> owner, local = expand_ranges(np.array([2, 0, 3]))
    >>> owner.tolist(), local.tolist()
    ([0, 0, 2, 2, 2], [0, 1, 0, 1, 2])
    """
    owner = np.repeat(np.arange(len(counts)), counts)
    local = np.arange(len(owner)) - np.repeat(np.cumsum(counts) - counts, counts)
    return owner, local


def distinct_sorted(ordered: IntArray) -> IntArray:
    """The distinct values of an ascending array (``np.unique`` without its first call's import of ``numpy.ma``:
    tens of milliseconds in a fresh process).

    >>> distinct_sorted(np.array([1, 1, 2, 5, 5])).tolist()
    [1, 2, 5]
    """
    if len(ordered) < 2:
        return ordered
    first = np.empty(len(ordered), dtype=bool)
    first[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    return cast(IntArray, ordered[first])  # indexing keeps the dtype


def stable_order(keys: NDArray[np.integer]) -> NDArray[np.intp]:
    """``np.argsort(keys, kind="stable")`` for non-negative keys: a two-pass 16-bit radix sort below 2**32.

    numpy sorts 16-bit keys stably with a radix sort, several times faster than its stable sort of
    64-bit keys on the millions of (cell, item) pairs of a large terrain.

    >>> stable_order(np.array([70000, 3, 70000, 0])).tolist()
    [3, 1, 0, 2]
    """
    if len(keys) == 0 or int(np.max(keys)) < (1 << 16):
        return np.argsort(keys.astype(np.uint16), kind="stable")
    if int(np.max(keys)) >= (1 << 32):
        return np.argsort(keys, kind="stable")
    first = np.argsort((keys & 0xFFFF).astype(np.uint16), kind="stable")
    second = np.argsort((keys >> 16).astype(np.uint16)[first], kind="stable")
    return first[second]


class CellLists:
    """The items of every cell of a grid with ``cell_count`` cells, stored CSR-style.

    The items of cell ``k`` are ``items[starts[k]:starts[k + 1]]``, in the order the (item, cell) pairs
    were given.

    >>> lists = CellLists.from_pairs(np.array([0, 0, 1]), np.array([1, 2, 1]), cell_count=3)
    >>> owner, item = lists.candidates(np.array([1, 0, 2]))
    >>> owner.tolist(), item.tolist()
    ([0, 0, 2], [0, 1, 0])
    """

    def __init__(self, items: NDArray[np.integer], starts: NDArray[np.int64]) -> None:
        self.items = items
        self.starts = starts

    @classmethod
    def from_pairs(cls, item: NDArray[np.integer], cell: NDArray[np.integer], cell_count: int) -> CellLists:
        """Cell lists from (item, cell) pairs; each cell lists its items in the order of the pairs."""
        starts = np.zeros(cell_count + 1, dtype=np.int64)
        np.cumsum(np.bincount(cell, minlength=cell_count), out=starts[1:])
        return cls(item[stable_order(cell)], starts)

    @classmethod
    def from_boxes(cls, c0: NDArray[np.int64], c1: NDArray[np.int64], shape: NDArray[np.int64]) -> CellLists:
        """Cell lists of items covering the cell ranges ``c0 .. c1`` (inclusive, (N, 2) column/row).

        Cell ``k = row * shape[0] + column``.

        >>> lists = CellLists.from_boxes(np.array([[0, 0], [1, 0]]), np.array([[1, 0], [1, 1]]), np.array([2, 2]))
        >>> [lists.items[lists.starts[k]:lists.starts[k + 1]].tolist() for k in range(4)]
        [[0], [0, 1], [], [1]]
        """
        widths = c1 - c0 + 1
        item, local = expand_ranges(widths[:, 0] * widths[:, 1])
        cx = c0[item, 0] + local % widths[item, 0]
        cy = c0[item, 1] + local // widths[item, 0]
        return cls.from_pairs(item, cy * shape[0] + cx, int(shape.prod()))

    def candidates(
        self, cells: NDArray[np.integer], inside: NDArray[np.bool_] | None = None
    ) -> tuple[NDArray[np.intp], NDArray[np.integer]]:
        """(query, item) pairs: every item listed in each query's cell, query after query.

        ``inside`` (optional) marks the queries that have a cell; the others get no pairs.
        """
        start = np.take(self.starts, cells)
        count = np.take(self.starts[1:], cells)
        count -= start
        if inside is not None:
            count *= inside
        owner = np.repeat(np.arange(len(cells)), count)
        start -= np.cumsum(count) - count
        entry = np.repeat(start, count)
        entry += np.arange(len(entry))
        return owner, np.take(self.items, entry)
