"""Guide figure for curve layers (see generate.py): left, a hedge spaced 3 m left of a winding road and fence posts
every 4 m 3 m right of it; right, an alley 6 m on both sides and a verge band 5 m wide that keeps away from the
alley's trees. Each is checked before it is drawn."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from generate import BUSH, GAP, GRASS, PANEL, ROAD, TREE, View, assert_no_conflict, draw_points, frame
from raster import Canvas, hex_colour

from strew.core.curve import AlongSpec, CurvePath, curve_layer
from strew.core.fields import AwayFromPolylines
from strew.core.modes import AlongMode
from strew.core.poisson import Samples
from strew.core.scatter import LayerSpec, scatter_layer
from strew.core.terrain import TerrainLookup

POST = hex_colour("#5d4037")


def _flat(size: float) -> TerrainLookup:
    vertices = np.array([[0, 0, 0], [size, 0, 0], [size, size, 0], [0, size, 0]], dtype=float)
    return TerrainLookup(vertices, np.array([[0, 1, 2], [0, 2, 3]]))


def _samples(points) -> Samples:
    return Samples(points.positions[:, :2], points.radii)


def _distance(xy: np.ndarray, line: np.ndarray) -> np.ndarray:
    xy, a, b = xy[:, :2], line[:-1, :2], line[1:, :2]
    ab = b - a
    t = np.clip(((xy[:, None] - a[None]) * ab[None]).sum(-1) / (ab * ab).sum(-1)[None], 0.0, 1.0)
    return np.linalg.norm(xy[:, None] - (a[None] + t[..., None] * ab[None]), axis=-1).min(axis=1)


def fig_curves(out: Path) -> str:
    size = 60.0
    terrain = _flat(size)
    x = np.linspace(2.0, size - 2.0, 90)
    road = np.stack([x, 30 + 14 * np.sin(x / 9.0), np.zeros_like(x)], axis=1)
    path = CurvePath.of([road])
    hedge = curve_layer(AlongSpec(path, offset=3.0), LayerSpec(min_radius=1.6, max_radius=1.6, seed=2), terrain)
    posts = curve_layer(AlongSpec(path, AlongMode.STEP, step=4.0, offset=-3.0), LayerSpec(min_radius=0.3,
                        max_radius=0.3, seed=2), terrain)
    alley = curve_layer(AlongSpec(path, offset=6.0, both_sides=True), LayerSpec(min_radius=3.0, max_radius=3.0,
                        seed=4), terrain)
    band = ~AwayFromPolylines([road], margin=5.0)
    verge = scatter_layer(terrain, LayerSpec(min_radius=0.9, max_radius=0.9, seed=7, mask=band, keep_away=1.5),
                          _samples(alley))
    assert_no_conflict(_samples(hedge), what="hedge along the road")
    assert_no_conflict(_samples(verge), what="verge band")
    assert np.abs(_distance(hedge.positions, road) - 3.0).max() < 1.0, "a hedge plant off its line"
    assert np.abs(_distance(alley.positions, road) - 6.0).max() < 1.0, "an alley tree off its line"
    assert _distance(verge.positions, road).max() < 5.0, "a verge plant outside the band"
    canvas = Canvas(2 * PANEL + 3 * GAP, PANEL + 2 * GAP)
    left = View.fit(0, 0, size, size, GAP, GAP, PANEL)
    right = View.fit(0, 0, size, size, 2 * GAP + PANEL, GAP, PANEL)
    for panel in (left, right):
        canvas.rect(panel.left, panel.top, panel.left + PANEL, panel.top + PANEL, GRASS)
        canvas.polyline(panel.px(road[:, :2]), ROAD, width=0.8 * panel.scale)
    draw_points(canvas, left, _samples(hedge), BUSH, dot=1.4)
    for px, py in left.px(posts.positions[:, :2]):
        canvas.disc(px, py, 2.2, POST)
    draw_points(canvas, right, _samples(alley), TREE, dot=1.6)
    draw_points(canvas, right, _samples(verge), BUSH, dot=1.0, circle=0.0)
    for panel in (left, right):
        frame(canvas, panel)
    canvas.save(out / "curve_layers.png")
    return (f"hedge {len(hedge)} (spaced 1.6 m), posts {len(posts)} every 4 m, alley {len(alley)}, "
            f"verge band {len(verge)}")


FIGURES = (fig_curves,)
