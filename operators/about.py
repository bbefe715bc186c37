"""A tiny operator that reports the running version (also a smoke test of registration)."""

from __future__ import annotations

import bpy
from bpy.app.translations import pgettext_rpt as rpt_

from ..version import __version__


class STREW_OT_about(bpy.types.Operator):
    """Show which version of Strew is running"""

    bl_idname = "strew.about"
    bl_label = "About Strew"
    bl_options = {'REGISTER'}

    def execute(self, context: bpy.types.Context) -> set[str]:
        self.report({'INFO'}, rpt_("Strew {version}").format(version=__version__))
        return {'FINISHED'}


classes = (STREW_OT_about,)

register, unregister = bpy.utils.register_classes_factory(classes)
