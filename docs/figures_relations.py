"""Guide figures for layers around other layers and for Rescatter Region's rim (see generate.py): mushrooms in a
ring about each tree, with and without falloff; a region refilled without and with the band outside its rim, the
places left with room for one more marked. Each promise is checked before it is drawn."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from generate import BUSH, GAP, GRASS, HOLE, INK, PALE, PANEL, TREE, View, assert_no_conflict, draw_points, frame
from raster import Canvas

from strew.core.brush import Circle, fill, rim_band
from strew.core.fields.rings import CircleGaps, RingFalloff, RingMask
from strew.core.poisson import Samples
from strew.core.scatter import LayerSpec, scatter_layer
from strew.core.terrain import TerrainLookup


def _flat(size: float) -> TerrainLookup:
    vertices = np.array([[0, 0, 0], [size, 0, 0], [size, size, 0], [0, size, 0]], dtype=float)
    return TerrainLookup(vertices, np.array([[0, 1, 2], [0, 2, 3]]))


def _samples(points) -> Samples:
    return Samples(points.positions[:, :2], points.radii)


def _nearest(xy: np.ndarray, centres: np.ndarray) -> np.ndarray:
    return np.sqrt(((xy[:, None] - centres[None]) ** 2).sum(-1)).min(axis=1)


def fig_around(out: Path) -> str:
    size = 40.0
    terrain = _flat(size)
    trees = scatter_layer(terrain, LayerSpec(min_radius=8.0, max_radius=8.0, seed=3))
    centres = trees.positions[:, :2]
    circles = CircleGaps(centres, np.zeros(len(centres)), reach=3.0)
    canvas = Canvas(2 * PANEL + 3 * GAP, PANEL + 2 * GAP)
    counts = []
    for k, falloff in enumerate((False, True)):
        spec = LayerSpec(min_radius=0.35, max_radius=0.9 if falloff else 0.35, seed=5,
                         mask=RingMask(circles, 0.8, 3.0),
                         density=RingFalloff(circles, 0.8, 3.0) if falloff else None)
        mushrooms = scatter_layer(terrain, spec, _samples(trees), keep=np.full(len(centres), 0.8))
        gap = _nearest(mushrooms.positions[:, :2], centres)
        assert gap.min() >= 0.8 - 1e-9 and gap.max() <= 3.0 + 1e-9, "a mushroom outside its ring"
        assert_no_conflict(_samples(mushrooms), what="mushrooms")
        counts.append(len(mushrooms))
        panel = View.fit(0, 0, size, size, GAP + k * (PANEL + GAP), GAP, PANEL)
        canvas.rect(panel.left, panel.top, panel.left + PANEL, panel.top + PANEL, GRASS)
        for x, y in panel.px(centres):
            canvas.ring(x, y, 3.0 * panel.scale, INK, width=1.0, alpha=0.35)
            canvas.disc(x, y, 0.8 * panel.scale, PALE, alpha=0.8)
        draw_points(canvas, panel, _samples(mushrooms), BUSH, dot=1.1, circle=0.0)
        for x, y in panel.px(centres):
            canvas.disc(x, y, 0.6 * panel.scale, TREE)
        frame(canvas, panel)
    canvas.save(out / "around_layers.png")
    return f"trees {len(trees)}; mushrooms in 0.8–3 m rings: {counts[0]}, with falloff {counts[1]}"


def fig_rim(out: Path) -> str:
    size = 30.0
    radius = 1.0
    terrain = _flat(size)
    layer = _samples(scatter_layer(terrain, LayerSpec(min_radius=radius, max_radius=radius, seed=8)))
    region = Circle((15.0, 15.0), 7.0)
    inside = region.contains(layer.positions)
    kept = Samples(layer.positions[~inside], layer.radii[~inside])
    grid = np.linspace(0.0, size, 301)
    probes = np.column_stack([g.ravel() for g in np.meshgrid(grid, grid)])
    canvas = Canvas(2 * PANEL + 3 * GAP, PANEL + 2 * GAP)
    holes = []
    for k, band in enumerate((0.0, rim_band(radius, layer.radii[inside]))):
        new = fill(kept, region, radius, seed=4, within=((0.0, 0.0), (size, size)), band=band)
        every = Samples(np.concatenate([kept.positions, new.positions]), np.concatenate([kept.radii, new.radii]))
        assert_no_conflict(every, what="refilled layer")
        free = probes[_nearest(probes, every.positions) >= radius]
        holes.append(len(free))
        panel = View.fit(0, 0, size, size, GAP + k * (PANEL + GAP), GAP, PANEL)
        canvas.rect(panel.left, panel.top, panel.left + PANEL, panel.top + PANEL, GRASS)
        x, y = panel.px(np.array([15.0, 15.0]))[0]
        canvas.ring(x, y, 7.0 * panel.scale, INK, width=1.5, alpha=0.7)
        draw_points(canvas, panel, kept, TREE, dot=1.2)
        draw_points(canvas, panel, new, BUSH, dot=1.2)
        for px, py in panel.px(free):
            canvas.disc(px, py, 1.6, HOLE)
        frame(canvas, panel)
    assert holes[1] == 0 and holes[0] > 0, "the band should close the rim's holes"
    canvas.save(out / "rescatter_rim.png")
    return f"probes with room for one more: {holes[0]} without the band, {holes[1]} with it"


FIGURES = (fig_around, fig_rim)
