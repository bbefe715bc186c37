"""The ``room`` command: assemble a tile room from the kit of a .blend and save it."""

from __future__ import annotations

import argparse
import math
import time

from .cli_blend import add_output_options, blender_message, input_output, open_blend, save_blend
from .cli_files import CliError
from .core.inputs import bounded
from .core.modes import RoomOutput
from .core.wfc.grow import GROW_EXAMPLE, GROW_SIDES, GROW_SYNTAX, parse_grow
from .core.wfc.room_input import RoomInputError
from .core.wfc.room_paths import parse_path
from .core.wfc.room_regions import REGION_EXAMPLE, REGION_SYNTAX, parse_regions
from .core.wfc.symmetry import SYMMETRIES
from .core.wfc.tile_groups import parse_tile_numbers
from .core.wfc.vocab import ROOM_HEURISTICS


def add_room(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "room", help="assemble a tile room from a kit in a .blend and save it",
        description="Assemble a room (Wave Function Collapse) from the kit collection of a .blend and save. Options "
        "not given keep the file's Tile Rooms settings.")
    parser.add_argument("blend", help="the .blend that holds the kit (e.g. made by `python -m strew kit`)")
    parser.add_argument("--kit", help="name of the kit collection (default: the file's setting)")
    parser.add_argument("--size", type=int, nargs=3, metavar=("X", "Y", "Z"), help="cells along x, y, z (floors)")
    parser.add_argument("--seed", type=int, help="random seed (same seed, same room)")
    parser.add_argument("--cell-size", type=float, nargs=3, metavar=("X", "Y", "Z"),
                        help="cell size (default: the kit's strew_cell_size or its tiles' bounds)")
    parser.add_argument("--border", help="label(s) outside the four walls, e.g. 'wall, window'; '' for none "
                        "(default: the file's Closed Room and Border settings)")
    parser.add_argument("--periodic", action="store_true", help="wrap around in x and y (no border)")
    parser.add_argument("--connected", action=argparse.BooleanOptionalAction, default=None,
                        help="all walkable tiles connected (default: the file's setting)")
    parser.add_argument("--fixed", help="fixed tiles: 'TILE[@ROT] X Y Z; …', e.g. 'stair@90 2 3 0'")
    parser.add_argument("--entrance", action="append", metavar="X,Y,Z", dest="entrances",
                        help="a cell that must hold a walkable tile, reachable from the other entrances (all walkable "
                        "cells then form one region); repeat for more, e.g. --entrance 0,5,0 --entrance 11,5,1; the "
                        "same cell twice counts once (default: the file's Entrances)")
    regions = parser.add_mutually_exclusive_group()
    regions.add_argument("--region", action="append", metavar=REGION_SYNTAX, dest="regions",
                         help="a box of cells whose tiles are restricted or weighted: its name, first and last cell "
                         "(inclusive), its tiles as the panel's Tiles (TILE or TILE=FACTOR separated by commas), then "
                         "'only' to allow nothing else and 'weight=W' for the factor of a tile given without one, e.g. "
                         f"--region '{REGION_EXAMPLE}'; repeat for more. Given once or more, they replace the file's "
                         "Regions (its mesh-volume regions too: a volume is set in the panel only)")
    regions.add_argument("--no-regions", action="store_true", help="assemble without the file's Regions")
    parser.add_argument("--path", action="append", metavar="X,Y,Z:X,Y,Z", dest="paths",
                        help="cells that must hold walkable tiles joined through walkable cells (other pockets may "
                        "stay sealed); more endpoints with more ':'; repeat for more paths, e.g. --path 0,5,0:11,5,0 "
                        "(replaces the file's Paths)")
    parser.add_argument("--loops", action=argparse.BooleanOptionalAction, default=None,
                        help="--no-loops: the walkable cells joined to a path form no loop (default: the file's "
                        "Loops)")
    parser.add_argument("--min-path-length", type=int, metavar="N",
                        help="the shortest walk between a path's endpoints visits at least N cells, both counted")
    parser.add_argument("--compatible", help="extra label pairs 'a=b, c=d'")
    parser.add_argument("--heuristic", type=str.upper, choices=[str(name) for name in ROOM_HEURISTICS],
                        help="which cell the solver decides next, in any case (default: the file's setting)")
    parser.add_argument("--max-backtracks", type=int, help="backtracking budget per attempt")
    parser.add_argument("--max-restarts", type=int, help="fresh attempts after a dead end before giving up")
    parser.add_argument("--below", dest="border_bottom", help="label below the lowest floor, e.g. 'ground'")
    parser.add_argument("--above", dest="border_top", help="label above the top floor, e.g. 'sky'")
    parser.add_argument("--counts", help="how many of a tile: 'entrance=1; stairs=0..4'")
    parser.add_argument("--separate", action="append", metavar="TILE:N", dest="separation",
                        help="keep a tile's cells at least N cells apart (straight, centre to centre); names "
                        "separated by commas keep apart from each other too, e.g. --separate shrine:8 --separate "
                        "'pillar,statue:3'; repeat for more (default: the file's Separation)")
    parser.add_argument("--max-run", action="append", metavar="TILE:N", dest="max_runs",
                        help="never more than N of a tile in a row along x or y, e.g. --max-run wall:6; repeat for "
                        "more (default: the file's Max Run)")
    parser.add_argument("--symmetry", type=str.lower, choices=[*SYMMETRIES, "none"],
                        help="the room mirrors itself across its middle in x, y or both (default: the file's setting)")
    parser.add_argument("--origin", type=float, nargs=3, metavar=("X", "Y", "Z"), help="world position of cell 0 0 0")
    parser.add_argument("--real-objects", action=argparse.BooleanOptionalAction, default=None,
                        help="one object per cell instead of one instancer object (default: the file's setting)")
    parser.add_argument("--time-limit", type=float, help="give up after this many seconds")
    parser.add_argument("--room-name", help="output collection (default: 'Strew Room')")
    parser.add_argument("--grow", action="append", metavar=GROW_SYNTAX, dest="grow",
                        help="grow the room already in the file instead of assembling one: N cells on SIDE (one of "
                        f"{', '.join(GROW_SIDES)}), the tiles already there kept but for the wall layer on a side "
                        f"with a border, which moves out, e.g. --grow {GROW_EXAMPLE}; repeat to grow on more sides, "
                        "in order")
    parser.add_argument("--grow-keep-walls", action="store_true",
                        help="with --grow: keep every old tile, the wall on the grown side too (refused when nothing "
                        "fits beyond it)")
    parser.add_argument("--set-pieces", action=argparse.BooleanOptionalAction, default=None,
                        help="copies of kit tiles standing in the room's box become fixed cells (default: the file's "
                        "Use Set Pieces)")
    add_output_options(parser)
    parser.set_defaults(handler=room)


def _check_cell_size(args: argparse.Namespace) -> None:
    """Refuse a cell size the operator's property would clamp in silence (the other options are checked by the
    room itself and reported as the operator's error)."""
    if args.cell_size is not None and not all(math.isfinite(c) and c > 0 for c in args.cell_size):
        raise CliError("--cell-size: give three sizes > 0 (x, y, z), got " + " ".join(f"{c:g}" for c in args.cell_size))


def _entrances(given: list[str] | None) -> str | None:
    """``--entrance`` cells as the operator's text (``"0 5 0; 11 5 1"``), each one checked here: three whole numbers
    from 0 (whether a cell lies in the room is the room's own check, once its size is known)."""
    if given is None:
        return None
    cells = []
    for text in given:
        parts = text.replace(",", " ").split()
        if len(parts) != 3 or not all(part.isdecimal() for part in parts):
            raise CliError(f"--entrance {text!r}: write X,Y,Z (three whole numbers from 0), e.g. --entrance 0,5,0")
        cells.append(" ".join(str(int(part)) for part in parts))
    return "; ".join(cells)


def _path_options(args: argparse.Namespace) -> dict[str, object]:
    """The operator's ``paths``, ``loops`` and ``min_path_length`` given on the command line: each ``--path`` read by
    the core's parser here (whether its cells lie in the room is the room's own check, once its size is known)."""
    options: dict[str, object] = {}
    if args.paths is not None:
        out = []
        for text in args.paths:
            try:
                cells = parse_path(text)
            except RoomInputError as error:
                raise CliError(f"--path: {error}") from None
            out.append(":".join(",".join(map(str, cell)) for cell in cells))
        options["paths"] = "; ".join(out)
    if args.loops is not None:
        options["loops"] = 'ALLOWED' if args.loops else 'NONE'
    if args.min_path_length is not None:
        options["min_path_length"] = args.min_path_length
    return options


def _regions(args: argparse.Namespace) -> str | None:
    """The operator's ``regions`` text: ``--region`` texts, each read by the core's parser here (whether a box lies in
    the room and its tiles in the kit is the room's own check, once the file is open); ``""`` for ``--no-regions``;
    None (the file's Regions) without either."""
    if args.no_regions:
        return ""
    if args.regions is None:
        return None
    for text in args.regions:
        try:
            parse_regions(text)
        except RoomInputError as error:
            raise CliError(f"--region: {error}") from None
    return "; ".join(args.regions)


def _tile_numbers(given: list[str] | None, flag: str, what: str, unit: str) -> str | None:
    """Repeated ``TILE:N`` values as the operator's text (``"shrine=8; wall=6"``), each read by the core's parser
    here (whether the tiles are in the kit is the room's own check, once the file is open); None when not given."""
    if given is None:
        return None
    for text in given:
        try:
            parse_tile_numbers(text, what, unit)
        except ValueError as error:
            raise CliError(f"{flag} {text!r}: {error}") from None
        if not text.strip():
            raise CliError(f"{flag}: give TILE:N, e.g. {flag} shrine:8")
    return "; ".join(given)


def _spread(args: argparse.Namespace) -> dict[str, str]:
    """The operator's ``separation``, ``max_runs`` and ``symmetry`` given on the command line (each text read
    here, before the file is opened); the ones not given are left out (the file's settings)."""
    symmetry = None if args.symmetry is None else "NONE" if args.symmetry == "none" else args.symmetry.upper()
    given = {"separation": _tile_numbers(args.separation, "--separate", "separation", "distance"),
             "max_runs": _tile_numbers(args.max_runs, "--max-run", "max run", "length"), "symmetry": symmetry}
    return {key: value for key, value in given.items() if value is not None}


def _check_numbers(options: dict[str, object]) -> None:
    """The numbers, checked against the ranges the panel's room settings declare before any work: NaN and numbers
    Blender cannot hold are refused in one line (the operator's bounds are soft: a script's value beyond is the
    room's own error), naming the option and the whole range."""
    from .properties.numbers import room_settings, setting

    panel = room_settings()
    try:
        for key, value in options.items():
            prop = setting(panel, key) if key in panel.properties else None
            if prop is not None and prop.type in ('FLOAT', 'INT'):
                for number in value if isinstance(value, tuple) else (value,):
                    bounded(number, "--" + key.replace("_", "-"), prop.hard_min, prop.hard_max,
                            integer=prop.type == 'INT')
    except ValueError as error:
        raise CliError(str(error)) from None


def _grows(args: argparse.Namespace) -> list[tuple[str, int]] | None:
    """The ``--grow`` sides and counts, each read here (None without ``--grow``); a size with them is refused: a
    grown room's size is the old one's and the cells added."""
    if args.grow is None:
        if args.grow_keep_walls:
            raise CliError("--grow-keep-walls says how --grow treats the walls; add --grow SIDE:N")
        return None
    if args.size is not None:
        raise CliError("--grow grows the room in the file, whose size it keeps and adds to; leave out --size")
    grows = []
    for text in args.grow:
        try:
            grows.append(parse_grow(text))
        except RoomInputError as error:
            raise CliError(f"--grow: {error}") from None
    return grows


def _grow(grows: list[tuple[str, int]], options: dict[str, object], target) -> int:
    """Grow the file's room on each side in turn, then save."""
    import bpy

    options = {key: value for key, value in options.items() if key not in ("size", "output")}
    started = time.perf_counter()
    for side, cells in grows:
        try:
            result = bpy.ops.strew.grow_room(side=side, cells=cells, **options)
        except (RuntimeError, TypeError, ValueError) as error:
            raise CliError(blender_message(error)) from error
        if result != {'FINISHED'}:
            raise CliError("grow_room was cancelled")
    room = bpy.context.scene.strew.room
    size = " × ".join(str(s) for s in room.size)
    name = str(options.get("room_name") or room.room_name)
    print(f"{name}: grown to {size} cells in {time.perf_counter() - started:.2f} s; "
          f"saved {save_blend(target)}")
    return 0


def room(args: argparse.Namespace) -> int:
    source, target = input_output(args)
    _check_cell_size(args)
    grows = _grows(args)
    entrances = _entrances(args.entrances)
    regions = _regions(args)
    paths = _path_options(args)
    spread = _spread(args)
    import bpy

    from .scene.room_output import placed_count, room_collection

    open_blend(source)
    options: dict[str, object] = {}
    for key in ("kit", "seed", "border", "fixed", "room_name", "compatible", "heuristic", "time_limit",
                "max_backtracks", "max_restarts", "border_bottom", "border_top", "counts"):
        value = getattr(args, key)
        if value is not None:
            options[key] = value
    for key in ("size", "cell_size", "origin"):
        if getattr(args, key) is not None:
            options[key] = tuple(getattr(args, key))
    if entrances is not None:
        options["entrances"] = entrances
    if regions is not None:
        options["regions"] = regions
    options.update(paths)
    options.update(spread)
    if args.connected is not None:
        options["connected"] = args.connected
    if args.periodic:
        options["periodic"] = True
    if args.real_objects is not None:
        options["output"] = RoomOutput.OBJECTS if args.real_objects else RoomOutput.INSTANCES
    if args.set_pieces is not None:
        options["use_set_pieces"] = args.set_pieces
    _check_numbers(options)
    if grows is not None:
        return _grow(grows, {**options, "keep_walls": bool(args.grow_keep_walls)}, target)
    started = time.perf_counter()
    try:
        result = bpy.ops.strew.assemble_room(**options)
    except (RuntimeError, TypeError, ValueError) as error:  # the operator's report, or an option out of range
        raise CliError(blender_message(error)) from error
    if result != {'FINISHED'}:
        raise CliError("assemble_room was cancelled")
    name = str(options.get("room_name") or bpy.context.scene.strew.room.room_name)
    collection = room_collection(bpy.context.scene, name)  # by Strew's owner mark, never by name
    count = placed_count(collection) if collection is not None else 0
    where = f"collection {collection.name!r}" if collection is not None else "nowhere"
    print(f"{name}: {count:,} tiles in {where}; assemble took {time.perf_counter() - started:.2f} s; "
          f"saved {save_blend(target)}")
    return 0
