"""Around: a layer placed only in a ring ``[min, max]`` about the instances of an earlier layer (mushrooms at the
feet of trees), optionally densest at the ring's inner edge.

The distance is seen from above, from the nearest instance of that layer; when either layer is spaced by Object
Size it is measured between footprint edges (each prefab's footprint times the instance's scale; a *From Above*
layer's own footprint is the one drawn at the place before density or slope shrink it).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ...core.fields.rings import CircleGaps, RingFalloff, RingMask
from ...core.modes import OutputMode, SpacingMode, SurfaceMode
from ...core.scatter import LayerSpec
from ...core.scatter.functions import footprint_function
from ..footprints import footprints
from ..instancer import prefabs_of
from ..layer_links import LINKS, Linked, Placed, linked_layer
from .base import Input, Key, LookError, Part, Reach, Reading, Source, Watched
from .related import Related


@dataclass(frozen=True)
class Around(Related, Input):
    """The linked layer, the ring, whether density falls off across it, the linked layer's footprints (None: its
    instances are points) and this layer's spec with its footprints when its own footprint counts (else None)."""

    scene: bpy.types.Scene
    linked: Linked
    near: float
    far: float
    falloff: bool
    others: tuple[float, ...] | None
    sized: LayerSpec | None
    points: Placed | None = None
    label = "Around"

    @classmethod
    def read(cls, reading: Reading) -> Around | None:
        layer = reading.settings
        linked = linked_layer(layer, reading.scene, layer.around, cls.label, LINKS)
        if linked is None:
            return None
        if layer.around_max < layer.around_min:
            raise LookError(rpt_("Around Max ({far:g}) is below Around Min ({near:g}): raise Around Max").format(
                far=layer.around_max, near=layer.around_min))
        by_size = SpacingMode.OBJECTS in (layer.spacing, linked.spacing)
        others = None
        if by_size and linked.collection is not None:
            others = footprints(tuple(linked.prefabs()), OutputMode(linked.output), SurfaceMode.TOP)
        sized = None
        if by_size and reading.surface == SurfaceMode.TOP:
            own = reading.spec.footprints
            if own is None:
                own = footprints(tuple(prefabs_of(layer.collection)), OutputMode(layer.output_mode), SurfaceMode.TOP)
            sized = dataclasses.replace(reading.spec, density=None, mask=None, footprints=own, tile_size=None)
        return cls(reading.scene, linked, float(layer.around_min), float(layer.around_max), bool(layer.around_falloff),
                   others, sized)

    @staticmethod
    def watched(settings: Any, layer: Any) -> Watched:
        """Nothing beside the settings: the linked layer's changes run it again, and this layer below it."""
        return Watched()

    def vertex_groups(self) -> frozenset[str]:
        return frozenset()

    def key(self, depsgraph: bpy.types.Depsgraph) -> Key:
        """The ring and the linked layer's instances (a digest of them)."""
        return self.run_key()

    def run_key(self) -> Key:
        placed = self.placed()
        return (self.linked.layer_id, self.near, self.far, self.falloff, self.others, self.sized,
                None if placed is None else placed.digest)

    def reaches(self) -> tuple[Reach, ...]:
        return ()

    def radii(self, placed: Placed) -> np.ndarray:
        """Each linked instance's footprint seen from above (0 when neither layer is spaced by size)."""
        if self.others is None or not len(self.others):
            return np.zeros(len(placed))
        sizes = np.asarray(self.others, dtype=np.float64)
        known = (placed.prefab >= 0) & (placed.prefab < len(sizes))
        return np.where(known, sizes[np.clip(placed.prefab, 0, len(sizes) - 1)], 0.0) * placed.scales

    def circles(self, placed: Placed) -> CircleGaps:
        """The linked instances as circles, for gaps up to the ring's outer edge."""
        own = None if self.sized is None else footprint_function(self.sized)
        return CircleGaps(placed.positions[:, :2], self.radii(placed), self.far, 0.0 if own is None else own[1])

    def build(self, source: Source) -> Part:
        circles = self.circles(self.needed())
        own = None if self.sized is None else footprint_function(self.sized)
        own_at = None if own is None else own[0]
        density = RingFalloff(circles, self.near, self.far, own_at) if self.falloff else None
        return Part(density=density, mask=RingMask(circles, self.near, self.far, own_at))
