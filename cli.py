"""Command line: ``python -m strew <command>`` (with the ``bpy`` wheel) or inside ``blender -b``.

Commands are added as features land; ``python -m strew --help`` lists them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

Command = Callable[[argparse.Namespace], int]


def _demo(args: argparse.Namespace) -> int:
    print(
        "strew demo: will build a terrain with a river and a road, scatter three layers (trees, bushes, "
        "rocks), assemble a two-storey tile room, save demo/strew_demo.blend and render PNGs.\n"
        "It arrives with the scatter and tile-room features; nothing was done."
    )
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m strew", description="Strew: scatter and tile rooms.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    demo = commands.add_parser("demo", help="build, save and render the demo scene")
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
    return handler(args)
