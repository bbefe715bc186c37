"""Where a terrain changed between two reads: the triangles whose corners moved or whose painted weights changed,
and their xy boxes, for a live update that samples only the chunks there (``core.scatter.rerun_chunks``) and
updates the terrain lookup for those triangles only (``TerrainLookup.edited``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .terrain import MeshArrays

MOST_TRIANGLES = 0.25
"""More changed triangles than this share: every chunk is sampled anyway, so no boxes are worked out."""


@dataclass(frozen=True)
class TerrainChanges:
    """The triangles of a new read that differ from an earlier one: ``moved`` (another corner vertex, or a corner
    moved, bit for bit: what the terrain lookup follows) and ``changed`` (those, and the triangles a corner of which
    has another painted weight: what the layers' fields follow); indices, ascending."""

    moved: np.ndarray
    changed: np.ndarray


def compare(old: MeshArrays, new: MeshArrays) -> TerrainChanges | None:
    """The triangles that differ between two reads of a terrain; None when the reads cannot be compared triangle
    by triangle (another number of vertices or triangles, other vertex groups)."""
    if (old.triangles.shape != new.triangles.shape or old.vertices.shape != new.vertices.shape
            or old.vertex_group_weights.keys() != new.vertex_group_weights.keys()):
        return None
    # Bit for bit (a coordinate going from 0.0 to -0.0 is a change a fresh read shows); an edit moves few vertices.
    moved = _flags(len(new.vertices), np.flatnonzero(old.vertices.view(np.uint64) != new.vertices.view(np.uint64)) // 3)
    count = len(new.triangles)
    rows = np.flatnonzero(old.triangles != new.triangles) // 3
    if moved is not None:
        rows = np.concatenate([rows, np.flatnonzero(moved[new.triangles]) // 3])
    rows = _indices(count, rows)
    repainted = _flags(len(new.vertices), np.concatenate(
        [np.zeros(0, dtype=np.intp)] + [np.flatnonzero(old.vertex_group_weights[name].view(np.uint64)
                                                       != weights.view(np.uint64))
                                        for name, weights in new.vertex_group_weights.items()]))
    changed = rows if repainted is None else _indices(
        count, np.concatenate([rows, np.flatnonzero(repainted[new.triangles]) // 3]))
    return TerrainChanges(rows, changed)


def _indices(count: int, indices: np.ndarray) -> np.ndarray:
    """``indices`` (below ``count``) ascending, each once."""
    flags = _flags(count, indices)
    return np.zeros(0, dtype=np.intp) if flags is None else np.flatnonzero(flags)


def _flags(count: int, indices: np.ndarray) -> np.ndarray | None:
    """A mask of ``count`` items with ``indices`` set; None when there are none."""
    if not len(indices):
        return None
    flags = np.zeros(count, dtype=bool)
    flags[indices] = True
    return flags


def changed_boxes(old: MeshArrays, new: MeshArrays, changes: TerrainChanges | None = None) -> np.ndarray | None:
    """An (K, 2, 2) array of ``((x0, y0), (x1, y1))`` boxes covering every triangle that changed (``changes``, or
    :func:`compare` of the two reads), before and after; None when the two reads cannot be compared triangle by
    triangle or when most of the terrain changed."""
    if changes is None:
        changes = compare(old, new)
    if changes is None or len(changes.changed) > MOST_TRIANGLES * len(new.triangles):
        return None
    rows = changes.changed
    corners = np.concatenate([old.vertices[old.triangles[rows], :2], new.vertices[new.triangles[rows], :2]],
                             axis=1)  # (K, 6, 2)
    return np.stack([corners.min(axis=1), corners.max(axis=1)], axis=1)
