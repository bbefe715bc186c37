"""``python -m strew``: see :mod:`strew.cli`."""

import sys

from .cli import main

sys.exit(main())
