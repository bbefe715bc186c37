"""The reference for what objects cover seen from above, computed apart from Strew: every mesh Blender draws for
the objects (through ``depsgraph.object_instances``: collection instances and Geometry Nodes instances included),
its triangles and loose edges in world space, and each point's exact XY distance to them by brute force."""

from __future__ import annotations

import bpy
import numpy as np


def drawn_meshes(objects: list[bpy.types.Object], only: set[str] | None = None
                 ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(world vertices (V, 3), loop triangles (T, 3), edges in no face (E, 2)) of every mesh Blender draws for
    ``objects``: their own and those of every instance they place (``only``: of the objects of those names)."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    wanted = {obj.name for obj in objects}
    found = []
    for instance in depsgraph.object_instances:
        owner = instance.parent if instance.is_instance else instance.object
        if owner is None or owner.original.name not in wanted:
            continue
        obj = instance.object
        if obj.type not in {'MESH', 'CURVE', 'SURFACE', 'FONT'} or (only is not None and obj.original.name not in only):
            continue
        matrix = np.array(instance.matrix_world)
        mesh = obj.to_mesh()
        co = np.array([tuple(v.co) for v in mesh.vertices], dtype=np.float64).reshape(-1, 3)
        mesh.calc_loop_triangles()
        faces = np.array([tuple(t.vertices) for t in mesh.loop_triangles], dtype=np.int64).reshape(-1, 3)
        in_faces = {tuple(sorted(key)) for polygon in mesh.polygons for key in polygon.edge_keys}
        loose = np.array([tuple(e.vertices) for e in mesh.edges if tuple(sorted(e.vertices)) not in in_faces],
                         dtype=np.int64).reshape(-1, 2)
        obj.to_mesh_clear()
        found.append((co @ matrix[:3, :3].T + matrix[:3, 3], faces, loose))
    return found


def drawn_geometry(objects: list[bpy.types.Object], only: set[str] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(triangles (T, 3, 2), segments (S, 2, 2)) in world XY of everything Blender draws for ``objects``: their own
    meshes and every instance they place; segments are the edges that are in no face (curves without bevel)."""
    triangles, segments = [np.zeros((0, 3, 2))], [np.zeros((0, 2, 2))]
    for points, faces, loose in drawn_meshes(objects, only):
        triangles.append(points[faces][:, :, :2])
        segments.append(points[loose][:, :, :2])
    return np.concatenate(triangles), np.concatenate(segments)


def _to_segments(points: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(N, K) distances from each point to each segment a-b."""
    d = b - a
    length2 = (d * d).sum(-1)
    t = ((points[:, None, :] - a[None]) * d[None]).sum(-1) / np.where(length2 > 0, length2, 1.0)[None]
    nearest = a[None] + np.clip(t, 0.0, 1.0)[..., None] * d[None]
    return np.sqrt(((points[:, None, :] - nearest) ** 2).sum(-1))


def xy_distance(points: np.ndarray, triangles: np.ndarray, segments: np.ndarray) -> np.ndarray:
    """Each point's XY distance to the union of the triangles (0 inside or on one) and the segments."""
    best = np.full(len(points), np.inf)
    for start in range(0, len(triangles), 128):
        a, b, c = (triangles[start:start + 128, k] for k in range(3))
        d = np.minimum(np.minimum(_to_segments(points, a, b), _to_segments(points, b, c)), _to_segments(points, c, a))
        sides = []
        for p, q in ((a, b), (b, c), (c, a)):
            sides.append((q[None, :, 0] - p[None, :, 0]) * (points[:, None, 1] - p[None, :, 1])
                         - (q[None, :, 1] - p[None, :, 1]) * (points[:, None, 0] - p[None, :, 0]))
        s1, s2, s3 = sides
        area = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])
        # A triangle of no area covers only its sides (all three signs are 0 everywhere on its line).
        inside = (((s1 >= 0) & (s2 >= 0) & (s3 >= 0)) | ((s1 <= 0) & (s2 <= 0) & (s3 <= 0))) & (area != 0)[None]
        best = np.minimum(best, np.where(inside, 0.0, d).min(axis=1))
    for start in range(0, len(segments), 256):
        chunk = segments[start:start + 256]
        best = np.minimum(best, _to_segments(points, chunk[:, 0], chunk[:, 1]).min(axis=1))
    return best
