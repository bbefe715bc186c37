"""The ``export`` command: write a .blend's level (terrain, scatter layers, rooms) to glTF, USD or FBX."""

from __future__ import annotations

import argparse

from . import cli_interrupt
from .cli_blend import open_blend
from .cli_files import CliError, readable_blend
from .core.modes import EngineAxes


def add_export(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "export", help="export a .blend's level to .glb, .gltf, .usd, .usdc, .usda or .fbx",
        description="Export the terrain, every scatter layer and every room of a .blend through Blender's own "
        "exporters, each prefab or tile mesh once and instanced where the format can, with Strew's per-instance "
        "values (the format comes from the extension of -o).")
    parser.add_argument("blend", help="the .blend to open")
    parser.add_argument("-o", "--output", required=True, help="the file to write, e.g. level.glb")
    parser.add_argument("--strew-only", action="store_true",
                        help="only Strew's outputs (and the terrain unless --no-terrain), not the other objects")
    parser.add_argument("--no-terrain", action="store_true", help="leave the layers' terrains out")
    parser.add_argument("--engine", choices=[engine.lower() for engine in EngineAxes], default="blender",
                        help="axis and unit preset of the engine the level goes to (default: the exporter's own)")
    parser.add_argument("--no-gpu-instancing", action="store_true",
                        help="glTF: one node per instance instead of EXT_mesh_gpu_instancing")
    parser.set_defaults(handler=export)


def export(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .scene.export.job import ExportError, ExportRequest, check_path

    request = ExportRequest(Path(args.output).expanduser().resolve(), strew_only=args.strew_only,
                            terrain=not args.no_terrain, engine=EngineAxes(args.engine.upper()),
                            gpu_instancing=not args.no_gpu_instancing)
    try:
        check_path(request.path)
    except ExportError as error:
        raise CliError(str(error)) from None
    open_blend(readable_blend(args.blend))
    import bpy

    from .scene.export.job import export_level

    with cli_interrupt.saying(f"strew: interrupted (Ctrl+C); {request.path} was not written"):
        try:
            result = export_level(bpy.context, request)
        except ExportError as error:
            raise CliError(str(error)) from None
    for note in result.notes:
        print(f"note: {note}")
    size = request.path.stat().st_size / 1e6
    print(f"exported {result.instances:,} instances of {result.outputs} Strew outputs to {request.path} "
          f"({size:.2f} MB) in {result.seconds:.2f} s")
    return 0
