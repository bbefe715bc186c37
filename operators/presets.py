"""Layer-stack presets: save and load them; rename and delete the user's own (shipped biomes only load)."""

from __future__ import annotations

import bpy
from bpy.app.translations import pgettext_iface as iface_
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


class _UserPresetFile:
    """Shared by Delete and Rename: they change files in Strew's user preset folder and nothing in the scene.

    ``bl_options`` has no ``'UNDO'``: Ctrl+Z cannot bring a file back, and an undo step would suggest it could.
    """

    bl_options = {'REGISTER'}

    preset: StringProperty(name="Preset", description="Name of one of your saved presets",
                           options={'HIDDEN', 'SKIP_SAVE'})

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        try:
            presets.user_folder()
        except (ValueError, OSError, AttributeError):
            cls.poll_message_set("Strew's user preset folder is unavailable (Strew is not installed as an extension)")
            return False
        return True


class STREW_OT_preset_delete(_UserPresetFile, bpy.types.Operator):
    """Delete one of your saved presets from disk (shipped biomes stay)"""

    bl_idname = "strew.preset_delete"
    bl_label = "Delete Layer Preset"

    def invoke(self, context: bpy.types.Context, event: bpy.types.Event) -> set[str]:
        return context.window_manager.invoke_confirm(  # type: ignore[return-value]
            self, event, title=iface_("Delete Layer Preset"),
            message=iface_("Delete '{name}' from disk? This cannot be undone.").format(name=self.preset),
            confirm_text=iface_("Delete"), icon='WARNING', translate=False)

    def execute(self, context: bpy.types.Context) -> set[str]:
        try:
            presets.delete(self.preset)
        except presets.PresetError as exc:
            self.report({'ERROR'}, str(exc))
            return {'CANCELLED'}
        self.report({'INFO'}, rpt_("Deleted preset '{name}'").format(name=self.preset))
        return {'FINISHED'}


class STREW_OT_preset_rename(_UserPresetFile, bpy.types.Operator):
    """Rename one of your saved presets (its file in Strew's user preset folder)"""

    bl_idname = "strew.preset_rename"
    bl_label = "Rename Layer Preset"

    new_name: StringProperty(name="New Name", description="The preset's new name (also its file name)",
                             options={'SKIP_SAVE'})

    def invoke(self, context: bpy.types.Context, event: bpy.types.Event) -> set[str]:
        self.new_name = self.new_name or self.preset
        return context.window_manager.invoke_props_dialog(  # type: ignore[return-value]
            self, title=iface_("Rename Preset '{name}'").format(name=self.preset),
            confirm_text=iface_("Rename"), translate=False)

    def draw(self, context: bpy.types.Context) -> None:
        self.layout.prop(self, "new_name")

    def execute(self, context: bpy.types.Context) -> set[str]:
        try:
            path = presets.rename(self.preset, self.new_name)
        except presets.PresetError as exc:
            self.report({'ERROR'}, str(exc))
            return {'CANCELLED'}
        self.report({'INFO'}, rpt_("Renamed preset '{old}' to '{new}'").format(old=self.preset, new=path.stem))
        return {'FINISHED'}


classes = (STREW_OT_preset_save, STREW_OT_preset_load, STREW_OT_preset_delete, STREW_OT_preset_rename)

register, unregister = bpy.utils.register_classes_factory(classes)
