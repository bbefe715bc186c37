"""Triangle soups: validation, face normals and areas, uniform darts, and splitting into small fragments.

A fragment is a triangle ``(M, 3, 3)`` (three corners, each x, y, z) that lies inside one input face; the
sampler keeps the id of that face beside it.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .. import fpmath
from ..inputs import near_origin

# A face whose area is below this share of (longest edge)² is degenerate (a segment or a point): skipped.
DEGENERATE = 1e-12


def validate_mesh(vertices: Any, triangles: Any) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Float64 vertices (V, 3) and int64 triangles (F, 3), or ``ValueError`` naming what to fix."""
    try:
        v = np.asarray(vertices, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("vertices must be an array of (x, y, z) numbers") from None
    if v.ndim != 2 or v.shape[1] != 3:
        raise ValueError(f"vertices must have shape (V, 3), got {v.shape}")
    if not np.isfinite(v).all():
        raise ValueError("vertices contain NaN or inf; fix or remove those vertices")
    near_origin(v, "vertices")
    t = np.asarray(triangles)
    if t.size == 0:
        raise ValueError("triangles is empty: give at least one face with a non-zero area")
    if t.ndim != 2 or t.shape[1] != 3 or not np.issubdtype(t.dtype, np.integer):
        raise ValueError(f"triangles must be integer vertex indices of shape (F, 3), got {t.dtype} {t.shape}")
    t = t.astype(np.int64)
    if t.min() < 0 or t.max() >= len(v):
        raise ValueError(
            f"triangles index vertices {t.min()}..{t.max()} but there are {len(v)} vertices; fix the indices"
        )
    return v, t


def face_frames(corners: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Areas (F,) and unit normals (F, 3) of triangles (F, 3, 3); the normal follows the corner order."""
    cross = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    double = fpmath.norm3(cross)
    normals = cross / np.where(double > 0, double, 1.0)[:, None]
    return 0.5 * double, normals


def usable_faces(corners: NDArray[np.float64], areas: NDArray[np.float64]) -> NDArray[np.int64]:
    """Indices of faces that are not degenerate (area above a tiny share of their longest edge squared)."""
    edges = corners - np.roll(corners, 1, axis=1)
    longest2 = (edges * edges).sum(axis=2).max(axis=1)
    return np.flatnonzero(areas > DEGENERATE * longest2)


def darts(corners: NDArray[np.float64], u: NDArray[np.float64]) -> NDArray[np.float64]:
    """One uniform point in each triangle (M, 3, 3) from uniform numbers ``u`` (2, M) (reflected square)."""
    flip = u[0] + u[1] > 1.0
    a = np.where(flip, 1.0 - u[0], u[0])[:, None]
    b = np.where(flip, 1.0 - u[1], u[1])[:, None]
    return corners[:, 0] + a * (corners[:, 1] - corners[:, 0]) + b * (corners[:, 2] - corners[:, 0])


def longest_edge2(corners: NDArray[np.float64]) -> NDArray[np.float64]:
    """Squared longest edge (the diameter squared) of every triangle (M, 3, 3)."""
    edges = corners - np.roll(corners, 1, axis=1)
    return (edges * edges).sum(axis=2).max(axis=1)


def bisect_to(
    corners: NDArray[np.float64], face: NDArray[np.int64], longest: float
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Split triangles at the midpoint of their longest edge until no edge is longer than ``longest``.

    Longest-edge bisection keeps the pieces well shaped (angles stay bounded below) and makes about
    ``area / longest²`` pieces of a large face but only ``length / longest`` of a long sliver.
    """
    done_c, done_f = [], []
    limit2 = longest * longest
    while len(corners):
        edges = corners[:, [1, 2, 0]] - corners[:, [2, 0, 1]]  # edge k is opposite corner k
        length2 = (edges * edges).sum(axis=2)
        apex = length2.argmax(axis=1)
        split = length2[np.arange(len(corners)), apex] > limit2
        done_c.append(corners[~split])
        done_f.append(face[~split])
        corners, face, apex = corners[split], face[split], apex[split]
        rows = np.arange(len(corners))[:, None]
        turn = corners[rows, (apex[:, None] + np.arange(3)) % 3]  # the longest edge now joins corners 1, 2
        mid = 0.5 * (turn[:, 1] + turn[:, 2])
        left = np.stack((turn[:, 0], turn[:, 1], mid), axis=1)
        right = np.stack((turn[:, 0], mid, turn[:, 2]), axis=1)
        corners = np.concatenate((left, right))
        face = np.concatenate((face, face))
    return np.concatenate(done_c), np.concatenate(done_f)


def split4(
    corners: NDArray[np.float64], face: NDArray[np.int64]
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """The four midpoint children of every triangle (same shape, half the size), children grouped by kind."""
    a, b, c = corners[:, 0], corners[:, 1], corners[:, 2]
    ab, bc, ca = 0.5 * (a + b), 0.5 * (b + c), 0.5 * (c + a)
    children = np.concatenate(
        (np.stack((a, ab, ca), 1), np.stack((ab, b, bc), 1), np.stack((ca, bc, c), 1), np.stack((ab, bc, ca), 1))
    )
    return children, np.tile(face, 4)


def block_ranges(weights: NDArray[np.float64], per_block: float) -> list[tuple[int, int]]:
    """Consecutive ranges of items whose weights add up to about ``per_block`` each (at least one item)."""
    if len(weights) == 0:
        return []
    cuts = np.searchsorted(np.cumsum(weights), np.arange(per_block, weights.sum(), per_block))
    edges = np.unique(np.concatenate(([0], cuts + 1, [len(weights)])).clip(0, len(weights)))
    return [(int(lo), int(hi)) for lo, hi in itertools.pairwise(edges) if hi > lo]


__all__ = ["bisect_to", "block_ranges", "darts", "face_frames", "split4", "validate_mesh"]
