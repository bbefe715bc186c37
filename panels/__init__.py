"""Panels: the "Strew" tab of the 3D Viewport sidebar (N-panel)."""

from __future__ import annotations

from ..registration import register_modules_factory
from . import main, presets, preview, room_paths, rooms, scatter, scatter_along, scatter_look

# Parent panels first: sub-panels (``bl_parent_id``) need their parent registered.
_modules = (main, presets, scatter, scatter_along, scatter_look, preview, rooms, room_paths)

register, unregister = register_modules_factory(_modules)
