"""Import mxgmn "simple tiled" XML (github.com/mxgmn/WaveFunctionCollapse) into :class:`Rules`.

Format: ``<tiles>`` with ``<tile name=… symmetry=… weight=…/>``; ``<neighbors>`` with
``<neighbor left="a k" right="b j"/>`` meaning orientation ``j`` of ``b`` may stand right (east, +x) of
orientation ``k`` of ``a``; optional ``<subsets>``. Image rows go down, so mxgmn's "down" is our south (-y).

Orientations: ``k`` = 0..3 is the tile turned ``k`` quarter turns counter-clockwise; for ``F`` tiles ``4 + k``
is orientation ``k`` mirrored (x -> -x). Each symmetry letter gives the number of distinct orientations and
how
a quarter turn (``turn``) and a mirror (``mirror``) act on them:

====== =========== ==========================================
letter orientations shape of the picture
====== =========== ==========================================
X      1           fully symmetric (cross, empty)
I      2           a straight line
\\      2           a diagonal
L      4           a corner (its mirror is a turn of it)
T      4           a T junction (mirror-symmetric)
F      8           no symmetry (mirrors are new orientations)
====== =========== ==========================================

Every declared pair is closed under the 8 symmetries of the square (4 turns x optional mirror), as mxgmn does.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..budget import MEMORY_BUDGET, check_memory
from .rules import Rules
from .vocab import MIRROR, TURN

_SYMMETRY: dict[str, tuple[int, Callable[[int], int], Callable[[int], int]]] = {
    "X": (1, lambda i: i, lambda i: i),
    "I": (2, lambda i: 1 - i, lambda i: i),
    "\\": (2, lambda i: 1 - i, lambda i: 1 - i),
    "L": (4, lambda i: (i + 1) % 4, lambda i: i + 1 if i % 2 == 0 else i - 1),
    "T": (4, lambda i: (i + 1) % 4, lambda i: i if i % 2 == 0 else 4 - i),
    "F": (8, lambda i: (i + 1) % 4 if i < 4 else 4 + (i - 1) % 4, lambda i: i + 4 if i < 4 else i - 4),
}


ADJACENCY_BYTES = 5  # peak per pair of variants: two dense bool matrices and Rules' copies (tracemalloc, 4,000)


def _shown(node: ET.Element) -> str:
    return f'<neighbor left="{node.get("left", "")}" right="{node.get("right", "")}">'


def _reference(node: ET.Element, side: str) -> tuple[str, int]:
    """``(tile, orientation)`` of a neighbor's ``left`` or ``right`` ("name" or "name k", k in 0..7)."""
    parts = node.get(side, "").split()
    if not parts or len(parts) > 2:
        raise ValueError(f"load_mxgmn: {_shown(node)}: write {side} as a tile name and an optional "
                         "orientation 0..7, e.g. \"corner 1\"")
    if len(parts) == 1:
        return parts[0], 0
    if not (parts[1].isdecimal() and int(parts[1]) < 8):
        raise ValueError(f"load_mxgmn: orientation {parts[1]!r} in {_shown(node)} is not in 0..7")
    return parts[0], int(parts[1])


def load_mxgmn(source: str | Path, subset: str | None = None, memory_budget: float = MEMORY_BUDGET) -> Rules:
    """Rules from an mxgmn simple-tiled XML file (path) or XML text.

    Variant names are ``"name k"`` (mxgmn's orientation numbering); ``rules.tiles`` holds the tile name,
    ``rules.rotations`` the turn in degrees counter-clockwise and ``rules.reflected`` whether it is mirrored
    first. Each orientation gets the tile's full weight (as in mxgmn). The adjacency is two dense
    variants × variants matrices: a set whose matrices would exceed ``memory_budget`` bytes is refused before
    they are made.

    Parameters
    ----------
    source : str or pathlib.Path
        The path of the XML file, or its text (it starts with ``<``).
    subset : str, optional
        The name of one of the set's ``<subset>`` elements: only its tiles.
    memory_budget : float, default MEMORY_BUDGET
        Bytes the adjacency matrices may take.

    Raises
    ------
    ValueError
        For a missing file, bad XML, an unknown subset, symmetry or tile (the message names it).

    Examples
    --------
    >>> xml = '''<set><tiles><tile name="line" symmetry="I"/><tile name="empty" symmetry="X"/></tiles>
    ... <neighbors><neighbor left="line" right="line"/><neighbor left="line 1" right="empty"/>
    ... <neighbor left="empty" right="empty"/></neighbors></set>'''
    >>> load_mxgmn(xml).names
    ('line 0', 'line 1', 'empty 0')
    """
    text = str(source)
    if not text.lstrip().startswith("<"):
        path = Path(source)
        if not path.is_file():
            raise ValueError(f"load_mxgmn: no such file {str(path)!r} (give a path or the XML text)")
        text = path.read_text()
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        raise ValueError(f"load_mxgmn: not valid XML ({error})") from None
    keep = None
    if subset is not None:
        found = [s for s in root.iter("subset") if s.get("name") == subset]
        if not found:
            known = [s.get("name") for s in root.iter("subset")]
            raise ValueError(f"load_mxgmn: no subset {subset!r}; known subsets: {known}")
        keep = {t.get("name") for t in found[0].iter("tile")}
    tiles_node = root.find("tiles")
    if tiles_node is None:
        raise ValueError("load_mxgmn: the XML has no <tiles> element")

    first: dict[str, list[int]] = {}  # "name k" -> variant: k < 4 turns k times, 4 + j mirrors j turns
    action: list[list[int]] = []  # action[v][g]: variant after symmetry g = (turns, mirrored)
    names, tiles, rotations, reflected, weights = [], [], [], [], []
    for node in tiles_node.iter("tile"):
        name = node.get("name")
        if name is None or (keep is not None and name not in keep):
            continue
        letter = node.get("symmetry", "X")
        if letter not in _SYMMETRY:
            raise ValueError(f"load_mxgmn: tile {name!r} has symmetry {letter!r}; use one of "
                             f"{list(_SYMMETRY)}")
        try:
            weight = float(node.get("weight", "1"))
        except ValueError:
            raise ValueError(f"load_mxgmn: tile {name!r} weight {node.get('weight')!r} is not a number"
                             ) from None
        cardinality, turn, mirror = _SYMMETRY[letter]
        base = len(action)
        spec = []
        for k in range(8):
            o = 0
            for _ in range(k % 4):
                o = turn(o)
            spec.append(base + (mirror(o) if k >= 4 else o))
        first[name] = spec
        for k in range(cardinality):
            row = []
            for g in range(8):
                turns, mirrored = g % 4, g >= 4
                o = mirror(k) if mirrored else k
                for _ in range(turns):
                    o = turn(o)
                row.append(base + o)
            action.append(row)
            names.append(f"{name} {k}")
            tiles.append(name)
            reflected.append(k >= 4)
            rotations.append((k * 90) % 360 if k < 4 else (-(k - 4) * 90) % 360)
            weights.append(weight)
    count = len(action)
    if count == 0:
        raise ValueError("load_mxgmn: no tiles (check the subset name)")
    check_memory(f"load_mxgmn: the adjacency of {count:,} tile variants ({len(first):,} tiles)",
                 ADJACENCY_BYTES * float(count) ** 2, "use a subset with fewer tiles (or fewer F/L/T tiles, "
                 "which turn into 8 or 4 variants each)", memory_budget)
    allowed = {"e": np.zeros((count, count), dtype=bool), "n": np.zeros((count, count), dtype=bool)}
    neighbors = root.find("neighbors")
    for node in [] if neighbors is None else neighbors.iter("neighbor"):
        left, right = _reference(node, "left"), _reference(node, "right")
        if keep is not None and (left[0] not in keep or right[0] not in keep):
            continue
        for name, _k in (left, right):
            if name not in first:
                raise ValueError(f"load_mxgmn: {_shown(node)} names an unknown tile {name!r}")
        a, b = first[left[0]][left[1]], first[right[0]][right[1]]
        for g in range(8):
            ga, gb = action[a][g], action[b][g]
            direction = "e"
            if g >= 4:
                direction = MIRROR[direction]
            for _ in range(g % 4):
                direction = TURN[direction]
            if direction == "e":
                allowed["e"][ga, gb] = True
            elif direction == "w":
                allowed["e"][gb, ga] = True
            elif direction == "n":
                allowed["n"][ga, gb] = True
            else:
                allowed["n"][gb, ga] = True
    return Rules(weights=np.array(weights), allowed=allowed, names=tuple(names), tiles=tuple(tiles),
                 rotations=tuple(rotations), reflected=tuple(reflected))
