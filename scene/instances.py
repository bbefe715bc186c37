"""The one container of a layer's instances on the Blender side, from the job's result to the output writers.

``core.scatter.LayerPoints`` comes out of the sampler; :class:`PointSet` adds what the scene knows (which
instances were painted by hand) and is what the writers take and the reader gives back.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from ..core.poisson import Samples
from ..core.scatter import LayerPoints


@dataclass
class PointSet:
    """A layer's instances as arrays (world space), with the painted flag."""

    positions: np.ndarray
    rotations: np.ndarray
    scales: np.ndarray
    prefab_index: np.ndarray
    radii: np.ndarray
    randoms: np.ndarray  # the instance's own value in [0, 1) that a material reads (``strew_random``)
    painted: np.ndarray  # bool

    def __len__(self) -> int:
        return len(self.positions)

    def take(self, keep: np.ndarray) -> PointSet:
        return PointSet(*(getattr(self, f.name)[keep] for f in dataclasses.fields(self)))

    @staticmethod
    def join(a: PointSet, b: PointSet) -> PointSet:
        return PointSet(*(np.concatenate([getattr(a, f.name), getattr(b, f.name)]) for f in dataclasses.fields(a)))

    @staticmethod
    def of(points: LayerPoints, painted: bool) -> PointSet:
        return PointSet(points.positions, points.rotations, points.scales, points.prefab_index, points.radii,
                        points.randoms, np.full(len(points), painted))

    def as_blockers(self) -> Samples:
        """The instances as blockers of a later sample (3-D positions, as the surface layers need)."""
        return Samples(self.positions.copy(), self.radii.copy())
