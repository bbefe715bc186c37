"""Spacing by object size: what it costs per instance against spacing by radius, and what it packs."""

from __future__ import annotations

import dataclasses
import math
import time
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from strew.core.scatter import LayerSpec
    from strew.core.terrain import TerrainLookup

TITLE = "Spacing by object size"
SIZE = 200.0  # terrain side (m)
FOOTPRINTS = (0.25, 2.5)  # pebble and boulder footprint radii at scale 1
SCALES = (0.5, 1.6)
GAP = 0.5
WIDE = (0.25, 5.0)  # footprints 20:1 apart
DEMO_REPEATS = 3


def _terrain() -> TerrainLookup:
    from strew.core.terrain import TerrainLookup

    quads = 80
    axis = np.linspace(0.0, SIZE, quads + 1)
    x, y = np.meshgrid(axis, axis)
    z = 4 * np.sin(x / 23) * np.cos(y / 17)
    row = quads + 1
    corner = (np.arange(quads)[:, None] * row + np.arange(quads)[None, :]).ravel()
    triangles = np.r_[np.c_[corner, corner + 1, corner + row + 1], np.c_[corner, corner + row + 1, corner + row]]
    return TerrainLookup(np.c_[x.ravel(), y.ravel(), z.ravel()], triangles)


def _closest_gap(xy: np.ndarray, footprint: np.ndarray) -> float:
    from scipy.spatial import cKDTree

    pairs = cKDTree(xy).query_pairs(2.0 * float(footprint.max()) + 2.0 * GAP, output_type='ndarray')
    distance = np.hypot(*(xy[pairs[:, 0]] - xy[pairs[:, 1]]).T)
    return float((distance - footprint[pairs[:, 0]] - footprint[pairs[:, 1]]).min())


def run() -> str:
    from strew.core.scatter import LayerSpec, scatter_layer

    terrain = _terrain()
    base = LayerSpec(min_radius=GAP, seed=4, prefab_weights=(1.0, 1.0), scale_range=SCALES)
    largest = 2.0 * FOOTPRINTS[1] * SCALES[1] + GAP  # a radius no two objects of any size can overlap at
    runs = [
        ("Object Size (gap 0.5 m)", dataclasses.replace(base, footprints=FOOTPRINTS)),
        ("Radius 0.5 m (objects overlap)", base),
        (f"Radius {largest:g} m (the largest object's width plus the gap)",
         dataclasses.replace(base, min_radius=largest, max_radius=largest)),
    ]
    rows = [
        f"A {SIZE:g} × {SIZE:g} m hilly terrain, one layer, two prefabs of footprint radius {FOOTPRINTS[0]:g} m and "
        f"{FOOTPRINTS[1]:g} m (equal weights), scale {SCALES[0]:g}–{SCALES[1]:g}, automatic chunks. The same layer "
        "spaced by radius in the same run: at the gap (what a user gets without object sizes) and at the largest "
        "object's width plus the gap (the radius that avoids every overlap). Footprints measured on the result: "
        "every close pair (overlapping footprints count twice in their area). CPU seconds of the first "
        "Scatter in this process, one worker.",
        "",
        "| spacing | instances | big ones | footprints' area ÷ ground | closest footprints' edges | Scatter (s) "
        "| µs per instance |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    per_instance = {}
    for name, spec in runs:
        started = time.process_time()
        points = scatter_layer(terrain, spec)
        seconds = time.process_time() - started
        footprint = np.asarray(FOOTPRINTS)[points.prefab_index] * points.scales
        xy = points.positions[:, :2]
        covered = float((math.pi * footprint**2).sum()) / (SIZE * SIZE)
        per_instance[name] = seconds / len(points)
        rows.append(f"| {name} | {len(points):,} | {(points.prefab_index == 1).mean():.1%} | {covered:.0%} "
                    f"| {_closest_gap(xy, footprint):+.3f} m | {seconds:.2f} | {1e6 * seconds / len(points):.1f} |")
    ratio = per_instance[runs[0][0]] / per_instance[runs[1][0]]
    rows += ["", f"Object Size costs **{ratio:.1f}×** the time per instance of Radius spacing at the same gap "
             "(negative edge distances are overlapping objects).", ""]
    return "\n".join(rows + _wide_kit(terrain, base, per_instance[runs[1][0]]) + [""] + _demo())


def _wide_kit(terrain: TerrainLookup, base: LayerSpec, radius_cost: float) -> list[str]:
    """The same layer with footprints 20:1 apart, against the Radius layer of the table above (same run)."""
    from strew.core.scatter import scatter_layer

    spec = dataclasses.replace(base, footprints=WIDE)
    started = time.process_time()
    points = scatter_layer(terrain, spec)
    seconds = time.process_time() - started
    footprint = np.asarray(WIDE)[points.prefab_index] * points.scales
    ratio = seconds / len(points) / radius_cost
    return [
        f"A kit whose footprints span {WIDE[1] / WIDE[0]:g}:1 ({WIDE[0]:g} m and {WIDE[1]:g} m, otherwise the same "
        f"layer): {len(points):,} instances, {(points.prefab_index == 1).mean():.1%} big, closest edges "
        f"{_closest_gap(points.positions[:, :2], footprint):+.3f} m, {seconds:.2f} s, "
        f"{1e6 * seconds / len(points):.1f} µs per instance: **{ratio:.1f}×** the Radius layer's time per instance "
        "(target ≤ 3×)."
    ]


def _demo() -> list[str]:
    """The demo valley's layers (``make demo``) as its Scatter button reports them: Rocks spaced by Object Size,
    Trees and Bushes by Radius; the best of three Scatters for each layer."""
    import bpy

    from strew import ensure_registered
    from strew.core.modes import SpacingMode
    from strew.demos import valley
    from strew.scene import scatter_job

    bpy.ops.wm.read_homefile(use_empty=True)
    ensure_registered()
    scene = bpy.context.scene
    terrain = valley.build_terrain(scene)
    valley.configure_layers(scene, terrain, valley.build_prefabs(scene), valley.build_road(scene))
    best: dict[str, tuple[int, float]] = {}
    for _ in range(DEMO_REPEATS):
        for report in scatter_job.run_to_end(bpy.context).reports:
            if report.name not in best or report.seconds < best[report.name][1]:
                best[report.name] = (report.count, report.seconds)
    rows = [
        "The demo valley (`make demo`), its three layers as the Scatter button reports them (seconds of each layer, "
        f"best of {DEMO_REPEATS} Scatters in this process, the scene's workers):",
        "",
        "| layer | spacing | instances | seconds | µs per instance |",
        "|---|---|---:|---:|---:|",
    ]
    for name, (count, seconds) in best.items():
        spacing = "Object Size" if scene.strew.layers[name].spacing == SpacingMode.OBJECTS else "Radius"
        rows.append(f"| {name} | {spacing} | {count:,} | {seconds:.3f} | {1e6 * seconds / max(count, 1):.1f} |")
    radius = [best[layer.name] for layer in scene.strew.layers if layer.spacing != SpacingMode.OBJECTS]
    radius_cost = sum(s for _, s in radius) / max(sum(c for c, _ in radius), 1)
    count, seconds = best["Rocks"]
    rows += ["", f"Rocks (Object Size) costs **{seconds / count / radius_cost:.1f}×** the time per instance of the "
             "Radius layers together (target ≤ 2×)."]
    return rows

