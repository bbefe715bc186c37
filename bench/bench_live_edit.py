"""A small terrain edit under Live Update: what it costs beside a full Scatter, and what it leaves in place."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import bpy

TITLE = "Live update after a terrain edit"
SIZES = (600.0, 2000.0)  # terrain sides (m), 2.5 m quads
BUMP_RADIUS, BUMP_HEIGHT, FAR = 7.5, 5.0, 60.0
IMAGE_SIDE, DAB = 1024, 6  # the density image's pixels across; a brush dab's radius in pixels (3.5 m on 600 m)


def _scene(size: float) -> bpy.types.Object:
    import bpy

    from strew import ensure_registered

    bpy.ops.wm.read_homefile(use_empty=True)
    ensure_registered()
    scene = bpy.context.scene
    quads = round(size / 2.5)
    bpy.ops.mesh.primitive_grid_add(x_subdivisions=quads, y_subdivisions=quads, size=size)
    terrain = bpy.context.active_object
    co = np.empty(len(terrain.data.vertices) * 3)
    terrain.data.vertices.foreach_get("co", co)
    x, y = co[0::3], co[1::3]
    co[2::3] = 8 * np.sin(x / 37) * np.cos(y / 29) + 4 * np.sin(x / 11 + y / 13)
    terrain.data.vertices.foreach_set("co", co)
    terrain.data.update()
    prefabs = bpy.data.collections.new("Trees")
    scene.collection.children.link(prefabs)
    for k in range(3):
        bpy.ops.mesh.primitive_cone_add(radius1=0.5, depth=2.0)
        cone = bpy.context.active_object
        cone.name = f"Tree {k}"
        for owner in cone.users_collection:
            owner.objects.unlink(cone)
        prefabs.objects.link(cone)
    scene.strew.terrain = terrain
    layer = scene.strew.layers.add()
    layer.name, layer.collection = "Trees", prefabs
    layer.min_radius, layer.max_radius, layer.density_mode = 1.5, 3.0, 'NOISE'
    layer.max_slope = np.radians(25.0)
    return terrain


def _bump(terrain: bpy.types.Object, x: float, y: float) -> None:
    co = np.empty(len(terrain.data.vertices) * 3)
    terrain.data.vertices.foreach_get("co", co)
    d = np.hypot(co[0::3] - x, co[1::3] - y)
    co[2::3] += BUMP_HEIGHT * np.clip(1 - d / BUMP_RADIUS, 0, 1)
    terrain.data.vertices.foreach_set("co", co)
    terrain.data.update()


def _output() -> dict[str, bytes]:
    """The output object's point data as Blender holds it."""
    import bpy

    mesh = bpy.data.objects["Strew Trees"].data
    co = np.empty(len(mesh.vertices) * 3, dtype=np.float32)
    mesh.vertices.foreach_get("co", co)
    out = {"co": co.tobytes(), "location": np.array(bpy.data.objects["Strew Trees"].location).tobytes()}
    for attribute in mesh.attributes:
        if attribute.name.startswith("strew_"):
            width = {"FLOAT": 1, "INT": 1, "FLOAT_VECTOR": 3}.get(attribute.data_type)
            if width is not None:
                values = np.empty(len(attribute.data) * width,
                                  dtype=np.int32 if attribute.data_type == "INT" else np.float32)
                attribute.data.foreach_get("value" if width == 1 else "vector", values)
                out[attribute.name] = values.tobytes()
    return out


def _positions() -> np.ndarray:
    """The layer's instances in world space, as sampled (float64; the live update's cache holds them)."""
    import bpy

    from strew.core.scatter import merged
    from strew.scene import live_update

    layer = bpy.context.scene.strew.layers["Trees"]
    return merged(live_update.service(bpy.context.scene).cache.runs[layer.layer_id][1]).positions


def _held_mib() -> float:
    """What the scene's live cache holds: every array reachable from its entries, each counted once (MiB)."""
    import bpy

    from strew.scene import live_update

    cache = live_update.service(bpy.context.scene).cache
    seen: set[int] = set()
    total = 0
    todo: list[object] = [cache.surfaces, cache.fields, cache.samples, cache.runs, cache.objects, cache.images]
    while todo:
        item = todo.pop()
        if id(item) in seen or item is None or isinstance(item, (str, bytes, int, float, bool, type)):
            continue
        seen.add(id(item))
        if isinstance(item, np.ndarray) and isinstance(item.base, np.ndarray):
            todo.append(item.base)  # a view: its memory is its base's
        elif isinstance(item, np.ndarray):
            total += item.nbytes
        elif isinstance(item, dict):
            todo.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            todo.extend(item)
        elif hasattr(item, "__dict__") or hasattr(item, "__slots__"):
            todo.extend(getattr(item, "__dict__", {}).values())
            todo.extend(getattr(item, name) for name in getattr(item, "__slots__", ()) if hasattr(item, name))
    return total / 2**20


def _edit(terrain: bpy.types.Object, x: float, y: float) -> float:
    """Seconds the live update's re-scatter takes after a bump at (x, y) (the timer's work, the pause not
    counted)."""
    import bpy

    from strew.scene import live_update

    scene = bpy.context.scene
    _bump(terrain, x, y)
    bpy.context.view_layer.update()
    if not live_update.scheduled():
        live_update.on_depsgraph_update(scene, bpy.context.evaluated_depsgraph_get())
    started = time.perf_counter()
    assert live_update.flush()
    return time.perf_counter() - started


def run() -> str:
    import bpy

    rows = [
        f"A grid terrain of 2.5 m quads (hills from sines), one layer at radius 1.5–3 m from noise, Max Slope 25°, "
        f"three prefabs, automatic chunks (64 × Max Radius = 192 m). Full Scatter (the job as the button runs it, in "
        "this process, Live Update off: nothing kept; and the same with one chunk over the whole terrain: the cost of "
        "chunks; and with Live Update on, when the Scatter fills the live update's cache) against the live updates "
        f"after bumps {2 * BUMP_RADIUS:g} m wide and {BUMP_HEIGHT:g} m high: the first edit straight after that "
        "Scatter, then a second bump elsewhere (the re-scatter the timer runs after its pause; the pause itself not "
        f"counted). *Far* = farther than {FAR:g} m from the second bump. The live result is compared with a fresh "
        "Scatter of the edited terrain.",
        "",
        "| terrain | instances | full Scatter (s) | one chunk (s) | Scatter filling the cache (s) "
        "| cache it fills (MiB) | first edit after Scatter (s) | ÷ full | second edit (s) | ÷ full "
        "| far kept bit for bit | live = fresh Scatter |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    from strew.scene import scatter_job

    for size in SIZES:
        terrain = _scene(size)
        scene = bpy.context.scene
        scene.strew.chunk_size = 10 * size
        started = time.perf_counter()
        scatter_job.run_to_end(bpy.context)
        whole = time.perf_counter() - started
        scene.strew.chunk_size = 0.0
        started = time.perf_counter()
        bpy.ops.strew.scatter()
        full = time.perf_counter() - started
        scene.strew.live_update = True
        started = time.perf_counter()
        bpy.ops.strew.scatter()  # the Scatter button under Live Update: fills the cache
        filling = time.perf_counter() - started
        held = _held_mib()
        first = _edit(terrain, -size / 5, size / 6)
        before = _positions()
        second = _edit(terrain, size / 7, -size / 9)
        after, written = _positions(), _output()
        scene.strew.live_update = False
        scatter_job.run_to_end(bpy.context)
        same = _output() == written
        old = np.array([r.tobytes() for r in before])
        new = np.array([r.tobytes() for r in after])
        far = np.hypot(before[:, 0] - size / 7, before[:, 1] + size / 9) > FAR
        kept = np.isin(old[far], new).mean()
        rows.append(f"| {size:g} m | {len(after):,} | {full:.2f} | {whole:.2f} | {filling:.2f} | {held:.1f} "
                    f"| {first:.2f} | {first / full:.2f}× | {second:.2f} | {second / full:.2f}× | {kept:.2%} "
                    f"| {'yes' if same else 'NO'} |")
    rows += ["", *_image_rows(SIZES[0]), "", *_camera_rows(SIZES[0])]
    return "\n".join(rows)


def _paint(image: bpy.types.Image, row: int, col: int) -> None:
    """A round dab of white, :data:`DAB` pixels in radius, centred on pixel (row, col)."""
    pixels = np.empty(IMAGE_SIDE * IMAGE_SIDE * 4, dtype=np.float32)
    image.pixels.foreach_get(pixels)
    grid = pixels.reshape(IMAGE_SIDE, IMAGE_SIDE, 4)
    rows, cols = np.ogrid[:IMAGE_SIDE, :IMAGE_SIDE]
    grid[(rows - row) ** 2 + (cols - col) ** 2 <= DAB * DAB, :3] = 1.0
    image.pixels.foreach_set(pixels)
    image.update()
    image.update_tag()  # as a paint stroke tags it: the depsgraph reports the image


def _image_rows(size: float) -> list[str]:
    """The same terrain with the layer's density from a painted image: a full Scatter against the live update
    after one dab."""
    import bpy

    from strew.scene import live_update, scatter_job

    _scene(size)
    scene = bpy.context.scene
    image = bpy.data.images.new("Density", IMAGE_SIDE, IMAGE_SIDE)
    x, y = np.meshgrid(np.linspace(0, 6, IMAGE_SIDE), np.linspace(0, 5, IMAGE_SIDE))
    grey = (0.55 + 0.45 * np.sin(x) * np.cos(y)).astype(np.float32)
    image.pixels.foreach_set(np.repeat(grey.ravel(), 4))
    layer = scene.strew.layers["Trees"]
    layer.density_mode, layer.density_image = 'IMAGE', image
    started = time.perf_counter()
    bpy.ops.strew.scatter()
    full = time.perf_counter() - started
    scene.strew.live_update = True
    started = time.perf_counter()
    bpy.ops.strew.scatter()
    filling = time.perf_counter() - started
    times = []
    for row, col in ((300, 700), (650, 200), (820, 820)):
        _paint(image, row, col)
        bpy.context.view_layer.update()
        if not live_update.scheduled():
            live_update.on_depsgraph_update(scene, bpy.context.evaluated_depsgraph_get())
        started = time.perf_counter()
        assert live_update.flush()
        times.append(time.perf_counter() - started)
    written = _output()
    scene.strew.live_update = False
    scatter_job.run_to_end(bpy.context)
    same = _output() == written
    stroke = sorted(times)[1]
    return [
        f"The same {size:g} m terrain with the layer's density from a {IMAGE_SIDE} × {IMAGE_SIDE} image, painted "
        f"under Live Update: a round white dab {2 * DAB + 1} pixels across "
        f"({(2 * DAB + 1) * size / IMAGE_SIDE:.1f} m), three dabs in different places, the median re-scatter; "
        "the first dab straight after the Scatter.",
        "",
        "| terrain | full Scatter (s) | Scatter filling the cache (s) | image stroke (s) | ÷ full "
        "| first stroke after Scatter (s) | live = fresh Scatter |",
        "|---|---:|---:|---:|---:|---:|---|",
        f"| {size:g} m | {full:.2f} | {filling:.2f} | {stroke:.2f} | {stroke / full:.2f}× | {times[0]:.2f} "
        f"| {'yes' if same else 'NO'} |",
    ]


def _camera_rows(size: float) -> list[str]:
    """The same terrain with the layer culled to a camera's view: a full Scatter against the live update after
    the camera moved sideways."""
    import math

    import bpy

    from strew.scene import live_update, scatter_job

    _scene(size)
    scene = bpy.context.scene
    camera = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    scene.collection.objects.link(camera)
    camera.location, camera.rotation_euler = (0.0, -size / 2, 80.0), (math.radians(70), 0.0, 0.0)
    scene.camera = camera
    layer = scene.strew.layers["Trees"]
    layer.camera_cull, layer.camera_margin = True, 5.0
    bpy.context.view_layer.update()
    started = time.perf_counter()
    bpy.ops.strew.scatter()
    full = time.perf_counter() - started
    scene.strew.live_update = True
    bpy.ops.strew.scatter()
    times = []
    for _ in range(3):
        camera.location.x += 2.0
        bpy.context.view_layer.update()
        if not live_update.scheduled():
            live_update.on_depsgraph_update(scene, bpy.context.evaluated_depsgraph_get())
        started = time.perf_counter()
        assert live_update.flush()
        times.append(time.perf_counter() - started)
    written = _output()
    scene.strew.live_update = False
    scatter_job.run_to_end(bpy.context)
    same = _output() == written
    move = sorted(times)[1]
    return [
        f"The same {size:g} m terrain with the layer culled to a camera's view (80 m up, looking 20° down, margin "
        "5 m), moved 2 m sideways under Live Update three times, the median re-scatter. A moved camera still "
        "samples the whole culled layer again.",
        "",
        "| terrain | full Scatter, culled (s) | camera move (s) | ÷ full | live = fresh Scatter |",
        "|---|---:|---:|---:|---|",
        f"| {size:g} m | {full:.2f} | {move:.2f} | {move / full:.2f}× | {'yes' if same else 'NO'} |",
    ]
