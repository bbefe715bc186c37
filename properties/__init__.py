"""Settings saved in the .blend: ``scene.strew`` (scatter layers, rooms) and ``object.strew`` (prefabs, tiles).

Headless scripts set the same properties the panels show, so a saved file reproduces its result.
"""

from __future__ import annotations

from ..registration import register_modules_factory
from . import object_settings, rooms, scatter

_modules = (object_settings, rooms, scatter)

register, unregister = register_modules_factory(_modules)
