"""``python -m strew``: see :mod:`strew.cli`."""

import traceback

from .cli import exit_process, main

try:
    code = main()
except SystemExit as stop:  # argparse's --help and usage errors
    code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 2)
except Exception:
    traceback.print_exc()
    code = 1
exit_process(code)
