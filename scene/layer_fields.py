"""Turn a layer's inputs into its ``core`` density field and mask (array functions over xy)."""

from __future__ import annotations

from dataclasses import dataclass

import bpy

from ..core.fields import Field, Mask
from ..core.terrain import TerrainLookup
from .layer_inputs import Source, combine
from .scatter_spec import LayerInput
from .terrain import MeshArrays


@dataclass(frozen=True)
class LayerFields:
    density: Field | None
    mask: Mask | None


def build(layer: LayerInput, terrain: TerrainLookup, mesh: MeshArrays, depsgraph: bpy.types.Depsgraph) -> LayerFields:
    """Fields and masks of one layer, each input's part in registry order; raises ``ValueError`` with a message
    for the user."""
    source = Source(terrain, mesh, depsgraph)
    combined = combine(found.build(source) for found in layer.inputs)
    return LayerFields(density=combined.density, mask=combined.mask)
