"""Command line: ``python -m strew <command>`` with the ``bpy`` wheel, or inside Blender.

With the ``bpy`` wheel (``pip install strew[blender]``)::

    python -m strew scatter scene.blend --terrain Terrain --layer Trees:4:9 --layer Bushes:1.5:3 --seed 42 -o out.blend
    python -m strew kit kit.blend
    python -m strew room kit.blend --kit Tiles --size 12 12 2 --seed 3 -o room.blend

Inside Blender, once the extension is installed (the module is then ``bl_ext.<repository>.strew``)::

    blender -b --python-expr "import sys, bl_ext.user_default.strew.cli as c; sys.exit(c.main())" -- scatter …

``python -m strew --help`` and ``python -m strew COMMAND --help`` list the options. Files are checked before any
work (a readable .blend in, a writable place out); a problem is one line on stderr and exit code 2.

Layout: one section per command, each with its ``_add_<command>`` (the options) next to its ``_<command>`` (what
it does); :data:`COMMANDS` lists them in the order ``--help`` shows.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path

from . import cli_farm, ensure_registered
from .cli_files import CliError, make_parents, readable_blend, writable_blend, writable_folder
from .core.scatter import LayerSpec

Command = Callable[[argparse.Namespace], int]
Commands = argparse._SubParsersAction  # what add_subparsers returns


# -- shared ------------------------------------------------------------------------------------------------------

def _open(source: Path) -> None:
    import bpy

    try:
        bpy.ops.wm.open_mainfile(filepath=str(source))
    except RuntimeError as error:
        raise CliError(f"{source}: not a readable .blend file ({_blender_message(error)})") from error
    ensure_registered()


def _save(target: Path) -> Path:
    import bpy

    make_parents(target)
    try:
        bpy.ops.wm.save_as_mainfile(filepath=str(target), check_existing=False)
    except RuntimeError as error:
        raise CliError(f"{target}: could not be saved ({_blender_message(error)})") from error
    return target


def _blender_message(error: Exception) -> str:
    """Blender's operator error on one line, without its "Error:" prefix."""
    text = " ".join(str(error).split())
    return text.removeprefix("Error:").strip()


def _output(args: argparse.Namespace) -> tuple[Path, Path]:
    """(input, output) of a command that opens ``args.blend`` and saves it to ``-o`` or in place; checked first."""
    if args.output is None and not args.in_place:
        raise CliError("say where to save: -o OUT.blend, or --in-place to overwrite the input")
    source = readable_blend(args.blend)
    target = writable_blend(args.output or args.blend, source=source, in_place=args.in_place)
    return source, target


def _add_output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", help="where to save the result (a .blend)")
    parser.add_argument("--in-place", action="store_true", help="overwrite the input file")


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
    scatter.add_argument("--chunk-size", type=float, help="side of the square chunks large terrains are cut into")
    _add_output_options(scatter)
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


def _check_scatter_numbers(args: argparse.Namespace) -> None:
    """Numbers Blender would silently clamp to a property's range are refused instead."""
    if args.seed is not None and args.seed < 0:
        raise CliError(f"--seed {args.seed}: give a seed ≥ 0")
    if args.max_slope is not None and not 0 <= args.max_slope <= 90:
        raise CliError(f"--max-slope {args.max_slope:g}: give an angle between 0 and 90 degrees")
    if args.chunk_size is not None and not args.chunk_size >= 1:
        raise CliError(f"--chunk-size {args.chunk_size:g}: give a chunk side ≥ 1")


def _scatter(args: argparse.Namespace) -> int:
    cli_farm.check(args)
    farm = cli_farm.is_farm_task(args)
    source, target = (readable_blend(args.blend), None) if farm else _output(args)
    layers = [_parse_layer(text) for text in args.layer]
    _check_scatter_numbers(args)
    import bpy

    from .scene import scatter_job

    _open(source)
    settings = bpy.context.scene.strew
    if args.terrain:
        terrain = bpy.data.objects.get(args.terrain)
        if terrain is None:
            raise CliError(f"--terrain: no object named {args.terrain!r} in {args.blend}")
        if terrain.type != 'MESH':
            raise CliError(f"--terrain: {args.terrain!r} is a {terrain.type.lower()}, not a mesh")
        settings.terrain = terrain
    for number, (name, low, high, collection_name) in enumerate(layers):
        collection = bpy.data.collections.get(collection_name or name)
        if collection is None:
            raise CliError(f"--layer {name}: no collection named {collection_name or name!r} in {args.blend}")
        layer = settings.layers.get(name) or settings.layers.add()
        layer.name = name
        layer.collection = collection
        layer.min_radius, layer.max_radius = low, high
        if high > low and layer.density_mode == 'NONE':
            layer.density_mode = 'NOISE'  # MIN < MAX asks for varying spacing: groves at MIN, clearings at MAX
        if args.seed is not None:
            layer.seed = args.seed + number
        if args.max_slope is not None:
            layer.max_slope = math.radians(args.max_slope)
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
    print(f"scatter took {time.perf_counter() - started:.2f} s; saved {_save(target)}")
    return 0


def _add_merge(commands: Commands) -> None:
    cli_farm.add_merge_command(commands, _merge)


def _merge(args: argparse.Namespace) -> int:
    source, target = _output(args)
    _open(source)
    for name, count in cli_farm.merge_parts(args):
        print(f"Strew {name}: {count:,} instances")
    print(f"merged; saved {_save(target)}")
    return 0


# -- room --------------------------------------------------------------------------------------------------------

def _add_room(commands: Commands) -> None:
    room = commands.add_parser(
        "room", help="assemble a tile room from a kit in a .blend and save it",
        description="Assemble a room (Wave Function Collapse) from the kit collection of a .blend and save. Options "
        "not given keep the file's Tile Rooms settings.")
    room.add_argument("blend", help="the .blend that holds the kit (e.g. made by `python -m strew kit`)")
    room.add_argument("--kit", help="name of the kit collection (default: the file's setting)")
    room.add_argument("--size", type=int, nargs=3, metavar=("X", "Y", "Z"), help="cells along x, y, z (floors)")
    room.add_argument("--seed", type=int, help="random seed (same seed, same room)")
    room.add_argument("--cell-size", type=float, nargs=3, metavar=("X", "Y", "Z"),
                      help="cell size (default: the kit's strew_cell_size or its tiles' bounds)")
    room.add_argument("--border", help="label(s) outside the four walls, e.g. 'wall, window'; '' for none")
    room.add_argument("--periodic", action="store_true", help="wrap around in x and y (no border)")
    room.add_argument("--connected", action=argparse.BooleanOptionalAction, default=None,
                      help="all walkable tiles connected (default: the file's setting)")
    room.add_argument("--fixed", help="fixed tiles: 'TILE[@ROT] X Y Z; …', e.g. 'stair@90 2 3 0'")
    room.add_argument("--compatible", help="extra label pairs 'a=b, c=d'")
    room.add_argument("--heuristic", choices=("AUTO", "ENTROPY", "MRV", "SCANLINE"))
    room.add_argument("--max-backtracks", type=int, help="backtracking budget per attempt")
    room.add_argument("--max-restarts", type=int, help="fresh attempts after a dead end before giving up")
    room.add_argument("--below", dest="border_bottom", help="label below the lowest floor, e.g. 'ground'")
    room.add_argument("--above", dest="border_top", help="label above the top floor, e.g. 'sky'")
    room.add_argument("--counts", help="how many of a tile: 'entrance=1; stairs=0..4'")
    room.add_argument("--origin", type=float, nargs=3, metavar=("X", "Y", "Z"), help="world position of cell 0 0 0")
    room.add_argument("--real-objects", action=argparse.BooleanOptionalAction, default=None,
                      help="one object per cell instead of one instancer object (default: the file's setting)")
    room.add_argument("--time-limit", type=float, help="give up after this many seconds")
    room.add_argument("--room-name", help="output collection (default: 'Strew Room')")
    _add_output_options(room)
    room.set_defaults(handler=_room)


def _check_room_args(args: argparse.Namespace) -> None:
    """Refuse sizes, cell sizes and budgets the operator would silently clamp, before any work."""
    if args.size is not None and any(n < 1 for n in args.size):
        raise CliError("--size: give three whole numbers >= 1 (cells along x, y, z), got "
                       + " ".join(map(str, args.size)))
    if args.cell_size is not None and not all(math.isfinite(c) and c > 0 for c in args.cell_size):
        raise CliError("--cell-size: give three sizes > 0 (x, y, z), got " + " ".join(f"{c:g}" for c in args.cell_size))
    if args.origin is not None and not all(math.isfinite(c) for c in args.origin):
        raise CliError("--origin: give three finite numbers, got " + " ".join(f"{c:g}" for c in args.origin))
    for key, low in (("max_backtracks", 0), ("max_restarts", 0)):
        value = getattr(args, key)
        if value is not None and value < low:
            raise CliError(f"--{key.replace('_', '-')}: give a whole number >= {low}, got {value}")
    if args.time_limit is not None and not (math.isfinite(args.time_limit) and args.time_limit > 0):
        raise CliError(f"--time-limit: give a number of seconds > 0, got {args.time_limit:g}")


def _room(args: argparse.Namespace) -> int:
    source, target = _output(args)
    _check_room_args(args)
    import bpy

    from .scene.room_output import placed_count, room_collection

    _open(source)
    options: dict[str, object] = {}
    for key in ("kit", "seed", "border", "fixed", "room_name", "compatible", "heuristic", "time_limit",
                "max_backtracks", "max_restarts", "border_bottom", "border_top", "counts"):
        value = getattr(args, key)
        if value is not None:
            options[key] = value
    for key in ("size", "cell_size", "origin"):
        if getattr(args, key) is not None:
            options[key] = tuple(getattr(args, key))
    if args.connected is not None:
        options["connected"] = args.connected
    if args.periodic:
        options["periodic"] = True
    if args.real_objects is not None:
        options["output"] = 'OBJECTS' if args.real_objects else 'INSTANCES'
    started = time.perf_counter()
    try:
        result = bpy.ops.strew.assemble_room(**options)
    except (RuntimeError, TypeError, ValueError) as error:  # the operator's report, or an option out of range
        raise CliError(_blender_message(error)) from error
    if result != {'FINISHED'}:
        raise CliError("assemble_room was cancelled")
    name = str(options.get("room_name") or bpy.context.scene.strew.room.room_name)
    collection = room_collection(bpy.context.scene, name)  # by Strew's owner mark, never by name
    count = placed_count(collection) if collection is not None else 0
    where = f"collection {collection.name!r}" if collection is not None else "nowhere"
    print(f"{name}: {count:,} tiles in {where}; assemble took {time.perf_counter() - started:.2f} s; "
          f"saved {_save(target)}")
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
    print(f"kit \"{collection.name}\": {len(collection.objects)} tiles; saved {_save(target)}")
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

    return build_demo(out, render_images=not args.no_render, samples=args.samples)


# -- entry point -------------------------------------------------------------------------------------------------

COMMANDS = (_add_scatter, _add_merge, _add_room, _add_kit, _add_demo)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m strew", description="Strew: scatter and tile rooms.")
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
    args = build_parser().parse_args(argv)
    handler: Command = args.handler
    try:
        return handler(args)
    except CliError as error:
        print(f"strew: error: {error}", file=sys.stderr)
        return 2


def exit_process(code: int) -> None:
    """End ``python -m strew`` with ``code`` once the output is saved.

    The ``bpy`` module crashes (4.2, signal 11) or hangs (4.5) in its own teardown at interpreter exit, so
    after the work is written and the streams flushed the process ends without that teardown.
    """
    import os

    if "bpy" not in sys.modules:
        sys.exit(code)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
