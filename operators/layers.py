"""Scatter layer list operators: add, remove, move."""

from __future__ import annotations

import bpy
from bpy.props import EnumProperty


def _settings(context: bpy.types.Context):  # -> StrewSceneSettings
    return context.scene.strew


class STREW_OT_layer_add(bpy.types.Operator):
    bl_idname = "strew.layer_add"
    bl_label = "Add Layer"
    bl_description = "Add a scatter layer below the active one"
    bl_options = {'REGISTER', 'UNDO'}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.scene is not None

    def execute(self, context: bpy.types.Context) -> set[str]:
        settings = _settings(context)
        layer = settings.layers.add()
        taken = {other.name for other in settings.layers}
        number = len(settings.layers)
        while f"Layer {number}" in taken:
            number += 1
        layer.name = f"Layer {number}"
        layer.seed = number
        last = len(settings.layers) - 1
        target = min(settings.active_layer_index + 1, last) if last else 0
        settings.layers.move(last, target)
        settings.active_layer_index = target
        return {'FINISHED'}


class STREW_OT_layer_remove(bpy.types.Operator):
    bl_idname = "strew.layer_remove"
    bl_label = "Remove Layer"
    bl_description = "Remove the active scatter layer (its scattered output stays until Clear)"
    bl_options = {'REGISTER', 'UNDO'}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if context.scene is None or not len(context.scene.strew.layers):
            cls.poll_message_set("There is no layer to remove")
            return False
        return True

    def execute(self, context: bpy.types.Context) -> set[str]:
        settings = _settings(context)
        index = min(settings.active_layer_index, len(settings.layers) - 1)
        settings.layers.remove(index)
        settings.active_layer_index = max(0, min(index, len(settings.layers) - 1))
        return {'FINISHED'}


class STREW_OT_layer_move(bpy.types.Operator):
    bl_idname = "strew.layer_move"
    bl_label = "Move Layer"
    bl_description = "Move the active layer up or down (layers run top to bottom, big objects first)"
    bl_options = {'REGISTER', 'UNDO'}

    direction: EnumProperty(
        name="Direction", items=[('UP', "Up", "Run earlier"), ('DOWN', "Down", "Run later")], default='UP',
    )

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if context.scene is None or len(context.scene.strew.layers) < 2:
            cls.poll_message_set("Needs at least two layers")
            return False
        return True

    def execute(self, context: bpy.types.Context) -> set[str]:
        settings = _settings(context)
        index = settings.active_layer_index
        target = index - 1 if self.direction == 'UP' else index + 1
        if not 0 <= target < len(settings.layers):
            return {'CANCELLED'}
        settings.layers.move(index, target)
        settings.active_layer_index = target
        return {'FINISHED'}


class STREW_OT_keep_away_add(bpy.types.Operator):
    """Keep the active layer a set distance from one earlier layer"""

    bl_idname = "strew.keep_away_add"
    bl_label = "Add Keep-Away Rule"
    bl_options = {'REGISTER', 'UNDO'}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        settings = context.scene.strew if context.scene else None
        if settings is None or not 0 < settings.active_layer_index < len(settings.layers):
            cls.poll_message_set("Only a layer below another one can keep away from it")
            return False
        return True

    def execute(self, context: bpy.types.Context) -> set[str]:
        settings = _settings(context)
        layer = settings.layers[settings.active_layer_index]
        rule = layer.keep_away_rules.add()
        rule.layer = settings.layers[settings.active_layer_index - 1].name
        layer.active_rule_index = len(layer.keep_away_rules) - 1
        return {'FINISHED'}


class STREW_OT_keep_away_remove(bpy.types.Operator):
    """Remove the active layer's selected keep-away rule"""

    bl_idname = "strew.keep_away_remove"
    bl_label = "Remove Keep-Away Rule"
    bl_options = {'REGISTER', 'UNDO'}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        settings = context.scene.strew if context.scene else None
        if settings is None or not 0 <= settings.active_layer_index < len(settings.layers) \
                or not len(settings.layers[settings.active_layer_index].keep_away_rules):
            cls.poll_message_set("The active layer has no keep-away rule")
            return False
        return True

    def execute(self, context: bpy.types.Context) -> set[str]:
        settings = _settings(context)
        layer = settings.layers[settings.active_layer_index]
        index = min(layer.active_rule_index, len(layer.keep_away_rules) - 1)
        layer.keep_away_rules.remove(index)
        layer.active_rule_index = max(0, index - 1)
        return {'FINISHED'}


classes = (STREW_OT_layer_add, STREW_OT_layer_remove, STREW_OT_layer_move, STREW_OT_keep_away_add,
           STREW_OT_keep_away_remove)

register, unregister = bpy.utils.register_classes_factory(classes)
