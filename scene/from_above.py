"""What a collection covers seen from above, for Exclude and Proximity: its drawn geometry projected on XY.

The ground a mesh covers from above is the union of its triangles projected on XY, so the distance from a place
to it is 0 inside a projected triangle and the distance to the nearest triangle side outside. The sides that
matter are the outline of that union, and a side can be on the outline without being an edge of the mesh: a
quad bent over itself seen from above (Suzanne's ears) shows the diagonal Blender splits it along. So the
segments measured are the mesh's edges (curves without faces, loose edges) and the sides of its triangles.
"""

from __future__ import annotations

from dataclasses import dataclass

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from .drawn import Drawn, drawn
from .terrain import check_vertices, world_vertices


@dataclass(frozen=True)
class WorldMesh:
    """A drawn object's evaluated mesh in world space: vertices (V, 3), Blender's loop triangles (T, 3) and edges
    (E, 2), int64."""

    vertices: np.ndarray
    triangles: np.ndarray
    edges: np.ndarray


def world_mesh(placed: Drawn, named: str) -> WorldMesh | None:
    """The evaluated mesh of ``placed`` where it is drawn (None: no vertices); a vertex at NaN, infinity or
    beyond 1e9 m is refused (:class:`~.terrain.GeometryError` naming ``named``)."""
    mesh = placed.obj.to_mesh()
    try:
        if mesh is None or len(mesh.vertices) == 0:
            return None
        with np.errstate(invalid="ignore", over="ignore"):  # a vertex at infinity: named just below
            points = world_vertices(mesh, placed.matrix)
        check_vertices(named, mesh, points)
        edges = np.empty(len(mesh.edges) * 2, dtype=np.int64)
        mesh.edges.foreach_get("vertices", edges)
        mesh.calc_loop_triangles()
        triangles = np.empty(len(mesh.loop_triangles) * 3, dtype=np.int64)
        mesh.loop_triangles.foreach_get("vertices", triangles)
    finally:
        placed.obj.to_mesh_clear()
    return WorldMesh(points, triangles.reshape(-1, 3), edges.reshape(-1, 2))


def outline_pairs(mesh: WorldMesh) -> np.ndarray:
    """(S, 2) vertex pairs whose segments hold the outline of the mesh seen from above: its edges and the sides
    of its triangles that are no edge (each once)."""
    count = max(1, len(mesh.vertices))
    sides = np.concatenate([mesh.triangles[:, [0, 1]], mesh.triangles[:, [1, 2]], mesh.triangles[:, [2, 0]]])
    sides.sort(axis=1)
    edges = np.sort(mesh.edges, axis=1)
    known = np.sort(edges[:, 0] * count + edges[:, 1])
    keys = np.sort(sides[:, 0] * count + sides[:, 1])
    at = np.minimum(np.searchsorted(known, keys), max(0, len(known) - 1))
    new = keys[~(known[at] == keys)] if len(known) else keys
    if len(new):
        first = np.ones(len(new), dtype=bool)
        np.not_equal(new[1:], new[:-1], out=first[1:])
        new = new[first]
    return np.concatenate([mesh.edges, np.stack([new // count, new % count], axis=1)])


def read_exclusions(
    collection: bpy.types.Collection, depsgraph: bpy.types.Depsgraph
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Curves and meshes ``collection`` draws (:func:`.drawn.drawn`: instanced collections and instances too)
    seen from above: (segments as (S, 2, 2) XY arrays, footprint triangles as (K, 3, 2) XY arrays).

    The segments are every edge and every triangle side (roads, rivers, outlines: the margin is kept from them);
    the triangles are forbidden as a whole (house footprints, ponds); a face standing on edge seen from above
    covers nothing but its sides. Objects without geometry (empties, lights) add nothing.
    """
    segments: list[np.ndarray] = []
    footprints: list[np.ndarray] = []
    for placed in drawn(collection, depsgraph):
        named = rpt_('"{name}" (collection "{collection}")').format(name=placed.name, collection=collection.name)
        mesh = world_mesh(placed, named)
        if mesh is None:
            continue
        xy = mesh.vertices[:, :2]
        pairs = outline_pairs(mesh)
        if len(pairs):
            segments.append(xy[pairs])
        if len(mesh.triangles):
            corners = xy[mesh.triangles]
            # A face seen edge-on from above (a wall, Suzanne's sides) covers no ground: leave it out.
            u, v = corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]
            covers = u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0] != 0.0
            if covers.any():
                footprints.append(corners[covers])
    return segments, footprints
