"""Targets: a layer places on the meshes of its Targets collection instead of the terrain."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import bpy

from ..targets import target_objects, targets_key
from .base import Input, Key, Part, Reach, Reading, Source, Watched


@dataclass(frozen=True)
class Targets(Input):
    """The collection whose meshes (child collections, instanced collections and instances too, not Strew's
    output) the layer places on. The surface is read by ``layer_surface.Surfaces``; density and masks come from
    the terrain when there is one."""

    collection: bpy.types.Collection

    @classmethod
    def read(cls, reading: Reading) -> Targets | None:
        collection = reading.settings.targets
        return None if collection is None else cls(collection)

    @staticmethod
    def watched(settings: Any, layer: Any) -> Watched:
        """The collection's objects and those of the collections they instance (geometry and transform)."""
        return Watched(blocks=tuple(target_objects(layer.targets)) if layer.targets is not None else ())

    def vertex_groups(self) -> frozenset[str]:
        return frozenset()

    def key(self, depsgraph: bpy.types.Depsgraph) -> Key:
        """The collection with every mesh's fingerprint: the key of the surface read from it."""
        return (self.collection.name, targets_key(self.collection, depsgraph))

    def run_key(self) -> Key:
        """Which collection: a change of its meshes changes the surface, sampled whole again."""
        return self.collection.name

    def reaches(self) -> tuple[Reach, ...]:
        return ()

    def build(self, source: Source) -> Part:
        """Nothing of the fields: the targets are where the layer places, not how densely."""
        return Part()
