"""Compressed cell lists: which items (segments, edges, triangles) touch which grid cell, for array lookups."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


def expand_ranges(counts: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """For runs of the given lengths: (run index, position inside the run) of every item, run after run.

    >>> owner, local = expand_ranges(np.array([2, 0, 3]))
    >>> owner.tolist(), local.tolist()
    ([0, 0, 2, 2, 2], [0, 1, 0, 1, 2])
    """
    owner = np.repeat(np.arange(len(counts)), counts)
    local = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    return owner, local


def bin_boxes(
    c0: NDArray[np.int64], c1: NDArray[np.int64], shape: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Cell lists of items covering the cell ranges ``c0 .. c1`` (inclusive, (N, 2) column/row) of a grid.

    Returns ``(items, starts)``: the items of cell ``k = row * shape[0] + column`` are
    ``items[starts[k]:starts[k + 1]]``, in item order.

    >>> items, starts = bin_boxes(np.array([[0, 0], [1, 0]]), np.array([[1, 0], [1, 1]]), np.array([2, 2]))
    >>> [items[starts[k]:starts[k + 1]].tolist() for k in range(4)]
    [[0], [0, 1], [], [1]]
    """
    widths = c1 - c0 + 1
    item, local = expand_ranges(widths[:, 0] * widths[:, 1])
    cx = c0[item, 0] + local % widths[item, 0]
    cy = c0[item, 1] + local // widths[item, 0]
    cell = cy * shape[0] + cx
    order = np.argsort(cell, kind="stable")
    starts = np.zeros(int(shape.prod()) + 1, dtype=np.int64)
    np.cumsum(np.bincount(cell, minlength=int(shape.prod())), out=starts[1:])
    return item[order], starts
