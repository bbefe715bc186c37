"""Strew's algorithms: pure Python + numpy, no ``bpy``.

Everything here takes and returns numpy arrays, so it runs inside Blender, in a plain Python, or in a
game's build pipeline alike.
"""
