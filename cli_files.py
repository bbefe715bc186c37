"""Checks of the command line's files, made before any work: a readable .blend in, a writable place out.

Each check raises :class:`CliError` with one line that names the path and says what to change; the command line
prints it and exits with code 2, so a typo never costs a long scatter or solve followed by a failed save.
"""

from __future__ import annotations

import os
import struct
import tempfile
from pathlib import Path
from typing import BinaryIO

# A .blend starts with "BLENDER" uncompressed, or with the gzip or Zstandard magic number when compressed.
_BLEND_MAGICS = (b"BLENDER", b"\x1f\x8b", b"\x28\xb5\x2f\xfd")


class CliError(Exception):
    """A problem with the command line or its files; printed as one line without a traceback."""


def _blocks_end_cleanly(file: BinaryIO, size: int) -> bool:
    """Walk the block headers of an uncompressed .blend: every block fits in the file and the last is "ENDB".

    Headers: "BLENDER" + "17-01v0500" (17 bytes; blocks of code, SDNA index, old address, length, count: 32 bytes)
    or the older "BLENDER-v404" (12 bytes; code, length, old address of 4 or 8 bytes, SDNA index, count).
    """
    head = file.read(17)
    order = "<" if head[8:9] == b"v" or head[12:13] == b"v" else ">"
    if head[7:10] == b"17-":
        position, layout, length_at = 17, order + "4siQqq", 3
    elif head[7:8] in (b"_", b"-"):
        position, layout, length_at = 12, order + ("4siIii" if head[7:8] == b"_" else "4siQii"), 1
    else:
        return False
    block = struct.calcsize(layout)
    while position + block <= size:
        file.seek(position)
        fields = struct.unpack(layout, file.read(block))
        if fields[0] == b"ENDB":
            return True
        length = fields[length_at]
        if length < 0:
            return False
        position += block + length
    return False


def readable_blend(path: str) -> Path:
    """The resolved ``path`` of an existing, readable file that starts like a .blend."""
    source = Path(path).expanduser()
    if not source.exists():
        raise CliError(f"{path}: no such file; give the path of a .blend file")
    if source.is_dir():
        raise CliError(f"{path}: is a folder; give the path of a .blend file")
    try:
        with source.open("rb") as file:
            head = file.read(7)
            if not any(head.startswith(magic) for magic in _BLEND_MAGICS):
                raise CliError(f"{path}: not a readable .blend file (it does not start like one); give a file saved "
                               "by Blender")
            file.seek(0)
            if head == b"BLENDER" and not _blocks_end_cleanly(file, source.stat().st_size):
                raise CliError(f"{path}: not a readable .blend file (truncated or damaged); save it again from "
                               "Blender")
    except OSError as error:
        raise CliError(f"{path}: cannot be read ({error.strerror}); check its permissions") from error
    return source.resolve()


def _existing_ancestor(path: Path) -> Path:
    for parent in path.parents:
        if parent.exists():
            return parent
    return Path(path.anchor)


def _probe_writable(folder: Path, shown: str) -> None:
    """Create and delete a scratch file in ``folder``: the only test that also holds for root and read-only mounts."""
    try:
        descriptor, name = tempfile.mkstemp(prefix=".strew-probe-", dir=folder)
    except OSError as error:
        raise CliError(f"{shown}: cannot write in {folder} ({error.strerror}); pick another place") from error
    os.close(descriptor)
    os.unlink(name)


def _writable_folder_for(target: Path, shown: str) -> None:
    """The nearest existing folder above ``target`` is a folder (not a file) we can write in."""
    ancestor = _existing_ancestor(target)
    if not ancestor.is_dir():
        raise CliError(f"{shown}: {ancestor} is a file, not a folder; pick a path outside it")
    _probe_writable(ancestor, shown)


def writable_file(path: str, shown: str, suffix: str | None = None) -> Path:
    """The resolved ``path`` a file (ending in ``suffix`` when given) can be written to (its missing folders are
    made when writing); ``shown`` names the path or the option in the message."""
    target = Path(path).expanduser()
    if target.is_dir():
        raise CliError(f"{shown}: is a folder; give a file name" + (f" ending in {suffix}" if suffix else ""))
    if suffix is not None and target.suffix.lower() != suffix:
        raise CliError(f"{shown}: give the output a name ending in {suffix}")
    target = target.resolve()
    if target.exists():
        if not os.access(target, os.W_OK):
            raise CliError(f"{shown}: the file is read-only; pick another place or change its permissions")
        _probe_writable(target.parent, shown)
    else:
        _writable_folder_for(target, shown)
    return target


def writable_blend(path: str, source: Path | None = None, in_place: bool = False) -> Path:
    """The resolved ``path`` a .blend can be saved to (its missing folders are made when saving).

    ``source`` is the input file: saving over it needs ``in_place``.
    """
    target = writable_file(path, path, ".blend")
    if source is not None and not in_place and target == source:
        raise CliError(f"{path}: is the input file; pass --in-place to overwrite it, or pick another -o")
    return target


def writable_folder(path: str, shown: str | None = None) -> Path:
    """The resolved folder ``path`` (existing or to be made) that files can be written into."""
    shown = path if shown is None else shown
    folder = Path(path).expanduser()
    if folder.exists() and not folder.is_dir():
        raise CliError(f"{shown}: is a file; give a folder for the output")
    folder = folder.resolve()
    if folder.exists():
        _probe_writable(folder, shown)
    else:
        _writable_folder_for(folder, shown)
    return folder


def existing_folder(path: str, shown: str) -> Path:
    """The resolved ``path`` of an existing folder (files are read from it)."""
    folder = Path(path).expanduser()
    if not folder.exists():
        raise CliError(f"{shown}: no such folder; give the folder the farm tasks wrote their parts to")
    if not folder.is_dir():
        raise CliError(f"{shown}: is a file; give the folder the farm tasks wrote their parts to")
    return folder.resolve()


def make_parents(target: Path) -> None:
    """Make the folders above ``target`` (checked writable earlier)."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CliError(f"{target.parent}: cannot be made ({error.strerror}); pick another place") from error
