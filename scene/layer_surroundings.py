"""A layer's surroundings: what it reads of the scene beyond its terrain and prefabs — its camera, its proximity
objects and its keep-away rules toward the layers above — read and validated once (see scatter_spec).

The camera is read as a :class:`~strew.core.camera.CameraView` from the object's world matrix and
``Camera.view_frame`` (aspect, sensor fit and lens shift of the scene's render settings included).
"""

from __future__ import annotations

from dataclasses import dataclass

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ..core.camera import CameraView
from ..core.modes import ProximityMode


class LookError(ValueError):
    """A camera or proximity setting that cannot work; the message says what to change."""


@dataclass(frozen=True)
class CameraInput:
    view: CameraView
    camera_name: str
    margin: float | None  # None: no culling (falloff only)
    max_distance: float | None
    falloff: tuple[float, float, float] | None  # start, end, density far away


@dataclass(frozen=True)
class ProximityInput:
    collection: bpy.types.Collection
    attract: bool
    near: float
    far: float


@dataclass(frozen=True)
class Surroundings:
    """What a layer reads of its surroundings: the camera it culls or thins by, the objects it gathers near or
    avoids, and the distance it keeps from each layer above."""

    camera: CameraInput | None
    proximity: ProximityInput | None
    keep_away: dict[str, float]  # earlier layer's name → distance this layer keeps from it


def camera_view(camera: bpy.types.Object, scene: bpy.types.Scene) -> CameraView:
    """The view of ``camera`` as the scene renders it."""
    data = camera.data
    if data.type == 'PANO':
        raise LookError(rpt_('Camera "{name}" is panoramic: camera culling needs a perspective or orthographic '
                             "camera").format(name=camera.name))
    frame = np.array([corner[:] for corner in data.view_frame(scene=scene)], dtype=np.float64)
    matrix = np.array(camera.matrix_world, dtype=np.float64)
    return CameraView(matrix_world=matrix, frame=frame, orthographic=data.type == 'ORTHO')


def _camera(layer: bpy.types.PropertyGroup, scene: bpy.types.Scene) -> CameraInput | None:
    if not layer.camera_cull and not layer.camera_falloff:
        return None
    camera = layer.camera or scene.camera
    if camera is None or camera.type != 'CAMERA':
        raise LookError(rpt_("Camera culling or falloff is on but there is no camera: set the scene camera or pick "
                             "one in the layer's Camera settings"))
    falloff = None
    if layer.camera_falloff:
        start, end = layer.camera_falloff_start, layer.camera_falloff_end
        if not end > start:
            raise LookError(rpt_("Falloff End ({end:g}) must be beyond Falloff Start ({start:g})").format(
                end=end, start=start))
        falloff = (start, end, layer.camera_falloff_floor)
    cull = layer.camera_cull
    max_distance = layer.camera_max_distance if cull and layer.camera_max_distance > 0 else None
    margin = layer.camera_margin if cull else None
    return CameraInput(camera_view(camera, scene), camera.name, margin, max_distance, falloff)


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
    return Surroundings(camera=_camera(layer, scene), proximity=_proximity(layer), keep_away=_keep_away(layer, earlier))
