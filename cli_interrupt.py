"""Ctrl+C on the command line: one line on stderr, exit code 130, the workers stopped, no half-written file.

Ctrl+C raises ``KeyboardInterrupt`` as usual, so ``finally`` blocks still remove what they started (shared
memory, a part file being written) and :func:`strew.cli.main` prints the line. Inside a Blender operator
(:func:`ends_at_once`) that cannot work: Blender prints the traceback of any exception raised in an operator
before the caller sees it, so there the process prints the line and ends at once (the operators change only the
scene in memory; nothing is saved before they return).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

EXIT_CODE = 130
"""What a shell reports for a command ended by SIGINT (128 + 2)."""

_AT_ONCE: list[str | None] = []
"""One entry per open :func:`ends_at_once` block: the line to print, or None for :func:`message`'s."""


def message(saved: list[str]) -> str:
    """The one line printed for an interrupt; ``saved`` lists the files written before it came."""
    if saved:
        return f"strew: interrupted (Ctrl+C) after saving {', '.join(saved)}"
    return "strew: interrupted (Ctrl+C); nothing was saved"


def _on_interrupt(_signum: int, _frame: FrameType | None) -> None:
    if not _AT_ONCE:
        raise KeyboardInterrupt
    from .cli_blend import SAVED
    from .core.pool import close_kept_pool

    print(_AT_ONCE[-1] or message([str(path) for path in SAVED]), file=sys.stderr)
    close_kept_pool(at_once=True)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(EXIT_CODE)


def watch() -> None:
    """Handle Ctrl+C from now on as this module says."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _on_interrupt)


@contextmanager
def ends_at_once(line: str | None = None) -> Iterator[None]:
    """Within this block (a Blender operator's call) Ctrl+C ends the process at once, printing ``line`` (default:
    :func:`message` of the files saved so far)."""
    _AT_ONCE.append(line)
    try:
        yield
    finally:
        _AT_ONCE.pop()
