"""The ``rescatter`` command: sample one region of a scattered layer again with a new seed and keep the rest of
it (Rescatter Box / Circle of the Paint Brush sub-panel), then save."""

from __future__ import annotations

import argparse

from .cli_blend import add_output_options, input_output, open_blend, save_blend
from .cli_files import CliError
from .core.brush import Box, Circle


def add_rescatter(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "rescatter", help="sample one region of a scattered layer again and save",
        description="Sample a box or a circle of a layer again with a new seed; the layer's instances outside it stay "
        "bit for bit, and the band just outside its rim is filled where one more fits.")
    parser.add_argument("blend", help="the .blend whose layer was scattered")
    parser.add_argument("--layer", required=True, help="the layer's name")
    shape = parser.add_mutually_exclusive_group(required=True)
    shape.add_argument("--box", metavar="X0,Y0,X1,Y1", help="a box between two corners in world x, y (metres)")
    shape.add_argument("--circle", metavar="X,Y,RADIUS", help="a circle around a world x, y (metres)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the new sample (default 1)")
    add_output_options(parser)
    parser.set_defaults(handler=rescatter)


def _numbers(text: str, flag: str, count: int, example: str) -> list[float]:
    try:
        values = [float(part) for part in text.split(",")]
    except ValueError:
        values = []
    if len(values) != count or not all(abs(v) < float("inf") for v in values):
        raise CliError(f"{flag} {text!r}: write {count} numbers separated by commas, e.g. {example}")
    return values


def _region(args: argparse.Namespace) -> Box | Circle:

    try:
        if args.box is not None:
            x0, y0, x1, y1 = _numbers(args.box, "--box", 4, "--box -5,-5,5,5")
            return Box((x0, y0), (x1, y1))
        x, y, radius = _numbers(args.circle, "--circle", 3, "--circle 0,0,6")
        return Circle((x, y), radius)
    except ValueError as error:
        raise CliError(f"{'--box' if args.box is not None else '--circle'}: {error}") from None


def rescatter(args: argparse.Namespace) -> int:
    source, target = input_output(args)
    region = _region(args)
    if not 0 <= args.seed < 2**31:
        raise CliError(f"--seed {args.seed}: give a seed from 0 to {2**31 - 1}")
    import bpy

    from .scene.brush import rescatter_region
    from .scene.errors import ScatterError

    open_blend(source)
    index = bpy.context.scene.strew.layers.find(args.layer)
    if index < 0:
        names = ", ".join(layer.name for layer in bpy.context.scene.strew.layers) or "none"
        raise CliError(f"--layer: no layer named {args.layer!r} in {args.blend} (its layers: {names})")
    try:
        done = rescatter_region(bpy.context, index, region, args.seed)
    except ScatterError as error:
        raise CliError(str(error)) from error
    print(f"Strew {done.layer}: {done.removed:,} instances replaced with {done.added:,}")
    print(f"saved {save_blend(target)}")
    return 0
