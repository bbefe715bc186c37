"""Rescatter Region: sample a box or a circle of a layer again with a new seed and keep the rest of the layer."""

from __future__ import annotations

import itertools

import bpy
from bpy.app.translations import pgettext_rpt as rpt_
from bpy.props import EnumProperty, FloatProperty, FloatVectorProperty, IntProperty
from mathutils import Vector

from ..core.inputs import MAX_DISTANCE, MAX_SEED
from ..scene.brush import region_of, rescatter_region
from ..scene.instancer import OWNER
from ..scene.ownership import is_owned
from ..scene.scatter_spec import ScatterError

_runs = itertools.count(1)  # each run without a given seed takes the next one
_WITH_BOUNDS = {'MESH', 'EMPTY', 'CURVE', 'CURVES', 'SURFACE', 'FONT', 'META', 'LATTICE', 'POINTCLOUD', 'VOLUME'}


def new_seed(layer_seed: int) -> int:
    """A seed for the next run on a layer whose own seed is ``layer_seed``: another one every time."""
    return (int(layer_seed) * 1_000_003 + 7_919 * next(_runs)) % (MAX_SEED + 1)


def marked_box(context: bpy.types.Context) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The world x, y bounds of the selected active object (an Empty's cube, a mesh's bounding box), or None when
    no object marks a box (none active or selected, one without bounds like a camera, the terrain itself, or
    Strew's own output)."""
    obj = context.view_layer.objects.active
    settings = context.scene.strew
    if (obj is None or obj.type not in _WITH_BOUNDS or not obj.select_get() or obj == settings.terrain
            or is_owned(obj, OWNER)):
        return None
    if obj.type == 'EMPTY':
        size = obj.empty_display_size
        corners = [Vector((x, y, z)) for x in (-size, size) for y in (-size, size) for z in (-size, size)]
    else:
        evaluated = obj.evaluated_get(context.evaluated_depsgraph_get())
        corners = [Vector(corner) for corner in evaluated.bound_box]
    world = [obj.matrix_world @ corner for corner in corners]
    xs, ys = [p.x for p in world], [p.y for p in world]
    return (min(xs), min(ys)), (max(xs), max(ys))


class STREW_OT_rescatter_region(bpy.types.Operator):
    ("Sample a box (the selected object's bounds, else around the 3D cursor) or a circle (around the 3D cursor) of "
     "the active layer again with a new seed; the instances around it stay as they are and the new ones keep their "
     "distance from them")

    bl_idname = "strew.rescatter_region"
    bl_label = "Rescatter Region"
    bl_options = {'REGISTER', 'UNDO'}

    layer_index: IntProperty(name="Layer", description="Layer to rescatter (-1: the active layer)", default=-1,
                             min=-1, options={'SKIP_SAVE'})
    shape: EnumProperty(
        name="Shape", description="The region to sample again", default='BOX', options={'SKIP_SAVE'},
        items=[('BOX', "Box", "An axis-aligned box in x and y: the selected object's bounds seen from above, else "
                "a square around the 3D cursor"),
               ('CIRCLE', "Circle", "A circle around the 3D cursor")])
    box_min: FloatVectorProperty(name="From", description="A corner of the box (world x, y)", size=2,
                                 min=-MAX_DISTANCE, max=MAX_DISTANCE, subtype='XYZ', unit='LENGTH',
                                 options={'SKIP_SAVE'})
    box_max: FloatVectorProperty(name="To", description="The opposite corner of the box (world x, y)", size=2,
                                 min=-MAX_DISTANCE, max=MAX_DISTANCE, subtype='XYZ', unit='LENGTH',
                                 options={'SKIP_SAVE'})
    box_size: FloatProperty(name="Box Size", description="Side of the square around the 3D cursor when no object "
                            "is selected", default=10.0, min=0.01, max=MAX_DISTANCE, soft_max=200.0,
                            subtype='DISTANCE', unit='LENGTH')
    centre: FloatVectorProperty(name="Centre", description="Centre of the circle (world x, y)", size=2,
                                min=-MAX_DISTANCE, max=MAX_DISTANCE, subtype='XYZ', unit='LENGTH',
                                options={'SKIP_SAVE'})
    radius: FloatProperty(name="Radius", description="Radius of the circle", default=5.0, min=0.0,
                          max=MAX_DISTANCE, soft_max=100.0, subtype='DISTANCE', unit='LENGTH')
    seed: IntProperty(name="Seed", description="Seed of the new sample in the region (a new one each run; change "
                      "it to try another)", default=0, min=0, max=MAX_SEED, options={'SKIP_SAVE'})

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        settings = getattr(context.scene, "strew", None)
        if settings is None or settings.terrain is None or not len(settings.layers):
            cls.poll_message_set("Pick a terrain and add a layer first")
            return False
        return True

    def _fill_in(self, context: bpy.types.Context, layer: bpy.types.PropertyGroup) -> None:
        """What the run did not get: the box from the selected object or the 3D cursor, the circle's centre from
        the cursor, a new seed. Written back, so the redo panel shows them and a redo keeps them."""
        given = self.properties.is_property_set
        cursor = context.scene.cursor.location
        if self.shape == 'BOX' and not (given("box_min") and given("box_max")):
            box = marked_box(context)
            if box is None:
                half = 0.5 * self.box_size
                box = (cursor.x - half, cursor.y - half), (cursor.x + half, cursor.y + half)
            self.box_min, self.box_max = box
        if self.shape == 'CIRCLE' and not given("centre"):
            self.centre = cursor.x, cursor.y
        if not given("seed"):
            self.seed = new_seed(layer.seed)

    def execute(self, context: bpy.types.Context) -> set[str]:
        settings = context.scene.strew
        index = settings.active_layer_index if self.layer_index < 0 else self.layer_index
        if not 0 <= index < len(settings.layers):
            self.report({'ERROR'}, rpt_("There is no layer {index}").format(index=self.layer_index))
            return {'CANCELLED'}
        self._fill_in(context, settings.layers[index])
        try:
            region = region_of(self.shape, tuple(self.box_min), tuple(self.box_max), tuple(self.centre),
                               self.radius)
            done = rescatter_region(context, index, region, self.seed)
        except (ScatterError, ValueError) as error:
            self.report({'ERROR'}, str(error))
            return {'CANCELLED'}
        if not (done.removed or done.added):
            self.report({'ERROR'}, rpt_('Nothing to rescatter: the region holds no instance of "{name}" and none '
                                        "fit there").format(name=done.layer))
            return {'CANCELLED'}
        self.report({'INFO'}, rpt_('Layer "{name}": replaced {removed:,} instances in the region with {added:,} '
                                   "(seed {seed})").format(name=done.layer, removed=done.removed, added=done.added,
                                                           seed=self.seed))
        return {'FINISHED'}

    def draw(self, context: bpy.types.Context) -> None:
        layout = self.layout
        layout.use_property_split = True
        layout.prop(self, "shape", expand=True)
        if self.shape == 'BOX':
            layout.prop(self, "box_min")
            layout.prop(self, "box_max")
        else:
            layout.prop(self, "centre")
            layout.prop(self, "radius")
        layout.prop(self, "seed")


classes = (STREW_OT_rescatter_region,)

register, unregister = bpy.utils.register_classes_factory(classes)
