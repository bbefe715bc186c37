"""``python -m strew``: see :mod:`strew.cli`."""

import os
import sys

try:
    from .cli import exit_process, main
except KeyboardInterrupt:  # Ctrl+C while Python imports numpy or bpy
    from .cli_interrupt import EXIT_CODE, message

    print(message([]), file=sys.stderr)
    sys.stderr.flush()
    os._exit(EXIT_CODE)  # nothing started yet; a half-imported bpy must not run its teardown

import traceback

from .cli_interrupt import EXIT_CODE

try:
    code = main()
except SystemExit as stop:  # argparse's --help and usage errors
    code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 2)
except KeyboardInterrupt:  # a second Ctrl+C while main reported the first
    code = EXIT_CODE
except Exception:
    traceback.print_exc()
    code = 1
exit_process(code)
