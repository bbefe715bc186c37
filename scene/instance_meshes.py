"""The triangles Blender draws for a layer's instances, built in numpy: each prefab's evaluated mesh in the frame
its output draws it in, times each instance's matrix. No Blender object is made.

The frames follow :mod:`.footprints`: the Point Instancer and linked duplicates draw an object prefab in its own
space, collection empties keep its rotation and scale; a collection prefab draws its mesh objects where they
stand relative to the collection's instance offset. Only meshes count (a curve or text prefab, or a collection
instanced inside a prefab, adds no faces).
"""

from __future__ import annotations

from dataclasses import dataclass

import bpy
import numpy as np

from ..core import fpmath
from ..core.modes import OutputMode
from .instancer import Prefab
from .layer_links import Placed
from .terrain import GeometryError, MeshArrays, read_mesh


@dataclass(frozen=True)
class PrefabMesh:
    """A prefab's triangles in the frame its instances draw it in (vertices (V, 3), triangles (T, 3))."""

    vertices: np.ndarray
    triangles: np.ndarray


def _local(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph) -> tuple[np.ndarray, np.ndarray] | None:
    """The object's evaluated mesh in its own space, or None when it has no faces."""
    if obj.type != 'MESH':
        return None
    try:
        mesh = read_mesh(obj, depsgraph)
    except GeometryError:
        raise
    except ValueError:
        return None
    assert mesh.source is not None
    return mesh.source.columns.positions.reshape(-1, 3).astype(np.float64), mesh.triangles


def _joined(parts: list[tuple[np.ndarray, np.ndarray]]) -> PrefabMesh:
    vertices, triangles, base = [np.zeros((0, 3))], [np.zeros((0, 3), dtype=np.int64)], 0
    for points, faces in parts:
        vertices.append(points)
        triangles.append(faces.astype(np.int64) + base)
        base += len(points)
    return PrefabMesh(np.concatenate(vertices), np.concatenate(triangles))


def prefab_mesh(prefab: Prefab, output: OutputMode, depsgraph: bpy.types.Depsgraph) -> PrefabMesh:
    """What one instance of ``prefab`` draws at the identity matrix, as the layer's ``output`` draws it."""
    block = prefab.datablock
    parts: list[tuple[np.ndarray, np.ndarray]] = []
    if isinstance(block, bpy.types.Collection):
        offset = np.array(block.instance_offset, dtype=np.float64)
        for obj in block.all_objects:
            found = _local(obj, depsgraph)
            if found is not None:
                parts.append((fpmath.transform(found[0], np.array(obj.matrix_world, dtype=np.float64)) - offset,
                              found[1]))
    elif isinstance(block, bpy.types.Object):
        found = _local(block, depsgraph)
        if found is not None:
            points = found[0]
            if output == OutputMode.EMPTIES:  # a wrapper collection draws the object as it stands, less its location
                frame = np.array(block.matrix_world, dtype=np.float64)
                frame[:3, 3] = 0.0
                points = fpmath.transform(points, frame)
            parts.append((points, found[1]))
    return _joined(parts)


def instance_triangles(placed: Placed, meshes: list[PrefabMesh]) -> MeshArrays:
    """Every instance's prefab triangles in world space, as one triangle soup (instances of prefab 0 first, each
    prefab's in the instances' order); an instance of a prefab that is not there adds nothing."""
    vertices: list[np.ndarray] = [np.zeros((0, 3))]
    triangles: list[np.ndarray] = [np.zeros((0, 3), dtype=np.int64)]
    base = 0
    for index, mesh in enumerate(meshes):
        chosen = np.flatnonzero(placed.prefab == index)
        if not len(chosen) or not len(mesh.triangles):
            continue
        m, t, v = placed.matrices[chosen], placed.positions[chosen], mesh.vertices
        # Written out (no BLAS): the same bits on every machine, as fpmath.transform.
        world = np.stack([(m[:, None, k, 0] * v[None, :, 0] + m[:, None, k, 1] * v[None, :, 1])
                          + m[:, None, k, 2] * v[None, :, 2] + t[:, None, k] for k in range(3)], axis=-1)
        count = len(v)
        vertices.append(world.reshape(-1, 3))
        shifts = base + count * np.arange(len(chosen), dtype=np.int64)
        triangles.append((mesh.triangles[None, :, :] + shifts[:, None, None]).reshape(-1, 3))
        base += count * len(chosen)
    return MeshArrays(np.concatenate(vertices), np.concatenate(triangles), {})
