"""Tile rooms with paths between chosen cells (``core/wfc/paths.py``): the socket kit of the WFC section at
60x60x2 with three paths, against the same room without them; every solved room is checked (each path's
endpoints in one walkable region, no loop where asked, the shortest walk where a minimum is asked)."""

from __future__ import annotations

import time
from collections import deque

import numpy as np

from strew.core.wfc import Contradiction, Paths, find_violations, solve_detailed, walkable_components
from strew.core.wfc.vocab import OFFSETS, OPPOSITE

from .bench_wfc import room_kit

TITLE = "Tile rooms: paths between chosen cells"

SHAPE = (60, 60, 2)
BORDER = {"e": "xx", "n": "xx", "w": "xx", "s": "xx", "up": "lvl", "down": "lvl"}
PATHS = (((1, 1, 0), (58, 58, 0)), ((1, 58, 0), (58, 1, 0)), ((30, 1, 1), (30, 58, 1)))
"""Two corner-to-corner paths on the ground floor (they cross) and one across the upper floor."""
SEEDS = 3
TARGET = 5.0  # seconds: 60x60x2 with three paths
TIME_LIMIT = 60.0


def _steps(rules, grid: np.ndarray, start: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """Breadth-first walk over passable adjacencies of the placed tiles: cell -> steps from ``start``."""
    passable = {d: rules.passable_mask(d) for d in rules.directions}
    seen, queue = {start: 0}, deque([start])
    while queue:
        cell = queue.popleft()
        for d in rules.directions:
            other = tuple(c + o for c, o in zip(cell, OFFSETS[d], strict=True))
            if any(not 0 <= c < s for c, s in zip(other, grid.shape, strict=True)) or other in seen:
                continue
            if passable[d][grid[cell]] and passable[OPPOSITE[d]][grid[other]]:
                seen[other] = seen[cell] + 1
                queue.append(other)
    return seen


def _row(label: str, rules, paths, seeds: int = SEEDS, **options) -> str:
    times, cpus, backtracks, regions = [], [], [], []
    for seed in range(seeds):
        constraints = [Paths(paths, **options)] if paths else []
        cpu = time.process_time()
        try:
            result = solve_detailed(rules, SHAPE, seed, border=BORDER, constraints=constraints,
                                    time_limit=TIME_LIMIT)
        except Contradiction:
            continue
        assert not find_violations(rules, result.grid)
        labels = walkable_components(rules, result.grid)
        for a, b in paths:
            assert labels[a] >= 0 and labels[a] == labels[b]
            if options.get("min_length"):
                assert _steps(rules, result.grid, a)[b] + 1 >= options["min_length"]
        cpus.append(time.process_time() - cpu)
        times.append(result.seconds)
        backtracks.append(result.backtracks)
        regions.append(len(np.unique(labels[labels >= 0])))
    median = f"{sorted(times)[len(times) // 2]:.2f} s" if times else "—"
    cpu_median = f"{sorted(cpus)[len(cpus) // 2]:.2f} s" if cpus else "—"
    return (f"| {label} | {len(times)}/{seeds} | {median} | {cpu_median} | {max(times, default=0):.2f} s | "
            f"{max(backtracks, default=0)} | {', '.join(map(str, regions))} |")


def run() -> str:
    rules = room_kit()
    started = time.perf_counter()
    lines = [
        f"The socket kit of the WFC section ({rules.count} variants), {'x'.join(map(str, SHAPE))}, closed on all "
        f"six sides, default heuristic, seeds 0–{SEEDS - 1}, connectivity off (other pockets may stay sealed). "
        f"Paths: {'; '.join(' → '.join(map(str, p)) for p in PATHS)}. Target: three paths in ≤ {TARGET:.0f} s. "
        "*CPU* is the process time (the machine is shared; wall time grows with its load).",
        "",
        "| room | solved | median time | median CPU | max time | max backtracks | walkable regions |",
        "|---|---|---|---|---|---|---|",
        _row("no paths (reference)", rules, ()),
        _row("three paths", rules, PATHS),
    ]
    lines += ["", f"_Whole section: {time.perf_counter() - started:.0f} s._"]
    return "\n".join(lines)
