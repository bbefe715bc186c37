"""Camera culling and falloff: keep what a camera sees (plus a margin, up to a distance) and thin out far away.

The camera is read as a :class:`~strew.core.camera.CameraView` from the object's world matrix and
``Camera.view_frame`` (aspect, sensor fit and lens shift of the scene's render settings included).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ...core.camera import CameraView, FalloffDensity, SurfaceHeights, ViewMask
from ...core.fields import FunctionField, FunctionMask
from ..fingerprints import digest
from .base import Input, Key, LookError, Part, Reach, Reading, Source, Watched


def camera_view(camera: bpy.types.Object, scene: bpy.types.Scene) -> CameraView:
    """The view of ``camera`` as the scene renders it."""
    data = camera.data
    if data.type == 'PANO':
        raise LookError(rpt_('Camera "{name}" is panoramic: camera culling needs a perspective or orthographic '
                             "camera").format(name=camera.name))
    frame = np.array([corner[:] for corner in data.view_frame(scene=scene)], dtype=np.float64)
    matrix = np.array(camera.matrix_world, dtype=np.float64)
    return CameraView(matrix_world=matrix, frame=frame, orthographic=data.type == 'ORTHO')


def layer_camera(scene: bpy.types.Scene, layer: Any) -> bpy.types.Object | None:
    """The camera a layer culls or thins by (its own, else the scene's), or None when it does neither."""
    if not (layer.camera_cull or layer.camera_falloff):
        return None
    return layer.camera or scene.camera


@dataclass(frozen=True)
class Camera(Input):
    """The camera's view, the culling margin (None: no culling), the distance it culls beyond, and the falloff
    (start, end, density far away; None: no falloff)."""

    view: CameraView
    camera_name: str
    margin: float | None
    max_distance: float | None
    falloff: tuple[float, float, float] | None

    @classmethod
    def read(cls, reading: Reading) -> Camera | None:
        layer, scene = reading.settings, reading.scene
        if not layer.camera_cull and not layer.camera_falloff:
            return None
        camera = layer_camera(scene, layer)
        if camera is None or camera.type != 'CAMERA':
            raise LookError(rpt_("Camera culling or falloff is on but there is no camera: set the scene camera or "
                                 "pick one in the layer's Camera settings"))
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
        return cls(camera_view(camera, scene), camera.name, margin, max_distance, falloff)

    @staticmethod
    def watched(settings: Any, layer: Any) -> Watched:
        """The camera object (placement, lens, clipping) and the render frame's shape (its aspect)."""
        scene = settings.id_data
        camera = layer_camera(scene, layer)
        if camera is None:
            return Watched()
        render = scene.render
        return Watched(blocks=(camera,), values=(render.resolution_x, render.resolution_y, render.pixel_aspect_x,
                                                 render.pixel_aspect_y))

    def vertex_groups(self) -> frozenset[str]:
        return frozenset()

    def key(self, depsgraph: bpy.types.Depsgraph) -> Key:
        return self.run_key()

    def run_key(self) -> Key:
        """The view itself: a camera that moved changes the whole layer."""
        return (digest(np.asarray(self.view.matrix_world, dtype=np.float64),
                       np.asarray(self.view.frame, dtype=np.float64)),
                self.view.orthographic, self.margin, self.max_distance, self.falloff)

    def reaches(self) -> tuple[Reach, ...]:
        return ()

    def build(self, source: Source) -> Part:
        heights = SurfaceHeights(source.lookup)
        mask = None
        if self.margin is not None:
            z = source.lookup.vertices[:, 2]
            mask = FunctionMask(ViewMask(self.view, heights, self.margin, self.max_distance,
                                         (float(np.min(z)), float(np.max(z)))), "camera view")
        falloff = None
        if self.falloff is not None:
            falloff = FunctionField(FalloffDensity(self.view, heights, *self.falloff), "camera falloff")
        return Part(density=falloff, mask=mask)
