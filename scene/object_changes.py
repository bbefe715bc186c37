"""Where a layer's Exclude and Proximity objects changed between two live runs: xy boxes for a re-run that samples
only the chunks there (``core.scatter.rerun_chunks``), as a terrain edit does (:mod:`.terrain_changes`).

Each object drawn (:func:`.drawn.drawn`: an asset's objects at every empty placing it, instances too) is known by
its placement's key with its print (world matrix and evaluated geometry) and its world xy bounds grown by how far
it reaches into the layer: an Exclude object by the margin (plus the largest footprint of
a layer spaced by object size), a Proximity object by *Far* (the density changes up to there). An object that moved,
changed shape, came or went changes the layer inside its old and its new grown bounds only.
"""

from __future__ import annotations

import bpy
import numpy as np

from ..core import fpmath
from .drawn import Drawn, drawn
from .fingerprints import drawn_print
from .scatter_spec import LayerInput

Bounds = dict[tuple[object, ...], tuple[tuple[object, ...], tuple[float, float, float, float]]]


def _grown(placed: Drawn, reach: float) -> tuple[float, float, float, float]:
    corners = np.array([tuple(c) for c in placed.obj.bound_box], dtype=np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        xy = fpmath.transform(corners, placed.matrix)[:, :2]
    (x0, y0), (x1, y1) = xy.min(axis=0) - reach, xy.max(axis=0) + reach
    return float(x0), float(y0), float(x1), float(y1)


def object_bounds(layer: LayerInput, depsgraph: bpy.types.Depsgraph) -> Bounds:
    """Print and grown xy bounds of everything the layer's Exclude and Proximity collections draw."""
    found: Bounds = {}
    reaches: list[tuple[bpy.types.Collection, float]] = []
    for part in layer.inputs:
        reaches += part.reaches()
    for collection, reach in reaches:
        for placed in drawn(collection, depsgraph):
            found[placed.key] = (drawn_print(placed), _grown(placed, reach))
    return found


def changed_boxes(before: Bounds, now: Bounds) -> np.ndarray:
    """(K, 2, 2) xy boxes where the objects differ: the old and the new grown bounds of each object that changed,
    came or went; none when nothing did. Bounds that are not finite (a vertex at infinity) give a box over
    everything."""
    boxes = []
    for uid in before.keys() | now.keys():
        old, new = before.get(uid), now.get(uid)
        if old is not None and new is not None and old[0] == new[0] and old[1] == new[1]:
            continue
        boxes += [entry[1] for entry in (old, new) if entry is not None]
    if not boxes:
        return np.zeros((0, 2, 2))
    table = np.array(boxes, dtype=np.float64)
    table[~np.isfinite(table).all(axis=1)] = (-np.inf, -np.inf, np.inf, np.inf)
    return table.reshape(-1, 2, 2)
