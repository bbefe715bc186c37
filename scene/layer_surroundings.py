"""A layer's surroundings: what it reads of the scene beyond its terrain and prefabs — its proximity objects
and its keep-away rules toward the layers above — read and validated once (see scatter_spec).
"""

from __future__ import annotations

from dataclasses import dataclass

import bpy
from bpy.app.translations import pgettext_rpt as rpt_

from ..core.modes import ProximityMode
from .layer_inputs import LookError


@dataclass(frozen=True)
class ProximityInput:
    collection: bpy.types.Collection
    attract: bool
    near: float
    far: float


@dataclass(frozen=True)
class Surroundings:
    """What a layer reads of its surroundings: the objects it gathers near or avoids, and the distance it keeps
    from each layer above."""

    proximity: ProximityInput | None
    keep_away: dict[str, float]  # earlier layer's name → distance this layer keeps from it


def _proximity(layer: bpy.types.PropertyGroup) -> ProximityInput | None:
    if layer.proximity_collection is None:
        return None
    if not layer.proximity_far > layer.proximity_near:
        raise LookError(rpt_("Proximity Far ({far:g}) must be beyond Near ({near:g})").format(
            far=layer.proximity_far, near=layer.proximity_near))
    return ProximityInput(layer.proximity_collection, layer.proximity_mode == ProximityMode.ATTRACT,
                          layer.proximity_near, layer.proximity_far)


def _keep_away(layer: bpy.types.PropertyGroup, earlier: list[str]) -> dict[str, float]:
    rules: dict[str, float] = {}
    for rule in layer.keep_away_rules:
        if not rule.layer:
            continue
        if rule.layer == layer.name:
            raise LookError(rpt_("A keep-away rule names the layer itself; its own spacing already applies"))
        if rule.layer not in earlier:
            raise LookError(rpt_('Keep-away rule: "{other}" is not a layer above this one (layers only keep '
                                 "away from earlier layers)").format(other=rule.layer))
        rules[rule.layer] = max(rules.get(rule.layer, 0.0), rule.distance)
    return rules


def read(layer: bpy.types.PropertyGroup, scene: bpy.types.Scene, earlier: list[str]) -> Surroundings:
    """The look settings of ``layer``; ``earlier`` names the layers above it."""
    return Surroundings(proximity=_proximity(layer), keep_away=_keep_away(layer, earlier))
