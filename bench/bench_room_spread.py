"""Separation, maximum runs and symmetry: what each costs the solve, against the same solve without it."""

from __future__ import annotations

import itertools
import statistics
import time

import numpy as np

from strew.core.wfc import SocketTile, rules_from_tiles, solve
from strew.core.wfc.constraints import Constraint
from strew.core.wfc.max_run import MaxRun
from strew.core.wfc.separation import Separation
from strew.core.wfc.symmetry import Symmetry, mirror_twins

TITLE = "Tile rooms: separation, maximum runs and symmetry (solve time against the same solve without)"

SIZES = ((30, 30), (60, 60))
SEEDS = (1, 2, 3)
SHAPES = {"solid": "xxxx", "floor": "oooo", "corner": "oxxx", "edge": "ooxx", "diagonal": "oxox", "inner": "ooox"}
SHRINES = 8
DISTANCE = 8
RUN = 3


def cave_rules():
    """The marching-squares cave kit of the docs' pictures (quadrants of floor or rock) with a shrine on floor."""
    tiles = [SocketTile("shrine", {side: "oo" for side in "nesw"}, weight=1.5, walkable=True)]
    for name, (sw, se, ne, nw) in SHAPES.items():
        sockets = {"e": se + ne, "n": ne + nw, "w": nw + sw, "s": sw + se}
        tiles.append(SocketTile(name, sockets, weight=3.0 if name == "floor" else 1.0, rotations=(0, 90, 180, 270),
                                walkable=name == "floor"))
    return rules_from_tiles(tiles, compatible=[("ox", "xo")])


def _closest(cells: np.ndarray) -> float:
    return min((float(np.hypot(*(a - b))) for a, b in itertools.combinations(cells, 2)), default=float("inf"))


def _longest(mask: np.ndarray) -> int:
    best = 0
    for line in [*mask, *mask.T]:
        run = 0
        for value in line:
            run = run + 1 if value else 0
            best = max(best, run)
    return best


def _check(case: str, rules, grid: np.ndarray) -> None:
    names = np.array(rules.tiles)[grid]
    if case == "separation":
        shrines = np.argwhere(names == "shrine")
        assert len(shrines) >= SHRINES and _closest(shrines) >= DISTANCE
    elif case == "max run":
        assert _longest(names == "floor") <= RUN
    elif case == "symmetry xy":
        for axis in "xy":
            twins = mirror_twins(rules, axis)
            flipped = grid[::-1] if axis == "x" else grid[:, ::-1]
            assert (flipped == twins[grid]).all()


def _solve(case: str, rules, size: tuple[int, int], seed: int) -> tuple[float, np.ndarray]:
    counts = {"shrine": (SHRINES, None)} if case == "separation" else None
    chosen: dict[str, list[Constraint]] = {"plain": [], "separation": [Separation("shrine", DISTANCE, SHRINES)],
                                           "max run": [MaxRun("floor", RUN)], "symmetry xy": [Symmetry("xy")]}
    constraints = chosen[case]
    started = time.perf_counter()
    grid = solve(rules, size, seed=seed, border="xx", counts=counts, constraints=constraints, time_limit=60)
    return time.perf_counter() - started, grid


def run() -> str:
    rules = cave_rules()
    cases = ("plain", "separation", "max run", "symmetry xy")
    rows = ["| grid | " + " | ".join(cases[1:]) + " | plain (counts for separation) |", "|---|---:|---:|---:|---:|"]
    for size in SIZES:
        medians = {}
        for case in cases:
            times = []
            for seed in SEEDS:
                seconds, grid = _solve(case, rules, size, seed)
                _check(case, rules, grid)
                times.append(seconds)
            medians[case] = statistics.median(times)
        plain_counts = statistics.median(_solve_counts(rules, size, seed) for seed in SEEDS)
        cells = []
        for case in cases[1:]:
            without = plain_counts if case == "separation" else medians["plain"]
            cells.append(f"{medians[case]:.2f} s ({medians[case] / without:.1f}x)")
        plain = f"{medians['plain']:.2f} s ({plain_counts:.2f} s)"
        rows.append(f"| {size[0]}×{size[1]} | " + " | ".join(cells) + f" | {plain} |")
    return "\n".join([
        f"The cave kit of docs/wfc.md's pictures (marching squares, rock border) with a shrine tile; median of seeds "
        f"{', '.join(map(str, SEEDS))}, each grid checked by brute force before it counts (every shrine pair "
        f"≥ {DISTANCE} cells apart, no row of more than {RUN} open floor, the grid equal to its mirror twins). "
        f"*separation*: at least {SHRINES} shrines {DISTANCE} apart, against the same count without separation; "
        f"*max run*: open floor at most {RUN} in a row; *symmetry xy*: mirrored across both middles. In brackets: "
        "the time over the same solve without the constraint.",
        "",
        *rows,
    ])


def _solve_counts(rules, size: tuple[int, int], seed: int) -> float:
    started = time.perf_counter()
    solve(rules, size, seed=seed, border="xx", counts={"shrine": (SHRINES, None)}, time_limit=60)
    return time.perf_counter() - started
