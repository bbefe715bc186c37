"""Exporter options that differ between Blender versions: pass only those the running exporter has."""

from __future__ import annotations

from typing import Any


def supported(operator: Any, **options: Any) -> dict[str, Any]:
    """``options`` less those the exporter ``operator`` (``bpy.ops.export_scene.gltf`` …) does not have here."""
    known = {prop.identifier for prop in operator.get_rna_type().properties}
    return {key: value for key, value in options.items() if key in known}
