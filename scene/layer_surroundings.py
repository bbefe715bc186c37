"""A layer's keep-away rules toward the layers above, read and validated once (see scatter_spec)."""

from __future__ import annotations

from dataclasses import dataclass

import bpy
from bpy.app.translations import pgettext_rpt as rpt_

from .layer_inputs import LookError


@dataclass(frozen=True)
class Surroundings:
    """The distance a layer keeps from each layer above."""

    keep_away: dict[str, float]  # earlier layer's name → distance this layer keeps from it


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
    return Surroundings(keep_away=_keep_away(layer, earlier))
