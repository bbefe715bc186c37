"""Detect Sockets as a job: every tile's sides labelled one tile at a time, written only at the end.

The job yields its progress after each tile (the window shows it and ESC closes the job between tiles), and
changes the kit only in its last step: every tile's ``strew_sockets`` (a big tile's ``strew_cell_sockets`` too)
and, for the panel's kit, the Border labels that followed them. A bad tile or setting ends it with
:class:`.room_kit.KitError` before anything is written.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass

import bpy
from bpy.app.translations import pgettext_rpt as rpt_

from ..core.wfc.socket_detect import follow_labels
from ..core.wfc.vocab import SIDES_2D, SIDES_3D
from .room_kit import (
    KitError,
    detect_cell_sockets,
    detect_object_sockets,
    object_sockets,
    tiles_off_cell,
    write_cell_sockets,
    write_sockets,
)

Progress = tuple[float, str]


@dataclass(frozen=True)
class SocketsFound:
    """What a Detect Sockets run wrote: tiles labelled, distinct labels, the cell, tiles reaching outside it."""

    tiles: int
    labels: int
    size: tuple[float, float, float]
    off: list[tuple[str, float]]  # (tile name, how far outside its cell), worst first


def detect_job(objects: Sequence[bpy.types.Object], size: tuple[float, float, float], quantum: float,
               vertical: bool, room: bpy.types.PropertyGroup | None = None
               ) -> Generator[Progress, None, SocketsFound]:
    """Label ``objects`` from their geometry in cells of ``size``; ``room``: the panel's settings whose Border
    labels follow the new labels (the panel's kit). ``KitError`` for a bad tile or setting, before any change."""
    try:
        # Every tile's current sockets first: a bad custom property stops the run before any work or change.
        before = {obj.name: object_sockets(obj) or {} for obj in objects}
        sides = SIDES_3D if vertical else SIDES_2D
        found: dict[str, dict[str, str]] = {}
        cells: dict[str, dict[tuple[int, int, int], dict[str, str]]] = {}
        off: list[tuple[str, float]] = []
        for number, obj in enumerate(objects):
            yield number / len(objects), rpt_("Tile {number:,} of {count:,}: {name}").format(
                number=number + 1, count=len(objects), name=obj.name)
            found[obj.name] = {side: label for side, label in detect_object_sockets(obj, size, quantum).items()
                               if side in sides}
            cells[obj.name] = {cell: {side: label for side, label in labels.items() if side in sides}
                               for cell, labels in detect_cell_sockets(obj, size, quantum).items()}  # a big tile's
            off += tiles_off_cell([obj], size, quantum, vertical=vertical)
    except ValueError as error:
        raise KitError(str(error)) from error
    for obj in objects:
        write_sockets(obj, found[obj.name])
        if cells[obj.name]:
            write_cell_sockets(obj, cells[obj.name])
    if room is not None:
        for field in ("border", "border_bottom", "border_top"):  # the borders keep meaning the same sides
            setattr(room, field, follow_labels(getattr(room, field), before, found))
    labels = {label for sockets in found.values() for label in sockets.values()}
    return SocketsFound(len(objects), len(labels), size, sorted(off, key=lambda item: -item[1]))


def run_to_end(job: Generator[Progress, None, SocketsFound]) -> SocketsFound:
    """Run a Detect Sockets job in one go (scripts, background mode)."""
    while True:
        try:
            next(job)
        except StopIteration as stop:
            return stop.value
