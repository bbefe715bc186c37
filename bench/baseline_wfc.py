"""The classic WFC, straight in pure Python: the reference our solver is measured against.

Boolean domains per cell, the cell with the smallest domain (>= 2) is collapsed by a weighted draw,
constraints propagate through a queue, a contradiction restarts from scratch (up to 20 attempts).
No numpy, no backtracking — exactly the loop of the seed text, on explicit adjacency matrices.
"""

from __future__ import annotations

import random
from collections import deque

DIRS = ((1, 0), (0, 1), (-1, 0), (0, -1))  # e, n, w, s


def solve_baseline(weights, allowed_e, allowed_n, width, height, seed=0, periodic=False, attempts=20):
    """``allowed_e[a][b]``: b may stand east of a. Returns grid[x][y] or None after ``attempts`` failures."""
    count = len(weights)
    # compat[d][a] = tiles allowed next to a in direction d
    compat = [
        [[b for b in range(count) if allowed_e[a][b]] for a in range(count)],
        [[b for b in range(count) if allowed_n[a][b]] for a in range(count)],
        [[b for b in range(count) if allowed_e[b][a]] for a in range(count)],
        [[b for b in range(count) if allowed_n[b][a]] for a in range(count)],
    ]
    rng = random.Random(seed)
    for _ in range(attempts):
        grid = _attempt(weights, compat, width, height, periodic, rng)
        if grid is not None:
            return grid
    return None


def _neighbour(x, y, d, width, height, periodic):
    nx, ny = x + DIRS[d][0], y + DIRS[d][1]
    if periodic:
        return nx % width, ny % height
    if 0 <= nx < width and 0 <= ny < height:
        return nx, ny
    return None


def _attempt(weights, compat, width, height, periodic, rng):
    count = len(weights)
    domain = [[[True] * count for _ in range(height)] for _ in range(width)]
    while True:
        best, bx, by = count + 1, -1, -1
        for x in range(width):
            for y in range(height):
                c = sum(domain[x][y])
                if c == 0:
                    return None
                if 1 < c < best:
                    best, bx, by = c, x, y
        if bx < 0:
            return [[domain[x][y].index(True) for y in range(height)] for x in range(width)]
        cell = domain[bx][by]
        total = sum(weights[t] for t in range(count) if cell[t])
        r = rng.random() * total
        chosen = -1
        for t in range(count):
            if cell[t]:
                chosen = t
                r -= weights[t]
                if r <= 0:
                    break
        domain[bx][by] = [t == chosen for t in range(count)]
        if not _propagate(domain, compat, bx, by, width, height, periodic):
            return None


def _propagate(domain, compat, sx, sy, width, height, periodic):
    count = len(domain[0][0])
    queue = deque([(sx, sy)])
    while queue:
        x, y = queue.popleft()
        for d in range(4):
            nb = _neighbour(x, y, d, width, height, periodic)
            if nb is None:
                continue
            nx, ny = nb
            possible = [False] * count
            for t in range(count):
                if domain[x][y][t]:
                    for b in compat[d][t]:
                        possible[b] = True
            changed = False
            target = domain[nx][ny]
            for t in range(count):
                if target[t] and not possible[t]:
                    target[t] = False
                    changed = True
            if changed:
                if not any(target):
                    return False
                queue.append((nx, ny))
    return True
