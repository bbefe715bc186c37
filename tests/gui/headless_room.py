"""The window's reference: the same Assemble Room, headless in the same Blender (``blender -b --python``).

Builds the demo kit in an empty file and assembles a 30×30×3 room with the extension as installed; prints
``HEADLESS_ROOM {"seconds": …}`` (the operator's report, with its solve and build times, is printed by Blender).
"""

from __future__ import annotations

import json
import time

import bpy

bpy.ops.wm.read_homefile(use_empty=True)
assert bpy.ops.strew.build_demo_kit() == {'FINISHED'}
started = time.perf_counter()
result = bpy.ops.strew.assemble_room(size=(30, 30, 3))
seconds = time.perf_counter() - started
room = bpy.data.collections.get(bpy.context.scene.strew.room.room_name)
print("HEADLESS_ROOM " + json.dumps({"seconds": seconds, "result": sorted(result),
                                      "objects": len(room.all_objects) if room else 0}))
