"""Memory budgets: a job whose arrays would not fit is refused before it allocates, with its size and the fix.

The one refusal of every job whose bytes are estimated: the WFC grid (``memory_budget``), Detect Sockets' side
rasters and an mxgmn tileset's adjacency. The sampler counts its budget in points (``max_points``, see
:mod:`.poisson.budget`) and states the memory they take with :func:`size_text`. An estimate comes from sizes
alone, as a float (``inf`` or ``nan`` when beyond any machine) or an exact int, never by allocating.
"""

from __future__ import annotations

import math

MEMORY_BUDGET = 1 << 30
"""Bytes a job's arrays may take unless its caller gives another budget."""

_UNITS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB")


def size_text(nbytes: float) -> str:
    """Finite ``nbytes`` in the largest binary unit that keeps it at least 1, e.g. ``"3.8 GiB"``.

    >>> size_text(4.1e9), size_text(512), size_text(2.0 ** 80), size_text(1e40)
    ('3.8 GiB', '512 B', '1,048,576.0 EiB', '8.67e+21 EiB')
    """
    unit = 0
    while unit + 1 < len(_UNITS) and abs(nbytes) >= 1024.0:
        nbytes /= 1024.0
        unit += 1
    if unit == 0:
        return f"{nbytes:,.0f} B"
    return f"{nbytes:,.1f} {_UNITS[unit]}" if nbytes < 1e7 else f"{nbytes:.3g} {_UNITS[unit]}"


def check_memory(what: str, nbytes: float, fixes: str, budget: float = MEMORY_BUDGET,
                 budget_name: str = "the memory budget") -> None:
    """Refuse (``ValueError``: ``"<what> needs about <size>, more than <budget_name> (<size>); <fixes>"``) a job
    whose estimated ``nbytes`` (a float, or an int of any size) exceed ``budget`` or are not a number.

    >>> check_memory("a 40,000 x 40,000 raster", 1.6e9, "raise the quantum")
    Traceback (most recent call last):
    ValueError: a 40,000 x 40,000 raster needs about 1.5 GiB, more than the memory budget (1.0 GiB); raise the quantum
    """
    if nbytes <= budget:  # exact for Python ints of any size
        return
    try:
        nbytes = float(nbytes)
    except OverflowError:
        nbytes = math.inf
    amount = f"about {size_text(nbytes)}" if math.isfinite(nbytes) else "unbounded memory"
    raise ValueError(f"{what} needs {amount}, more than {budget_name} ({size_text(budget)}); {fixes}")
