"""What a sampling job will cost, estimated from its settings before anything is allocated.

The sampler's memory is per cell of its background grid (cells of ``min_radius / sqrt(2)``, two per
``min_radius**2``, plus a border of neighbour-window width), and its time is per cell plus, where the radius
varies, per cell of the neighbour window that reaches ``max_radius``. A job's *load* counts both in
point-equivalents (one per ``min_radius**2`` of grid), so ``max_points`` bounds memory and time alike.
"""

from __future__ import annotations

import math
from typing import cast

from ..budget import size_text
from .settings import PoissonSettings, distances, varies
from .state import grid_layout

# Peak memory per point-equivalent, measured with tracemalloc on 200 x 200 and 400 x 400, r = 1: 330-380 B.
BYTES_PER_POINT = 400
# Window cells that cost about as much as one point-equivalent (the costliest of timed radius ratios 3-60).
WINDOW_WORK = 300.0
MAX_WINDOW = 1e6  # cells of the neighbour window's half width beyond which a job is refused outright


def job_load(settings: PoissonSettings) -> tuple[float, float]:
    """``(grid, load)`` of a validated job in point-equivalents: the background grid (memory) and the grid
    weighted by the neighbour window where the radius varies (time); ``inf`` when beyond any grid."""
    w, h = (float(v) for v in settings.size)
    closest, farthest = distances(settings)
    side = closest / math.sqrt(2.0)
    cols, rows = max(1.0, w / side), max(1.0, h / side)
    if not cols * rows < 2.0 * settings.max_points:  # also inf / nan: refuse before building a layout
        return cols * rows / 2.0, cols * rows / 2.0
    variable = varies(settings)
    if farthest / side > MAX_WINDOW:  # the window alone is beyond any budget (and any integer arithmetic)
        return cols * rows / 2.0, math.inf
    layout = grid_layout(w, h, closest, farthest, variable, bool(settings.tileable))
    grid = float(layout.cols + 2 * layout.pad) * float(layout.rows + 2 * layout.pad) / 2.0
    window = float(layout.window)
    window_cells = min((2.0 * window + 1.0) * (2.0 * window + 1.0), math.pi * (window + 1.0) * (window + 1.0))
    return grid, grid * (1.0 + (window_cells / WINDOW_WORK if variable else 0.0))


def check_budget(settings: PoissonSettings) -> None:
    """Refuse (``ValueError`` saying what to change) a validated job whose load exceeds ``max_points``."""
    grid, load = job_load(settings)
    if load <= settings.max_points:
        return
    w, h = (float(v) for v in settings.size)
    min_radius = float(settings.min_radius)
    points = (w / min_radius) * (h / min_radius)
    what = f"about {points:,.0f} points (size {w:g} x {h:g} / min_radius {min_radius:g}^2)"
    fixes = "raise min_radius or shrink size"
    if grid > 2.0 * points + 1e6:
        what += f" on a background grid (with its border) worth {grid:,.0f} points"
    if load > 2.0 * grid:
        ratio = float(cast(float, settings.max_radius)) / min_radius
        what += f" and a neighbour window reaching {ratio:g} x min_radius (work worth {load:,.0f} points)"
        fixes = "lower max_radius (or its ratio to min_radius), raise min_radius or shrink size"
    if not math.isfinite(load):
        raise ValueError(f"{what} exceed max_points={settings.max_points:,}; {fixes}")
    raise ValueError(
        f"{what} exceed max_points={settings.max_points:,} (memory ~{size_text(grid * BYTES_PER_POINT)}); "
        f"{fixes}, or pass max_points={math.ceil(load):,} or more if you have the time and memory"
    )
