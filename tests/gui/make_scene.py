"""The user's file a GUI session starts from: ``blender -b --factory-startup --python make_scene.py -- OUT``.

A rolling terrain, a collection "Trees" of two small prefabs and one "Moss" of a tuft, both hidden from the view
layer as asset collections usually are, and a "Rocks" collection with one rock (an icosphere) off the terrain.
Strew itself is not touched here: the session does that with the mouse.
"""

from __future__ import annotations

import math
import shutil
import sys
from pathlib import Path

import bpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
import user_kits  # beside this script

out = sys.argv[sys.argv.index("--") + 1]
for obj in list(bpy.data.objects):
    if obj.type == 'MESH':
        bpy.data.objects.remove(obj)

n, size = 41, 60.0
mesh = bpy.data.meshes.new("Terrain")
vertices = [(size * (i / (n - 1) - 0.5), size * (j / (n - 1) - 0.5),
             1.5 * math.sin(i / 5.0) * math.cos(j / 7.0)) for i in range(n) for j in range(n)]
faces = [(i * n + j, (i + 1) * n + j, (i + 1) * n + j + 1, i * n + j + 1) for i in range(n - 1) for j in range(n - 1)]
mesh.from_pydata(vertices, [], faces)
terrain = bpy.data.objects.new("Terrain", mesh)
bpy.context.scene.collection.objects.link(terrain)
# A vertex group to paint a layer's mask with (every vertex in it, weight 0: nothing allowed yet).
terrain.vertex_groups.new(name="Meadow").add(list(range(n * n)), 0.0, 'REPLACE')
bpy.data.brushes.new("Weight", mode='WEIGHT_PAINT').asset_mark()  # a brush of the file's own to paint it with

trees = bpy.data.collections.new("Trees")
bpy.context.scene.collection.children.link(trees)
for k, (radius, depth) in enumerate(((0.35, 1.6), (0.25, 1.1))):
    bpy.ops.mesh.primitive_cone_add(radius1=radius, depth=depth, location=(0.0, 0.0, depth / 2))
    cone = bpy.context.active_object
    cone.name = f"Tree {k}"
    for collection in cone.users_collection:
        collection.objects.unlink(cone)
    trees.objects.link(cone)
bpy.context.view_layer.layer_collection.children["Trees"].exclude = True

# A rock to grow moss on (every face), in a collection of its own, and the moss prefab, hidden.
rocks = bpy.data.collections.new("Rocks")
bpy.context.scene.collection.children.link(rocks)
bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=3, radius=4.0, location=(-16.0, 14.0, 6.0))
rock = bpy.context.active_object
rock.name = "Rock"
for collection in rock.users_collection:
    collection.objects.unlink(rock)
rocks.objects.link(rock)
moss = bpy.data.collections.new("Moss")
bpy.context.scene.collection.children.link(moss)
bpy.ops.mesh.primitive_cube_add(size=0.3)
tuft = bpy.context.active_object
tuft.name = "Tuft"
for collection in tuft.users_collection:
    collection.objects.unlink(tuft)
moss.objects.link(tuft)
bpy.context.view_layer.layer_collection.children["Moss"].exclude = True
# Kits the user made (plain custom properties), hidden like asset collections; and an mxgmn tileset beside the
# file, as a user keeps tilesets in the project's folder.
for kit in (user_kits.streets(), user_kits.garden(), user_kits.courtyard()):
    bpy.context.view_layer.layer_collection.children[kit.name].exclude = True
shutil.copyfile(Path(__file__).resolve().parents[1] / "data" / "mxgmn" / "Knots.xml", Path(out).parent / "Knots.xml")
bpy.ops.object.select_all(action='DESELECT')
bpy.ops.wm.save_as_mainfile(filepath=out)
