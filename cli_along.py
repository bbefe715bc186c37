"""The ``scatter`` command's curve options: ``--curve NAME`` makes the ``--layer`` layers follow a curve object
(or every curve of a collection) and the options after it say how."""

from __future__ import annotations

import argparse
from typing import Any

from .cli_files import CliError
from .core.modes import AlongMode, AlongPlace

_NUMBERS = (("step", "along_step", "--step"), ("jitter", "along_jitter", "--jitter"),
            ("width", "along_width", "--width"), ("offset", "along_offset", "--offset"))


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("curve layers", "make the --layer layers follow curves")
    group.add_argument("--curve", metavar="NAME",
                       help="a curve object (or a collection of curves) the --layer layers follow instead of "
                       "covering the terrain")
    group.add_argument("--along", choices=[mode.lower() for mode in AlongMode],
                       help="spaced: maximal at the layer's spacing (default); step: one every --step, one at each "
                       "end; band: over a band --width wide on each side")
    group.add_argument("--step", type=float, metavar="METRES", help="distance between two instances (--along step)")
    group.add_argument("--jitter", type=float, metavar="SHARE",
                       help="move each instance along the curve by up to this share of the step (0 … 1)")
    group.add_argument("--width", type=float, metavar="METRES", help="how far a band reaches on each side")
    group.add_argument("--offset", type=float, metavar="METRES",
                       help="follow a line this far to the left of the curve (negative: right)")
    group.add_argument("--both-sides", action="store_true", help="and the line as far on the right (an alley)")
    group.add_argument("--stand", choices=[place.lower() for place in AlongPlace],
                       help="stand on the surface under the curve (default) or on the curve itself")
    group.add_argument("--no-follow", action="store_true", help="keep the layer's own turn, not the curve's")


def used(args: argparse.Namespace) -> bool:
    """Whether any curve option was given."""
    return bool(args.curve or args.along or args.stand or args.both_sides or args.no_follow
                or any(getattr(args, name) is not None for name, _, _ in _NUMBERS))


def check(args: argparse.Namespace, layers: int) -> None:
    """Curve options need ``--curve`` and a ``--layer``, and numbers in their settings' ranges."""
    from .properties.numbers import check_value, layer_settings, setting

    if not used(args):
        return
    if not args.curve:
        raise CliError("the curve options need --curve NAME (a curve object or a collection of curves)")
    if not layers:
        raise CliError("--curve applies to the --layer layers: add --layer NAME:MIN:MAX")
    settings = layer_settings()
    try:
        for name, identifier, flag in _NUMBERS:
            value = getattr(args, name)
            if value is not None:
                check_value(setting(settings, identifier), value, flag)
    except ValueError as error:
        raise CliError(str(error)) from None


def apply(args: argparse.Namespace, layer: Any, blend: str) -> None:
    """Set the curve options on one ``--layer`` layer (the file's objects looked up by name)."""
    import bpy

    if not args.curve:
        return
    obj = bpy.data.objects.get(args.curve)
    collection = bpy.data.collections.get(args.curve)
    if obj is not None and obj.type != 'CURVE':
        raise CliError(f"--curve: {args.curve!r} is a {obj.type.lower()}, not a curve object")
    if obj is None and collection is None:
        raise CliError(f"--curve: no curve object or collection named {args.curve!r} in {blend}")
    if obj is not None:
        layer.along_curve = obj
    else:
        if not any(o.type == 'CURVE' for o in collection.all_objects):
            raise CliError(f"--curve: collection {args.curve!r} holds no curve object")
        layer.along_curves = collection
    if args.along:
        layer.along_mode = AlongMode(args.along.upper())
    if args.stand:
        layer.along_place = AlongPlace(args.stand.upper())
    for name, identifier, _ in _NUMBERS:
        if getattr(args, name) is not None:
            setattr(layer, identifier, getattr(args, name))
    if args.both_sides:
        layer.along_both_sides = True
    if args.no_follow:
        layer.along_follow = False
