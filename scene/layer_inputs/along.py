"""Along: a layer that follows curves (a curve object, a collection of them, or both) instead of covering its
surface — spaced or at a fixed step along them (sampled by ``layer_surface``), or over a band on both sides (a mask
here)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ...core.curve import AlongSpec, CurvePath
from ...core.fields import Mask
from ...core.fields.masks import AwayFromPolylines
from ...core.modes import AlongMode, AlongPlace, SurfaceMode
from ..curves import curve_shape, read_curves
from ..fingerprints import fingerprint
from ..ownership import is_owned
from .base import Input, Key, LookError, Part, Reach, Reading, Source, Watched


def curve_objects(layer: Any) -> tuple[bpy.types.Object, ...]:
    """The curve objects a layer's settings name (the Curve, then the collection's curves by name), once each."""
    found: dict[str, bpy.types.Object] = {}
    if layer.along_curve is not None:
        found[layer.along_curve.name] = layer.along_curve
    if layer.along_curves is not None:
        for obj in sorted(layer.along_curves.all_objects, key=lambda o: o.name):
            if obj.type == 'CURVE' and not is_owned(obj):
                found.setdefault(obj.name, obj)
    return tuple(found.values())


@dataclass(frozen=True)
class Along(Input):
    """The curves, read as they stand when the layer is read (``shape``: what their lines depend on), and how
    the layer follows them."""

    objects: tuple[bpy.types.Object, ...]
    shape: tuple[object, ...]
    mode: AlongMode
    place: AlongPlace
    step: float
    jitter: float
    width: float
    offset: float
    both_sides: bool
    follow: bool

    @classmethod
    def read(cls, reading: Reading) -> Along | None:
        layer = reading.settings
        if layer.along_curve is None and layer.along_curves is None:
            return None
        if layer.along_curve is not None and layer.along_curve.type != 'CURVE':
            raise LookError(rpt_('Curve "{name}" is a {kind}, not a curve: pick a curve object').format(
                name=layer.along_curve.name, kind=layer.along_curve.type.lower()))
        objects = curve_objects(layer)
        if not objects:
            raise LookError(rpt_('collection "{name}" holds no curve object: add the curves to follow').format(
                name=layer.along_curves.name))
        mode = AlongMode(layer.along_mode)
        if layer.on_layer.layer:
            raise LookError(rpt_("a layer follows curves or stands on another layer, not both: clear On Layer or "
                                 "its curves"))
        if reading.surface == SurfaceMode.ALL:
            raise LookError(rpt_("a layer that follows curves places From Above: set Surface to From Above"))
        if mode == AlongMode.BAND and not layer.along_width > 0:
            raise LookError(rpt_("a band along curves needs a Width above 0"))
        return cls(objects, curve_shape(objects), mode, AlongPlace(layer.along_place), float(layer.along_step),
                   float(layer.along_jitter), float(layer.along_width), float(layer.along_offset),
                   bool(layer.along_both_sides), bool(layer.along_follow))

    @staticmethod
    def watched(settings: Any, layer: Any) -> Watched:
        """The curve objects (their splines and transform)."""
        return Watched(blocks=curve_objects(layer))

    def vertex_groups(self) -> frozenset[str]:
        return frozenset()

    def _settings(self) -> tuple[object, ...]:
        return (self.mode, self.place, self.step, self.jitter, self.width, self.offset, self.both_sides, self.follow)

    def key(self, depsgraph: bpy.types.Depsgraph) -> Key:
        return (tuple((obj.name, fingerprint(obj, depsgraph)) for obj in self.objects), self._settings())

    def run_key(self) -> Key:
        """The curves' shape with the settings: a moved curve point samples the layer again (a curve layer is
        sampled whole; a band, on its band's chunks)."""
        return (self.shape, self._settings())

    def reaches(self) -> tuple[Reach, ...]:
        return ()

    def path(self, depsgraph: bpy.types.Depsgraph) -> CurvePath:
        """The curves' lines in world space."""
        return read_curves(self.objects, depsgraph)

    def spec(self, depsgraph: bpy.types.Depsgraph) -> AlongSpec:
        """How the layer follows the curves, for ``core.curve``."""
        mode = AlongMode.SPACED if self.mode == AlongMode.BAND else self.mode
        return AlongSpec(self.path(depsgraph), mode, self.place, self.step, self.jitter, self.follow, self.offset,
                         self.both_sides)

    @property
    def samples_curve(self) -> bool:
        """Whether the layer's instances are sampled on the curves (else over a band of the surface)."""
        return self.mode != AlongMode.BAND

    def build(self, source: Source) -> Part:
        """A band: the surface within Width of the lines (at the Offset, both sides when asked); along the
        curves themselves nothing of the fields."""
        if self.samples_curve:
            return Part()
        lines = self.spec(source.depsgraph).lines()
        if not len(lines.length):
            return Part(mask=_NOWHERE)
        band: Mask = ~AwayFromPolylines(list(lines.lines), margin=self.width, closed=list(lines.closed))
        return Part(mask=band)

    def bounds(self, depsgraph: bpy.types.Depsgraph) -> tuple[tuple[float, float], tuple[float, float]] | None:
        """The xy box the band lies in (None: no line)."""
        lines = self.spec(depsgraph).lines()
        if not len(lines.length):
            return None
        xy = lines.start[:, :2].tolist() + lines.end[:, :2].tolist()
        low = (min(p[0] for p in xy) - self.width, min(p[1] for p in xy) - self.width)
        high = (max(p[0] for p in xy) + self.width, max(p[1] for p in xy) + self.width)
        return low, high


class _Nowhere(Mask):
    """A band along curves without a line: no place."""

    def evaluate(self, xy: Any) -> Any:
        return np.zeros(len(xy), dtype=bool)


_NOWHERE = _Nowhere()
