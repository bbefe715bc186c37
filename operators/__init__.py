"""Operators: what the user does. Thin orchestration between scene data and ``core``."""

from __future__ import annotations

from ..registration import register_modules_factory
from . import (
    about,
    brush,
    export,
    layers,
    presets,
    rescatter,
    room_grow,
    room_paths,
    room_pick,
    room_tools,
    rooms,
    scatter,
)

# Each module owns a ``classes`` tuple and a register/unregister pair; order matters for dependencies.
_modules = (about, layers, presets, scatter, brush, rescatter, rooms, room_tools, room_grow, room_pick, room_paths,
            export)

register, unregister = register_modules_factory(_modules)
