"""The surface a layer scatters on: the terrain, or the meshes of the layer's Targets collection, in world space."""

from __future__ import annotations

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from .drawn import drawn, watched_objects
from .fingerprints import drawn_print
from .from_above import world_mesh
from .terrain import MeshArrays


def target_objects(collection: bpy.types.Collection) -> list[bpy.types.Object]:
    """The objects whose change changes the targets: the collection's and those of the collections they instance,
    without anything Strew created."""
    return watched_objects(collection)


def targets_key(collection: bpy.types.Collection, depsgraph: bpy.types.Depsgraph) -> tuple[object, ...]:
    """Every mesh the collection draws, where it is drawn, condensed: equal exactly when the surface read from it
    would be."""
    return tuple((placed.key, placed.name, drawn_print(placed)) for placed in drawn(collection, depsgraph)
                 if placed.obj.type == 'MESH')


def read_targets(collection: bpy.types.Collection, depsgraph: bpy.types.Depsgraph) -> MeshArrays:
    """The evaluated meshes (modifiers, transforms) the collection draws (:func:`.drawn.drawn`: its mesh objects,
    those of the collections its empties instance, at each empty, and instances), as one triangle soup.

    Meshes without faces are skipped; ``ValueError`` when none has any, or one has a vertex at NaN, infinity or
    beyond 1e9 m.
    """
    vertices: list[np.ndarray] = []
    triangles: list[np.ndarray] = []
    base = 0
    for placed in drawn(collection, depsgraph):
        if placed.obj.type != 'MESH':
            continue
        mesh = world_mesh(placed, rpt_('Mesh "{name}"').format(name=placed.name))
        if mesh is None or not len(mesh.triangles):
            continue  # a mesh without faces: nothing to scatter on
        vertices.append(mesh.vertices)
        triangles.append(mesh.triangles + base)
        base += len(mesh.vertices)
    if not triangles:
        raise ValueError(rpt_('Targets "{name}" hold no mesh with faces: add meshes to the collection or clear '
                              "Targets to use the terrain").format(name=collection.name))
    return MeshArrays(np.concatenate(vertices), np.concatenate(triangles), {})
