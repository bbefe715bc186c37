"""Opening and saving the command line's .blend files: checked paths in, one-line errors out."""

from __future__ import annotations

import argparse
from pathlib import Path

from . import cli_interrupt, ensure_registered
from .cli_files import CliError, make_parents, readable_blend, writable_blend


def open_blend(source: Path) -> None:
    """Open ``source`` (checked by :func:`~strew.cli_files.readable_blend`) with Strew registered."""
    import bpy

    try:
        bpy.ops.wm.open_mainfile(filepath=str(source))
    except RuntimeError as error:
        raise CliError(f"{source}: not a readable .blend file ({blender_message(error)})") from error
    ensure_registered()


def save_blend(target: Path) -> Path:
    """Save the open file to ``target`` (checked by :func:`~strew.cli_files.writable_blend`)."""
    import bpy

    make_parents(target)
    with cli_interrupt.deferred():
        try:
            bpy.ops.wm.save_as_mainfile(filepath=str(target), check_existing=False)
        except RuntimeError as error:
            raise CliError(f"{target}: could not be saved ({blender_message(error)})") from error
        cli_interrupt.SAVED.append(target)
    return target


def blender_message(error: Exception) -> str:
    """Blender's operator error on one line, without its "Error:" prefix."""
    text = " ".join(str(error).split())
    return text.removeprefix("Error:").strip()


def input_output(args: argparse.Namespace) -> tuple[Path, Path]:
    """(input, output) of a command that opens ``args.blend`` and saves it to ``-o`` or in place; checked first."""
    if args.output is None and not args.in_place:
        raise CliError("say where to save: -o OUT.blend, or --in-place to overwrite the input")
    source = readable_blend(args.blend)
    target = writable_blend(args.output or args.blend, source=source, in_place=args.in_place)
    return source, target


def add_output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", help="where to save the result (a .blend)")
    parser.add_argument("--in-place", action="store_true", help="overwrite the input file")
