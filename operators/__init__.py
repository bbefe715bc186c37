"""Operators: what the user does. Thin orchestration between scene data and ``core``."""

from __future__ import annotations

from . import about, layers, live_update, room_tools, rooms, scatter

# Each module owns a ``classes`` tuple and a register/unregister pair; order matters for dependencies.
_modules = (about, layers, scatter, rooms, room_tools, live_update)


def register() -> None:
    for module in _modules:
        module.register()


def unregister() -> None:
    for module in reversed(_modules):
        module.unregister()
