"""A layer's inputs, one class each (see :mod:`.base`), and the registry the job, the live cache and the live
watch loop over.

The order of :data:`INPUTS` is the order their density factors multiply and their masks combine in.
"""

from __future__ import annotations

from .along import Along
from .base import Input, Key, LookError, Part, Reach, Reading, Source, Watched, combine
from .camera import Camera
from .density import GroupDensity, ImageDensity, NoiseDensity
from .exclude import Exclude
from .mask_group import MaskGroup
from .mask_image import MaskImage
from .proximity import Proximity
from .targets import Targets

INPUTS: tuple[type[Input], ...] = (
    NoiseDensity, GroupDensity, ImageDensity, MaskGroup, Exclude, Proximity, Camera, Targets, MaskImage, Along,
)

__all__ = [
    "INPUTS",
    "Along",
    "Camera",
    "Exclude",
    "GroupDensity",
    "ImageDensity",
    "Input",
    "Key",
    "LookError",
    "MaskGroup",
    "MaskImage",
    "NoiseDensity",
    "Part",
    "Proximity",
    "Reach",
    "Reading",
    "Source",
    "Targets",
    "Watched",
    "combine",
    "read_inputs",
]


def read_inputs(reading: Reading) -> tuple[Input, ...]:
    """Every input the layer uses, validated, in registry order."""
    return tuple(found for kind in INPUTS if (found := kind.read(reading)) is not None)
