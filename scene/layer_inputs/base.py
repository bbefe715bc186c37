"""What every layer input is: one small class that reads itself, keys itself, watches, locates its changes and
builds its part of the layer's density and mask.

A layer reads the scene through its inputs (density, masks, Exclude, Proximity, camera, Targets). Each is a
subclass of :class:`Input` and lives in :data:`strew.scene.layer_inputs.INPUTS`; the Scatter job, the live
cache's keys, the live watch and the change boxes are loops over that registry, so an input declares itself once
and cannot be half-wired (an abstract method left out makes the class impossible to build;
``tests/blender/test_layer_inputs.py`` asks every registered input for every answer).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any

import bpy
from bpy.app.translations import pgettext_rpt as rpt_

from ...core.fields import Field, Mask
from ...core.modes import SurfaceMode
from ...core.scatter import LayerSpec
from ...core.terrain import TerrainLookup
from ..errors import ScatterError
from ..terrain import MeshArrays

Key = Hashable


class LookError(ValueError):
    """A setting of an input that cannot work; the message says what to change."""


@dataclass(frozen=True)
class Reading:
    """What an input reads itself from: the layer's settings (a ``StrewLayer``), its scene, its core spec (fields
    not built yet) and where it places (from above or on every face)."""

    settings: Any
    scene: bpy.types.Scene
    spec: LayerSpec
    surface: SurfaceMode


@dataclass(frozen=True)
class Watched:
    """What a live update compares for an input: data-blocks (their geometry and transform, or an image as a
    whole), terrain vertex groups (their weights), and plain values read beside the settings."""

    blocks: tuple[bpy.types.ID, ...] = ()
    groups: frozenset[str] = frozenset()
    values: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Source:
    """Where fields are read from above: the surface's lookup and mesh (vertex groups included) and the
    depsgraph that evaluates the input's objects."""

    lookup: TerrainLookup
    mesh: MeshArrays
    depsgraph: bpy.types.Depsgraph


@dataclass(frozen=True)
class Part:
    """An input's share of the layer's fields: a density factor and a mask, each optional."""

    density: Field | None = None
    mask: Mask | None = None


Reach = tuple[bpy.types.Collection, float]
"""A collection whose objects are compared one by one between live runs, and how far each reaches into the layer
(a change there re-samples only the chunks within its old and new bounds grown by that)."""


class Input(ABC):
    """One input of a layer. A subclass is a frozen dataclass holding the validated settings it uses."""

    @classmethod
    @abstractmethod
    def read(cls, reading: Reading) -> Input | None:
        """This input of the layer, validated (``ValueError`` naming what to change), or None when unused."""

    @staticmethod
    @abstractmethod
    def watched(settings: Any, layer: Any) -> Watched:
        """What the live update watches for this input, read from the raw settings (``scene.strew`` and one of
        its layers, before validation: a setting that does not read yet is still watched)."""

    @abstractmethod
    def vertex_groups(self) -> frozenset[str]:
        """Names of the vertex groups :meth:`build` reads from the fields' source (read once with it)."""

    @abstractmethod
    def key(self, depsgraph: bpy.types.Depsgraph) -> Key:
        """Everything the input's built part depends on, its objects' geometry included; None when that cannot
        be condensed cheaply (the part is built again every run)."""

    @abstractmethod
    def run_key(self) -> Key:
        """The key without the geometry of the objects in :meth:`reaches` (those are compared where they
        changed); a kept chunk run is re-used only under the same run key."""

    @abstractmethod
    def reaches(self) -> tuple[Reach, ...]:
        """The collections whose objects' changes stay local, with how far each object reaches."""

    def stretched_images(self) -> tuple[bpy.types.Image, ...]:
        """The images whose brightness :meth:`build` stretches over the source's xy bounds, sampled bilinearly
        (:class:`~strew.core.fields.ImageField`), and nothing else it reads without a :meth:`key`: a live update
        then compares their pixels and re-samples only where they changed. Empty for every other input."""
        return ()

    @abstractmethod
    def build(self, source: Source) -> Part:
        """The input's density factor and mask (``ValueError`` for the user's mistakes)."""


def combine(parts: Iterable[Part]) -> Part:
    """The layer's density (the product of the factors, in order) and mask (every mask, in order)."""
    density: Field | None = None
    mask: Mask | None = None
    for part in parts:
        if part.density is not None:
            density = part.density if density is None else density * part.density
        if part.mask is not None:
            mask = part.mask if mask is None else mask & part.mask
    return Part(density, mask)


def refusal(reading: Reading, template: str, **values: object) -> ScatterError:
    """The error for a setting the layer cannot use; ``{layer}`` in ``template`` names the layer."""
    layer = rpt_('Layer "{name}"').format(name=reading.settings.name)
    return ScatterError(rpt_(template).format(layer=layer, **values))
