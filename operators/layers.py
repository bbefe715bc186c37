"""Scatter layer list operators: add, remove, move layers; add and remove keep-away rules."""

from __future__ import annotations

from typing import Any

import bpy
from bpy.props import EnumProperty

from .list_edit import ListAdd, ListRemove


def _settings(context: bpy.types.Context):  # -> StrewSceneSettings
    return context.scene.strew


class STREW_OT_layer_add(ListAdd, bpy.types.Operator):
    """Add a scatter layer below the active one"""

    bl_idname = "strew.layer_add"
    bl_label = "Add Layer"
    bl_options = {'REGISTER', 'UNDO'}

    @classmethod
    def target(cls, context: bpy.types.Context) -> tuple[Any, str, str] | None:
        return _settings(context), "layers", "active_layer_index"

    def fill(self, context: bpy.types.Context, owner: Any, item: Any) -> None:
        taken = {other.name for other in owner.layers}
        number = len(owner.layers)
        while f"Layer {number}" in taken:
            number += 1
        item.name = f"Layer {number}"
        item.seed = number


class STREW_OT_layer_remove(ListRemove, bpy.types.Operator):
    """Remove the active scatter layer (its scattered output stays until Clear)"""

    bl_idname = "strew.layer_remove"
    bl_label = "Remove Layer"
    bl_options = {'REGISTER', 'UNDO'}
    empty = "There is no layer to remove"

    @classmethod
    def target(cls, context: bpy.types.Context) -> tuple[Any, str, str] | None:
        return _settings(context), "layers", "active_layer_index"


class STREW_OT_layer_move(bpy.types.Operator):
    """Move the active layer up or down (layers run top to bottom, big objects first)"""

    bl_idname = "strew.layer_move"
    bl_label = "Move Layer"
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


def _active_layer_rules(context: bpy.types.Context) -> tuple[Any, str, str] | None:
    """The active layer's keep-away rules, when that layer has a layer above it to keep away from."""
    settings = _settings(context)
    if not 0 < settings.active_layer_index < len(settings.layers):
        return None
    return settings.layers[settings.active_layer_index], "keep_away_rules", "active_rule_index"


class STREW_OT_keep_away_add(ListAdd, bpy.types.Operator):
    """Keep the active layer a set distance from one earlier layer"""

    bl_idname = "strew.keep_away_add"
    bl_label = "Add Keep-Away Rule"
    bl_options = {'REGISTER', 'UNDO'}
    missing = "Only a layer below another one can keep away from it"

    @classmethod
    def target(cls, context: bpy.types.Context) -> tuple[Any, str, str] | None:
        return _active_layer_rules(context)

    def fill(self, context: bpy.types.Context, owner: Any, item: Any) -> None:
        settings = _settings(context)
        item.layer = settings.layers[settings.active_layer_index - 1].name


class STREW_OT_keep_away_remove(ListRemove, bpy.types.Operator):
    """Remove the active layer's selected keep-away rule"""

    bl_idname = "strew.keep_away_remove"
    bl_label = "Remove Keep-Away Rule"
    bl_options = {'REGISTER', 'UNDO'}
    missing = empty = "The active layer has no keep-away rule"

    @classmethod
    def target(cls, context: bpy.types.Context) -> tuple[Any, str, str] | None:
        settings = _settings(context)
        if not 0 <= settings.active_layer_index < len(settings.layers):
            return None
        return settings.layers[settings.active_layer_index], "keep_away_rules", "active_rule_index"


classes = (STREW_OT_layer_add, STREW_OT_layer_remove, STREW_OT_layer_move, STREW_OT_keep_away_add,
           STREW_OT_keep_away_remove)

register, unregister = bpy.utils.register_classes_factory(classes)
