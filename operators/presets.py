"""Save and load scatter layer stacks as presets (shipped biomes and the user's own)."""

from __future__ import annotations

import bpy
from bpy.app.translations import pgettext_rpt as rpt_
from bpy.props import BoolProperty, EnumProperty, StringProperty

from ..scene import presets

# Blender keeps only pointers to the strings of dynamic enum items: hold them here while the menu is open.
_items: list[tuple[str, str, str]] = []


def _preset_items(_self: object, _context: bpy.types.Context | None) -> list[tuple[str, str, str]]:
    _items[:] = [(name, name, str(path)) for name, path in presets.available().items()]
    return _items or [('NONE', "(no presets)", "")]


class STREW_OT_preset_save(bpy.types.Operator):
    """Save this scene's scatter layers as a preset, to load in any file"""

    bl_idname = "strew.preset_save"
    bl_label = "Save Layer Preset"
    bl_options = {'REGISTER'}

    name: StringProperty(name="Name", description="Preset name (also its file name)",
                         default="My Biome")
    overwrite: BoolProperty(name="Overwrite", description="Replace a preset of the same name",
                            default=False)

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if context.scene is None or not len(context.scene.strew.layers):
            cls.poll_message_set("Add a scatter layer first")
            return False
        return True

    def invoke(self, context: bpy.types.Context, event: bpy.types.Event) -> set[str]:
        return context.window_manager.invoke_props_dialog(self)  # type: ignore[return-value]

    def execute(self, context: bpy.types.Context) -> set[str]:
        try:
            path = presets.save(context.scene.strew, self.name, self.overwrite)
        except (presets.PresetError, OSError) as exc:
            self.report({'ERROR'}, str(exc))
            return {'CANCELLED'}
        self.report({'INFO'}, rpt_("Saved preset '{name}' ({count} layers)").format(
            name=path.stem, count=len(context.scene.strew.layers)))
        return {'FINISHED'}


class STREW_OT_preset_load(bpy.types.Operator):
    """Add the layers of a preset (a shipped biome or one you saved) to this scene"""

    bl_idname = "strew.preset_load"
    bl_label = "Load Layer Preset"
    bl_options = {'REGISTER', 'UNDO'}

    preset: EnumProperty(name="Preset", items=_preset_items)
    replace: BoolProperty(name="Replace Layers", description="Remove this scene's layers first",
                          default=False)

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.scene is not None

    def execute(self, context: bpy.types.Context) -> set[str]:
        path = presets.available().get(self.preset)
        if path is None:
            self.report({'ERROR'}, rpt_("No preset named '{name}'").format(name=self.preset))
            return {'CANCELLED'}
        try:
            report = presets.load(context.scene.strew, presets.read(path), replace=self.replace)
        except presets.PresetError as exc:
            self.report({'ERROR'}, str(exc))
            return {'CANCELLED'}
        if report.missing:
            self.report({'WARNING'}, rpt_("Not in this file, left empty: {names}").format(
                names=", ".join(report.missing)))
        self.report({'INFO'}, rpt_("Loaded preset '{name}': {layers}").format(
            name=self.preset, layers=", ".join(report.layers)))
        return {'FINISHED'}


classes = (STREW_OT_preset_save, STREW_OT_preset_load)

register, unregister = bpy.utils.register_classes_factory(classes)
