"""Export Level: the terrain, every scatter layer and every room to glTF, USD or FBX (File ▸ Export and the Strew
tab), through Blender's own exporters with Strew's per-instance values (:mod:`strew.scene.export`)."""

from __future__ import annotations

from pathlib import Path

import bpy
from bpy.app.translations import pgettext_rpt as rpt_
from bpy.props import BoolProperty, EnumProperty, StringProperty
from bpy_extras.io_utils import ExportHelper

from ..core.modes import EngineAxes
from ..scene.export.job import ExportError, ExportRequest, export_level

_EXTENSIONS = {".glb": "glTF Binary (.glb)", ".gltf": "glTF Separate (.gltf + .bin)", ".usdc": "USD (.usdc)",
               ".usda": "USD ASCII (.usda)", ".fbx": "FBX (.fbx)"}


class STREW_OT_export_level(bpy.types.Operator, ExportHelper):
    """Export the terrain, scatter layers and rooms: each mesh once, instanced, with Strew's per-instance values"""

    bl_idname = "strew.export_level"
    bl_label = "Export Level"
    bl_options = {'REGISTER'}

    filename_ext = ".glb"
    filter_glob: StringProperty(default="*.glb;*.gltf;*.usd;*.usdc;*.usda;*.fbx", options={'HIDDEN'})
    file_format: EnumProperty(
        name="Format", description="The file format (the file name's extension follows it)",
        items=[(suffix, label, "") for suffix, label in _EXTENSIONS.items()], default=".glb")
    strew_only: BoolProperty(name="Only Strew", default=False,
                             description="Only Strew's layers and rooms (and the terrain), not the other objects")
    selection_only: BoolProperty(name="Only Selected", default=False,
                                 description="Only the selected objects and the Strew outputs among them")
    terrain: BoolProperty(name="Terrain", default=True, description="Include the layers' terrains")
    engine: EnumProperty(
        name="Engine", description="Axis and unit preset of the engine the level goes to",
        items=[(EngineAxes.BLENDER, "Blender", "The exporter's own axes and units"),
               (EngineAxes.UNITY, "Unity", "Y up, metres (FBX: Unity's usual settings)"),
               (EngineAxes.GODOT, "Godot", "Y up, metres"),
               (EngineAxes.UNREAL, "Unreal", "Z up, X forward")],
        default=EngineAxes.BLENDER)
    gpu_instancing: BoolProperty(name="GPU Instancing", default=True,
                                 description="glTF: EXT_mesh_gpu_instancing (one node per prefab mesh) instead of "
                                 "one node per instance")

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.scene is not None

    def invoke(self, context: bpy.types.Context, event: bpy.types.Event) -> set[str]:
        # The Format last used is remembered: the browser's first file name takes its extension. ``synced`` is the
        # Format the name's extension last followed: it tells a Format picked from an extension typed.
        self.filename_ext = self.synced = self.file_format
        return set(super().invoke(context, event))

    def check(self, context: bpy.types.Context) -> bool:
        """Keep the file name's extension and the Format in step: a Format picked renames the file, an extension
        typed in the name picks the Format."""
        suffix = Path(self.filepath).suffix.lower()
        picked = self.file_format != getattr(self, "synced", self.file_format)
        if not picked and suffix in _EXTENSIONS and suffix != self.file_format:
            self.file_format = suffix
        self.synced = self.filename_ext = self.file_format
        return super().check(context)

    def draw(self, context: bpy.types.Context) -> None:
        layout = self.layout
        layout.use_property_split = True
        layout.use_property_decorate = False
        layout.prop(self, "file_format")
        layout.prop(self, "engine")
        # The check boxes span the whole sidebar: in the split's right column a longer (translated) label is cut.
        column = layout.column()
        column.use_property_split = False
        for name in ("strew_only", "selection_only", "terrain", "gpu_instancing"):
            column.prop(self, name)

    def execute(self, context: bpy.types.Context) -> set[str]:
        request = ExportRequest(Path(bpy.path.abspath(self.filepath)), selection_only=self.selection_only,
                                strew_only=self.strew_only, terrain=self.terrain, engine=EngineAxes(self.engine),
                                gpu_instancing=self.gpu_instancing)
        window_manager = context.window_manager
        window_manager.progress_begin(0.0, 1.0)
        try:
            result = export_level(context, request, progress=window_manager.progress_update)
        except ExportError as error:
            self.report({'ERROR'}, str(error))
            return {'CANCELLED'}
        except (RuntimeError, OSError) as error:
            self.report({'ERROR'}, rpt_("Export failed: {error}").format(error=" ".join(str(error).split())))
            return {'CANCELLED'}
        finally:
            window_manager.progress_end()
        for note in result.notes:
            self.report({'WARNING'}, note)
        done = rpt_("Exported {count:,} instances of {outputs} Strew outputs to {file} in {seconds:.1f} s")
        self.report({'INFO'}, done.format(count=result.instances, outputs=result.outputs, file=request.path.name,
                                          seconds=result.seconds))
        return {'FINISHED'}


def _menu(self: bpy.types.Menu, context: bpy.types.Context) -> None:
    self.layout.operator(STREW_OT_export_level.bl_idname, text="Strew Level (.glb, .usd, .fbx)")


classes = (STREW_OT_export_level,)


def register() -> None:
    for cls in classes:
        bpy.utils.register_class(cls)
    bpy.types.TOPBAR_MT_file_export.append(_menu)  # type: ignore[arg-type]


def unregister() -> None:
    bpy.types.TOPBAR_MT_file_export.remove(_menu)  # type: ignore[arg-type]
    for cls in reversed(classes):
        bpy.utils.unregister_class(cls)
