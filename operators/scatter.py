"""Scatter and Clear operators. The work lives in ``scene.scatter_job`` (shared with the command line)."""

from __future__ import annotations

import bpy
from bpy.app.translations import pgettext_rpt as rpt_
from bpy.props import IntProperty

from ..scene import layer_ids, scatter_job
from ..scene.live_fill import scatter_sampler
from .modal_job import ModalJob


def _report_result(operator: bpy.types.Operator, result: scatter_job.JobResult) -> None:
    for item in result.reports:
        operator.report({'INFO'}, rpt_("{name}: {count:,} instances in {seconds:.2f} s").format(
            name=item.name, count=item.count, seconds=item.seconds))
        if item.blur:
            operator.report({'WARNING'}, rpt_(
                "{name}: {far:,.0f} m from the world origin Blender draws and renders instances only to within "
                "{blur:.3g} m, {share:.2g}% of their {spacing:.3g} m spacing: move the terrain nearer the world "
                "origin for exact spacing").format(name=item.name, far=item.far, blur=item.blur,
                                                   share=100.0 * item.blur / item.spacing, spacing=item.spacing))
    total = sum(result.stages.values())
    operator.report({'INFO'}, rpt_("Scatter finished in {seconds:.2f} s").format(seconds=total))


class STREW_OT_scatter(ModalJob):
    """Scatter every enabled layer on the terrain (earlier layers keep later ones away)"""

    bl_idname = "strew.scatter"
    bl_label = "Scatter"
    bl_options = {'REGISTER', 'UNDO'}

    layer_index: IntProperty(
        name="Layer", description="Scatter only this layer (-1: every enabled layer)", default=-1, min=-1,
        options={'SKIP_SAVE'},
    )

    job_error = scatter_job.ScatterError
    cancel_message = "Scatter cancelled; the scene is unchanged"

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        settings = getattr(context.scene, "strew", None)
        if settings is None:
            return False
        if settings.terrain is None and not any(layer.targets is not None for layer in settings.layers):
            cls.poll_message_set("Pick a mesh terrain first")
            return False
        if not len(settings.layers):
            cls.poll_message_set("Add a layer first")
            return False
        return True

    def _layers(self, context: bpy.types.Context) -> list[str] | None:
        """Every enabled layer, or the chosen one and the enabled layers below it (they keep away from it)."""
        return None if self.layer_index < 0 else scatter_job.layers_from(context.scene, self.layer_index)

    def _check_index(self, context: bpy.types.Context) -> bool:
        if self.layer_index >= len(context.scene.strew.layers):
            self.report({'ERROR'}, rpt_("There is no layer {index}").format(index=self.layer_index))
            return False
        return True

    def execute(self, context: bpy.types.Context) -> set[str]:
        if not self._check_index(context):
            return {'CANCELLED'}
        try:
            result = scatter_job.run_to_end(context, self._layers(context), sampler=scatter_sampler(context.scene))
        except scatter_job.ScatterError as error:
            self.report({'ERROR'}, str(error))
            return {'CANCELLED'}
        _report_result(self, result)
        return {'FINISHED'}

    def invoke(self, context: bpy.types.Context, event: bpy.types.Event) -> set[str]:
        if context.window is None:  # no window to run a modal operator in (a background script)
            return self.execute(context)
        if not self._check_index(context):
            return {'CANCELLED'}
        return self.start_job(context, scatter_job.run(context, self._layers(context),
                                                       sampler=scatter_sampler(context.scene)))

    def report_done(self, result: scatter_job.JobResult) -> None:
        _report_result(self, result)


class STREW_OT_clear(bpy.types.Operator):
    """Remove what Strew scattered; objects Strew did not create are never touched"""

    bl_idname = "strew.clear"
    bl_label = "Clear"
    bl_options = {'REGISTER', 'UNDO'}

    layer_index: IntProperty(
        name="Layer", description="Clear only this layer's output (-1: all layers)", default=-1, min=-1,
        options={'SKIP_SAVE'},
    )

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.scene is not None

    def execute(self, context: bpy.types.Context) -> set[str]:
        layers = context.scene.strew.layers
        layer_id = None
        if self.layer_index >= 0:
            if self.layer_index >= len(layers):
                self.report({'ERROR'}, rpt_("There is no layer {index}").format(index=self.layer_index))
                return {'CANCELLED'}
            layer_id = layer_ids.ids_of(context.scene, [self.layer_index])[0]
        removed = scatter_job.clear_layer_output(context.scene, layer_id)
        self.report({'INFO'}, rpt_("Cleared {count:,} Strew object(s)").format(count=removed))
        return {'FINISHED'}


classes = (STREW_OT_scatter, STREW_OT_clear)

register, unregister = bpy.utils.register_classes_factory(classes)
