"""The package's version: one line that Python, ``pip`` and the Blender side read (the extension manifest's
``version`` says the same; ``tests/blender/test_extension.py`` keeps the two equal)."""

__version__ = "0.1.0"
