"""The words every part of the tile-room code shares: sides, directions, turns, heuristics, solver defaults.

Axes: ``e`` = +x, ``n`` = +y, ``w`` = -x, ``s`` = -y, ``up`` = +z, ``down`` = -z. A quarter turn is
counter-clockwise about +z seen from above (the side that faced east faces north). A mirror is ``x -> -x``
(east and west swap).
"""

from __future__ import annotations

from enum import StrEnum

from ..budget import MEMORY_BUDGET

SIDES_2D = ("n", "e", "s", "w")
"""The horizontal sides in the order sockets are written (clockwise from north)."""
SIDES_3D = (*SIDES_2D, "up", "down")
HORIZONTAL = frozenset(SIDES_2D)
VERTICAL = ("up", "down")
DIRECTIONS_2D = ("e", "n", "w", "s")
"""The order of neighbour directions inside the solver (forward ones first, then their opposites)."""
DIRECTIONS_3D = ("e", "n", "w", "s", "up", "down")
FORWARD = ("e", "n", "up")
"""The directions whose adjacency matrix is stored; the others are their transposes."""
OPPOSITE = {"e": "w", "w": "e", "n": "s", "s": "n", "up": "down", "down": "up"}
OFFSETS = {"e": (1, 0, 0), "n": (0, 1, 0), "w": (-1, 0, 0), "s": (0, -1, 0), "up": (0, 0, 1), "down": (0, 0, -1)}
AXIS = {"e": 0, "w": 0, "n": 1, "s": 1, "up": 2, "down": 2}
TURN = {"e": "n", "n": "w", "w": "s", "s": "e", "up": "up", "down": "down"}
"""Where a side points after a quarter turn."""
MIRROR = {"e": "w", "w": "e", "n": "n", "s": "s", "up": "up", "down": "down"}
"""Where a side points after the mirror ``x -> -x``."""
ROTATIONS = (0, 90, 180, 270)


class Heuristic(StrEnum):
    """Which undecided cell the solver decides next (:mod:`.heuristics`), declared once: the solver, a room, the
    Tile Rooms panel's enum items, the Assemble Room operator and the command line all use these values.

    A value is read in any case, so ``Heuristic("scanline") is Heuristic.SCANLINE`` (the solver and a room
    accept ``"scanline"`` as well as ``"SCANLINE"``).
    """

    AUTO = 'AUTO'
    """Minimum entropy, then scanline after a few restarts; when walkable cells must be connected, scanline
    and grow in turn (:func:`~.solver.default_heuristic`)."""
    ENTROPY = 'ENTROPY'
    """The cell whose weighted domain has the least Shannon entropy."""
    MRV = 'MRV'
    """The cell with the fewest variants left (minimum remaining values)."""
    SCANLINE = 'SCANLINE'
    """The first undecided cell in row order."""
    GROW = 'GROW'
    """Cells next to a surely walkable cell first, then the fewest variants left (the walkable region grows)."""

    @classmethod
    def _missing_(cls, value: object) -> Heuristic | None:
        return cls.__members__.get(value.upper()) if isinstance(value, str) else None


ROOM_HEURISTICS = (Heuristic.AUTO, Heuristic.ENTROPY, Heuristic.MRV, Heuristic.SCANLINE)
"""The heuristics a room offers (panel, operator, command line); ``GROW`` is the solver's own, taken in turn
with ``SCANLINE`` under ``AUTO`` when cells must be connected."""

DEFAULT_CELL_SIZE = (2.0, 2.0, 2.0)
"""A kit's cell (x, y, z, world units) when neither its tiles nor the settings give one."""
DEFAULT_MAX_BACKTRACKS = 2000
DEFAULT_MAX_RESTARTS = 20
DEFAULT_TIME_LIMIT = 60.0
DEFAULT_MEMORY_BUDGET = MEMORY_BUDGET
