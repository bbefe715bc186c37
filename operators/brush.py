"""The Paint brush: drag on the terrain to add a layer's instances by its rules, Ctrl+drag to erase them."""

from __future__ import annotations

import math
import time

import bpy
import gpu
import numpy as np
from bpy.app.translations import pgettext_iface as iface_
from bpy.app.translations import pgettext_rpt as rpt_
from bpy.props import BoolProperty, CollectionProperty, FloatProperty, FloatVectorProperty, IntProperty

from ..scene.brush import Brush
from ..scene.layer_points import output_object
from ..scene.scatter_job import clear_layer_output
from ..scene.scatter_spec import ScatterError

REDRAW_EVERY = 0.1  # seconds between writes of the layer while a stroke goes on
CIRCLE_SEGMENTS = 64
PAINT_COLOUR = (1.0, 1.0, 1.0, 0.9)
ERASE_COLOUR = (1.0, 0.35, 0.25, 0.9)


def _circle_on_terrain(brush: Brush, centre, radius: float) -> list[tuple[float, float, float]]:
    """The brush's outline laid on the terrain (each point at the terrain's height there), a closed strip."""
    angles = np.linspace(0.0, 2.0 * math.pi, CIRCLE_SEGMENTS + 1)
    xy = np.stack([centre[0] + radius * np.cos(angles), centre[1] + radius * np.sin(angles)], axis=1)
    hit = brush.terrain.sample(xy)
    z = np.where(hit.mask, hit.z, float(centre[2])) + 0.02 * max(radius, 1.0)  # above the surface, no z-fight
    return [(float(x), float(y), float(h)) for (x, y), h in zip(xy, z, strict=True)]


class StrewStrokePoint(bpy.types.PropertyGroup):
    location: FloatVectorProperty(name="Location", size=3, subtype='XYZ')


class STREW_OT_paint(bpy.types.Operator):
    """Paint instances of the active layer on the terrain with its spacing and masks; Ctrl erases"""

    bl_idname = "strew.paint"
    bl_label = "Paint Instances"
    bl_options = {'REGISTER', 'UNDO'}

    layer_index: IntProperty(name="Layer", description="Layer to paint (-1: the active layer)", default=-1,
                             min=-1, options={'SKIP_SAVE'})
    radius: FloatProperty(name="Brush Radius", description="Radius of the brush on the terrain", default=5.0,
                          min=0.01, soft_max=100.0, subtype='DISTANCE', unit='LENGTH')
    erase: BoolProperty(name="Erase", description="Remove instances instead of adding them",
                        default=False, options={'SKIP_SAVE'})
    stroke: CollectionProperty(type=StrewStrokePoint, name="Stroke",
                               options={'SKIP_SAVE'})

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        settings = getattr(context.scene, "strew", None)
        if settings is None or settings.terrain is None or not len(settings.layers):
            cls.poll_message_set("Pick a terrain and add a layer first")
            return False
        return True

    def _index(self, context: bpy.types.Context) -> int:
        return context.scene.strew.active_layer_index if self.layer_index < 0 else self.layer_index

    def _apply(self, brush: Brush, location, erase: bool, number: int) -> int:
        centre = (float(location[0]), float(location[1]))
        if erase:
            return brush.rub(centre, self.radius)
        return brush.dab(centre, self.radius, seed=brush.layer.spec.seed * 7919 + number)

    def execute(self, context: bpy.types.Context) -> set[str]:
        if not 0 <= self._index(context) < len(context.scene.strew.layers):
            self.report({'ERROR'}, rpt_("There is no layer {index}").format(index=self.layer_index))
            return {'CANCELLED'}
        try:
            brush = Brush.start(context, self._index(context))
            changed = sum(self._apply(brush, point.location, self.erase, n) for n, point in enumerate(self.stroke))
            brush.commit()
        except (ScatterError, ValueError) as error:
            self.report({'ERROR'}, str(error))
            return {'CANCELLED'}
        message = rpt_("Erased {count:,} instances") if self.erase else rpt_("Painted {count:,} instances")
        self.report({'INFO'}, message.format(count=changed))
        return {'FINISHED'}

    # -- interactive ---------------------------------------------------------------------------------------
    def invoke(self, context: bpy.types.Context, event: bpy.types.Event) -> set[str]:
        if context.area is None or context.area.type != 'VIEW_3D':
            self.report({'ERROR'}, rpt_("Paint from the 3D Viewport"))
            return {'CANCELLED'}
        try:
            self._brush = Brush.start(context, self._index(context))
        except (ScatterError, ValueError) as error:
            self.report({'ERROR'}, str(error))
            return {'CANCELLED'}
        self._region = next(r for r in context.area.regions if r.type == 'WINDOW')
        self._view = context.area.spaces.active.region_3d
        self._original = self._brush.points
        self._had_output = output_object(context.scene, self._brush.layer.layer_id) is not None
        self._painting, self._erasing, self._last_write, self._dabs, self._changed = False, False, 0.0, 0, 0
        self._last_location = None
        self._outline: list[tuple[float, float, float]] = []
        self._draw_handle = bpy.types.SpaceView3D.draw_handler_add(self._draw, (), 'WINDOW', 'POST_VIEW')
        context.window.cursor_modal_set('PAINT_BRUSH')
        self._header(context)
        context.window_manager.modal_handler_add(self)
        return {'RUNNING_MODAL'}

    def _header(self, context: bpy.types.Context) -> None:
        context.area.header_text_set(iface_(
            "Paint {layer}: drag to paint, Ctrl+drag to erase, [ ] brush {radius:.1f} m, "
            "Enter or right-click to finish, Esc to cancel").format(layer=self._brush.layer.name, radius=self.radius))

    def _draw(self) -> None:
        """The brush circle on the terrain under the mouse: white paints, red erases."""
        if not self._outline:
            return
        from gpu_extras.batch import batch_for_shader

        shader = gpu.shader.from_builtin('POLYLINE_UNIFORM_COLOR')
        region = self._region
        shader.uniform_float("viewportSize", (region.width, region.height))
        shader.uniform_float("lineWidth", 2.0)
        shader.uniform_float("color", ERASE_COLOUR if self._erasing else PAINT_COLOUR)
        gpu.state.blend_set('ALPHA')
        batch_for_shader(shader, 'LINE_STRIP', {"pos": self._outline}).draw(shader)
        gpu.state.blend_set('NONE')

    def _hover(self, context: bpy.types.Context, event: bpy.types.Event) -> None:
        """Move the brush circle to the terrain under the mouse (none off the terrain)."""
        location = self._surface_point(context, event)
        self._outline = [] if location is None else _circle_on_terrain(self._brush, location, self.radius)
        self._region.tag_redraw()

    def _surface_point(self, context: bpy.types.Context, event: bpy.types.Event):
        from bpy_extras import view3d_utils

        region, view = self._region, self._view  # the viewport's main region, also when invoked from the sidebar
        mouse = (event.mouse_x - region.x, event.mouse_y - region.y)
        if not (0 <= mouse[0] < region.width and 0 <= mouse[1] < region.height):
            return None
        origin = view3d_utils.region_2d_to_origin_3d(region, view, mouse)
        direction = view3d_utils.region_2d_to_vector_3d(region, view, mouse)
        depsgraph = context.evaluated_depsgraph_get()
        hit, location, _normal, _index, obj, _matrix = context.scene.ray_cast(depsgraph, origin, direction)
        terrain = context.scene.strew.terrain
        return location if hit and obj is not None and obj.original == terrain else None

    def _stroke_to(self, context: bpy.types.Context, event: bpy.types.Event) -> None:
        location = self._surface_point(context, event)
        if location is None:
            return
        last = self._last_location
        if last is not None and (location - last).length < 0.5 * self.radius:
            return
        self._last_location = location.copy()
        self._changed += self._apply(self._brush, location, self._erasing, self._dabs)
        self._dabs += 1
        if time.perf_counter() - self._last_write > REDRAW_EVERY:
            self._brush.commit()
            self._last_write = time.perf_counter()

    def _finish(self, context: bpy.types.Context) -> None:
        bpy.types.SpaceView3D.draw_handler_remove(self._draw_handle, 'WINDOW')
        self._region.tag_redraw()
        context.window.cursor_modal_restore()
        context.area.header_text_set(None)

    def modal(self, context: bpy.types.Context, event: bpy.types.Event) -> set[str]:
        if event.type in {'LEFTMOUSE'}:
            if event.value == 'PRESS':
                self._painting, self._erasing, self._last_location = True, event.ctrl, None
                self._stroke_to(context, event)
            elif event.value == 'RELEASE':
                self._painting = False
                self._brush.commit()
            return {'RUNNING_MODAL'}
        if event.type == 'MOUSEMOVE':
            if not self._painting:
                self._erasing = event.ctrl
            self._hover(context, event)
            if self._painting:
                self._stroke_to(context, event)
            return {'RUNNING_MODAL'}
        if event.type in {'LEFT_CTRL', 'RIGHT_CTRL'} and not self._painting:
            self._erasing = event.value == 'PRESS'
            self._region.tag_redraw()
            return {'RUNNING_MODAL'}
        if event.type in {'LEFT_BRACKET', 'RIGHT_BRACKET'} and event.value == 'PRESS':
            self.radius = max(0.1, self.radius * (0.8 if event.type == 'LEFT_BRACKET' else 1.25))
            self._header(context)
            self._hover(context, event)
            return {'RUNNING_MODAL'}
        if event.type in {'RET', 'NUMPAD_ENTER', 'RIGHTMOUSE'} and event.value == 'PRESS':
            self._brush.commit()
            self._finish(context)
            self.report({'INFO'}, rpt_("Painting changed {count:,} instances").format(count=self._changed))
            return {'FINISHED'}
        if event.type == 'ESC' and event.value == 'PRESS':
            self._brush.points = self._original
            if self._had_output:
                self._brush.commit()
            else:
                clear_layer_output(context.scene, self._brush.layer.layer_id)
            self._finish(context)
            self.report({'WARNING'}, rpt_("Painting cancelled; the layer is as it was"))
            return {'CANCELLED'}
        return {'PASS_THROUGH'}


classes = (StrewStrokePoint, STREW_OT_paint)

register, unregister = bpy.utils.register_classes_factory(classes)
