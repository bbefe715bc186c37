"""Blender-side helpers that turn scene data into numpy arrays and results back into Blender data.

Nothing here is registered; operators and the command line call these functions.
"""
