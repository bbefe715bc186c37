"""The error every Scatter step raises for the user's settings or scene."""

from __future__ import annotations


class ScatterError(Exception):
    """A problem with the user's settings or scene; the message says what to change."""
