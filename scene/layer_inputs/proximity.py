"""Proximity: a layer grows denser near the curves and meshes of a collection (Attract) or thinner (Repel)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ...core.modes import ProximityMode
from ...core.proximity import Proximity as ProximityField
from ..drawn import watched_objects
from ..fingerprints import collection_key
from ..from_above import read_exclusions
from .base import Input, Key, LookError, Part, Reach, Reading, Source, Watched


@dataclass(frozen=True)
class Proximity(Input):
    """The collection, whether it attracts (else repels), and the distances the effect runs between."""

    collection: bpy.types.Collection
    attract: bool
    near: float
    far: float

    @classmethod
    def read(cls, reading: Reading) -> Proximity | None:
        layer = reading.settings
        if layer.proximity_collection is None:
            return None
        if not layer.proximity_far > layer.proximity_near:
            raise LookError(rpt_("Proximity Far ({far:g}) must be beyond Near ({near:g})").format(
                far=layer.proximity_far, near=layer.proximity_near))
        return cls(layer.proximity_collection, layer.proximity_mode == ProximityMode.ATTRACT,
                   layer.proximity_near, layer.proximity_far)

    @staticmethod
    def watched(settings: Any, layer: Any) -> Watched:
        """The collection's objects and those of the collections they instance (not Strew's own output)."""
        if layer.proximity_collection is None:
            return Watched()
        return Watched(blocks=tuple(watched_objects(layer.proximity_collection)))

    def vertex_groups(self) -> frozenset[str]:
        return frozenset()

    def key(self, depsgraph: bpy.types.Depsgraph) -> Key:
        return (collection_key(self.collection, depsgraph), self.attract, self.near, self.far)

    def run_key(self) -> Key:
        return (self.collection.name, self.attract, self.near, self.far)

    def reaches(self) -> tuple[Reach, ...]:
        """The density changes up to *Far* from each object."""
        return ((self.collection, self.far),)

    def build(self, source: Source) -> Part:
        segments, footprints = read_exclusions(self.collection, source.depsgraph)
        if not segments and not footprints:
            raise ValueError(rpt_('proximity collection "{name}" has no curves or meshes').format(
                name=self.collection.name))
        lines = list(np.concatenate(segments)) if segments else []
        areas = list(np.concatenate(footprints)) if footprints else []
        return Part(density=ProximityField(lines, areas, self.near, self.far, self.attract))
