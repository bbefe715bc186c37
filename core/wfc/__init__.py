"""Wave Function Collapse: fill a 2-D or 3-D grid with tiles so that every adjacency obeys the rules.

Pure Python + numpy (no ``bpy``). The pieces:

- :class:`Rules` — weights and per-direction adjacency matrices (``rules.py``);
- :func:`rules_from_tiles` — rules from socket tiles with rotations (``sockets.py``);
- :func:`load_mxgmn` — rules from mxgmn "simple tiled" XML (``mxgmn.py``);
- :func:`solve`, :func:`solve_detailed`, :func:`regenerate` — the solver with backtracking, restarts and
  constraints (``solver.py``); :class:`Contradiction` when no grid is found;
- :func:`find_violations`, :func:`walkable_components` — independent checks of a finished grid.

Axes: ``grid[x, y]`` / ``grid[x, y, z]`` with ``e`` = +x, ``n`` = +y, ``up`` = +z.
"""

from .checks import find_violations, walkable_components
from .mxgmn import load_mxgmn
from .rules import DIRECTIONS_2D, DIRECTIONS_3D, OPPOSITE, Rules
from .sockets import SocketTile, rules_from_tiles
from .solver import Contradiction, SearchCancelled, SolveResult, regenerate, solve, solve_detailed

__all__ = [
    "DIRECTIONS_2D",
    "DIRECTIONS_3D",
    "OPPOSITE",
    "Contradiction",
    "Rules",
    "SearchCancelled",
    "SocketTile",
    "SolveResult",
    "find_violations",
    "load_mxgmn",
    "regenerate",
    "rules_from_tiles",
    "solve",
    "solve_detailed",
    "walkable_components",
]
