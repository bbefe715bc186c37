"""Command line: ``python -m strew <command>`` with the ``bpy`` wheel, or inside Blender.

With the ``bpy`` wheel (``pip install strew[blender]``)::

    python -m strew scatter scene.blend --terrain Terrain --layer Trees:4:9 --layer Bushes:1.5:3 --seed 42 -o out.blend
    python -m strew rescatter out.blend --layer Bushes --circle 10,-5,6 --seed 7 -o out2.blend
    python -m strew kit kit.blend
    python -m strew room kit.blend --kit Tiles --size 12 12 2 --seed 3 -o room.blend
    python -m strew export room.blend -o level.glb

Inside Blender, once the extension is installed (the module is then ``bl_ext.<repository>.strew``)::

    blender -b --python-expr "import sys, bl_ext.user_default.strew.cli as c; sys.exit(c.main())" -- scatter …

``python -m strew --help`` and ``python -m strew COMMAND --help`` list the options. Files are checked before any
work (a readable .blend in, a writable place out); a problem is one line on stderr and exit code 2.

Layout: one section per command, each with its ``_add_<command>`` (the options) next to its ``_<command>`` (what
it does; ``room`` in :mod:`strew.cli_room`, opening and saving in :mod:`strew.cli_blend`); :data:`COMMANDS` lists
them in the order ``--help`` shows.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from typing import Any, NoReturn

from . import (
    cli_along,
    cli_export,
    cli_farm,
    cli_interrupt,
    cli_relations,
    cli_rescatter,
    cli_room,
    ensure_registered,
)
from .cli_blend import add_output_options, input_output, open_blend, save_blend
from .cli_files import CliError, readable_blend, writable_blend, writable_folder
from .core.inputs import MAX_DISTANCE, bounded
from .core.modes import DensityMode, ProxyKind, SpacingMode
from .core.scatter import LayerSpec
from .core.scatter.spec import MAX_SLOPE

Command = Callable[[argparse.Namespace], int]
Commands = argparse._SubParsersAction  # what add_subparsers returns


# -- scatter -----------------------------------------------------------------------------------------------------

def _add_scatter(commands: Commands) -> None:
    scatter = commands.add_parser("scatter", help="scatter layers on a terrain in a .blend and save it",
                                  description="Scatter the layers of a .blend (or the ones given) and save.")
    scatter.add_argument("blend", help="the .blend to open")
    scatter.add_argument("--terrain", help="name of the terrain mesh object (default: the file's setting)")
    scatter.add_argument("--layer", action="append", default=[], metavar="NAME:MIN:MAX[:COLLECTION]",
                         help="add or update a layer; its prefabs are the collection NAME (or COLLECTION); "
                         "spacing MIN in dense places, MAX in sparse ones (MIN < MAX on a Uniform layer switches "
                         "its Density to Noise; MIN = MAX gives constant spacing)")
    scatter.add_argument("--seed", type=int, help="seed of the first --layer (the next ones get seed+1, …)")
    scatter.add_argument("--max-slope", type=float, metavar="DEGREES", help="max slope for the --layer layers")
    scatter.add_argument("--spacing", choices=[mode.lower() for mode in SpacingMode],
                         help="what the --layer layers keep apart: their origins (radius) or their objects' "
                         "footprints (objects: MIN and MAX are then the gaps between footprints)")
    scatter.add_argument("--proxy-beyond", metavar="METRES[:KIND]",
                         help="draw the --layer layers' instances farther than METRES from the view as proxies in "
                         "the viewport (KIND: bounds, hull or decimate; default bounds); renders stay full")
    scatter.add_argument("--chunk-size", type=float,
                         help="side of the square chunks large terrains are cut into (0: automatic)")
    cli_along.add_options(scatter)
    add_output_options(scatter)
    cli_relations.add_options(scatter)
    cli_farm.add_scatter_options(scatter)
    scatter.set_defaults(handler=_scatter)


def _parse_layer(text: str) -> tuple[str, float, float, str | None]:
    parts = text.split(":")
    if len(parts) not in (3, 4):
        raise CliError(f"--layer {text!r}: write NAME:MIN_RADIUS:MAX_RADIUS[:COLLECTION], e.g. Trees:4:9")
    try:
        low, high = float(parts[1]), float(parts[2])
    except ValueError as error:
        raise CliError(f"--layer {text!r}: radii must be numbers, e.g. Trees:4:9") from error
    try:
        LayerSpec(min_radius=low, max_radius=high)  # core's check, before Blender would clamp the values
    except ValueError as error:
        raise CliError(f"--layer {text!r}: {error}, e.g. Trees:4:9") from error
    if not parts[0].strip():
        raise CliError(f"--layer {text!r}: give the layer a name, e.g. Trees:4:9")
    return parts[0], low, high, parts[3] if len(parts) == 4 else None


def _parse_proxy(text: str | None) -> tuple[float, ProxyKind] | None:
    """``--proxy-beyond METRES[:KIND]`` as (distance, kind)."""
    if text is None:
        return None
    distance, _, kind = text.partition(":")
    kinds = {kind.lower(): kind for kind in ProxyKind}
    try:
        metres = bounded(float(distance), "--proxy-beyond", 0.0, MAX_DISTANCE)
    except ValueError as error:
        raise CliError(f"--proxy-beyond {text!r}: {error}; e.g. --proxy-beyond 40:bounds") from None
    if (kind or "bounds") not in kinds:
        raise CliError(f"--proxy-beyond {text!r}: KIND is one of {', '.join(kinds)}; e.g. --proxy-beyond 40:hull")
    return metres, kinds[kind or "bounds"]


def _check_scatter_numbers(args: argparse.Namespace, layers: int) -> None:
    """The numbers, checked against the ranges the settings they go to declare (Blender would clamp them in silence
    or refuse them with a traceback)."""
    import bpy

    from .properties.numbers import check_value, layer_settings, setting

    ensure_registered()
    layer, scene = layer_settings(), bpy.types.Scene.bl_rna.properties["strew"].fixed_type
    try:
        if args.seed is not None:  # the --layer layers get seed, seed + 1, …
            seeds = setting(layer, "seed")
            bounded(args.seed, "--seed", seeds.hard_min, seeds.hard_max - max(0, layers - 1), integer=True)
        if args.max_slope is not None:
            bounded(args.max_slope, "--max-slope (degrees)", 0.0, math.degrees(MAX_SLOPE))
        if args.chunk_size is not None:
            check_value(setting(scene, "chunk_size"), args.chunk_size, "--chunk-size")
        if args.workers is not None:
            check_value(setting(scene, "workers"), args.workers, "--workers")
    except ValueError as error:
        raise CliError(str(error)) from None
    cli_along.check(args, layers)


def _set_layer(args: argparse.Namespace, settings: Any, number: int, parsed: tuple[str, float, float, str | None],
               proxy: tuple[float, ProxyKind] | None) -> None:
    """Add or update the ``--layer`` layer ``parsed`` (the ``number``-th) with the options that apply to it."""
    import bpy

    name, low, high, collection_name = parsed
    collection = bpy.data.collections.get(collection_name or name)
    if collection is None:
        raise CliError(f"--layer {name}: no collection named {collection_name or name!r} in {args.blend}")
    layer = settings.layers.get(name) or settings.layers.add()
    layer.name = name
    layer.collection = collection
    layer.min_radius, layer.max_radius = low, high
    if high > low and layer.density_mode == DensityMode.NONE:
        # MIN < MAX asks for varying spacing: groves at MIN, clearings at MAX
        layer.density_mode = DensityMode.NOISE
    if args.seed is not None:
        layer.seed = args.seed + number
    if args.max_slope is not None:
        layer.max_slope = math.radians(args.max_slope)
    if args.spacing is not None:
        layer.spacing = SpacingMode(args.spacing.upper())
    cli_along.apply(args, layer, args.blend)
    if proxy is not None:
        layer.proxy_beyond, layer.proxy_distance, layer.proxy_kind = True, proxy[0], proxy[1]


def _scatter(args: argparse.Namespace) -> int:
    cli_farm.check(args)
    farm = cli_farm.is_farm_task(args)
    source, target = (readable_blend(args.blend), None) if farm else input_output(args)
    layers = [_parse_layer(text) for text in args.layer]
    proxy = _parse_proxy(args.proxy_beyond)
    if proxy is not None and not layers:
        raise CliError("--proxy-beyond applies to the --layer layers: add --layer NAME:MIN:MAX")
    relations = cli_relations.parse(args)
    _check_scatter_numbers(args, len(layers))
    import bpy

    from .scene import scatter_job

    open_blend(source)
    settings = bpy.context.scene.strew
    if args.terrain:
        terrain = bpy.data.objects.get(args.terrain)
        if terrain is None:
            raise CliError(f"--terrain: no object named {args.terrain!r} in {args.blend}")
        if terrain.type != 'MESH':
            raise CliError(f"--terrain: {args.terrain!r} is a {terrain.type.lower()}, not a mesh")
        settings.terrain = terrain
    for number, parsed in enumerate(layers):
        _set_layer(args, settings, number, parsed, proxy)
    cli_relations.apply(relations, settings, [name for name, *_ in layers], args.blend)
    if args.chunk_size is not None:
        settings.chunk_size = args.chunk_size
    cli_farm.apply(args, settings)
    if target is None:
        return cli_farm.run_farm_task(args)
    started = time.perf_counter()
    with cli_farm.backend(args) as backend:
        try:
            result = scatter_job.run_to_end(bpy.context, backend=backend)
        except scatter_job.ScatterError as error:
            raise CliError(str(error)) from error
    for report in result.reports:  # Strew's own outputs, as the job wrote them
        print(f"Strew {report.name}: {report.count:,} instances")
    print(f"scatter took {time.perf_counter() - started:.2f} s; saved {save_blend(target)}")
    return 0


def _add_merge(commands: Commands) -> None:
    cli_farm.add_merge_command(commands, _merge)


def _merge(args: argparse.Namespace) -> int:
    source, target = input_output(args)
    open_blend(source)
    for name, count in cli_farm.merge_parts(args):
        print(f"Strew {name}: {count:,} instances")
    print(f"merged; saved {save_blend(target)}")
    return 0


# -- kit ---------------------------------------------------------------------------------------------------------

def _add_kit(commands: Commands) -> None:
    kit = commands.add_parser("kit", help="build the 53-tile demo kit and save it to a .blend",
                              description="Build the procedural demo kit (sockets set) in an empty file and save.")
    kit.add_argument("output", help="the .blend to write, e.g. kit.blend")
    kit.add_argument("--name", default="Tiles", help="name of the kit collection (default: Tiles)")
    kit.set_defaults(handler=_kit)


def _kit(args: argparse.Namespace) -> int:
    target = writable_blend(args.output)
    if not args.name.strip():
        raise CliError("--name: give the kit collection a name, e.g. --name Tiles")
    import bpy

    from .demos.kit import build_demo_kit

    bpy.ops.wm.read_homefile(use_empty=True)
    ensure_registered()
    collection = build_demo_kit(bpy.context.scene, args.name)
    print(f"kit \"{collection.name}\": {len(collection.objects)} tiles; saved {save_blend(target)}")
    return 0


# -- demo --------------------------------------------------------------------------------------------------------

def _add_demo(commands: Commands) -> None:
    demo = commands.add_parser("demo", help="build, save and render the demo scene")
    demo.add_argument("--out", default="demo", help="output folder (default: demo)")
    demo.add_argument("--no-render", action="store_true", help="skip rendering the PNGs")
    demo.add_argument("--samples", type=int, default=16, help="Cycles samples per pixel")
    demo.set_defaults(handler=_demo)


def _demo(args: argparse.Namespace) -> int:
    if args.samples < 1:
        raise CliError(f"--samples {args.samples}: give at least 1 sample per pixel")
    out = writable_folder(args.out)
    from .demos.build import build_demo

    with cli_interrupt.saying(f"strew: interrupted (Ctrl+C); {out} may hold part of the demo"):
        return build_demo(out, render_images=not args.no_render, samples=args.samples)


# -- entry point -------------------------------------------------------------------------------------------------

COMMANDS = (_add_scatter, cli_rescatter.add_rescatter, _add_merge, cli_room.add_room, cli_export.add_export, _add_kit,
            _add_demo)


class _Parser(argparse.ArgumentParser):
    """argparse with its usage errors on one line, like every other error of the command line (the commands'
    parsers are of this class too)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"strew: error: {message}; `{self.prog} --help` lists the options\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m strew", description="Strew: scatter and tile rooms.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in COMMANDS:
        add(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv`` (after Blender's ``--`` when run inside Blender) and run the command."""
    if argv is None:
        argv = sys.argv[1:]
        if "--" in argv:
            argv = argv[argv.index("--") + 1 :]
    try:
        with cli_interrupt.watching():
            args = build_parser().parse_args(argv)
            handler: Command = args.handler
            return handler(args)
    except CliError as error:
        print(f"strew: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(cli_interrupt.message([str(path) for path in cli_interrupt.SAVED]), file=sys.stderr)
        return cli_interrupt.EXIT_CODE


def exit_process(code: int) -> None:
    """End ``python -m strew`` with ``code`` once the output is saved.

    The ``bpy`` module crashes (4.2, signal 11) or hangs (4.5) in its own teardown at interpreter exit, so
    after the work is written and the streams flushed the process ends without that teardown.
    """
    import os

    if "bpy" not in sys.modules:
        sys.exit(code)
    from .core.pool import close_kept_pool

    close_kept_pool(at_once=code == cli_interrupt.EXIT_CODE)  # os._exit skips the atexit hook that stops them
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
