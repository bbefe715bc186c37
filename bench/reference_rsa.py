"""Reference for ``bench_poisson`` only (not part of the package): saturated random sequential adsorption
on a torus, one dart at a time, written independently of the sampler."""

from __future__ import annotations

import numpy as np


def reference_rsa(size: float, radius: float, seed: int) -> np.ndarray:
    """Saturated random sequential adsorption on a torus, one dart at a time (slow; small tori only).

    Independent of the sampler's code: darts are uniform over the union of the live boxes of one size
    (box drawn with replacement, then a uniform place in it), which is uniform over the free places; a
    dart that fits is kept at once. Boxes inside one disk are dropped; when darts keep missing, all boxes
    are halved. Runs until no box is left.
    """
    rng = np.random.default_rng(seed)
    cells = int(size / radius * 2.0)
    side = size / cells
    boxes = np.stack(np.meshgrid(np.arange(cells), np.arange(cells)), -1).reshape(-1, 2) * side
    points: list[np.ndarray] = []

    def wrapped(q: np.ndarray, pts: np.ndarray) -> np.ndarray:
        delta = np.abs(q[..., None, :] - pts)
        delta = np.minimum(delta, size - delta)
        return np.sqrt((delta**2).sum(-1))

    while len(boxes):
        for _ in range(4 * len(boxes)):
            q = boxes[rng.integers(len(boxes))] + rng.random(2) * side
            if not points or wrapped(q, np.array(points)).min() >= radius:
                points.append(q % size)
        pts = np.array(points)
        side *= 0.5
        boxes = np.concatenate([boxes + off for off in ((0, 0), (side, 0), (0, side), (side, side))])
        corners = np.stack([boxes + off for off in ((0, 0), (side, 0), (0, side), (side, side))], 1)
        inside = wrapped(corners, pts) < radius  # (boxes, 4 corners, points)
        boxes = boxes[~inside.all(axis=1).any(axis=1)]
    return np.array(points)
