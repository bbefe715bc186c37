"""Where the images a layer stretches over its surface changed between two live runs, as boxes in world xy.

An image input (:meth:`~.layer_inputs.base.Input.stretched_images`) samples its pixels bilinearly over the source
surface's xy bounds (:class:`~strew.core.fields.ImageField`): pixel column ``c`` of ``w`` weighs in only between
the centres of its neighbours, ``x0 + (c - 0.5) p`` to ``x0 + (c + 1.5) p`` (``p`` the pixel's width), and an edge
pixel also everywhere beyond its edge. A brush stroke changes a few pixels; only the chunks their footprint
meets need sampling again (``core.scatter.rerun_chunks``).
"""

from __future__ import annotations

import math

import bpy
import numpy as np

from .layer_inputs.density import luminance
from .scatter_spec import LayerInput

BLOCKS = 64
"""Changed pixels are boxed in blocks, at most this many across and down per image (a stroke over many pixels
gives a few thousand boxes at most)."""
FAR = 1e300
"""Beyond an edge pixel's side: the image's edge pixels extend outward."""

Pixels = tuple[np.ndarray, ...]


def read(layer: LayerInput, depsgraph: bpy.types.Depsgraph) -> Pixels | None:
    """The brightness of every image the layer's inputs stretch, in input order; None when there is none, or when
    an input without a key stretches no image (its part cannot be compared)."""
    found: list[np.ndarray] = []
    for part in layer.inputs:
        images = part.stretched_images()
        if not images and part.key(depsgraph) is None:
            return None
        found.extend(luminance(image) for image in images)
    return tuple(found) if found else None


def changed_boxes(before: Pixels, now: Pixels, low: np.ndarray, high: np.ndarray) -> np.ndarray | None:
    """Boxes ``(K, 2, 2)`` (``((x0, y0), (x1, y1))``) outside which no image stretched over ``low``–``high`` (xy)
    changed its value; None when an image changed its size (every place changes)."""
    if len(before) != len(now) or any(a.shape != b.shape for a, b in zip(before, now, strict=True)):
        return None
    boxes = [_boxes(a != b, low, high) for a, b in zip(before, now, strict=True)]
    return np.concatenate(boxes) if boxes else np.zeros((0, 2, 2))


def _boxes(changed: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """The footprint of the changed pixels (rows bottom to top), a box per block that holds one."""
    height, width = changed.shape
    down, across = math.ceil(height / BLOCKS), math.ceil(width / BLOCKS)
    padded = np.zeros((math.ceil(height / down) * down, math.ceil(width / across) * across), dtype=bool)
    padded[:height, :width] = changed
    blocks = padded.reshape(padded.shape[0] // down, down, padded.shape[1] // across, across).any(axis=(1, 3))
    rows, cols = np.nonzero(blocks)
    x0, x1 = _span(cols * across, np.minimum((cols + 1) * across, width) - 1, width, low[0], high[0])
    y0, y1 = _span(rows * down, np.minimum((rows + 1) * down, height) - 1, height, low[1], high[1])
    return np.stack([np.stack([x0, y0], axis=1), np.stack([x1, y1], axis=1)], axis=1)


def _span(first: np.ndarray, last: np.ndarray, count: int, low: float, high: float
          ) -> tuple[np.ndarray, np.ndarray]:
    """Where pixels ``first``..``last`` (of ``count`` over ``low``–``high``) weigh in, widened by half a pixel
    against rounding; an edge pixel's side reaches :data:`FAR`."""
    size = (high - low) / count
    start = np.where(first == 0, -FAR, low + (first - 1.0) * size)
    end = np.where(last == count - 1, FAR, low + (last + 2.0) * size)
    return start.astype(np.float64), end.astype(np.float64)
