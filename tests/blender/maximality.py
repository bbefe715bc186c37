"""Is a layer's Point Instancer output maximal? Probes where one more instance of the layer would still fit.

A probe is *free* when the layer may place there (its own mask: terrain, slope, height, masks; and keep-away from
the layers above) and no instance holds it off: none within the spacing the sampler keeps, ``max(r_probe, r_i)``
for a layer spaced by radius, ``r_probe + r_i`` for one spaced by its objects' size (radii add up). The radius a
probe would get, the mask and the distance kept from the layers above are the layer's own rules (they define what
"one more fits" means); every distance is measured here by brute force against what the output holds.
"""

from __future__ import annotations

import math

import bpy
import numpy as np
from scipy.spatial import cKDTree

from strew.core.brush import Box, Circle
from strew.core.poisson.maximal import APPROX_SIDE, APPROX_SIDE_SUMMED
from strew.core.scatter import blocker_radii
from strew.core.scatter.spec import conflict_rule, spacing_radii
from strew.scene.brush import Brush


def layer_rows(name: str) -> tuple[np.ndarray, np.ndarray]:
    """World x, y and the stored radius of every instance of the layer's Point Instancer output."""
    obj = bpy.data.objects[f"Strew {name}"]
    mesh = obj.data
    count = len(mesh.vertices)
    co = np.empty(count * 3, dtype=np.float32)
    mesh.vertices.foreach_get("co", co)
    radii = np.empty(count, dtype=np.float32)
    mesh.attributes["strew_radius"].data.foreach_get("value", radii)
    xy = co.reshape(-1, 3)[:, :2].astype(np.float64) + np.array(obj.matrix_world)[:2, 3]
    return xy, radii.astype(np.float64)


def _held(probes: np.ndarray, own: np.ndarray, xy: np.ndarray, radii: np.ndarray, summed: bool) -> np.ndarray:
    """Whether a point of ``(xy, radii)`` holds each probe of radius ``own`` off (closer than the spacing)."""
    held = np.zeros(len(probes), dtype=bool)
    if not len(xy) or not len(probes):
        return held
    reach = float(own.max()) + float(radii.max())
    pairs = cKDTree(probes).sparse_distance_matrix(cKDTree(xy), reach, output_type="ndarray")
    a, b = own[pairs["i"]], radii[pairs["j"]]
    held[pairs["i"][pairs["v"] < (a + b if summed else np.maximum(a, b))]] = True
    return held


def free_probes(layer_index: int, probes: np.ndarray) -> np.ndarray:
    """``(M,) bool``: the probes (M, 2) where one more instance of layer ``layer_index`` would fit.

    A probe counts only where an instance larger by the sampler's finest refinement box (its diagonal) still fits:
    the sampler stops refining there, by design (``core/poisson/maximal.py``), and it also forgives the output's
    float32 positions."""
    brush = Brush.start(bpy.context, layer_index, camera=True)
    spec = brush.layer.spec
    summed = conflict_rule(spec) == "sum"
    low, high = spacing_radii(spec)
    cell = (2.0 * low if summed else low) / math.sqrt(2.0)
    resolution = (APPROX_SIDE_SUMMED if summed else APPROX_SIDE) * cell * math.sqrt(2.0)
    probes = np.asarray(probes, dtype=np.float64)
    allowed = np.asarray(brush.is_allowed(probes), dtype=bool)
    where = np.flatnonzero(allowed)
    at = probes[where]
    own = np.full(len(at), low) if brush.radius_at is None else np.clip(brush.radius_at(at), low, high)
    own = own + resolution
    free = ~_held(at, own, *layer_rows(brush.layer.name), summed)
    if brush.others is not None:
        reach = blocker_radii(spec, len(brush.others.radii), brush.keep)
        free &= ~_held(at, own, brush.others.positions, reach, summed)
    out = np.zeros(len(probes), dtype=bool)
    out[where[free]] = True
    return out


def grid(low: tuple[float, float], high: tuple[float, float], step: float) -> np.ndarray:
    """A square grid of probes over a rectangle, ``step`` apart."""
    xs = np.arange(low[0], high[0] + 0.5 * step, step)
    ys = np.arange(low[1], high[1] + 0.5 * step, step)
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    return np.column_stack([gx.ravel(), gy.ravel()])


def rim_rings(region: Box | Circle, offsets: np.ndarray, step: float) -> np.ndarray:
    """Probes ``step`` apart on the rim of the region grown by each offset (negative: shrunk, inside)."""
    rings = []
    for offset in offsets:
        if isinstance(region, Circle):
            radius = region.radius + offset
            if radius > 0:
                n = max(8, math.ceil(2.0 * math.pi * radius / step))
                t = np.arange(n) * (2.0 * math.pi / n)
                rings.append(region.centre + radius * np.column_stack([np.cos(t), np.sin(t)]))
            continue
        grown = max(offset, 0.0)
        low, high = (region.low, region.high) if offset >= 0 else (region.low - offset, region.high + offset)
        if (high < low).any():
            continue
        for axis in (0, 1):  # the four sides, pushed out by the offset
            other = 1 - axis
            n = max(2, math.ceil((high[axis] - low[axis]) / step) + 1)
            along = np.linspace(low[axis], high[axis], n)
            for at in (low[other] - grown, high[other] + grown):
                ring = np.empty((n, 2))
                ring[:, axis], ring[:, other] = along, at
                rings.append(ring)
        if grown > 0:  # the rounded corners
            n = max(16, math.ceil(2.0 * math.pi * grown / step))
            t = np.arange(n) * (2.0 * math.pi / n)
            circle = grown * np.column_stack([np.cos(t), np.sin(t)])
            rings.extend(np.array(corner) + circle for corner in ((low[0], low[1]), (high[0], low[1]),
                                                                   (low[0], high[1]), (high[0], high[1])))
    return np.concatenate(rings) if rings else np.zeros((0, 2))
