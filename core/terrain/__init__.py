"""Terrain lookup: what a ray cast straight down from above would hit, vectorised in numpy.

The triangles are binned once into a uniform grid (:mod:`.grid`); a query tests the triangles of its own
cell only (:mod:`.lookup`). Masks and fields built on one lookup share its one-entry sample cache.

Blender note: read the terrain with ``mesh.loop_triangles`` (Blender's own triangulation of quads and
n-gons) of the *evaluated* mesh, and transform the vertices by the object's world matrix before building
the lookup; :func:`triangulate_polygons` reproduces the quad split for meshes read without it.

>>> import numpy as np
>>> t = TerrainLookup(np.array([[0, 0, 0], [2, 0, 0], [0, 2, 2.0]]), np.array([[0, 1, 2]]))
>>> float(t.sample(np.array([[0.5, 0.5]])).z[0])
0.5
"""

from .lookup import TerrainLookup, TerrainSampleCache, terrain_cache
from .results import NoAreaError, TerrainBounds, TerrainHit
from .triangulate import triangulate_polygons

__all__ = [
    "NoAreaError",
    "TerrainBounds",
    "TerrainHit",
    "TerrainLookup",
    "TerrainSampleCache",
    "terrain_cache",
    "triangulate_polygons",
]
