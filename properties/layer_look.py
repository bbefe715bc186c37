"""Layer settings for heavy scenes and variety: camera culling, viewport display, tilt and scale rules, proximity.

Declared as annotation mixins of ``StrewLayer`` (Blender collects a PropertyGroup's annotations through its
bases), one group per concern, each read in one place (``scene.scatter_spec``; the display settings,
which only change how the output is drawn, ``scene.display``).
"""

from __future__ import annotations

import math

import bpy
from bpy.props import BoolProperty, CollectionProperty, EnumProperty, FloatProperty, PointerProperty, StringProperty

from ..core.inputs import MAX_DISTANCE
from ..core.modes import DisplayMode, ProximityMode, ProxyKind
from . import hooks


def _is_camera(_self: bpy.types.PropertyGroup, obj: bpy.types.Object) -> bool:
    return obj.type == 'CAMERA'


DISPLAY_MODES = [
    (DisplayMode.FULL, "Full", "Draw every instance with its own geometry"),
    (DisplayMode.BOUNDS, "Bounds", "Draw each instance as its prefab's bounding box (fast for heavy prefabs)"),
    (DisplayMode.POINTS, "Points", "Draw only a point per instance (fastest)"),
]

PROXY_KINDS = [
    (ProxyKind.BOUNDS, "Bounds", "A solid box the size of the prefab (fastest)"),
    (ProxyKind.HULL, "Convex Hull", "The prefab's convex hull: its outline, without hollows"),
    (ProxyKind.DECIMATE, "Decimated", "A copy of the prefab with a share of its faces (Ratio)"),
]

PROXIMITY_MODES = [
    (ProximityMode.ATTRACT, "Attract", "Denser near the objects, thinning out with distance (grass by water)"),
    (ProximityMode.REPEL, "Repel", "Sparser near the objects, full density far away (trees thinning near roads)"),
]


def _unbind_rule(rule: bpy.types.PropertyGroup, _context: bpy.types.Context) -> None:
    """A layer picked by name: the id that followed the earlier pick through renames no longer applies."""
    if rule.layer_id:
        rule.layer_id = ""


class StrewKeepAwayRule(bpy.types.PropertyGroup):
    """This layer keeps a distance from one earlier layer (beyond the layer-wide Keep Away)."""

    layer: StringProperty(name="Layer", description="An earlier layer to keep away from", update=_unbind_rule)
    layer_id: StringProperty(
        name="Layer ID", description="The id of the layer the rule names, so the rule follows it through a rename "
        "(set by Strew)", options={'HIDDEN'},
    )
    distance: FloatProperty(
        name="Distance", default=2.0, min=0.0, max=MAX_DISTANCE, soft_max=50.0, subtype='DISTANCE', unit='LENGTH',
        description="Minimum distance from that layer's instances",
    )


class LayerKeepAwaySettings:
    """Keep-away distances per earlier layer."""

    keep_away_rules: CollectionProperty(type=StrewKeepAwayRule, name="Keep-Away Rules")
    active_rule_index: bpy.props.IntProperty(name="Active Rule", default=0, min=0)


class LayerCameraSettings:
    """Camera culling, clipping and density falloff with distance from the camera."""

    camera_cull: BoolProperty(
        name="Camera Culling", default=False,
        description="Place instances only where the camera can see them (plus a margin)",
    )
    camera: PointerProperty(
        name="Camera", type=bpy.types.Object, poll=_is_camera,
        description="Camera to cull to; empty uses the scene camera",
    )
    camera_margin: FloatProperty(
        name="Margin", default=5.0, min=0.0, max=MAX_DISTANCE, soft_max=100.0, subtype='DISTANCE', unit='LENGTH',
        description="Also keep instances this close to the edge of the view (crowns reaching into the frame, "
        "shadows)",
    )
    camera_max_distance: FloatProperty(
        name="Clip Distance", default=0.0, min=0.0, max=MAX_DISTANCE, soft_max=5000.0,
        subtype='DISTANCE', unit='LENGTH',
        description="No instances farther than this from the camera (0: no limit)",
    )
    camera_falloff: BoolProperty(
        name="Distance Falloff", default=False,
        description="Thin instances out with distance from the camera, toward Max Radius spacing",
    )
    camera_falloff_start: FloatProperty(
        name="Falloff Start", default=50.0, min=0.0, max=MAX_DISTANCE, soft_max=2000.0,
        subtype='DISTANCE', unit='LENGTH',
        description="Full density up to this distance from the camera",
    )
    camera_falloff_end: FloatProperty(
        name="Falloff End", default=300.0, min=0.0, max=MAX_DISTANCE, soft_max=5000.0,
        subtype='DISTANCE', unit='LENGTH',
        description="Density reaches Far Density at this distance and stays there",
    )
    camera_falloff_floor: FloatProperty(
        name="Far Density", default=0.0, min=0.0, max=1.0, subtype='FACTOR',
        description="Share of the density that remains far from the camera",
    )


def _display_changed(layer: bpy.types.PropertyGroup, _context: bpy.types.Context) -> None:
    hooks.display_changed(layer)


class LayerDisplaySettings:
    """How the layer's output is drawn in the viewport; renders always show every instance in full. A change
    applies to the output at once, without a Scatter."""

    display_mode: EnumProperty(
        name="Viewport Display", items=DISPLAY_MODES, default=DisplayMode.FULL, update=_display_changed,
        description="How instances are drawn in the viewport (renders always show them in full)",
    )
    viewport_percent: FloatProperty(
        name="Viewport Share", default=100.0, min=0.0, max=100.0, subtype='PERCENTAGE', update=_display_changed,
        description="Share of the instances drawn in the viewport (renders always show all)",
    )
    proxy_beyond: BoolProperty(
        name="Proxy Beyond", default=False, update=_display_changed,
        description="Draw instances farther than Distance from the viewport's view (the scene camera where there "
        "is no 3D view) as a light proxy of their prefab; renders always show them in full",
    )
    proxy_distance: FloatProperty(
        name="Distance", default=50.0, min=0.0, max=MAX_DISTANCE, soft_max=2000.0, subtype='DISTANCE',
        unit='LENGTH', update=_display_changed,
        description="Instances up to this distance from the view are drawn in full, farther ones as proxies",
    )
    proxy_kind: EnumProperty(
        name="Proxy", items=PROXY_KINDS, default=ProxyKind.BOUNDS, update=_display_changed,
        description="What a far instance is drawn as",
    )
    proxy_ratio: FloatProperty(
        name="Ratio", default=0.1, min=0.001, max=1.0, subtype='FACTOR', update=_display_changed,
        description="Share of the prefab's faces a Decimated proxy keeps",
    )


class LayerVarietySettings:
    """Random tilt, and scale that follows density and slope."""

    tilt: FloatProperty(
        name="Random Tilt", default=0.0, min=0.0, max=math.pi / 2, subtype='ANGLE',
        description="Lean each instance by a random angle up to this, in a random direction",
    )
    scale_by_density: FloatProperty(
        name="Scale by Density", default=0.0, min=0.0, max=1.0, subtype='FACTOR',
        description="Smaller instances where the density is low (1: down to 5 % of the size at zero density)",
    )
    scale_by_slope: FloatProperty(
        name="Scale by Slope", default=0.0, min=0.0, max=1.0, subtype='FACTOR',
        description="Smaller instances on steep ground (1: down to 5 % of the size on a vertical wall)",
    )


class LayerProximitySettings:
    """Density from the distance to objects and curves, with a smooth falloff."""

    proximity_collection: PointerProperty(
        name="Proximity", type=bpy.types.Collection,
        description="Curves and meshes (seen from above) whose distance changes the density",
    )
    proximity_mode: EnumProperty(
        name="Effect", items=PROXIMITY_MODES, default=ProximityMode.ATTRACT,
        description="Whether instances gather near the objects or avoid them",
    )
    proximity_near: FloatProperty(
        name="Near", default=0.0, min=0.0, max=MAX_DISTANCE, soft_max=200.0, subtype='DISTANCE', unit='LENGTH',
        description="Up to this distance the effect is full",
    )
    proximity_far: FloatProperty(
        name="Far", default=20.0, min=0.0, max=MAX_DISTANCE, soft_max=500.0, subtype='DISTANCE', unit='LENGTH',
        description="From this distance on there is no effect; between Near and Far it fades smoothly",
    )
