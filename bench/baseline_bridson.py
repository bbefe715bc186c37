"""A straight pure-Python Bridson sampler, as the algorithm is usually taught (Bridson 2007).

Reference baseline for ``bench_poisson`` only (not part of the package): one point at a time, a grid of
cells ``r / sqrt(2)`` holding a point index (-1 = empty), a 5x5 window, ``k`` candidates uniform by area in
the ring ``r..2r`` around a random active point, swap-remove of exhausted active points.
"""

from __future__ import annotations

import math
import random


def bridson(
    width: float, height: float, radius: float, seed: int, attempts: int = 30
) -> list[tuple[float, float]]:
    rng = random.Random(seed)
    cell = radius / math.sqrt(2.0)
    grid_w, grid_h = math.ceil(width / cell), math.ceil(height / cell)
    grid = [-1] * (grid_w * grid_h)
    points: list[tuple[float, float]] = []
    active: list[int] = []
    r2 = radius * radius

    def add(p: tuple[float, float]) -> None:
        points.append(p)
        active.append(len(points) - 1)
        grid[int(p[1] / cell) * grid_w + int(p[0] / cell)] = len(points) - 1

    def is_valid(px: float, py: float) -> bool:
        if px < 0.0 or py < 0.0 or px >= width or py >= height:
            return False
        cx, cy = int(px / cell), int(py / cell)
        for y in range(max(cy - 2, 0), min(cy + 2, grid_h - 1) + 1):
            row = y * grid_w
            for x in range(max(cx - 2, 0), min(cx + 2, grid_w - 1) + 1):
                other = grid[row + x]
                if other != -1:
                    qx, qy = points[other]
                    if (qx - px) ** 2 + (qy - py) ** 2 < r2:
                        return False
        return True

    add((rng.random() * width, rng.random() * height))
    while active:
        index = rng.randrange(len(active))
        cx, cy = points[active[index]]
        for _ in range(attempts):
            angle = rng.random() * 2.0 * math.pi
            dist = math.sqrt(r2 + (4.0 * r2 - r2) * rng.random())  # uniform by area in the ring
            px, py = cx + math.cos(angle) * dist, cy + math.sin(angle) * dist
            if is_valid(px, py):
                add((px, py))
                break
        else:
            active[index] = active[-1]
            active.pop()
    return points
