"""The surface a layer scatters on: the terrain, or the meshes of the layer's Targets collection, in world space."""

from __future__ import annotations

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from .ownership import is_owned
from .terrain import GeometryError, MeshArrays, read_mesh


def target_objects(collection: bpy.types.Collection) -> list[bpy.types.Object]:
    """The mesh objects of ``collection`` and its child collections, without anything Strew created."""
    return [obj for obj in collection.all_objects if obj.type == 'MESH' and not is_owned(obj)]


def read_targets(collection: bpy.types.Collection, depsgraph: bpy.types.Depsgraph) -> MeshArrays:
    """The evaluated meshes (modifiers, transforms) of the collection's mesh objects, as one triangle soup.

    Objects without faces are skipped; ``ValueError`` when no object has any, or one has a vertex at NaN,
    infinity or beyond 1e9 m.
    """
    vertices: list[np.ndarray] = []
    triangles: list[np.ndarray] = []
    base = 0
    for obj in target_objects(collection):
        try:
            mesh = read_mesh(obj, depsgraph)
        except GeometryError:
            raise
        except ValueError:
            continue  # a mesh object without faces: nothing to scatter on
        vertices.append(mesh.vertices)
        triangles.append(mesh.triangles + base)
        base += len(mesh.vertices)
    if not triangles:
        raise ValueError(rpt_('Targets "{name}" hold no mesh with faces: add meshes to the collection or clear '
                              "Targets to use the terrain").format(name=collection.name))
    return MeshArrays(np.concatenate(vertices), np.concatenate(triangles), {})
