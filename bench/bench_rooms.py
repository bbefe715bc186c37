"""Tile Rooms: writing a room into the scene (one instancer object against one object per cell) and the whole
Assemble Room call, on the 53-tile demo kit, headless."""

from __future__ import annotations

import statistics
import time

import numpy as np

from strew.core.wfc import Heuristic

TITLE = "Tile Rooms: assemble from the 53-tile demo kit (instancer output, real objects for reference)"

BUILD_SIZES = ((10, 10, 3), (30, 30, 3), (60, 60, 3), (100, 100, 3))
OBJECT_SIZES = ((10, 10, 3), (30, 30, 3))  # the Real Objects reference (quadratic-ish, so kept small)
TARGETS = {(30, 30, 3): 0.3, (100, 100, 3): 2.0}
REPEATS = 5
SEEDS = (1, 2, 3)
ASSEMBLE_CASES = (((12, 12, 2), True, Heuristic.AUTO), ((30, 30, 3), False, Heuristic.AUTO),
                  ((30, 30, 3), True, Heuristic.AUTO), ((30, 30, 3), True, Heuristic.SCANLINE))
"""(size, every walkable cell connected, heuristic): each with the hand-set labels, then after Detect Sockets.
Scanline alone is the reference for the default's alternation of scanline and grow when connected."""
DETECTED_TIME_LIMIT = 60.0  # the panel's default: what a user waits before the room is given up
CONNECTED_SIZES = ((30, 30, 3), (60, 60, 3), (100, 100, 3))
CONNECTED_TARGET = 30.0  # seconds: the demo kit at 100×100×3, every walkable cell connected


def _setup():
    import bpy

    from strew import ensure_registered
    from strew.demos.kit import build_demo_kit

    bpy.ops.wm.read_homefile(use_empty=True)
    ensure_registered()
    started = time.perf_counter()
    kit = build_demo_kit(bpy.context.scene)
    return bpy, kit, time.perf_counter() - started


def _timed_build(bpy, scene, plan, params) -> tuple[float, float, float]:
    """(build, first depsgraph evaluation, clear) seconds of one room."""
    from strew.scene import room_output

    started = time.perf_counter()
    for _ in room_output.build_steps(scene, plan, params.destination):
        pass
    build = time.perf_counter() - started
    started = time.perf_counter()
    bpy.context.view_layer.update()
    bpy.context.evaluated_depsgraph_get()
    update = time.perf_counter() - started
    started = time.perf_counter()
    room_output.clear_room(scene, params.room_name)
    return build, update, time.perf_counter() - started


def _build_rows(bpy, kit) -> list[str]:
    from strew.core.wfc import rules_from_tiles
    from strew.scene import room_job
    from strew.scene.room_kit import read_kit

    scene = bpy.context.scene
    parsed = read_kit(kit, "")
    rules = rules_from_tiles(parsed.tiles, compatible=parsed.compatible, dims=3)
    rng = np.random.default_rng(7)
    rows = [
        "| size | cells | output | build | per 1,000 cells | then depsgraph update | clear | target |",
        "|---|---:|---|---:|---:|---:|---:|---|",
    ]
    per_cell, instancer = {}, []
    for output, sizes in (('INSTANCES', BUILD_SIZES), ('OBJECTS', OBJECT_SIZES)):
        for size in sizes:
            grid = rng.integers(0, rules.count, size=size)
            plan = room_job.Plan(parsed, rules, grid, 0, 0)
            params = room_job.RoomParams(kit=kit.name, size=size, output=output)
            runs = [_timed_build(bpy, scene, plan, params) for _ in range(REPEATS if output == 'INSTANCES' else 1)]
            build, update, clear = (statistics.median(col) for col in zip(*runs, strict=True))
            cells = int(np.prod(size))
            per_cell[(output, size)] = build / cells
            if output == 'INSTANCES':
                instancer.append((cells, build))
            target = TARGETS.get(size) if output == 'INSTANCES' else None
            verdict = "–" if target is None else f"≤ {target:g} s: {'met' if build <= target else 'MISSED'}"
            rows.append(f"| {'×'.join(map(str, size))} | {cells:,} | {output.title()} | {build:.3f} s "
                        f"| {build / cells * 1000 * 1000:.2f} ms | {update:.3f} s | {clear:.3f} s | {verdict} |")
    cells_, seconds = (np.array(col, dtype=float) for col in zip(*instancer, strict=True))
    per, fixed = np.polyfit(cells_, seconds, 1)
    worst = float(np.max(np.abs(seconds - (fixed + per * cells_))))
    ratio = per_cell[('OBJECTS', (30, 30, 3))] / per_cell[('INSTANCES', (30, 30, 3))]
    rows += [
        "",
        f"Linearity: a least-squares line through the instancer's builds gives {fixed * 1000:.1f} ms fixed + "
        f"{per * 1e6:.2f} µs per cell; no size is off that line by more than {worst * 1000:.1f} ms. At 30×30×3 "
        f"the instancer builds {ratio:.0f}× faster than real objects.",
    ]
    return rows


def _assemble_rows(bpy, kit) -> list[str]:
    from strew.scene import room_job

    scene = bpy.context.scene
    rows = [
        "| labels | size | connected | heuristic | cells | read kit | solve | build | total | restarts "
        "| backtracks | ok |",
        "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for labels in ("hand-set", "detected"):
        if labels == "detected":
            assert bpy.ops.strew.detect_sockets() == {'FINISHED'}  # the panel's kit; Border follows the labels
        border = scene.strew.room.border
        for size, connected, heuristic in ASSEMBLE_CASES:
            runs, failures = [], 0
            for seed in SEEDS:
                params = room_job.RoomParams(kit=kit.name, size=size, seed=seed, border=border,
                                             border_bottom="ground", border_top="sky", connected=connected,
                                             heuristic=heuristic, time_limit=DETECTED_TIME_LIMIT)
                started = time.perf_counter()
                try:
                    result = room_job.run_to_end(scene, params)
                except room_job.RoomError:
                    failures += 1
                    continue
                total = time.perf_counter() - started
                runs.append((result.stages["read kit"], result.stages["solve"], result.stages["build"], total,
                             result.restarts, result.backtracks, result.placed))
                room_job.clear_room(scene, params.room_name)
            label = f"| {labels} | {'×'.join(map(str, size))} | {'yes' if connected else 'no'} | {heuristic.lower()} "
            if not runs:
                rows.append(label + f"| – | – | – | – | > {DETECTED_TIME_LIMIT:.0f} s | – | – | 0/{len(SEEDS)} |")
                continue
            med = [statistics.median(col) for col in zip(*runs, strict=True)]
            rows.append(label + f"| {int(med[6]):,} | {med[0] * 1000:.0f} ms | {med[1]:.2f} s | {med[2]:.3f} s "
                        f"| {med[3]:.2f} s | {max(r[4] for r in runs)} (max) | {max(r[5] for r in runs)} (max) "
                        f"| {len(runs)}/{len(SEEDS)} |")
    return rows


def _connected_rows(kit) -> list[str]:
    """The solve alone (no scene work) of closed rooms with every walkable cell connected, on the kit's
    hand-set labels as the panel's defaults have them, as the room grows."""
    from strew.core.wfc import walkable_components
    from strew.core.wfc.room import RoomSpec, room_problem
    from strew.scene.room_kit import read_kit

    parsed = read_kit(kit, "")
    rows = [
        "| size | cells | solved | median solve | median CPU | CPU per 1,000 cells | max backtracks | max restarts "
        "| target |",
        "|---|---:|---|---:|---:|---:|---:|---:|---|",
    ]
    for size in CONNECTED_SIZES:
        runs, backs, rests = [], [], []
        for seed in SEEDS:
            spec = RoomSpec(size=size, seed=seed, border="wall, window", border_bottom="ground", border_top="sky",
                            connected=True, time_limit=120.0)
            cpu = time.process_time()
            try:
                problem = room_problem(parsed.tiles, parsed.compatible, spec)
                result = problem.run()
            except RuntimeError:
                continue
            runs.append((result.seconds, time.process_time() - cpu))
            backs.append(result.backtracks)
            rests.append(result.restarts)
            labels = walkable_components(problem.rules, result.grid.reshape(size))
            assert len(np.unique(labels[labels >= 0])) == 1
        cells = int(np.prod(size))
        runs.sort()
        if not runs:
            rows.append(f"| {'×'.join(map(str, size))} | {cells:,} | 0/{len(SEEDS)} | – | – | – | – | – | – |")
            continue
        wall, cpu = runs[len(runs) // 2]
        target = (f"≤ {CONNECTED_TARGET:.0f} s: {'met' if wall <= CONNECTED_TARGET else 'MISSED'}"
                  if size == CONNECTED_SIZES[-1] else "–")
        rows.append(f"| {'×'.join(map(str, size))} | {cells:,} | {len(runs)}/{len(SEEDS)} | {wall:.2f} s | "
                    f"{cpu:.2f} s | {cpu / cells * 1e6:.0f} ms | {max(backs)} | {max(rests)} | {target} |")
    return rows


def run() -> str:
    bpy, kit, kit_seconds = _setup()
    lines = [
        f"Demo kit: {len(kit.objects)} tiles, built in {kit_seconds * 1000:.0f} ms.",
        "",
        "**Writing a room** (`room_output.build_steps`): a grid of random variants of the kit's rules (the write "
        "does not depend on which tiles stand where), written as one Geometry Nodes instancer object (the "
        "default) and, for reference, as one linked duplicate per cell (*Real Objects*), in the same run. "
        f"Median of {REPEATS} runs for the instancer, one run for real objects. *Then depsgraph update*: the "
        "first evaluation of the new room (Geometry Nodes instancing, or the new objects).",
        "",
        *_build_rows(bpy, kit),
        "",
        "**The whole Assemble Room call** (read kit, solve, write the instancer): closed room (border `wall, "
        "window`, ground below, sky above), with the kit's hand-set labels, then after Detect Sockets (the "
        "border follows the labels); time limit 60 s; median of the seeds "
        f"{', '.join(map(str, SEEDS))} that succeeded. *auto*: the default heuristic (scanline and grow in turn "
        "when connected, else entropy); *scanline* alone for reference.",
        "",
        *_assemble_rows(bpy, kit),
        "",
        "**Connected rooms as they grow** (the solve alone, on the kit's hand-set labels: border `wall, window`, "
        "ground below, sky above, every walkable cell connected; connectivity is propagated, the default "
        f"heuristic grows the walkable region); median of the seeds {', '.join(map(str, SEEDS))}; *CPU* is the "
        "process time of the median run (the machine is shared):",
        "",
        *_connected_rows(_setup()[1]),  # a fresh kit: the hand-set labels, not the detected ones
    ]
    return "\n".join(lines)
