"""Curve layer settings: the curves a layer follows and how (``StrewLayer`` mixin, read in
``scene.layer_inputs.along``)."""

from __future__ import annotations

import bpy
from bpy.props import BoolProperty, EnumProperty, FloatProperty, PointerProperty

from ..core.inputs import MAX_DISTANCE
from ..core.modes import AlongMode, AlongPlace


def _is_curve(_self: bpy.types.PropertyGroup, obj: bpy.types.Object) -> bool:
    return obj.type == 'CURVE'


ALONG_MODES = [
    (AlongMode.SPACED, "Spaced", "As many instances along the curves as the spacing allows, none closer (hedgerows, "
     "trees along a road)"),
    (AlongMode.STEP, "Fixed Step", "An instance every Step along each curve, one at each end (fence posts, "
     "lamps); Jitter moves them along the curve"),
    (AlongMode.BAND, "Band", "Scatter over a band of the surface on both sides of the curves (verges, "
     "riverbanks), spaced as any layer"),
]

ALONG_PLACES = [
    (AlongPlace.SURFACE, "On Surface", "Stand on the terrain (or targets) under the curve: its height and normal; "
     "spacing measured from above"),
    (AlongPlace.CURVE, "On Curve", "Stand on the curve itself, wherever it goes (cables, bridges, rails); spacing "
     "measured in 3-D"),
]


class LayerAlongSettings:
    """The curves a layer follows (an object, a collection, or both) and how."""

    along_curve: PointerProperty(
        name="Curve", type=bpy.types.Object, poll=_is_curve,
        description="A curve object this layer follows instead of covering the terrain (every spline of it)",
    )
    along_curves: PointerProperty(
        name="Curves", type=bpy.types.Collection,
        description="A collection of curve objects this layer follows (with the Curve above, if any)",
    )
    along_mode: EnumProperty(name="Along", items=ALONG_MODES, default=AlongMode.SPACED,
                             description="How instances follow the curves")
    along_place: EnumProperty(name="Stand", items=ALONG_PLACES, default=AlongPlace.SURFACE,
                              description="Where the instances stand")
    along_step: FloatProperty(
        name="Step", default=2.0, min=0.001, max=MAX_DISTANCE, soft_min=0.05, soft_max=100.0, subtype='DISTANCE',
        unit='LENGTH', description="Distance along the curve between two instances (a closed curve takes the "
        "nearest step that goes round it evenly)",
    )
    along_jitter: FloatProperty(
        name="Jitter", default=0.0, min=0.0, max=1.0, subtype='FACTOR',
        description="Move each instance along the curve by up to this share of the step (0: exact posts)",
    )
    along_width: FloatProperty(
        name="Width", default=2.0, min=0.0, max=MAX_DISTANCE, soft_max=100.0, subtype='DISTANCE', unit='LENGTH',
        description="How far the band reaches on each side of the curve (seen from above)",
    )
    along_offset: FloatProperty(
        name="Offset", default=0.0, min=-MAX_DISTANCE, max=MAX_DISTANCE, soft_min=-100.0, soft_max=100.0,
        subtype='DISTANCE', unit='LENGTH',
        description="Follow a line this far to the left of the curve (negative: to the right), seen from above",
    )
    along_both_sides: BoolProperty(
        name="Both Sides", default=False,
        description="Follow the line at Offset on the left and the one as far on the right (an alley)",
    )
    along_follow: BoolProperty(
        name="Follow Curve", default=True,
        description="Turn each instance so its +X runs along the curve (on the curve: its climb too)",
    )
