"""WFC on mxgmn's simple-tiled sets: time and success over seeds, against a pure-Python baseline and two
references run in the same bench run (fast-wfc in C++ and the npm package wavefunctioncollapse in JavaScript,
``bench/wfc_refs.py``)."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import numpy as np

from strew.core.wfc import (
    Contradiction,
    Heuristic,
    SocketTile,
    find_violations,
    load_mxgmn,
    rules_from_tiles,
    solve_detailed,
    solve_steps,
    walkable_components,
)

from .baseline_wfc import solve_baseline
from .wfc_refs import REFERENCES, MxgmnSet, RefRuns

TITLE = "Wave Function Collapse (mxgmn simple-tiled sets)"

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "mxgmn"  # mxgmn's tilesets, MIT

# name: (subset, periodic, heuristic). Subsets and periodicity as in mxgmn's samples.xml; Castle uses the
# scanline heuristic there; Summer too here (minimum entropy needs thousands of backtracks on it at 100²).
SETS = {
    "Castle": (None, False, Heuristic.SCANLINE), "Circles": (None, False, Heuristic.ENTROPY),
    "Circuit": ("Turnless", True, Heuristic.ENTROPY), "FloorPlan": (None, False, Heuristic.ENTROPY),
    "Knots": ("Standard", True, Heuristic.ENTROPY), "Rooms": (None, False, Heuristic.ENTROPY),
    "Summer": (None, False, Heuristic.SCANLINE),
}
SIZES = (24, 50, 100, 200)


def _shown(heuristic: Heuristic | None) -> str:
    """A heuristic as the tables name it (lower case; ``default`` for the solver's own choice)."""
    return "default" if heuristic is None else heuristic.lower()


SEEDS = {24: 21, 50: 21, 100: 21, 200: 5}
TIME_LIMIT = 30.0
KIT_TIME_LIMIT = 60.0
REFERENCE_BUDGET = 60.0
"""Seconds each reference may spend on one set and size; it stops starting new seeds after that."""


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def _ref_cells(runs: RefRuns, ours: float | None) -> str:
    """A reference's two table cells: its median time with solved/run seeds, and ours over it."""
    if runs.not_run:
        return f"{runs.not_run} | "
    median = runs.median()
    text = f"{_ms(median) if median else '—'} ({len(runs.solved_times)}/{runs.seeds_run})"
    return f"{text} | {f'{ours / median:.1f}x' if ours and median else ''}"


def _run(rules, size, seeds, periodic, heuristic, time_limit=TIME_LIMIT):
    times, backtracks, restarts, solved, invalid = [], [], [], 0, 0
    for seed in range(seeds):
        started = time.perf_counter()
        try:
            result = solve_detailed(rules, (size, size), seed, periodic=periodic, heuristic=heuristic,
                                    time_limit=time_limit)
        except Contradiction:
            continue
        times.append(time.perf_counter() - started)
        solved += 1
        backtracks.append(result.backtracks)
        restarts.append(result.restarts)
        invalid += bool(find_violations(rules, result.grid, periodic))
    return solved, times, backtracks, restarts, invalid


TURNS = (0, 90, 180, 270)


def room_kit(styles: int = 8):
    """A 3-D kit like a modular level: marching-squares floor/wall tiles (quadrants floor 'o' / wall 'x',
    labels read counter-clockwise, ("ox", "xo") a mirrored pair) in several styles, plus a stair climbing
    east to a landing above it. ``styles`` copies of the 6 shapes + 2 stair pieces."""
    shapes = {"solid": "xxxx", "floor": "oooo", "corner": "oxxx", "edge": "ooxx", "diagonal": "oxox",
              "inner": "ooox"}
    tiles = []
    for style in range(styles):
        for name, (sw, se, ne, nw) in shapes.items():
            sockets = {"e": se + ne, "n": ne + nw, "w": nw + sw, "s": sw + se, "up": "lvl", "down": "lvl"}
            walkable = name != "solid"
            passable = tuple(d for d in "enws" if "o" in sockets[d]) if walkable else None
            tiles.append(SocketTile(f"{name}_{style}", sockets, weight=3.0 if name == "floor" else 1.0,
                                    rotations=TURNS, walkable=walkable, passable=passable))
    side = {"n": "xx", "s": "xx", "e": "oo", "w": "oo"}
    tiles.append(SocketTile("stair", {**side, "up": "stair:0", "down": "lvl"}, weight=0.5, rotations=TURNS,
                            walkable=True, passable=("w", "up")))
    tiles.append(SocketTile("landing", {**side, "up": "lvl", "down": "stair:0"}, weight=0.5, rotations=TURNS,
                            walkable=True, passable=("e", "down")))
    return rules_from_tiles(tiles, compatible=[("ox", "xo")])


def _kit_rows() -> list[str]:
    rules = room_kit()
    lines = [
        "",
        f"Socket kit (3-D modular level, {rules.count} variants from 50 tiles with rotations: "
        "marching-squares floor/wall pieces in 8 styles + stair and landing), closed border on all six "
        f"sides, 3 seeds, time limit {KIT_TIME_LIMIT:.0f} s (the panel's). *default*: entropy, or scanline and "
        "grow in turn when connected; *scanline* alone for reference. Connectivity is propagated (cut-off "
        "pieces lose their walkable tiles); *CPU* is the process time of the median run (the machine is shared):",
        "",
        "| grid | connected | heuristic | solved | median time | median CPU | max backtracks | max restarts | "
        "walkable regions |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    border = {"e": "xx", "n": "xx", "w": "xx", "s": "xx", "up": "lvl", "down": "lvl"}
    for shape in ((30, 30, 3), (60, 60, 2)):
        for connected, heuristic in ((False, None), (True, None), (True, Heuristic.SCANLINE)):
            lines.append(_kit_row(rules, shape, border, connected, heuristic))
    return lines


def _seed_runs(rules, shape, seeds, connected, time_limit, **options):
    """Solve ``shape`` for each seed: sorted (wall, CPU) seconds of the solved ones, their backtracks, restarts
    and walkable region counts; every grid is checked (each adjacency fits; one region when connected)."""
    runs, backs, rests, regions = [], [], [], []
    for seed in range(seeds):
        cpu = time.process_time()
        try:
            result = solve_detailed(rules, shape, seed, connected=connected, time_limit=time_limit, **options)
        except Contradiction:
            continue
        runs.append((result.seconds, time.process_time() - cpu))
        backs.append(result.backtracks)
        rests.append(result.restarts)
        labels = walkable_components(rules, result.grid)
        regions.append(len(np.unique(labels[labels >= 0])))
        assert not find_violations(rules, result.grid)
        assert not connected or regions[-1] == 1
    return sorted(runs), backs, rests, regions


def _kit_row(rules, shape, border, connected, heuristic, seeds=3, counts=None) -> str:
    runs, backs, rests, regions = _seed_runs(rules, shape, seeds, connected, KIT_TIME_LIMIT, border=border,
                                             heuristic=heuristic, counts=counts)
    wall, cpu = runs[len(runs) // 2] if runs else (None, None)
    return (f"| {'x'.join(map(str, shape))} | {'yes' if connected else 'no'} | {_shown(heuristic)} | "
            f"{len(runs)}/{seeds} | {_ms(wall) if runs else '—'} | {_ms(cpu) if runs else '—'} | "
            f"{max(backs, default=0)} | {max(rests, default=0)} | {', '.join(map(str, regions))} |")


SCALING = ((30, 30, 2), (60, 60, 2), (100, 100, 2), (150, 150, 2))
TARGET_60 = 5.0  # seconds: the socket kit at 60x60x2 connected


def _scaling_rows() -> list[str]:
    """Connected solves of the socket kit from 30² to 150² cells per storey: time per 1,000 cells should stay
    about the same (linear in cells)."""
    rules = room_kit()
    border = {"e": "xx", "n": "xx", "w": "xx", "s": "xx", "up": "lvl", "down": "lvl"}
    lines = [
        "",
        "Connected socket kit as the level grows (default heuristic, 3 seeds, median): time per 1,000 cells "
        f"stays about the same when the work is linear in cells. Target: 60x60x2 in ≤ {TARGET_60:.0f} s.",
        "",
        "| grid | cells | solved | median time | median CPU | CPU per 1,000 cells | max backtracks | max restarts |",
        "|---|---:|---|---|---|---|---|---|",
    ]
    for shape in SCALING:
        runs, backs, rests, _ = _seed_runs(rules, shape, 3, True, 120.0, border=border)
        cells = int(np.prod(shape))
        if not runs:
            lines.append(f"| {'x'.join(map(str, shape))} | {cells:,} | 0/3 | — | — | — | — | — |")
            continue
        wall, cpu = runs[len(runs) // 2]
        lines.append(f"| {'x'.join(map(str, shape))} | {cells:,} | {len(runs)}/3 | {_ms(wall)} | {_ms(cpu)} | "
                     f"{cpu / cells * 1000 * 1000:.0f} ms | {max(backs)} | {max(rests)} |")
    return lines


def cave_rules():
    """The marching-squares quadrant kit (6 tiles) with only open floor walkable: floor meets rock through
    edge and corner tiles, so floor regions are walled apart unless the solver joins them."""
    shapes = {"solid": "xxxx", "floor": "oooo", "corner": "oxxx", "edge": "ooxx", "diagonal": "oxox",
              "inner": "ooox"}
    tiles = []
    for name, (sw, se, ne, nw) in shapes.items():
        sockets = {"e": se + ne, "n": ne + nw, "w": nw + sw, "s": sw + se}
        tiles.append(SocketTile(name, sockets, weight=3.0 if name == "floor" else 1.0, rotations=TURNS,
                                walkable=name == "floor"))
    return rules_from_tiles(tiles, compatible=[("ox", "xo")])


def _cave_rows() -> list[str]:
    rules = cave_rules()
    lines = [
        "",
        "Cave: only open floor is walkable, at least a quarter of the cells must be open floor (Counts "
        "`floor=N/4..*`), closed border; all floor one region (connected) against unconnected (3 seeds):",
        "",
        "| grid | connected | heuristic | solved | median time | median CPU | max backtracks | max restarts | "
        "walkable regions |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for n in (30, 60, 100):
        for connected in (False, True):
            lines.append(_kit_row(rules, (n, n), "xx", connected, None, counts={"floor": (n * n // 4, None)}))
    return lines


SLICE = 0.05  # seconds per timer tick, as operators/modal_job.py steps a job


def _sliced(rules, shape, seed, border) -> tuple[float, int, np.ndarray]:
    """solve_steps consumed in time slices as the modal operator does (the window's own work between slices
    left out): wall time, number of slices, grid."""
    started = time.perf_counter()
    steps = solve_steps(rules, shape, seed, border=border, time_limit=TIME_LIMIT)
    slices = 0
    while True:
        slices += 1
        end = time.perf_counter() + SLICE
        try:
            while time.perf_counter() < end:
                next(steps)
        except StopIteration as stop:
            return time.perf_counter() - started, slices, stop.value.grid


def _stepping_rows() -> list[str]:
    rules = room_kit()
    border = {"e": "xx", "n": "xx", "w": "xx", "s": "xx", "up": "lvl", "down": "lvl"}
    lines = [
        "",
        f"Stepped like the Assemble Room operator: the same socket kit, seed 0, `solve_steps` consumed in "
        f"{SLICE * 1e3:.0f} ms slices (one per timer tick, no thread) against `solve_detailed` run to the end; "
        "best of 3 runs each, same grid required. The window adds its redraws between slices on top.",
        "",
        "| grid | to the end | in slices | slices | sliced / to the end |",
        "|---|---|---|---|---|",
    ]
    for shape in ((30, 30, 3), (60, 60, 2)):
        whole, sliced, count = [], [], 0
        for _ in range(3):
            started = time.perf_counter()
            grid = solve_detailed(rules, shape, 0, border=border, time_limit=TIME_LIMIT).grid
            whole.append(time.perf_counter() - started)
            seconds, count, stepped = _sliced(rules, shape, 0, border)
            sliced.append(seconds)
            assert np.array_equal(grid, stepped)
        lines.append(f"| {'x'.join(map(str, shape))} | {_ms(min(whole))} | {_ms(min(sliced))} | {count} | "
                     f"{min(sliced) / min(whole):.2f} |")
    return lines


def run() -> str:
    lines = [
        "Each cell: our solver (numpy, vectorised propagation, backtracking, restarts) on an nxn grid, "
        f"{SEEDS[100]} seeds at 24², 50² and 100², {SEEDS[200]} seeds at 200² (to keep the topic under ten "
        f"minutes); time limit {TIME_LIMIT:.0f} s per run. Time = median over solved seeds. "
        "Every solved grid is re-checked for rule violations (column *bad*, must be 0).",
        "",
        "",
        "References, run in this same bench run on the same set, size and number of seeds (seeds 0, 1, …; each "
        f"stops starting new seeds after {REFERENCE_BUDGET:.0f} s): "
        + "; ".join(f"**{ref.name}**: {ref.version() if ref.prepare() else 'not run (' + ref.why_not + ')'}"
                    for ref in REFERENCES)
        + ". Neither backtracks (a contradiction is a failed seed); their time is the median over solved seeds "
        "(solved/run in brackets), construction of the model included as ours includes its setup.",
        "",
        "| set | subset | periodic | heuristic | variants | n | solved | median time | max backtracks | "
        "max restarts | bad | " + " | ".join(f"{ref.name} | ours / {ref.name.split(' (')[0]}" for ref in REFERENCES)
        + " |",
        "|---|---|---|---|---|---|---|---|---|---|---|" + "---|---|" * len(REFERENCES),
    ]
    for name, (subset, periodic, heuristic) in SETS.items():
        rules = load_mxgmn(DATA / f"{name}.xml", subset)
        tileset = MxgmnSet.read(DATA / f"{name}.xml", subset)
        for size in SIZES:
            seeds = SEEDS[size]
            solved, times, backs, rests, invalid = _run(rules, size, seeds, periodic, heuristic)
            median = statistics.median(times) if times else None
            refs = " | ".join(_ref_cells(ref.run(tileset, size, periodic, seeds, REFERENCE_BUDGET), median)
                              for ref in REFERENCES)
            lines.append(
                f"| {name} | {subset or '—'} | {'yes' if periodic else 'no'} | {_shown(heuristic)} | {rules.count} | "
                f"{size}² | {solved}/{seeds} | {_ms(median) if median else '—'} | {max(backs, default=0)} | "
                f"{max(rests, default=0)} | {invalid} | {refs} |"
            )
    lines += [
        "",
        "Minimum entropy on the two sets that use scanline above (50², 7 seeds, time limit 20 s):",
        "",
        "| set | heuristic | solved | median time | max backtracks | max restarts |",
        "|---|---|---|---|---|---|",
    ]
    for name in ("Castle", "Summer"):
        subset, periodic, _ = SETS[name]
        rules = load_mxgmn(DATA / f"{name}.xml", subset)
        solved, times, backs, rests, _ = _run(rules, 50, 7, periodic, Heuristic.ENTROPY, time_limit=20.0)
        median = _ms(statistics.median(times)) if times else '—'
        lines.append(f"| {name} | {_shown(Heuristic.ENTROPY)} | {solved}/7 | {median} | "
                     f"{max(backs, default=0)} | {max(rests, default=0)} |")

    lines += _kit_rows()
    lines += _scaling_rows()
    lines += _cave_rows()
    lines += _stepping_rows()
    lines += [
        "",
        "Baseline: the seed's algorithm in plain Python (`bench/baseline_wfc.py`: boolean domains, smallest "
        "domain first, queue propagation, up to 20 restarts, no backtracking), 5 seeds, same rules; its "
        "selection scans every cell each step (O(n⁴)), so only small sizes.",
        "",
        "| set | n | baseline solved | baseline median | ours solved | ours median | baseline / ours |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, (subset, periodic, heuristic) in SETS.items():
        rules = load_mxgmn(DATA / f"{name}.xml", subset)
        weights = [float(w) for w in rules.weights]
        e, n = rules.allowed["e"].tolist(), rules.allowed["n"].tolist()
        for size in (24, 50):
            base_times, base_ok = [], 0
            for seed in range(5):
                started = time.perf_counter()
                grid = solve_baseline(weights, e, n, size, size, seed=seed, periodic=periodic)
                if grid is not None:
                    assert not find_violations(rules, np.array(grid), periodic)
                    base_ok += 1
                    base_times.append(time.perf_counter() - started)
            solved, times, *_ = _run(rules, size, 5, periodic, heuristic)
            bm = statistics.median(base_times) if base_times else None
            om = statistics.median(times) if times else None
            lines.append(
                f"| {name} | {size}² | {base_ok}/5 | {_ms(bm) if bm else '—'} | {solved}/5 | "
                f"{_ms(om) if om else '—'} | {f'{bm / om:.1f}x' if bm and om else ''} |"
            )
    return "\n".join(lines)
