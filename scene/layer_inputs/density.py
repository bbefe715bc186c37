"""Density: how close a layer's instances stand, from a noise, a terrain vertex group or an image, through the
Low/High curve and optionally inverted (1 packs them at Min Radius, 0 spreads them to Max Radius)."""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import Any

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ...core.fields import CurveRemap, Field, ImageField, PerlinNoise, VertexField
from ...core.modes import DensityMode
from .base import Input, Key, Part, Reach, Reading, Source, Watched, refusal


@dataclass(frozen=True)
class _Density(Input):
    """What every density shares: the Low/High curve and Invert. A subclass reads its own mode's settings."""

    low: float
    high: float
    invert: bool

    mode = DensityMode.NONE

    @classmethod
    def _used(cls, reading: Reading) -> bool:
        """Whether the layer's density is this mode (Low above High refused)."""
        layer = reading.settings
        if DensityMode(layer.density_mode) != cls.mode:
            return False
        if layer.density_low > layer.density_high:
            raise refusal(reading, "{layer}: density Low is above High")
        return True

    @staticmethod
    def _curve(layer: Any) -> tuple[float, float, bool]:
        return layer.density_low, layer.density_high, layer.density_invert

    def reaches(self) -> tuple[Reach, ...]:
        return ()

    def vertex_groups(self) -> frozenset[str]:
        return frozenset()

    @abstractmethod
    def _field(self, source: Source) -> Field:
        """The density before the curve and Invert."""

    def build(self, source: Source) -> Part:
        field = self._field(source)
        curve = _remap(self.low, self.high)
        if curve is not None:
            field = field.remap(curve)
        if self.invert:
            field = 1.0 - field
        return Part(density=field)


def _remap(low: float, high: float) -> CurveRemap | None:
    """The Low/High curve: 0 below Low, 1 above High, a smooth monotone step between (sharp when narrow)."""
    low, high = float(low), float(high)
    if low <= 0.0 and high >= 1.0:
        return None
    high = max(high, low + 1e-6)
    xs, ys = [low, high], [0.0, 1.0]
    if low > 0.0:
        xs, ys = [0.0, *xs], [0.0, *ys]
    if high < 1.0:
        xs, ys = [*xs, 1.0], [*ys, 1.0]
    return CurveRemap(xs, ys, mode="smooth")


@dataclass(frozen=True)
class NoiseDensity(_Density):
    """Perlin noise over world xy: its scale, octaves and the layer's seed."""

    scale: float = 1.0
    octaves: int = 1
    seed: int = 0

    mode = DensityMode.NOISE

    @classmethod
    def read(cls, reading: Reading) -> NoiseDensity | None:
        layer = reading.settings
        if not cls._used(reading):
            return None
        return cls(*cls._curve(layer), layer.noise_scale, layer.noise_octaves, reading.spec.seed)

    @staticmethod
    def watched(settings: Any, layer: Any) -> Watched:
        """Nothing of the scene: the noise depends on the settings only."""
        return Watched()

    def key(self, depsgraph: bpy.types.Depsgraph) -> Key:
        return self.run_key()

    def run_key(self) -> Key:
        return (self.low, self.high, self.invert, self.scale, self.octaves, self.seed)

    def _field(self, source: Source) -> Field:
        return PerlinNoise(seed=self.seed, scale=self.scale, octaves=self.octaves)


@dataclass(frozen=True)
class GroupDensity(_Density):
    """A terrain vertex group's weights."""

    group: str = ""

    mode = DensityMode.VERTEX_GROUP

    @classmethod
    def read(cls, reading: Reading) -> GroupDensity | None:
        layer = reading.settings
        if not cls._used(reading):
            return None
        if not layer.density_vertex_group:
            raise refusal(reading, "{layer}: density is set to Vertex Group but no group is named")
        return cls(*cls._curve(layer), layer.density_vertex_group)

    @staticmethod
    def watched(settings: Any, layer: Any) -> Watched:
        """The group's weights (its terrain's geometry is the surface's)."""
        used = DensityMode(layer.density_mode) == DensityMode.VERTEX_GROUP and layer.density_vertex_group
        return Watched(groups=frozenset({layer.density_vertex_group}) if used else frozenset())

    def vertex_groups(self) -> frozenset[str]:
        return frozenset({self.group})

    def key(self, depsgraph: bpy.types.Depsgraph) -> Key:
        """The weights are part of the surface's read (its key changes with them)."""
        return self.run_key()

    def run_key(self) -> Key:
        return (self.low, self.high, self.invert, self.group)

    def _field(self, source: Source) -> Field:
        return VertexField(source.lookup, source.mesh.vertex_group_weights[self.group])


@dataclass(frozen=True)
class ImageDensity(_Density):
    """An image's luminance stretched over the surface's xy bounds."""

    image: bpy.types.Image | None = None

    mode = DensityMode.IMAGE

    @classmethod
    def read(cls, reading: Reading) -> ImageDensity | None:
        layer = reading.settings
        if not cls._used(reading):
            return None
        if layer.density_image is None:
            raise refusal(reading, "{layer}: density is set to Image but no image is picked")
        return cls(*cls._curve(layer), layer.density_image)

    @staticmethod
    def watched(settings: Any, layer: Any) -> Watched:
        """The image (Blender reports it when its pixels change)."""
        used = DensityMode(layer.density_mode) == DensityMode.IMAGE and layer.density_image is not None
        return Watched(blocks=(layer.density_image,) if used else ())

    def key(self, depsgraph: bpy.types.Depsgraph) -> Key:
        """None: an image's pixels cannot be condensed cheaply, so it is read again every run."""
        return None

    def run_key(self) -> Key:
        return (self.low, self.high, self.invert, self.image.name if self.image is not None else None)

    def stretched_images(self) -> tuple[bpy.types.Image, ...]:
        return () if self.image is None else (self.image,)

    def _field(self, source: Source) -> Field:
        assert self.image is not None  # read() refuses a layer without one
        return ImageField(luminance(self.image), source.lookup.bounds.min, source.lookup.bounds.max)


def luminance(image: bpy.types.Image) -> np.ndarray:
    """The image's brightness per pixel, rows bottom to top (``ValueError`` for an image without pixels)."""
    width, height = image.size
    if width == 0 or height == 0:
        raise ValueError(rpt_('image "{name}" has no pixels (is the file missing?)').format(name=image.name))
    flat = np.empty(width * height * image.channels, dtype=np.float32)
    image.pixels.foreach_get(flat)
    pixels = flat.reshape(height, width, image.channels)
    if image.channels >= 3:
        return (0.2126 * pixels[..., 0] + 0.7152 * pixels[..., 1] + 0.0722 * pixels[..., 2]).astype(np.float64)
    return pixels[..., 0].astype(np.float64)
