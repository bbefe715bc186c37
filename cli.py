"""Command line: ``python -m strew <command>`` with the ``bpy`` wheel, or inside Blender.

With the ``bpy`` wheel (``pip install strew[blender]``)::

    python -m strew scatter scene.blend --terrain Terrain --layer Trees:4:9 --layer Bushes:1.5:3 --seed 42 -o out.blend
    python -m strew kit kit.blend
    python -m strew room kit.blend --kit Tiles --size 12 12 2 --seed 3 -o room.blend

Inside Blender, once the extension is installed (the module is then ``bl_ext.<repository>.strew``)::

    blender -b --python-expr "import bl_ext.user_default.strew.cli as c; c.main()" -- scatter scene.blend ...

``python -m strew --help`` and ``python -m strew COMMAND --help`` list the options.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

Command = Callable[[argparse.Namespace], int]


class CliError(Exception):
    """A problem with the command line or the input file; printed without a traceback."""


def ensure_registered() -> None:
    """Register the extension in this Blender process unless Blender already did."""
    import bpy

    if not hasattr(bpy.types.Scene, "strew"):
        from . import register

        register()


def _open(path: str) -> None:
    import bpy

    if not Path(path).is_file():
        raise CliError(f"{path}: no such .blend file")
    bpy.ops.wm.open_mainfile(filepath=str(Path(path).resolve()))
    ensure_registered()


def _save(args: argparse.Namespace) -> Path:
    import bpy

    target = Path(args.output or args.blend).resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    bpy.ops.wm.save_as_mainfile(filepath=str(target), check_existing=False)
    return target


def _parse_layer(text: str) -> tuple[str, float, float, str | None]:
    parts = text.split(":")
    if len(parts) not in (3, 4):
        raise CliError(f"--layer {text!r}: write NAME:MIN_RADIUS:MAX_RADIUS[:COLLECTION], e.g. Trees:4:9")
    try:
        low, high = float(parts[1]), float(parts[2])
    except ValueError as error:
        raise CliError(f"--layer {text!r}: radii must be numbers, e.g. Trees:4:9") from error
    return parts[0], low, high, parts[3] if len(parts) == 4 else None


def _scatter(args: argparse.Namespace) -> int:
    import math

    import bpy

    from . import cli_farm

    farm = cli_farm.is_farm_task(args)
    if args.output is None and not args.in_place and not farm:
        raise CliError("say where to save: -o OUT.blend, or --in-place to overwrite the input")
    cli_farm.check(args)
    _open(args.blend)
    settings = bpy.context.scene.strew
    if args.terrain:
        terrain = bpy.data.objects.get(args.terrain)
        if terrain is None:
            raise CliError(f"no object named {args.terrain!r} in {args.blend}")
        settings.terrain = terrain
    for number, text in enumerate(args.layer):
        name, low, high, collection_name = _parse_layer(text)
        collection_name = collection_name or name
        collection = bpy.data.collections.get(collection_name)
        if collection is None:
            raise CliError(f"--layer {text!r}: no collection named {collection_name!r} in {args.blend}")
        layer = settings.layers.get(name) or settings.layers.add()
        layer.name = name
        layer.collection = collection
        layer.min_radius, layer.max_radius = low, high
        if args.seed is not None:
            layer.seed = args.seed + number
        if args.max_slope is not None:
            layer.max_slope = math.radians(args.max_slope)
    if args.chunk_size is not None:
        settings.chunk_size = args.chunk_size
    cli_farm.apply(args, settings)
    if farm:
        return cli_farm.run_farm_task(args)
    started = time.perf_counter()
    if args.scheduler:
        cli_farm.scatter_on_dask(args)
    else:
        try:
            result = bpy.ops.strew.scatter()
        except RuntimeError as error:
            raise CliError(str(error).strip()) from error
        if result != {'FINISHED'}:
            raise CliError("scatter was cancelled")
    output = bpy.data.collections.get("Strew Output")
    for obj in output.objects if output else []:
        print(f"{obj.name}: {len(obj.data.vertices):,} instances")
    print(f"scatter took {time.perf_counter() - started:.2f} s; saved {_save(args)}")
    return 0


def _merge(args: argparse.Namespace) -> int:
    from . import cli_farm

    if args.output is None and not args.in_place:
        raise CliError("say where to save: -o OUT.blend, or --in-place to overwrite the input")
    _check_output(Path(args.output or args.blend).resolve(), "-o" if args.output else "--in-place")
    _open_blend(args.blend)
    for name, count in cli_farm.merge_parts(args):
        print(f"Strew {name}: {count:,} instances")
    print(f"merged; saved {_save(args)}")
    return 0


def _check_room_args(args: argparse.Namespace) -> None:
    """Refuse sizes, cell sizes and budgets the operator would silently clamp, before any work."""
    import math

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


def _check_output(target: Path, option: str) -> None:
    """Refuse an output path Blender could not write (a folder, under a file, no permission) before any work."""
    import os

    if target.is_dir():
        raise CliError(f"{option} {target}: is a folder; give a .blend file path")
    ancestor = target.parent
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise CliError(f"{option} {target}: {ancestor} is a file, not a folder")
    if not os.access(ancestor, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise CliError(f"{option} {target}: not writable")


def _open_blend(path: str) -> None:
    """Open a .blend for a command, as one line on failure (missing, corrupt, not a .blend)."""
    try:
        _open(path)
    except RuntimeError as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else "cannot open"
        raise CliError(f"{path}: not a readable .blend file ({reason})") from error


def _room(args: argparse.Namespace) -> int:
    import bpy

    from .scene.room_output import placed_count, room_collection

    if args.output is None and not args.in_place:
        raise CliError("say where to save: -o OUT.blend, or --in-place to overwrite the input")
    if args.output is not None and not args.in_place and Path(args.output).resolve() == Path(args.blend).resolve():
        raise CliError("-o is the input file: add --in-place to overwrite it, or save elsewhere")
    _check_room_args(args)
    _check_output(Path(args.output or args.blend).resolve(), "-o" if args.output else "--in-place")
    _open_blend(args.blend)
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
    except (RuntimeError, TypeError) as error:
        raise CliError(str(error).strip()) from error
    if result != {'FINISHED'}:
        raise CliError("assemble_room was cancelled")
    name = str(options.get("room_name") or bpy.context.scene.strew.room.room_name)
    collection = room_collection(bpy.context.scene, name)  # by Strew's owner mark, never by name
    count = placed_count(collection) if collection is not None else 0
    where = f"collection {collection.name!r}" if collection is not None else "nowhere"
    print(f"{name}: {count:,} tiles in {where}; assemble took {time.perf_counter() - started:.2f} s; "
          f"saved {_save(args)}")
    return 0


def _kit(args: argparse.Namespace) -> int:
    import bpy

    from .scene.demo_kit import build_demo_kit

    target = Path(args.output).resolve()
    _check_output(target, "output")
    bpy.ops.wm.read_homefile(use_empty=True)
    ensure_registered()
    collection = build_demo_kit(bpy.context.scene, args.name)
    target.parent.mkdir(parents=True, exist_ok=True)
    bpy.ops.wm.save_as_mainfile(filepath=str(target), check_existing=False)
    print(f"kit \"{collection.name}\": {len(collection.objects)} tiles; saved {target}")
    return 0


def _demo(args: argparse.Namespace) -> int:
    from .demo import build_demo

    return build_demo(Path(args.out), render_images=not args.no_render, samples=args.samples)


def build_parser() -> argparse.ArgumentParser:
    from . import cli_farm

    parser = argparse.ArgumentParser(prog="python -m strew", description="Strew: scatter and tile rooms.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    scatter = commands.add_parser("scatter", help="scatter layers on a terrain in a .blend and save it",
                                  description="Scatter the layers of a .blend (or the ones given) and save.")
    scatter.add_argument("blend", help="the .blend to open")
    scatter.add_argument("--terrain", help="name of the terrain mesh object (default: the file's setting)")
    scatter.add_argument("--layer", action="append", default=[], metavar="NAME:MIN:MAX[:COLLECTION]",
                         help="add or update a layer; its prefabs are the collection NAME (or COLLECTION)")
    scatter.add_argument("--seed", type=int, help="seed of the first --layer (the next ones get seed+1, …)")
    scatter.add_argument("--max-slope", type=float, metavar="DEGREES", help="max slope for the --layer layers")
    scatter.add_argument("--chunk-size", type=float, help="side of the square chunks large terrains are cut into")
    scatter.add_argument("-o", "--output", help="where to save the result")
    scatter.add_argument("--in-place", action="store_true", help="overwrite the input file")
    cli_farm.add_scatter_options(scatter)
    scatter.set_defaults(handler=_scatter)
    cli_farm.add_merge_command(commands, _merge)

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
    room.add_argument("-o", "--output", help="where to save the result")
    room.add_argument("--in-place", action="store_true", help="overwrite the input file")
    room.set_defaults(handler=_room)

    kit = commands.add_parser("kit", help="build the 53-tile demo kit and save it to a .blend",
                              description="Build the procedural demo kit (sockets set) in an empty file and save.")
    kit.add_argument("output", help="the .blend to write, e.g. kit.blend")
    kit.add_argument("--name", default="Tiles", help="name of the kit collection (default: Tiles)")
    kit.set_defaults(handler=_kit)

    demo = commands.add_parser("demo", help="build, save and render the demo scene")
    demo.add_argument("--out", default="demo", help="output folder (default: demo)")
    demo.add_argument("--no-render", action="store_true", help="skip rendering the PNGs")
    demo.add_argument("--samples", type=int, default=16, help="Cycles samples per pixel")
    demo.set_defaults(handler=_demo)
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
