"""Mask Group: a layer places only where a terrain vertex group's weight reaches the threshold."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import bpy

from ...core.fields import VertexField
from .base import Input, Key, Part, Reach, Reading, Source, Watched


@dataclass(frozen=True)
class MaskGroup(Input):
    """The vertex group's name and the least weight kept."""

    group: str
    threshold: float

    @classmethod
    def read(cls, reading: Reading) -> MaskGroup | None:
        layer = reading.settings
        return cls(layer.mask_vertex_group, layer.mask_threshold) if layer.mask_vertex_group else None

    @staticmethod
    def watched(settings: Any, layer: Any) -> Watched:
        """The group's weights (its terrain's geometry is the surface's)."""
        return Watched(groups=frozenset({layer.mask_vertex_group}) if layer.mask_vertex_group else frozenset())

    def vertex_groups(self) -> frozenset[str]:
        return frozenset({self.group})

    def key(self, depsgraph: bpy.types.Depsgraph) -> Key:
        """The weights are part of the surface's read (its key changes with them)."""
        return self.run_key()

    def run_key(self) -> Key:
        return (self.group, self.threshold)

    def reaches(self) -> tuple[Reach, ...]:
        return ()

    def build(self, source: Source) -> Part:
        weights = VertexField(source.lookup, source.mesh.vertex_group_weights[self.group])
        return Part(mask=weights.above(self.threshold - 1e-12))
