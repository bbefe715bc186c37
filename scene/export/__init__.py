"""Export Level: Strew outputs through Blender's glTF, USD and FBX exporters."""
