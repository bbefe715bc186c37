"""Tiles named by the user for a constraint (one name, several names, all turns and mirrors together) and the
``TILE=N; …`` text the spacing constraints are written in (no ``bpy``)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import numpy as np

from .rules import Rules

_ITEM = re.compile(r"^\s*(?P<names>.+?)\s*[=:]\s*(?P<number>-?\d+)\s*$")
KNOWN_SHOWN = 20


def group_names(tiles: str | Iterable[str]) -> tuple[str, ...]:
    """``"shrine, altar"`` or ``["shrine", "altar"]`` -> ``("shrine", "altar")`` (each name once, in order).

    Parameters
    ----------
    tiles : str or iterable of str
        One tile name, names separated by commas, or a sequence of names.

    Examples
    --------
    >>> group_names("shrine, altar, shrine")
    ('shrine', 'altar')
    """
    given = tiles.split(",") if isinstance(tiles, str) else list(tiles)
    names = tuple(dict.fromkeys(str(name).strip() for name in given if str(name).strip()))
    if not names:
        raise ValueError(f"tiles: name at least one tile, got {tiles!r}")
    return names


def known_tiles(rules: Rules) -> list[str]:
    """The source tile names of ``rules``, each once, sorted.

    Parameters
    ----------
    rules : Rules
        The rules (``rules.tiles``, else the variant names).
    """
    names = rules.tiles if rules.tiles is not None else tuple(rules.name(v) for v in range(rules.count))
    return sorted(set(names))


def group_mask(rules: Rules, names: Iterable[str], what: str) -> np.ndarray:
    """(T,) bool: the variants of the named tiles (a big tile by its anchor part); ``ValueError`` names a tile the
    rules do not have and lists the ones they do.

    Parameters
    ----------
    rules : Rules
        The rules (``rules.tiles`` names each variant's source tile).
    names : iterable of str
        Source tile names.
    what : str
        The setting, for the message (e.g. ``"separation"``).
    """
    tiles = np.array(rules.tiles if rules.tiles is not None else [rules.name(v) for v in range(rules.count)])
    mask = np.zeros(rules.count, dtype=bool)
    for name in names:
        hit = tiles == name
        if not hit.any():
            known = known_tiles(rules)
            listed = ", ".join(known[:KNOWN_SHOWN]) + (" …" if len(known) > KNOWN_SHOWN else "")
            raise ValueError(f"{what}: no tile named {name!r}; the kit has {listed}")
        mask |= hit
    return mask & rules.anchor_mask()


def parse_tile_numbers(text: str, what: str, unit: str) -> dict[str, int]:
    """``"shrine=8; pillar, column=3"`` -> ``{"shrine": 8, "pillar, column": 3}``: a whole number ≥ 1 per tile or
    group of tiles (names separated by commas share the number); ``:`` may stand for ``=``.

    Parameters
    ----------
    text : str
        ``TILE=N`` items separated by ``;``.
    what : str
        The setting, for messages (``"separation"``).
    unit : str
        What the number is, for messages (``"distance"``).

    Raises
    ------
    ValueError
        Naming the item that cannot be read, a number below 1 or a group given twice.

    Examples
    --------
    >>> parse_tile_numbers("shrine=8; pillar, column : 3", "separation", "distance")
    {'shrine': 8, 'pillar, column': 3}
    """
    out: dict[str, int] = {}
    for item in (part for part in text.split(";") if part.strip()):
        match = _ITEM.match(item)
        if match is None:
            raise ValueError(f"{what}: write TILE=N separated by ';' (e.g. \"shrine=8; pillar, column=3\"); "
                             f"cannot read {item.strip()!r}")
        names = ", ".join(group_names(match["names"]))
        number = int(match["number"])
        if number < 1:
            raise ValueError(f"{what}: the {unit} of {names!r} must be 1 or more, got {number}")
        if names in out:
            raise ValueError(f"{what}: {names!r} is given twice; keep one {unit}")
        out[names] = number
    return out


def checked_numbers(given: Mapping[str, object] | str, what: str, unit: str) -> dict[str, int]:
    """A mapping or its text (:func:`parse_tile_numbers`) as ``{tiles: n}`` with every ``n`` a whole number ≥ 1.

    Parameters
    ----------
    given : mapping or str
        ``{tiles: n}`` (tiles: a name, or names separated by commas) or its text.
    what, unit : str
        As in :func:`parse_tile_numbers`.
    """
    if isinstance(given, str):
        return parse_tile_numbers(given, what, unit)
    if not isinstance(given, Mapping):
        raise ValueError(f"{what}: expected {{tile: {unit}}} or text \"TILE=N; …\", got {given!r}")
    out: dict[str, int] = {}
    for tiles, number in given.items():
        names = ", ".join(group_names(tiles))
        if isinstance(number, bool) or not isinstance(number, int | np.integer) or number < 1:
            raise ValueError(f"{what}: the {unit} of {names!r} must be a whole number ≥ 1, got {number!r}")
        out[names] = int(number)
    return out
