"""Guide figures for camera culling, proximity, keep-away per layer and the paint brush (see generate.py).

Each figure runs the real core functions on a flat world and checks its promise before drawing it.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from generate import BUSH, GAP, GRASS, INK, PALE, PANEL, ROAD, SEAM, TREE, View, assert_no_conflict, draw_points, frame
from raster import Canvas, hex_colour

from strew.core.brush import erase, paint
from strew.core.camera import CameraView, FalloffDensity, SurfaceHeights, ViewMask, in_view
from strew.core.poisson import Samples
from strew.core.proximity import Proximity
from strew.core.scatter import LayerSpec, scatter_layer
from strew.core.terrain import TerrainLookup

PAINTED = hex_colour("#8e24aa")
ROCK = hex_colour("#78909c")


def _flat(w: float, h: float) -> TerrainLookup:
    vertices = np.array([[0, 0, 0], [w, 0, 0], [w, h, 0], [0, h, 0]], dtype=float)
    return TerrainLookup(vertices, np.array([[0, 1, 2], [0, 2, 3]]))


def _samples(points) -> Samples:
    return Samples(points.positions[:, :2], points.radii)


def fig_camera(out: Path) -> str:
    size = 80.0
    terrain = _flat(size, size)
    eye = (40.0, -6.0, 2.0)
    rotation = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])  # looking along +y, level
    view = CameraView.perspective(eye, math.radians(50), 16 / 9, rotation)
    heights = SurfaceHeights(terrain)
    base = dict(min_radius=1.2, max_radius=4.0, seed=3)
    everything = scatter_layer(terrain, LayerSpec(**base))
    culled = scatter_layer(terrain, LayerSpec(**base, mask=ViewMask(view, heights, 2.0, 70.0),
                                              density=FalloffDensity(view, heights, 15.0, 60.0, 0.0)))
    on_ground = np.column_stack([culled.positions[:, :2], np.zeros(len(culled))])
    assert in_view(on_ground, view, 2.0, 70.0).all(), "a culled instance outside the view"
    assert_no_conflict(_samples(culled), what="culled layer")
    canvas = Canvas(2 * PANEL + 3 * GAP, PANEL + 2 * GAP)
    half = math.radians(25)
    for k, points in enumerate((everything, culled)):
        panel = View.fit(0, 0, size, size, GAP + k * (PANEL + GAP), GAP, PANEL)
        canvas.rect(panel.left, panel.top, panel.left + PANEL, panel.top + PANEL, GRASS)
        draw_points(canvas, panel, _samples(points), TREE, dot=1.4)
        for side in (-1, 1):  # the view's edges on the ground
            far = np.array([eye[0] + side * 70 * math.sin(half), eye[1] + 70 * math.cos(half)])
            line = panel.px(np.array([eye[:2], far]))
            canvas.line(*line[0], *line[1], SEAM, width=1.5, alpha=0.8)
        frame(canvas, panel)
    canvas.save(out / "camera_culling.png")
    return f"whole layer {len(everything)}, culled with falloff {len(culled)}"


def fig_proximity(out: Path) -> str:
    size = 60.0
    terrain = _flat(size, size)
    x = np.linspace(-1, size + 1, 120)
    road = np.stack([x, 30 + 12 * np.sin(x / 14)], axis=1)
    canvas = Canvas(2 * PANEL + 3 * GAP, PANEL + 2 * GAP)
    counts = []
    for k, attract in enumerate((True, False)):
        near = Proximity([road], [], near=1.0, far=12.0, attract=attract)
        points = scatter_layer(terrain, LayerSpec(min_radius=0.9, max_radius=3.5, seed=5, density=near))
        assert_no_conflict(_samples(points), what="proximity layer")
        distance = near.distance(points.positions[:, :2])
        counts.append(int((distance < 6).sum()))
        panel = View.fit(0, 0, size, size, GAP + k * (PANEL + GAP), GAP, PANEL)
        canvas.rect(panel.left, panel.top, panel.left + PANEL, panel.top + PANEL, GRASS)
        canvas.polyline(panel.px(road), ROAD, width=2.0 * panel.scale)
        draw_points(canvas, panel, _samples(points), BUSH if attract else TREE, dot=1.3)
        frame(canvas, panel)
    assert counts[0] > 2 * counts[1], "attract is not denser near the road than repel"
    canvas.save(out / "proximity.png")
    return f"instances within 6 m of the road: attract {counts[0]}, repel {counts[1]}"


def fig_keep_away(out: Path) -> str:
    size = 40.0
    terrain = _flat(size, size)
    trees = scatter_layer(terrain, LayerSpec(min_radius=7.0, seed=2))
    rocks = scatter_layer(terrain, LayerSpec(min_radius=2.2, seed=4), _samples(trees))
    blockers = Samples(np.concatenate([trees.positions[:, :2], rocks.positions[:, :2]]),
                       np.concatenate([trees.radii, rocks.radii]))
    keep = np.concatenate([np.full(len(trees), 3.5), np.zeros(len(rocks))])  # grass: 3.5 m from trees only
    grass = scatter_layer(terrain, LayerSpec(min_radius=0.8, seed=6), blockers, keep=keep)
    tree_distance = np.hypot(*(grass.positions[:, None, :2] - trees.positions[None, :, :2]).transpose(2, 0, 1))
    assert tree_distance.min() >= 3.5 - 1e-9, "grass inside a tree's keep-away"
    canvas = Canvas(PANEL + 2 * GAP, PANEL + 2 * GAP)
    panel = View.fit(0, 0, size, size, GAP, GAP, PANEL)
    canvas.rect(panel.left, panel.top, panel.left + PANEL, panel.top + PANEL, GRASS)
    for x, y in panel.px(trees.positions[:, :2]):
        canvas.disc(x, y, 3.5 * panel.scale, PALE, alpha=0.6)
    draw_points(canvas, panel, _samples(grass), BUSH, dot=1.0, circle=0.0)
    draw_points(canvas, panel, _samples(rocks), ROCK, dot=2.5, circle=0.0)
    for x, y in panel.px(trees.positions[:, :2]):
        canvas.disc(x, y, 1.2 * panel.scale, TREE)
    frame(canvas, panel)
    canvas.save(out / "keep_away_per_layer.png")
    rock_distance = np.hypot(*(rocks.positions[:, None, :2] - trees.positions[None, :, :2]).transpose(2, 0, 1))
    return f"grass ≥ 3.5 m from trees; rocks as close as {rock_distance.min():.1f} m"


def fig_brush(out: Path) -> str:
    size = 40.0
    terrain = _flat(size, size)
    layer = _samples(scatter_layer(terrain, LayerSpec(min_radius=1.4, seed=8)))
    left, right, brush = (12.0, 20.0), (28.0, 20.0), 7.0
    holes = erase(layer.positions, left, brush) | erase(layer.positions, right, brush)
    kept = Samples(layer.positions[~holes], layer.radii[~holes])
    painted = paint(kept, left, brush, min_radius=0.8, seed=1)  # a denser patch where the left stroke erased
    assert_no_conflict(painted, what="painted patch")
    assert_no_conflict(painted, extra=kept, what="painted against existing")
    canvas = Canvas(PANEL + 2 * GAP, PANEL + 2 * GAP)
    panel = View.fit(0, 0, size, size, GAP, GAP, PANEL)
    canvas.rect(panel.left, panel.top, panel.left + PANEL, panel.top + PANEL, GRASS)
    for centre in (left, right):
        x, y = panel.px(np.array(centre))[0]
        canvas.ring(x, y, brush * panel.scale, INK, width=1.5, alpha=0.7)
    draw_points(canvas, panel, kept, TREE, dot=1.4)
    draw_points(canvas, panel, painted, PAINTED, dot=1.4)
    frame(canvas, panel)
    canvas.save(out / "paint_brush.png")
    return f"erased {int(holes.sum())}, painted {len(painted.radii)} in the left disc"


FIGURES = (fig_camera, fig_proximity, fig_keep_away, fig_brush)
