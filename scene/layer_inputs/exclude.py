"""Exclude: keep a layer off the footprints of a collection's meshes (seen from above) and a margin away from
every edge and curve; a layer spaced by object size keeps the margin from each instance's footprint edge."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import bpy
import numpy as np

from ...core.fields import AwayFromPolylines, ClearOfPolylines, Mask, OutsidePolygons
from ...core.modes import SurfaceMode
from ...core.scatter import LayerSpec
from ...core.scatter.functions import footprint_function
from ..drawn import watched_objects
from ..fingerprints import collection_key
from ..from_above import read_exclusions
from .base import Input, Key, Part, Reach, Reading, Source, Watched


@dataclass(frozen=True)
class Exclude(Input):
    """The collection, the margin, and the layer's spec when its instances' footprints keep the margin (spaced by
    object size, from above; None otherwise: Every Face draws by 3-D place and keeps the plain margin)."""

    collection: bpy.types.Collection
    margin: float
    sized: LayerSpec | None

    @classmethod
    def read(cls, reading: Reading) -> Exclude | None:
        layer = reading.settings
        if layer.exclusion_collection is None:
            return None
        top = reading.surface == SurfaceMode.TOP and reading.spec.footprints is not None
        sized = dataclasses.replace(reading.spec, density=None, mask=None) if top else None
        return cls(layer.exclusion_collection, layer.exclusion_margin, sized)

    @staticmethod
    def watched(settings: Any, layer: Any) -> Watched:
        """The collection's objects and those of the collections they instance (not Strew's own output)."""
        if layer.exclusion_collection is None:
            return Watched()
        return Watched(blocks=tuple(watched_objects(layer.exclusion_collection)))

    def vertex_groups(self) -> frozenset[str]:
        return frozenset()

    def key(self, depsgraph: bpy.types.Depsgraph) -> Key:
        return (collection_key(self.collection, depsgraph), self.margin, self.sized)

    def run_key(self) -> Key:
        return (self.collection.name, self.margin, self.sized)

    def reaches(self) -> tuple[Reach, ...]:
        """The margin, plus the largest footprint of a layer spaced by object size."""
        footprint = None if self.sized is None else footprint_function(self.sized)
        return ((self.collection, self.margin + (0.0 if footprint is None else footprint[1])),)

    def build(self, source: Source) -> Part:
        footprint = None if self.sized is None else footprint_function(self.sized)
        segments, footprints = read_exclusions(self.collection, source.depsgraph)
        parts: list[Mask] = []
        if segments and footprint is not None and footprint[1] > 0:
            parts.append(ClearOfPolylines(list(np.concatenate(segments)), self.margin, *footprint))
        elif segments and self.margin > 0:
            parts.append(AwayFromPolylines(list(np.concatenate(segments)), margin=self.margin))
        if footprints:
            parts.append(OutsidePolygons(list(np.concatenate(footprints))))
        mask = None
        for part in parts:
            mask = part if mask is None else mask & part
        return Part(mask=mask)
