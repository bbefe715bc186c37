"""Strew: Poisson-disk scatter on terrain and Wave Function Collapse tile rooms.

The folder is both a Blender extension and the Python package ``strew``. Importing it never imports
``bpy``: the Blender side is imported inside :func:`register`, so ``import strew.core`` works in a
plain Python with numpy.
"""

from __future__ import annotations

import sys

if sys.argv[:1] == ["-m"] and __package__:  # `python -m strew` is starting: Ctrl+C is one line from here on
    import os
    import signal

    from .cli_interrupt import EXIT_CODE, message

    def _starting(_signum: int, _frame: object) -> None:
        sys.stderr.write(message([]) + "\n")
        sys.stderr.flush()
        os._exit(EXIT_CODE)

    signal.signal(signal.SIGINT, _starting)

if __package__:  # a test runner walking a checkout whose folder is no valid name imports this file on its own
    from .version import __version__

__all__ = ["__version__", "ensure_registered", "register", "unregister"]

# Blender-side modules, registered in this order and unregistered in reverse.
_BLENDER_MODULES = ("translations", "properties", "scene.layer_ids", "scene.display", "scene.proxy_view",
                    "scene.live_update", "scene.export.usd", "operators", "panels", "scene.worker_pool")


def _blender_modules() -> list:
    import importlib

    return [importlib.import_module(f".{name}", __name__) for name in _BLENDER_MODULES]


def register() -> None:
    """Register every Blender class of the extension (called by Blender when it is enabled)."""
    for module in _blender_modules():
        module.register()


def ensure_registered() -> None:
    """Register the extension in this process unless Blender already did (the ``bpy`` wheel, the command line)."""
    import bpy

    if not hasattr(bpy.types.Scene, "strew"):
        register()


def unregister() -> None:
    """Unregister in reverse order (called by Blender when the extension is disabled)."""
    for module in reversed(_blender_modules()):
        module.unregister()


def __getattr__(name: str) -> object:
    """Blender's glTF exporter looks up ``glTF2ExportUserExtension`` and its pre/post export callbacks on enabled
    add-ons, so a plain File ▸ Export ▸ glTF 2.0 carries Strew's instances and their values too (imported only
    when asked: ``bpy``)."""
    if name in _GLTF_HOOKS:
        from .scene.export import gltf

        return getattr(gltf, _GLTF_HOOKS[name])
    raise AttributeError(name)


_GLTF_HOOKS = {"glTF2ExportUserExtension": "StrewGltf", "glTF2_pre_export_callback": "pre_export",
               "glTF2_post_export_callback": "post_export"}
