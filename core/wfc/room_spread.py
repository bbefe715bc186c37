"""A room's separation, maximum runs and symmetry as solver constraints, checked against the kit and the room
before any search (no ``bpy``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from .constraints import Constraint
from .max_run import MaxRun
from .room_fit import cells_text
from .room_input import RoomInputError
from .room_spec import RoomSpec
from .rules import Rules
from .separation import Separation, most_separated
from .symmetry import Symmetry, mirror_twins, untwinned_tiles
from .tile_groups import KNOWN_SHOWN, group_names

ROOM_RUN_AXES = "xy"
"""The axes a room's maximum runs count along: each floor's rows in x and in y (not up the floors)."""


def _present(what: str, tiles: str, kit: list[str], rules: Rules) -> tuple[str, ...]:
    """The names of ``tiles`` the room's rules hold; ``RoomInputError`` for a name the kit does not have."""
    names = group_names(tiles)
    for name in names:
        if name not in kit:
            known = sorted(kit)
            listed = ", ".join(known[:KNOWN_SHOWN]) + (" …" if len(known) > KNOWN_SHOWN else "")
            raise RoomInputError("{what}: no tile named {tile!r}; the kit has {known}", what=what, tile=name,
                                 known=listed)
    held = set(rules.tiles or ())
    return tuple(name for name in names if name in held)


def _least(counts: Mapping[str, object], names: Iterable[str]) -> int:
    total = 0
    for name in names:
        given = counts.get(name, 0)
        low = given[0] if isinstance(given, tuple | list) else given
        total += int(low) if isinstance(low, int | np.integer) and not isinstance(low, bool) else 0
    return total


def _check_fixed_apart(spec: RoomSpec, names: tuple[str, ...], distance: int) -> None:
    """Two fixed tiles of a separated group closer than its distance: say which."""
    cells = [item for item in spec.fixed if item.tile.removesuffix("~") in names]
    size = np.asarray(spec.size)
    wrap = np.array([spec.periodic, spec.periodic, False])
    for i, a in enumerate(cells):
        for b in cells[i + 1:]:
            step = np.abs(np.subtract(a.cell, b.cell))
            step = np.where(wrap, np.minimum(step, size - step), step)
            if a.cell != b.cell and float(np.sqrt((step ** 2).sum())) < distance:
                raise RoomInputError("separation: fixed tiles {tile!r} at {cell} and {other!r} at {other_cell} are "
                                     "closer than {distance} cells; move one or lower the separation",
                                     tile=a.tile, cell=a.cell, other=b.tile, other_cell=b.cell, distance=distance)


def spread_constraints(rules: Rules, spec: RoomSpec, kit: Iterable[str],
                       counts: Mapping[str, object] | None = None) -> list[Constraint]:
    """The room's :class:`~.separation.Separation`, :class:`~.max_run.MaxRun` and :class:`~.symmetry.Symmetry`
    constraints (none when the settings are empty).

    Parameters
    ----------
    rules : Rules
        The room's rules.
    spec : RoomSpec
        The room's settings (``separation``, ``max_runs``, ``symmetry``).
    kit : iterable of str
        Every tile of the kit (a name outside it is refused; a tile of the kit the room cannot hold is skipped).
    counts : mapping, optional
        The room's counts (a minimum that cannot stand the separation apart is refused).

    Raises
    ------
    RoomInputError
        A tile the kit lacks, counts that no room of that size can space apart, fixed tiles too close, or a kit
        that cannot make the symmetry (naming the tiles without a mirror twin).
    """
    kit = list(kit)
    counts = counts or {}
    out: list[Constraint] = []
    assert isinstance(spec.separation, Mapping) and isinstance(spec.max_runs, Mapping)
    for tiles, distance in spec.separation.items():
        names = _present("separation", tiles, kit, rules)
        if not names:
            continue
        least, most = _least(counts, names), most_separated(spec.size[: rules.dims], distance)
        if least > most:
            raise RoomInputError("separation: Counts ask for {least} of {tiles!r} and at most {most} can stand "
                                 "{distance} cells apart in a room of {size} cells; lower the counts or the "
                                 "distance, or enlarge the room", least=least, tiles=tiles, most=most,
                                 distance=distance, size=cells_text(spec.size))
        _check_fixed_apart(spec, names, distance)
        out.append(Separation(names, distance, least))
    for tiles, length in spec.max_runs.items():
        names = _present("max run", tiles, kit, rules)
        if names:
            out.append(MaxRun(names, length, ROOM_RUN_AXES))
    if spec.symmetry:
        _check_symmetry(rules, spec)
        out.append(Symmetry(spec.symmetry))
    return out


def symmetry_note(rules: Rules, spec: RoomSpec) -> str:
    """What a failed symmetric room adds to its message: the tiles the symmetry keeps out (no mirror twin), or
    ``""``.

    Parameters
    ----------
    rules : Rules
        The room's rules (socket rules).
    spec : RoomSpec
        The room's settings.
    """
    if not spec.symmetry or rules.sockets is None:
        return ""
    lonely = sorted({tile for axis in spec.symmetry for tile in untwinned_tiles(rules, mirror_twins(rules, axis))})
    if not lonely:
        return ""
    named = ", ".join(lonely[:KNOWN_SHOWN]) + (" …" if len(lonely) > KNOWN_SHOWN else "")
    return (f"Symmetry {spec.symmetry} keeps out the tiles without a mirror twin ({named}); tick Mirror on those "
            "the room needs (stairs that join the storeys, doors).")


def _check_symmetry(rules: Rules, spec: RoomSpec) -> None:
    """A kit that cannot mirror at all (no twins, or no tile its own twin for an odd width): one line naming the
    tiles without a twin."""
    if rules.sockets is None:
        raise RoomInputError("symmetry needs a kit with sockets; clear Symmetry")
    for axis in spec.symmetry:
        twins = mirror_twins(rules, axis)
        lonely = untwinned_tiles(rules, twins)
        named = ", ".join(lonely[:KNOWN_SHOWN]) + (" …" if len(lonely) > KNOWN_SHOWN else "")
        if not (twins >= 0).any():
            raise RoomInputError("symmetry {axis}: no tile of the kit has a mirror twin ({tiles}); tick Mirror on "
                                 "asymmetric tiles or clear Symmetry", axis=axis, tiles=named)
        width = spec.size["xy".index(axis)]
        if width % 2 and not (twins == np.arange(rules.count)).any():
            raise RoomInputError("symmetry {axis}: the room is {width} cells across, so its middle row needs a tile "
                                 "that is its own mirror and the kit has none; make the width even or add a symmetric "
                                 "tile", axis=axis, width=width)
