"""Where a terrain changed between two reads: the xy boxes of the triangles whose corners moved or whose painted
weights changed, for a live update that samples only the chunks there (``core.scatter.rerun_chunks``)."""

from __future__ import annotations

import numpy as np

from .terrain import MeshArrays

MOST_TRIANGLES = 0.25
"""More changed triangles than this share: every chunk is sampled anyway, so no boxes are worked out."""


def changed_boxes(old: MeshArrays, new: MeshArrays) -> np.ndarray | None:
    """An (K, 2, 2) array of ``((x0, y0), (x1, y1))`` boxes covering every triangle that changed, before and
    after; None when the two reads cannot be compared triangle by triangle (other faces, other vertex groups)
    or when most of the terrain changed."""
    if (old.triangles.shape != new.triangles.shape or old.vertices.shape != new.vertices.shape
            or old.vertex_group_weights.keys() != new.vertex_group_weights.keys()
            or not np.array_equal(old.triangles, new.triangles)):
        return None
    moved = (old.vertices != new.vertices).any(axis=1)
    for name, weights in new.vertex_group_weights.items():
        moved |= old.vertex_group_weights[name] != weights
    triangles = new.triangles[moved[new.triangles].any(axis=1)]
    if len(triangles) > MOST_TRIANGLES * len(new.triangles):
        return None
    corners = np.concatenate([old.vertices[triangles, :2], new.vertices[triangles, :2]], axis=1)  # (K, 6, 2)
    return np.stack([corners.min(axis=1), corners.max(axis=1)], axis=1)
