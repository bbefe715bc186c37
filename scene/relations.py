"""The Scatter job's side of *Around* and *On Layer*: before a layer runs, its links are bound to the linked
layers' instances (this run's when the linked layer ran in the same job, else its output in the scene), and an
*Around* layer's region of work shrinks to the rings' bounds."""

from __future__ import annotations

import dataclasses
from collections.abc import Generator

import numpy as np

from ..core.modes import SurfaceMode
from ..core.scatter import LayerPoints
from .instances import PointSet
from .layer_inputs import Around, Related
from .layer_links import placed_of
from .scatter_spec import LayerInput

Region = tuple[tuple[float, float], tuple[float, float]]


def overlap(a: Region | None, b: Region) -> Region | None:
    """The rectangle both ``a`` (None: everywhere) and ``b`` cover, None when they do not meet."""
    if a is None:
        return b
    low = (max(a[0][0], b[0][0]), max(a[0][1], b[0][1]))
    high = (min(a[1][0], b[1][0]), min(a[1][1], b[1][1]))
    return (low, high) if low[0] < high[0] and low[1] < high[1] else None


def bind(layer: LayerInput, done: dict[str, PointSet]) -> LayerInput | None:
    """``layer`` with its links bound to the linked layers' instances (``done``: this job's results by layer id),
    its region cut to its rings; None when a linked layer has no instance there (the layer places none).
    ``ValueError`` when a linked layer has no output yet."""
    if not any(isinstance(found, Related) for found in layer.inputs):
        return layer
    spec = layer.spec
    inputs = []
    for found in layer.inputs:
        if isinstance(found, Related):
            ran = done.get(found.linked.layer_id)
            placed = placed_of(ran) if ran is not None else found.needed()
            if not len(placed):
                return None
            found = found.bound(placed)
            if isinstance(found, Around) and layer.surface == SurfaceMode.TOP:
                rings = found.circles(placed).bounds()
                region = None if rings is None else overlap(spec.region, rings)
                if region is None:
                    return None
                spec = dataclasses.replace(spec, region=region)
        inputs.append(found)
    return dataclasses.replace(layer, spec=spec, inputs=tuple(inputs))


def nothing() -> Generator[float, None, LayerPoints]:
    """The steps of a layer with nothing to place."""
    yield 1.0
    return LayerPoints(np.zeros((0, 3)), np.zeros(0), np.zeros((0, 3)), np.zeros(0, dtype=np.int64),
                       np.zeros((0, 3)), np.zeros(0), np.zeros(0))
