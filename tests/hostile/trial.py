"""One hostile trial inside Blender (the bpy wheel): build a small scene, do the hostile thing, judge the result.

Run by ``run.py`` as ``python trial.py SPEC.json`` (or ``'<json spec>'``) in a process of its own. The last line
printed is the verdict, ``HOSTILE {"outcome": ..., "detail": ...}``; outcomes: ``clean-error`` (one line, scene
and files as they were), ``correct`` (the result the class's oracle expects), ``silent-wrong``, ``damage``,
``traceback``.
"""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "blender"))

import conftest  # noqa: E402, I001  (sets Blender's user resources before bpy loads)
import bpy  # noqa: E402

conftest._install_dev_repository()
conftest.enable_strew()

from scenes import add_layer, make_prefabs, make_terrain, scene_snapshot  # noqa: E402


def module(name: str):
    import importlib

    return importlib.import_module(f"{conftest.ADDON_MODULE}.{name}")


class Verdict(Exception):
    def __init__(self, outcome: str, detail: str = "") -> None:
        super().__init__(outcome)
        self.outcome, self.detail = outcome, detail


def refused_cleanly(call, *args, **kwargs) -> str | None:
    """Run an operator: None when it finished, its message when it refused in one clean line and left the scene
    as it was; raises the verdict otherwise."""
    before = scene_snapshot()
    try:
        result = call(*args, **kwargs)
    except RuntimeError as error:
        message = str(error).strip()
        if "Traceback" in message or "\n" in message:
            raise Verdict("traceback", message[-300:]) from None
        if scene_snapshot() != before:
            raise Verdict("damage", f"refused but changed the scene: {message}") from None
        return message
    if result != {'FINISHED'}:
        if scene_snapshot() != before:
            raise Verdict("damage", f"{result} and the scene changed")
        return str(result)
    return None


def scatter_scene(size: float = 24.0, at: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> bpy.types.Object:
    scene = bpy.context.scene
    terrain = make_terrain(size=size, subdivisions=6)
    terrain.location = at
    scene.strew.terrain = terrain
    add_layer("Trees", make_prefabs("Trees", 2), 2.5, 2.5, seed=1)
    add_layer("Bushes", make_prefabs("Bushes", 2), 1.5, 1.5, seed=2, keep_away=1.0)
    return terrain


def layer_outputs(layer) -> list:
    return module("scene.layer_ids").outputs(bpy.context.scene, layer.layer_id)


def points_of(block):
    import numpy as np

    bpy.context.view_layer.update()
    if isinstance(block, bpy.types.Object):
        from scenes import point_attributes

        xyz = point_attributes(block)["position"]
        return np.asarray(xyz, dtype=np.float64) + np.asarray(block.matrix_world.translation)
    return np.array([o.matrix_world.translation[:] for o in block.objects if "strew_radius" in o])


# --- the classes --------------------------------------------------------------------------------------------------


def numbers_script(spec: dict) -> str:
    """A layer setting holding any value (a script, a saved file): a clean refusal when it lies outside the
    setting's range, else a scatter whose points are finite."""
    scatter_scene()
    layer = bpy.context.scene.strew.layers[0]
    prop = layer.bl_rna.properties[spec["prop"]]
    value = spec["value"]
    if prop.type == 'INT':
        if not (isinstance(value, int) or (math.isfinite(value) and value == int(value))) or abs(value) >= 2**31:
            return "correct"  # Blender's 32-bit int storage cannot hold it: no file or script can set it
        value = int(value)
    try:
        layer[spec["prop"]] = [value] * prop.array_length if prop.is_array else value
    except (OverflowError, TypeError, ValueError):
        return "correct"  # refused by Blender itself
    inside = prop.hard_min <= value <= prop.hard_max
    message = refused_cleanly(bpy.ops.strew.scatter)
    if message is not None:
        return "clean-error"
    if not inside:
        raise Verdict("silent-wrong", f"{spec['prop']} = {value!r} outside [{prop.hard_min:g}, {prop.hard_max:g}] "
                      "scattered")
    import numpy as np

    for each in bpy.context.scene.strew.layers:
        for block in layer_outputs(each):
            if not np.isfinite(points_of(block)).all():
                raise Verdict("silent-wrong", "points not finite")
    return "correct"


def names(spec: dict) -> str:
    """Renames, copies (Shift+D) and deletes of layers, outputs and the output collection, with scatters between:
    one current output per layer, the user's copies never deleted or altered."""
    scatter_scene()
    rng = random.Random(spec["seed"])
    scene = bpy.context.scene
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    copies: dict[str, int] = {}
    for _ in range(spec["steps"]):
        action = rng.choice(["rename layer", "rename output", "rename collection", "copy output", "delete output",
                             "scatter", "this layer"])
        layers = scene.strew.layers
        layer = layers[rng.randrange(len(layers))]
        owned = [b for b in layer_outputs(layer) if isinstance(b, bpy.types.Object)]
        if action == "rename layer":
            new = rng.choice(["Trees", "Bushes", "Oaks", "Strew Trees", "Trees.001", "x" * 60])
            if new not in {other.name for other in layers}:
                layer.name = new
        elif action == "rename output" and owned:
            owned[0].name = rng.choice(["Strew Bushes", "Mine", "Strew Trees.001", "Strew Oaks"])
        elif action == "rename collection":
            for collection in bpy.data.collections:
                if collection.get("strew_name") == "Strew Output":
                    collection.name = rng.choice(["Output", "Strew Output.001", "Trees"])
        elif action == "copy output" and owned:
            copy = owned[0].copy()
            scene.collection.objects.link(copy)
            copies[copy.name] = len(copy.data.vertices) if copy.data is not None else 0
        elif action == "delete output" and owned:
            bpy.data.objects.remove(owned[0])
        elif action in ("scatter", "this layer"):
            index = -1 if action == "scatter" else rng.randrange(len(layers))
            message = refused_cleanly(bpy.ops.strew.scatter, layer_index=index)
            if message is not None and "same name" not in message:
                raise Verdict("silent-wrong", f"scatter refused: {message}")
            if message is None:  # the layers it wrote have one output each; those above one at most (or deleted)
                for number, each in enumerate(layers):
                    found = layer_outputs(each)
                    if len(found) > 1 or (len(found) == 0 and number >= max(index, 0)):
                        raise Verdict("silent-wrong", f"layer {each.name!r} has {len(found)} outputs")
        for name, count in copies.items():
            copy = bpy.data.objects.get(name)
            if copy is None or (copy.data is not None and len(copy.data.vertices) != count):
                raise Verdict("damage", f"the user's copy {name!r} was deleted or altered")
    return "correct"


def regenerate(spec: dict) -> str:
    """Regenerate Box after the room was moved, turned, scaled and its kit tiles rescaled: every cell outside the
    box keeps its place."""
    import numpy as np
    from mathutils import Matrix
    from rooms_check import read_room, room_collection
    from rooms_kits import road_kit

    rng = random.Random(spec["seed"])
    kit = road_kit()
    room = bpy.context.scene.strew.room
    room.kit, room.size, room.seed, room.output = kit, (6, 5, 1), spec["seed"], spec["output"]
    assert bpy.ops.strew.assemble_room() == {'FINISHED'}
    world = (Matrix.Translation([rng.uniform(-50, 50) for _ in range(3)])
             @ Matrix.Rotation(rng.uniform(-math.pi, math.pi), 4, 'Z') @ Matrix.Scale(rng.choice([1.0, 0.5, 2.0]), 4))
    for obj in room_collection().objects:
        obj.matrix_world = world @ obj.matrix_world
    for tile in kit.objects:
        if rng.random() < 0.5:
            tile.scale = (rng.choice([0.5, 2.0, 3.0]),) * 3
    bpy.context.view_layer.update()
    before = read_room()
    low = (rng.randrange(0, 3), rng.randrange(0, 3), 0)
    high = (low[0] + rng.randrange(0, 3), low[1] + rng.randrange(0, 2), 0)
    message = refused_cleanly(bpy.ops.strew.regenerate_room_box, box_min=low, box_max=high, seed=spec["seed"] + 1)
    if message is not None:
        return "clean-error"
    after = read_room()
    for cell, (_tile, _rotation, placed) in after.items():
        inside = all(lo <= c <= hi for c, lo, hi in zip(cell, low, high, strict=True))
        if not inside and after[cell][:2] != before[cell][:2]:
            raise Verdict("silent-wrong", f"cell {cell} outside the box changed")
        if spec["output"] == 'OBJECTS' and not inside and not np.allclose(
                placed.matrix_world, before[cell][2].matrix_world, atol=1e-4):
            raise Verdict("silent-wrong", f"cell {cell} outside the box moved")
    return "correct"


def detect_budget(spec: dict) -> str:
    """Detect Sockets on a huge tile or at a tiny precision: a clean refusal or labels, in bounded memory."""
    from rooms_kits import road_kit

    kit = road_kit()
    room = bpy.context.scene.strew.room
    room.kit = kit
    for tile in kit.objects:
        tile.scale = (spec["scale"],) * 3
    message = refused_cleanly(bpy.ops.strew.detect_sockets, quantum=spec["quantum"])
    return "clean-error" if message is not None else "correct"


def detect_bad_sockets(spec: dict) -> str:
    """Detect Sockets on a tile whose ``strew_sockets`` holds junk: one clean line naming it, the kit unchanged."""
    from rooms_kits import road_kit

    kit = road_kit()
    bpy.context.scene.strew.room.kit = kit
    tile = sorted(kit.objects, key=lambda o: o.name)[0]
    tile["strew_sockets"] = spec["value"]
    message = refused_cleanly(bpy.ops.strew.detect_sockets)
    if message is None:
        return "correct"
    return "clean-error" if tile.name in message else "silent-wrong"


def prefab_cycle(spec: dict) -> str:
    """The output inside its own prefab collection (or a prefab instancing it): a clean refusal."""
    scatter_scene()
    scene = bpy.context.scene
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    output = next(c for c in bpy.data.collections if c.get("strew_name") == "Strew Output")
    trees = bpy.data.collections["Trees"]
    if spec["how"] == "child":
        trees.children.link(output)
    else:
        empty = bpy.data.objects.new("Instancer", None)
        empty.instance_type, empty.instance_collection = 'COLLECTION', output
        trees.objects.link(empty)
    message = refused_cleanly(bpy.ops.strew.scatter, layer_index=scene.strew.layers.find("Trees"))
    if message is None:
        raise Verdict("silent-wrong", "scattered with a dependency cycle")
    return "clean-error"


def far(spec: dict) -> str:
    """A terrain far from the origin: points keep their spacing, or a clean refusal beyond the limit."""
    import numpy as np

    scatter_scene(at=(spec["at"], -spec["at"], 0.0))
    message = refused_cleanly(bpy.ops.strew.scatter)
    if message is not None:
        return "clean-error" if spec["at"] > 1e8 else "silent-wrong"
    for layer, radius in zip(bpy.context.scene.strew.layers, (2.5, 1.5), strict=True):
        (block,) = layer_outputs(layer)
        xyz = points_of(block)
        if len(xyz) < 2:
            raise Verdict("silent-wrong", "no points")
        apart = np.linalg.norm(xyz[:, None, :2] - xyz[None, :, :2], axis=-1)
        closest = (apart + np.eye(len(xyz)) * np.inf).min()
        if closest < 0.999 * radius:
            raise Verdict("silent-wrong", f"closest pair {closest / radius:.4f} of the radius at {spec['at']:g}")
    return "correct"


def degenerate(spec: dict) -> str:
    """A terrain with no area from above, or degenerate faces: one line naming the terrain."""
    scene = bpy.context.scene
    mesh = bpy.data.meshes.new("Bad")
    vertices, faces = {
        "tiny": ([(0, 0, 0), (1e-6, 0, 0), (1e-6, 1e-6, 0), (0, 1e-6, 0)], [(0, 1, 2, 3)]),
        "wall": ([(0, 0, 0), (10, 0, 0), (10, 0, 10), (0, 0, 10)], [(0, 1, 2, 3)]),
        "repeated": ([(0, 0, 0), (0, 0, 0), (10, 10, 0)], [(0, 1, 2)]),
        "no faces": ([(0, 0, 0), (1, 0, 0)], []),
    }[spec["shape"]]
    mesh.from_pydata(vertices, [], faces)
    terrain = bpy.data.objects.new("Hill", mesh)
    scene.collection.objects.link(terrain)
    scene.strew.terrain = terrain
    add_layer("Trees", make_prefabs("Trees", 2), 2.5, 2.5, seed=1)
    message = refused_cleanly(bpy.ops.strew.scatter)
    if message is None:
        return "correct" if spec["shape"] == "tiny" else "silent-wrong"
    return "clean-error" if "Hill" in message else "silent-wrong"


def live_removed(spec: dict) -> str:
    """Live Update with the layer removed while its run is pending: no traceback, the rest scattered."""
    from live import live_update

    scatter_scene()
    scene = bpy.context.scene
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    scene.strew.live_update = True
    index = spec["index"]

    def change_then_remove() -> None:
        scene.strew.layers[index].seed += 7
        scene.strew.layers.remove(index)

    module = live_update()
    change_then_remove()  # the change may leave nothing to do (the changed layer is gone): no run is required
    bpy.context.view_layer.update()
    module.on_depsgraph_update(scene, bpy.context.evaluated_depsgraph_get())
    if module.scheduled():
        module.flush()
    left = scene.strew.layers[0]
    if len(layer_outputs(left)) != 1:
        raise Verdict("silent-wrong", "the remaining layer has no output")
    live_update()  # the module stays importable
    return "correct"


def mxgmn(spec: dict) -> str:
    """Import mxgmn XML edge cases: a clean refusal or a kit."""
    path = Path(spec["dir"]) / "tiles.xml"
    path.write_text(spec["xml"], encoding="utf-8")
    message = refused_cleanly(bpy.ops.strew.import_mxgmn, filepath=str(path), subset=spec.get("subset", ""))
    return "clean-error" if message is not None else "correct"


CLASSES = {f.__name__: f for f in (numbers_script, names, regenerate, detect_budget, detect_bad_sockets, prefab_cycle,
                                   far, degenerate, live_removed, mxgmn)}


def main() -> None:
    given = sys.argv[1]  # the spec, or a file holding it (a spec too long for a command line)
    spec = json.loads(given if given.lstrip().startswith("{") else Path(given).read_text(encoding="utf-8"))
    try:
        outcome, detail = CLASSES[spec["cls"]](spec), ""
    except Verdict as verdict:
        outcome, detail = verdict.outcome, verdict.detail
    print("HOSTILE " + json.dumps({"outcome": outcome, "detail": detail}), flush=True)


if __name__ == "__main__":
    main()
