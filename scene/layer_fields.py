"""Turn a layer's density and mask settings into ``core`` fields and masks (array functions over xy)."""

from __future__ import annotations

from dataclasses import dataclass

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ..core.fields import (
    CurveRemap,
    Field,
    ImageField,
    Mask,
    PerlinNoise,
    VertexField,
)
from ..core.modes import DensityMode
from ..core.terrain import TerrainLookup
from .layer_inputs import Part, Source, combine
from .scatter_spec import DensityInput, LayerInput
from .terrain import MeshArrays


@dataclass(frozen=True)
class LayerFields:
    density: Field | None
    mask: Mask | None


def _image_luminance(image: bpy.types.Image) -> np.ndarray:
    width, height = image.size
    if width == 0 or height == 0:
        raise ValueError(rpt_('image "{name}" has no pixels (is the file missing?)').format(name=image.name))
    flat = np.empty(width * height * image.channels, dtype=np.float32)
    image.pixels.foreach_get(flat)
    pixels = flat.reshape(height, width, image.channels)
    if image.channels >= 3:
        return (0.2126 * pixels[..., 0] + 0.7152 * pixels[..., 1] + 0.0722 * pixels[..., 2]).astype(np.float64)
    return pixels[..., 0].astype(np.float64)


def _remap(density: DensityInput) -> CurveRemap | None:
    """The Low/High curve: 0 below Low, 1 above High, a smooth monotone step between (sharp when narrow)."""
    low, high = float(density.low), float(density.high)
    if low <= 0.0 and high >= 1.0:
        return None
    high = max(high, low + 1e-6)
    xs, ys = [low, high], [0.0, 1.0]
    if low > 0.0:
        xs, ys = [0.0, *xs], [0.0, *ys]
    if high < 1.0:
        xs, ys = [*xs, 1.0], [*ys, 1.0]
    return CurveRemap(xs, ys, mode="smooth")


def density_field(density: DensityInput, seed: int, terrain: TerrainLookup, mesh: MeshArrays) -> Field | None:
    if density.mode == DensityMode.NONE:
        return None
    if density.mode == DensityMode.NOISE:
        field: Field = PerlinNoise(seed=seed, scale=density.noise_scale, octaves=density.noise_octaves)
    elif density.mode == DensityMode.VERTEX_GROUP:
        field = VertexField(terrain, mesh.vertex_group_weights[density.vertex_group])
    else:
        field = ImageField(_image_luminance(density.image), terrain.bounds.min, terrain.bounds.max)
    curve = _remap(density)
    if curve is not None:
        field = field.remap(curve)
    if density.invert:
        field = 1.0 - field
    return field


def build(layer: LayerInput, terrain: TerrainLookup, mesh: MeshArrays, depsgraph: bpy.types.Depsgraph) -> LayerFields:
    """Fields and masks of one layer; raises ``ValueError`` with a message for the user."""
    density = density_field(layer.density, layer.spec.seed, terrain, mesh)
    source = Source(terrain, mesh, depsgraph)
    combined = combine([Part(density), *(found.build(source) for found in layer.inputs)])
    return LayerFields(density=combined.density, mask=combined.mask)
