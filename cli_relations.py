"""``scatter`` options that tie the ``--layer`` layers to an earlier layer: ``--around LAYER:MIN:MAX[:falloff]``
and ``--on LAYER`` (see docs/scatter.md, *Around and On another layer*).

:mod:`strew.cli` adds them to its parser, checks them before the file is opened (:func:`parse`) and applies them
to its ``--layer`` layers once they are set (:func:`apply`); each problem is one line naming the flag.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from .cli_files import CliError
from .core.inputs import MAX_DISTANCE, bounded


@dataclass(frozen=True)
class Relations:
    """What ``--around`` and ``--on`` ask of the ``--layer`` layers (None: not given)."""

    around: tuple[str, float, float, bool] | None
    on: str | None
    around_text: str = ""


def add_options(scatter: argparse.ArgumentParser) -> None:
    scatter.add_argument("--around", metavar="LAYER:MIN:MAX[:falloff]",
                         help="place the --layer layers only in a ring MIN to MAX around the instances of the "
                         "earlier layer LAYER (between footprint edges when either is spaced by objects); "
                         "':falloff' thins them out towards MAX")
    scatter.add_argument("--on", metavar="LAYER",
                         help="place the --layer layers on every face of the instances of the earlier layer LAYER")


def parse(args: argparse.Namespace) -> Relations:
    """``--around`` and ``--on`` read and checked (before the file is opened)."""
    around = None
    if args.around is not None:
        parts = args.around.split(":")
        example = "e.g. --around Trees:0.5:2 or Trees:0.5:2:falloff"
        if len(parts) not in (3, 4) or not parts[0].strip() or (len(parts) == 4 and parts[3] != "falloff"):
            raise CliError(f"--around {args.around!r}: write LAYER:MIN:MAX[:falloff], {example}")
        try:
            low, high = float(parts[1]), float(parts[2])
            bounded(low, "MIN", 0.0, MAX_DISTANCE)
            bounded(high, "MAX", 0.0, MAX_DISTANCE)
        except ValueError as error:
            raise CliError(f"--around {args.around!r}: MIN and MAX must be distances from 0 to {MAX_DISTANCE:g} "
                           f"({error}), {example}") from None
        if high < low:
            raise CliError(f"--around {args.around!r}: MAX ({high:g}) is below MIN ({low:g}), {example}")
        around = (parts[0], low, high, len(parts) == 4)
    if args.on is not None and not args.on.strip():
        raise CliError("--on: name the earlier layer to place on, e.g. --on Rocks")
    if (around is not None or args.on is not None) and not args.layer:
        raise CliError(f"{'--around' if around is not None else '--on'} applies to the --layer layers: give at least "
                       "one --layer")
    return Relations(around, args.on, args.around or "")


def apply(relations: Relations, settings: Any, names: list[str], blend: str) -> None:
    """Link the ``--layer`` layers ``names`` (each but the one linked to) to the layers the options name; a link
    the layer list cannot take is refused naming the flag."""
    from .scene.layer_links import LINKS, linked_layer

    wanted = [("--around", relations.around_text, relations.around[0], "around")] if relations.around else []
    if relations.on is not None:
        wanted.append(("--on", relations.on, relations.on, "on_layer"))
    for flag, text, other, attribute in wanted:
        if settings.layers.get(other) is None:
            raise CliError(f"{flag} {text}: no layer named {other!r} in {blend}")
        for name in names:
            if name == other:
                continue
            layer = settings.layers[name]
            getattr(layer, attribute).layer = other
            if attribute == "around" and relations.around is not None:
                _, layer.around_min, layer.around_max, layer.around_falloff = relations.around
            try:
                linked_layer(layer, settings.id_data, getattr(layer, attribute), "Around" if attribute == "around"
                             else "On Layer", LINKS)
            except ValueError as error:
                raise CliError(f"{flag} {text}: layer {name!r}: {error}") from None
