"""Pick cells on the room in the viewport: a box (its first cell, then its last) for Regenerate Box or a region,
and an entrance (one cell)."""

from __future__ import annotations

import bpy
import gpu
from bpy.app.translations import pgettext_iface as iface_
from bpy.app.translations import pgettext_rpt as rpt_
from bpy.props import EnumProperty

from ..scene.room_frame import room_frame
from ..scene.room_output import room_collection
from .room_tools import has_room
from .rooms import name_region

# The 12 edges of a box whose 8 corners come x fastest, then y, then z (scene.room_frame.RoomFrame.box_corners).
BOX_EDGES = ((0, 1), (2, 3), (4, 5), (6, 7), (0, 2), (1, 3), (4, 6), (5, 7), (0, 4), (1, 5), (2, 6), (3, 7))
HOVER_COLOUR = (1.0, 0.85, 0.2, 0.9)
BOX_COLOUR = (1.0, 0.45, 0.1, 1.0)


def set_box(room: bpy.types.PropertyGroup, first: tuple[int, int, int], last: tuple[int, int, int]) -> str:
    """From and To of Regenerate Box from two picked cells (in any order); the report."""
    room.box_min = tuple(min(a, b) for a, b in zip(first, last, strict=True))
    room.box_max = tuple(max(a, b) for a, b in zip(first, last, strict=True))
    cells = 1
    for a, b in zip(room.box_min, room.box_max, strict=True):
        cells *= b - a + 1
    return rpt_("Box {low} – {high}: {cells:,} cell(s)").format(low=tuple(room.box_min), high=tuple(room.box_max),
                                                                cells=cells)


def set_region_box(room: bpy.types.PropertyGroup, first: tuple[int, int, int], last: tuple[int, int, int]) -> str:
    """From and To of the active region (a new region when none is active) from two picked cells; the report."""
    if not 0 <= room.active_region_index < len(room.regions):
        name_region(room, room.regions.add())
        room.active_region_index = len(room.regions) - 1
    region = room.regions[room.active_region_index]
    region.box_min = tuple(min(a, b) for a, b in zip(first, last, strict=True))
    region.box_max = tuple(max(a, b) for a, b in zip(first, last, strict=True))
    cells = 1
    for a, b in zip(region.box_min, region.box_max, strict=True):
        cells *= b - a + 1
    return rpt_('Region "{name}": {low} – {high}, {cells:,} cell(s)').format(
        name=region.name, low=tuple(region.box_min), high=tuple(region.box_max), cells=cells)


def set_entrance(room: bpy.types.PropertyGroup, cell: tuple[int, int, int]) -> str:
    """The active entrance takes the picked cell (a new entrance when none is active); the report."""
    if not 0 <= room.active_entrance_index < len(room.entrances):
        room.entrances.add()
        room.active_entrance_index = len(room.entrances) - 1
    room.entrances[room.active_entrance_index].cell = cell
    return rpt_("Entrance {number}: cell {cell}").format(number=room.active_entrance_index + 1, cell=tuple(cell))


def _in_viewport(operator: type[bpy.types.Operator], context: bpy.types.Context, message: str) -> bool:
    """Poll of the pick tools: a room to click on, in a 3D Viewport (else ``message``)."""
    if not has_room(operator, context):
        return False
    if context.area is None or context.area.type != 'VIEW_3D':
        operator.poll_message_set(message)
        return False
    return True


class _PickCells(bpy.types.Operator):
    """Click cells on the room: ``clicks`` of them (the last may be confirmed with Enter), then :meth:`apply`.
    The cell under the mouse and the box so far are drawn; the view can be turned meanwhile."""

    clicks = 2

    def header(self) -> str:
        raise NotImplementedError

    def apply(self, context: bpy.types.Context, first: tuple[int, int, int], last: tuple[int, int, int]) -> str:
        """Write the picked cells into the settings; the report."""
        raise NotImplementedError

    def cancelled(self) -> str:
        raise NotImplementedError

    def invoke(self, context: bpy.types.Context, event: bpy.types.Event) -> set[str]:
        room = room_collection(context.scene, context.scene.strew.room.room_name)
        frame = None if room is None else room_frame(room)
        if frame is None:
            self.report({'ERROR'}, rpt_("Assemble a room first"))
            return {'CANCELLED'}
        self._frame = frame  # where the room stands (moved or turned too), read once
        self._region = next(r for r in context.area.regions if r.type == 'WINDOW')
        self._view = context.area.spaces.active.region_3d
        self._first: tuple[int, int, int] | None = None
        self._hover: tuple[int, int, int] | None = None
        self._handle = bpy.types.SpaceView3D.draw_handler_add(self._draw, (), 'WINDOW', 'POST_VIEW')
        context.area.header_text_set(self.header())
        context.window.cursor_modal_set('CROSSHAIR')
        context.window_manager.modal_handler_add(self)
        return {'RUNNING_MODAL'}

    def _cell_under_mouse(self, context: bpy.types.Context, event: bpy.types.Event) -> tuple[int, int, int] | None:
        from bpy_extras import view3d_utils

        region = self._region
        mouse = (event.mouse_x - region.x, event.mouse_y - region.y)
        if not (0 <= mouse[0] < region.width and 0 <= mouse[1] < region.height):
            return None
        origin = view3d_utils.region_2d_to_origin_3d(region, self._view, mouse)
        direction = view3d_utils.region_2d_to_vector_3d(region, self._view, mouse)
        hit, location, *_rest = context.scene.ray_cast(context.evaluated_depsgraph_get(), origin, direction)
        if not hit:
            return None
        return self._frame.cell_at(location - direction * 1e-3)  # the cell on the viewer's side of the hit

    def _draw(self) -> None:
        """The cell under the mouse, and the box from the first cell to it."""
        if self._hover is None and self._first is None:
            return
        from gpu_extras.batch import batch_for_shader

        shader = gpu.shader.from_builtin('POLYLINE_UNIFORM_COLOR')
        shader.uniform_float("viewportSize", (self._region.width, self._region.height))
        gpu.state.blend_set('ALPHA')
        boxes = []
        if self._first is not None:
            boxes.append((self._first, self._hover or self._first, BOX_COLOUR, 3.0))
        if self._hover is not None:
            boxes.append((self._hover, self._hover, HOVER_COLOUR, 1.5))
        for low, high, colour, width in boxes:
            corners = self._frame.box_corners(low, high)
            lines = [corners[i] for edge in BOX_EDGES for i in edge]
            shader.uniform_float("lineWidth", width)
            shader.uniform_float("color", colour)
            batch_for_shader(shader, 'LINES', {"pos": lines}).draw(shader)
        gpu.state.blend_set('NONE')

    def _finish(self, context: bpy.types.Context) -> None:
        bpy.types.SpaceView3D.draw_handler_remove(self._handle, 'WINDOW')
        context.area.tag_redraw()  # the sidebar too: it shows the picked cells at once
        context.area.header_text_set(None)
        context.window.cursor_modal_restore()

    def modal(self, context: bpy.types.Context, event: bpy.types.Event) -> set[str]:
        if event.type == 'MOUSEMOVE':
            self._hover = self._cell_under_mouse(context, event)
            self._region.tag_redraw()
            return {'RUNNING_MODAL'}
        if event.type == 'LEFTMOUSE' and event.value == 'PRESS':
            cell = self._cell_under_mouse(context, event)
            if cell is None:
                return {'RUNNING_MODAL'}
            if self._first is None and self.clicks > 1:
                self._first = cell
                return {'RUNNING_MODAL'}
            return self._set(context, self._first or cell, cell)
        if event.type in {'RET', 'NUMPAD_ENTER'} and event.value == 'PRESS' and self._first is not None:
            return self._set(context, self._first, self._hover or self._first)
        if event.type in {'ESC', 'RIGHTMOUSE'} and event.value == 'PRESS':
            self._finish(context)
            self.report({'INFO'}, self.cancelled())
            return {'CANCELLED'}
        return {'PASS_THROUGH'}  # navigate the view meanwhile

    def _set(self, context: bpy.types.Context, first: tuple[int, int, int], last: tuple[int, int, int]) -> set[str]:
        self._finish(context)
        self.report({'INFO'}, self.apply(context, first, last))
        return {'FINISHED'}


class STREW_OT_pick_room_box(_PickCells):
    ("Click the box's first cell on the room in the viewport, then its last: From and To of Regenerate Box take the "
     "two cells (Esc keeps them as they were)")

    bl_idname = "strew.pick_room_box"
    bl_label = "Pick Box"
    bl_options = {'REGISTER', 'UNDO'}

    target: EnumProperty(
        name="Box", options={'SKIP_SAVE'}, default='REGENERATE',
        items=[('REGENERATE', "Regenerate Box", "From and To of Regenerate Box"),
               ('REGION', "Active Region", "From and To of the selected region (a new region when none is selected)")])

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return _in_viewport(cls, context, iface_("Pick the box from the 3D Viewport"))

    def execute(self, context: bpy.types.Context) -> set[str]:
        self.report({'ERROR'}, rpt_("Pick Box works in the 3D Viewport: click its button there"))
        return {'CANCELLED'}

    def header(self) -> str:
        return iface_("Pick Box: click the first cell on the room, then the last; Esc to cancel")

    def cancelled(self) -> str:
        return rpt_("Pick Box cancelled; the box is as it was")

    def apply(self, context: bpy.types.Context, first: tuple[int, int, int], last: tuple[int, int, int]) -> str:
        if self.target == 'REGION':
            return set_region_box(context.scene.strew.room, first, last)
        return set_box(context.scene.strew.room, first, last)


class STREW_OT_pick_room_cell(_PickCells):
    ("Click a cell on the room in the viewport: the selected entrance takes it (a new entrance when none is "
     "selected; Esc keeps it as it was)")

    bl_idname = "strew.pick_room_cell"
    bl_label = "Pick Cell"
    bl_options = {'REGISTER', 'UNDO'}
    clicks = 1

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return _in_viewport(cls, context, iface_("Pick the cell from the 3D Viewport"))

    def execute(self, context: bpy.types.Context) -> set[str]:
        self.report({'ERROR'}, rpt_("Pick Cell works in the 3D Viewport: click its button there"))
        return {'CANCELLED'}

    def header(self) -> str:
        return iface_("Pick Cell: click the entrance's cell on the room; Esc to cancel")

    def cancelled(self) -> str:
        return rpt_("Pick Cell cancelled; the entrance is as it was")

    def apply(self, context: bpy.types.Context, first: tuple[int, int, int], last: tuple[int, int, int]) -> str:
        return set_entrance(context.scene.strew.room, last)


classes = (STREW_OT_pick_room_box, STREW_OT_pick_room_cell)

register, unregister = bpy.utils.register_classes_factory(classes)
