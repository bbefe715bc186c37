"""Registering the Blender side a package at a time: each package lists its modules once, in order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType


def register_modules_factory(modules: Sequence[ModuleType]) -> tuple[Callable[[], None], Callable[[], None]]:
    """``register, unregister`` of a package: its modules' in order, and in reverse order.

    The module counterpart of ``bpy.utils.register_classes_factory``.
    """

    def register() -> None:
        for module in modules:
            module.register()

    def unregister() -> None:
        for module in reversed(modules):
            module.unregister()

    return register, unregister
