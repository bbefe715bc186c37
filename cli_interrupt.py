"""Ctrl+C on the command line: one line on stderr, exit code 130, the workers stopped, no half-written file.

Blender runs Python code of its own and of add-ons (handlers, property look-ups) inside its C calls and prints
the traceback of any exception raised there — a ``KeyboardInterrupt`` included, which it then swallows. So Ctrl+C
does not raise: :func:`watching` installs a handler that prints the line, ends the workers, removes the files being
written (:data:`strew.scene.scatter_farm.UNFINISHED`) and ends the process. Nothing else needs undoing: a
command saves its output only at its end, whole.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

EXIT_CODE = 130
"""What a shell reports for a command ended by SIGINT (128 + 2)."""

SAVED: list[Path] = []
"""The files this command saved so far (the line names them)."""
_HELD: list[bool] = []
"""One entry per open :func:`deferred` block: whether Ctrl+C came during it."""
_LINES: list[str] = []
"""The line of each open :func:`saying` block (the innermost one is printed)."""


def message(saved: list[str]) -> str:
    """The one line printed for an interrupt; ``saved`` lists the files written before it came."""
    if saved:
        return f"strew: interrupted (Ctrl+C) after saving {', '.join(saved)}"
    return "strew: interrupted (Ctrl+C); nothing was saved"


def _on_interrupt(_signum: int, _frame: FrameType | None) -> None:
    if _HELD:  # inside deferred(): its end ends the process
        _HELD[-1] = True
        return
    from .core.pool import close_kept_pool

    print(_LINES[-1] if _LINES else message([str(path) for path in SAVED]), file=sys.stderr)
    sys.stderr.flush()
    close_kept_pool(at_once=True)
    farm = sys.modules.get(f"{__package__}.scene.scatter_farm")  # imported only by the farm's commands
    for path in list(getattr(farm, "UNFINISHED", ())):
        path.unlink(missing_ok=True)
    sys.stdout.flush()
    os._exit(EXIT_CODE)


@contextmanager
def watching() -> Iterator[None]:
    """Within this block (a command's run) Ctrl+C is handled as this module says; the handler before it comes
    back after (a test runner's, a Blender session's)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, _on_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


@contextmanager
def saying(line: str) -> Iterator[None]:
    """Within this block an interrupt prints ``line`` (a command that writes several files says which may be
    incomplete)."""
    _LINES.append(line)
    try:
        yield
    finally:
        _LINES.pop()


@contextmanager
def deferred() -> Iterator[None]:
    """Ctrl+C during this block (saving a file and noting it) takes effect right after it, so the line printed
    names what was saved."""
    _HELD.append(False)
    try:
        yield
    finally:
        came = _HELD.pop()
        if came:
            _on_interrupt(signal.SIGINT, None)
