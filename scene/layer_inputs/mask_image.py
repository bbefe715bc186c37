"""Mask Image: a layer places only where an image, stretched over the surface seen from above, is at least as
bright as the threshold (a painted map of where things may grow)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import bpy

from ...core.fields import ImageField
from .base import Input, Key, Part, Reach, Reading, Source, Watched
from .density import luminance


@dataclass(frozen=True)
class MaskImage(Input):
    """The image and the least brightness kept."""

    image: bpy.types.Image
    threshold: float

    @classmethod
    def read(cls, reading: Reading) -> MaskImage | None:
        layer = reading.settings
        return None if layer.mask_image is None else cls(layer.mask_image, layer.mask_image_threshold)

    @staticmethod
    def watched(settings: Any, layer: Any) -> Watched:
        """The image (Blender reports it when its pixels change)."""
        return Watched(blocks=(layer.mask_image,) if layer.mask_image is not None else ())

    def vertex_groups(self) -> frozenset[str]:
        return frozenset()

    def key(self, depsgraph: bpy.types.Depsgraph) -> Key:
        """None: an image's pixels cannot be condensed cheaply, so it is read again every run."""
        return None

    def run_key(self) -> Key:
        return (self.image.name, self.threshold)

    def stretched_images(self) -> tuple[bpy.types.Image, ...]:
        return (self.image,)

    def reaches(self) -> tuple[Reach, ...]:
        return ()

    def build(self, source: Source) -> Part:
        field = ImageField(luminance(self.image), source.lookup.bounds.min, source.lookup.bounds.max)
        return Part(mask=field.above(self.threshold - 1e-12))
