"""Every custom property Strew reads, declared once and parsed in one place.

A plain custom property (``obj["strew_weight"] = 2.0``) wins over the matching panel setting (``obj.strew.weight``),
so prefabs and kits made by scripts or other tools work; :func:`resolve` is that rule. A value of the wrong type,
shape or range raises :class:`CustomPropertyError`, one line naming the data-block, the property and the form it
needs. Values arrive as Blender stores them (IDProperty arrays and groups) and are turned into plain Python first.

===================  ==========  =========================================================
key                  on          form
===================  ==========  =========================================================
``strew_weight``     prefab,     a number ≥ 0
                     tile
``strew_radius``     prefab      a distance ≥ 0: its footprint when a layer is spaced by object size
``strew_sockets``    tile        a dict of side (n, e, s, w, up, down) → label
``strew_rotations``  tile        a list of turns in degrees from 0, 90, 180, 270
``strew_walkable``   tile        True or False
``strew_passable``   tile        a list of sides, e.g. ["n", "s"]
``strew_mirror``     tile        True or False
``strew_size``       tile        cells it covers along x, y, z: three whole numbers ≥ 1 (a big tile)
``strew_cell_sockets`` tile      a big tile's labels per covered cell: {"i,j,k": {side: label}} (its outer sides)
``strew_cell_size``  kit         three sizes > 0 (x, y, z)
``strew_compatible`` kit         "a=b, c=d" or a list of label pairs
===================  ==========  =========================================================
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

import bpy
from bpy.app.translations import pgettext_rpt as rpt_

from ..core.inputs import MAX_DISTANCE
from ..core.wfc.vocab import ROTATIONS as TURNS
from ..properties.object_settings import DEFAULT_WEIGHT

WEIGHT_KEY = "strew_weight"
RADIUS_KEY = "strew_radius"
SOCKETS_KEY = "strew_sockets"
ROTATIONS_KEY = "strew_rotations"
WALKABLE_KEY = "strew_walkable"
PASSABLE_KEY = "strew_passable"
MIRROR_KEY = "strew_mirror"
CELL_SIZE_KEY = "strew_cell_size"
SIZE_KEY = "strew_size"
CELL_SOCKETS_KEY = "strew_cell_sockets"
COMPATIBLE_KEY = "strew_compatible"


T = TypeVar("T")


class CustomPropertyError(ValueError):
    """A custom property Strew cannot use; the message names the data-block, the property and the form it needs."""


class _Expected(Exception):
    """Raised by a parser: the (translated) form the value should have."""


def plain(value: object) -> object:
    """An IDProperty group or array (nested too) as plain dicts and lists; other values as they are."""
    if hasattr(value, "to_dict"):
        value = value.to_dict()
    elif hasattr(value, "to_list"):
        value = value.to_list()
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


def _finite(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def _flag(value: object) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    return None


def _weight(value: object) -> float:
    number = _finite(value)
    if number is None or number < 0:
        raise _Expected(rpt_("a number ≥ 0, e.g. 1.5"))
    return number


def _distance(value: object) -> float:
    number = _finite(value)
    if number is None or number < 0 or number > MAX_DISTANCE:
        raise _Expected(rpt_("a distance ≥ 0 in metres, e.g. 1.5"))
    return number


def _sockets(value: object) -> dict[str, str]:
    if not isinstance(value, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise _Expected(rpt_("a dict of side -> label, e.g. n: wall, e: door, s: wall, w: open"))
    return dict(value)


def _rotations(value: object) -> tuple[int, ...]:
    turns = value if isinstance(value, list) else None
    if not turns or not all(_finite(t) is not None and float(t) in TURNS for t in turns):
        raise _Expected(rpt_("a list of turns in degrees from 0, 90, 180, 270, e.g. [0, 90]"))
    return tuple(sorted({int(t) for t in turns}))


def _bool(value: object) -> bool:
    flag = _flag(value)
    if flag is None:
        raise _Expected(rpt_("True or False (1 or 0)"))
    return flag


def _sides(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(side, str) for side in value):
        raise _Expected(rpt_('a list of sides from n, e, s, w, up, down, e.g. ["n", "s"]'))
    return tuple(value)


def _cell_size(value: object) -> tuple[float, float, float]:
    sizes = [_finite(c) for c in value] if isinstance(value, list) else []
    if len(sizes) != 3 or not all(c is not None and c > 0 for c in sizes):
        raise _Expected(rpt_("three sizes > 0 (x, y, z), e.g. [4.0, 4.0, 3.0]"))
    return (float(sizes[0]), float(sizes[1]), float(sizes[2]))


def _size(value: object) -> tuple[int, int, int]:
    sizes = [_finite(c) for c in value] if isinstance(value, list) else []
    if len(sizes) != 3 or not all(c is not None and c >= 1 and c == int(c) for c in sizes):
        raise _Expected(rpt_("three whole numbers ≥ 1 (cells along x, y, z), e.g. [2, 2, 1]"))
    return (int(sizes[0] or 1), int(sizes[1] or 1), int(sizes[2] or 1))


def _cell_sockets(value: object) -> dict[tuple[int, int, int], dict[str, str]]:
    out: dict[tuple[int, int, int], dict[str, str]] = {}
    for key, labels in value.items() if isinstance(value, Mapping) else [(None, None)]:
        try:
            i, j, k = (int(part) for part in str(key).replace(",", " ").split())
        except ValueError:
            i = j = k = -1
        if min(i, j, k) < 0 or not isinstance(labels, Mapping) or not all(
                isinstance(s, str) and isinstance(v, str) for s, v in labels.items()):
            raise _Expected(rpt_('a dict of cell "i,j,k" -> {side: label}, e.g. {"1,0,0": {"e": "door"}}'))
        out[(i, j, k)] = dict(labels)
    return out


def _compatible(value: object) -> str | tuple[tuple[str, str], ...]:
    if isinstance(value, str):
        return value
    pairs = value if isinstance(value, list) else None
    if pairs is None or not all(isinstance(p, list) and len(p) == 2 and all(isinstance(s, str) for s in p)
                                for p in pairs):
        raise _Expected(rpt_('"a=b, c=d" or a list of label pairs, e.g. [["door", "arch"]]'))
    return tuple((str(a), str(b)) for a, b in pairs)


@dataclass(frozen=True)
class CustomProperty(Generic[T]):
    """A custom property Strew reads: its key and the parser that checks and converts its plain value."""

    key: str
    parse: Callable[[object], T]


WEIGHT = CustomProperty(WEIGHT_KEY, _weight)
RADIUS = CustomProperty(RADIUS_KEY, _distance)
SOCKETS = CustomProperty(SOCKETS_KEY, _sockets)
ROTATIONS = CustomProperty(ROTATIONS_KEY, _rotations)
WALKABLE = CustomProperty(WALKABLE_KEY, _bool)
PASSABLE = CustomProperty(PASSABLE_KEY, _sides)
MIRROR = CustomProperty(MIRROR_KEY, _bool)
CELL_SIZE = CustomProperty(CELL_SIZE_KEY, _cell_size)
SIZE = CustomProperty(SIZE_KEY, _size)
CELL_SOCKETS = CustomProperty(CELL_SOCKETS_KEY, _cell_sockets)
COMPATIBLE = CustomProperty(COMPATIBLE_KEY, _compatible)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def read(block: bpy.types.ID, prop: CustomProperty[T]) -> T | None:
    """The parsed custom property ``prop`` of ``block``, or None when it has none."""
    if prop.key not in block:
        return None
    value = plain(block[prop.key])
    try:
        return prop.parse(value)
    except _Expected as expected:
        raise CustomPropertyError(rpt_('"{name}": custom property {key} = {value} cannot be used; give {expected}')
                                  .format(name=block.name, key=prop.key, value=_shown(value),
                                          expected=expected)) from None


def resolve(block: bpy.types.ID, prop: CustomProperty[T], panel: T) -> T:
    """The custom property wins over the panel: ``block[prop.key]`` parsed when present, else ``panel``."""
    value = read(block, prop)
    return panel if value is None else value


def prefab_weight(block: bpy.types.ID) -> float:
    """A prefab's weight: ``strew_weight`` wins over ``object.strew.weight``; 1 for a collection without one."""
    # ``block.strew`` is read only once the object holds its settings: reading it otherwise makes an empty group of
    # them on the user's object (a custom property in Blender 4.x)
    settings = block.strew if isinstance(block, bpy.types.Object) and block.is_property_set("strew") else None
    return resolve(block, WEIGHT, float(settings.weight) if settings is not None else DEFAULT_WEIGHT)
