"""Shared pytest configuration: hypothesis runs derandomized, so a test run is reproducible."""

from hypothesis import settings

settings.register_profile("strew", derandomize=True, print_blob=True)
settings.load_profile("strew")
