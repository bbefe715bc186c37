"""Brute-force checks for WFC grids: plain Python loops over every cell, written apart from the solver."""

from __future__ import annotations

import itertools
from collections import deque

import numpy as np

STEPS = {"e": (1, 0, 0), "n": (0, 1, 0), "up": (0, 0, 1)}


def neighbours(shape, cell, direction, periodic):
    step = STEPS[direction]
    out = []
    for axis, size in enumerate(shape):
        value = cell[axis] + step[axis]
        wrap = periodic[axis] if isinstance(periodic, tuple) else (periodic and axis < 2)
        if wrap:
            value %= size
        elif not 0 <= value < size:
            return None
        out.append(value)
    return tuple(out)


def adjacency_errors(grid, ok, periodic=False) -> list:
    """``ok(direction, a, b)`` decides whether b may stand next to a in direction e / n / up."""
    grid = np.asarray(grid)
    errors = []
    directions = ("e", "n", "up")[: grid.ndim]
    for cell in itertools.product(*(range(s) for s in grid.shape)):
        for direction in directions:
            other = neighbours(grid.shape, cell, direction, periodic)
            if other is not None and not ok(direction, int(grid[cell]), int(grid[other])):
                errors.append((cell, direction))
    return errors


def rules_ok(rules):
    return lambda d, a, b: bool(rules.allowed[d][a, b])


def walkable_regions(grid, walkable, passable, periodic=False) -> int:
    """Number of regions of walkable cells (BFS); ``passable(variant, side)``: that side lets you through."""
    grid = np.asarray(grid)
    opposite = {"e": "w", "n": "s", "up": "down"}
    seen = set()
    regions = 0
    cells = [c for c in itertools.product(*(range(s) for s in grid.shape)) if walkable[int(grid[c])]]
    links = {c: [] for c in cells}
    for cell in cells:
        for direction in ("e", "n", "up")[: grid.ndim]:
            other = neighbours(grid.shape, cell, direction, periodic)
            if other is None or other not in links:
                continue
            if passable(int(grid[cell]), direction) and passable(int(grid[other]), opposite[direction]):
                links[cell].append(other)
                links[other].append(cell)
    for start in cells:
        if start in seen:
            continue
        regions += 1
        queue = deque([start])
        seen.add(start)
        while queue:
            for nxt in links[queue.popleft()]:
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
    return regions
