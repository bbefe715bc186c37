"""Triangle-mesh input checks for the terrain lookup."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..inputs import near_origin


def validate_mesh(vertices: Any, triangles: Any) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """``vertices`` as a (V, 3) float64 array within ``MAX_DISTANCE`` of the origin and ``triangles`` as (F, 3)
    int64 indices into it."""
    verts = validate_vertices(vertices)
    return verts, validate_triangles(triangles, len(verts))


def validate_vertices(vertices: Any) -> NDArray[np.float64]:
    """``vertices`` as a contiguous (V, 3) float64 array of finite points within ``MAX_DISTANCE`` of the origin."""
    try:
        verts = np.asarray(vertices, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError("vertices: expected a (V, 3) array of numbers") from exc
    if verts.ndim != 2 or verts.shape[1] != 3:
        raise ValueError(f"vertices: expected shape (V, 3), got {verts.shape}")
    if len(verts) == 0:
        raise ValueError("vertices: the mesh is empty; pass at least one triangle's vertices")
    if not np.isfinite(verts).all():
        bad = int(np.flatnonzero(~np.isfinite(verts).all(axis=1))[0])
        raise ValueError(f"vertices: row {bad} is not finite ({verts[bad].tolist()}); fix the mesh")
    near_origin(verts, "vertices")
    return np.ascontiguousarray(verts)


def validate_triangles(triangles: Any, vertex_count: int) -> NDArray[np.int64]:
    """``triangles`` as a fresh contiguous (F, 3) int64 array of indices below ``vertex_count``."""
    tris_in = np.asarray(triangles)
    if tris_in.ndim != 2 or tris_in.shape[1] != 3:
        raise ValueError(f"triangles: expected shape (F, 3) of vertex indices, got {tris_in.shape}")
    if len(tris_in) == 0:
        raise ValueError("triangles: the mesh has no triangles; pass at least one")
    integral = np.issubdtype(tris_in.dtype, np.integer) or (
        np.issubdtype(tris_in.dtype, np.floating) and bool(np.all(tris_in == np.round(tris_in)))
    )
    if not integral:
        raise ValueError(f"triangles: expected integer vertex indices, got dtype {tris_in.dtype}")
    tris = tris_in.astype(np.int64)
    if np.min(tris) < 0 or np.max(tris) >= vertex_count:
        raise ValueError(
            f"triangles: vertex indices must lie in [0, {vertex_count - 1}], got [{np.min(tris)}, {np.max(tris)}]"
        )
    return np.ascontiguousarray(tris)
