"""Settings stored in the .blend (``PropertyGroup`` on the scene and on objects)."""

from __future__ import annotations

import bpy


class StrewSceneSettings(bpy.types.PropertyGroup):
    """Per-scene Strew settings (``scene.strew``)."""

    show_preview: bpy.props.BoolProperty(  # type: ignore[valid-type]
        name="Preview",
        description="Draw scatter points and their radius circles in the viewport",
        default=False,
    )


classes = (StrewSceneSettings,)

_register_classes, _unregister_classes = bpy.utils.register_classes_factory(classes)


def register() -> None:
    _register_classes()
    bpy.types.Scene.strew = bpy.props.PointerProperty(type=StrewSceneSettings)


def unregister() -> None:
    del bpy.types.Scene.strew
    _unregister_classes()
