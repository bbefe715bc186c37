"""Guide figures for layers around other layers, Rescatter Region's rim and Exclude's margin (see generate.py):
mushrooms in a ring about each tree, with and without falloff; a region refilled without and with the band outside
its rim, the places left with room for one more marked; an asset placed twice kept clear by its exact margin. Each
promise is checked before it is drawn."""

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



def _barn() -> np.ndarray:
    """An L-shaped barn's roof seen from above as triangles (K, 3, 2), its origin at a corner."""
    outline = np.array([[0, 0], [10, 0], [10, 4], [4, 4], [4, 9], [0, 9]], dtype=float)
    fan = [(0, 1, 2), (0, 2, 3), (0, 3, 4), (0, 4, 5)]
    return outline[np.array(fan)]


def _placed(triangles: np.ndarray, at: tuple[float, float], turn: float) -> np.ndarray:
    c, s = np.cos(turn), np.sin(turn)
    return triangles @ np.array([[c, s], [-s, c]]) + np.array(at)


def _segment_distance(xy: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    ab = b - a
    t = np.clip(((xy[:, None] - a[None]) * ab[None]).sum(-1) / (ab * ab).sum(-1)[None], 0.0, 1.0)
    return np.linalg.norm(xy[:, None] - (a[None] + t[..., None] * ab[None]), axis=-1).min(axis=1)


def _inside(xy: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    a, b, c = triangles[:, 0], triangles[:, 1], triangles[:, 2]

    def side(p, q, r):
        return (q[None, :, 0] - p[None, :, 0]) * (r[:, None, 1] - p[None, :, 1]) - \
            (q[None, :, 1] - p[None, :, 1]) * (r[:, None, 0] - p[None, :, 0])

    d1, d2, d3 = side(a, b, xy), side(b, c, xy), side(c, a, xy)
    return (((d1 >= 0) & (d2 >= 0) & (d3 >= 0)) | ((d1 <= 0) & (d2 <= 0) & (d3 <= 0))).any(axis=1)


def fig_assets(out: Path) -> str:
    from strew.core.fields import AwayFromPolylines, OutsidePolygons

    size, margin = 40.0, 1.5
    terrain = _flat(size)
    barns = np.concatenate([_placed(_barn(), (6.0, 8.0), 0.0), _placed(_barn(), (32.0, 20.0), 2.3)])
    sides = np.concatenate([barns[:, [0, 1]], barns[:, [1, 2]], barns[:, [2, 0]]])
    keep_off = AwayFromPolylines(list(sides), margin=margin) & OutsidePolygons(list(barns))
    grass = scatter_layer(terrain, LayerSpec(min_radius=0.7, max_radius=0.7, seed=2, mask=keep_off))
    xy = grass.positions[:, :2]
    gap = _segment_distance(xy, sides[:, 0], sides[:, 1])
    assert not _inside(xy, barns).any() and gap.min() >= margin - 1e-9, "grass inside a barn's margin"
    canvas = Canvas(PANEL + 2 * GAP, PANEL + 2 * GAP)
    panel = View.fit(0, 0, size, size, GAP, GAP, PANEL)
    canvas.rect(panel.left, panel.top, panel.left + PANEL, panel.top + PANEL, GRASS)
    pixels, (rows, cols) = panel.pixel_centres(canvas)
    near = _segment_distance(pixels, sides[:, 0], sides[:, 1]) < margin
    roof = _inside(pixels, barns)
    shape = (rows.stop - rows.start, cols.stop - cols.start)
    halo, body = np.zeros((canvas.height, canvas.width)), np.zeros((canvas.height, canvas.width))
    halo[rows, cols] = (near & ~roof).reshape(shape)
    body[rows, cols] = roof.reshape(shape)
    canvas.mask(halo, PALE, alpha=0.8)
    canvas.mask(body, INK, alpha=0.55)
    draw_points(canvas, panel, _samples(grass), BUSH, dot=1.0, circle=0.0)
    frame(canvas, panel)
    canvas.save(out / "exclude_assets.png")
    return f"one barn asset placed twice; {len(grass)} grass, the closest {gap.min():.4f} m from a roof (margin 1.5)"


FIGURES = (fig_around, fig_rim, fig_assets)
