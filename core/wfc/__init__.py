"""Wave Function Collapse: fill a 2-D or 3-D grid with tiles so that every adjacency obeys the rules.

Pure Python + numpy (no ``bpy``). The pieces:

- :class:`Rules` — weights and per-direction adjacency matrices (``rules.py``);
- :func:`rules_from_tiles` — rules from socket tiles with rotations (``sockets.py``, ``tile_rules.py``); big
  tiles over several cells as one part per cell (``tile_parts.py``, ``big_tiles.py``);
- :func:`load_mxgmn` — rules from mxgmn "simple tiled" XML (``mxgmn.py``);
- :func:`solve`, :func:`solve_detailed`, :func:`regenerate` — the solver with backtracking and restarts
  (``solver.py``, ``search.py``, ``heuristics.py``);
- constraints, all behind one interface (``constraints.py``): periodic edges, sides that meet only the
  border, border, entrances, fixed tiles (``layout.py``), counts (``counts.py``) and walkable connectivity
  kept by propagation (``connectivity.py``), :class:`Paths` between chosen cells (``paths.py``); a caller's
  own plug in with ``solve(..., constraints=[…])``;
  :func:`solve_steps`, the same solve as a generator of :class:`Step` for callers that show progress;
  :class:`Contradiction` when no grid is found;
- :mod:`.room` — a tile room (kit tiles, size, border, fixed tiles, counts …) as rules and solver options;
- :mod:`.vocab` — the shared words: sides, directions, turns, the heuristics (:class:`Heuristic`), solver
  defaults;
- :func:`find_violations`, :func:`walkable_components` — independent checks of a finished grid.

Axes: ``grid[x, y]`` / ``grid[x, y, z]`` with ``e`` = +x, ``n`` = +y, ``up`` = +z.
"""

from .checks import find_violations, walkable_components
from .counts import parse_counts
from .mxgmn import load_mxgmn
from .paths import Paths
from .rules import Rules
from .sockets import SocketTile
from .solver import Contradiction, SolveResult, Step, regenerate, solve, solve_detailed, solve_steps
from .tile_rules import rules_from_tiles
from .vocab import DIRECTIONS_2D, DIRECTIONS_3D, OPPOSITE, Heuristic

__all__ = [
    "DIRECTIONS_2D",
    "DIRECTIONS_3D",
    "OPPOSITE",
    "Contradiction",
    "Heuristic",
    "Paths",
    "Rules",
    "SocketTile",
    "SolveResult",
    "Step",
    "find_violations",
    "load_mxgmn",
    "parse_counts",
    "regenerate",
    "rules_from_tiles",
    "solve",
    "solve_detailed",
    "solve_steps",
    "walkable_components",
]
