"""Shared pytest configuration: hypothesis runs derandomized, so a test run is reproducible, and without a
per-example deadline: how long an example takes on a shared two-core machine is no property of the code (speed
is measured in ``make bench``)."""

from hypothesis import settings

settings.register_profile("strew", derandomize=True, print_blob=True, deadline=None)
settings.load_profile("strew")
