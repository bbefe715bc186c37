"""Operator fuzz: random custom properties on prefabs, tiles and kits, random layer settings.

Whatever the values, Scatter, Assemble Room and Detect Sockets either succeed or refuse with one line (never a
traceback); a refusal leaves the scene as it was, and no object of the user's is ever lost.
"""

from __future__ import annotations

import bpy
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from scenes import scene_snapshot
from small_scenes import ROOM, road_kit, scatter_scene

FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

_scalars = st.one_of(
    st.integers(-5, 400), st.floats(allow_nan=True, allow_infinity=True, width=32), st.booleans(),
    st.sampled_from(["", "abc", "n", "road", "1.5", "a=b", "door=arch, x=y"]),
)
# Homogeneous lists (what an IDProperty array or list holds), and small dicts (an IDProperty group).
_values = st.one_of(
    _scalars,
    st.lists(st.integers(-90, 360), max_size=5), st.lists(st.floats(-10, 10, width=32), max_size=4),
    st.lists(st.sampled_from(["n", "e", "s", "w", "up", "down", "x", ""]), max_size=5),
    st.lists(st.lists(st.sampled_from(["road", "grass", "a"]), min_size=1, max_size=3), max_size=3),
    st.dictionaries(st.sampled_from(["n", "e", "s", "w", "up", "down", "q"]),
                    st.one_of(st.sampled_from(["road", "grass", ""]), st.integers(0, 3)), max_size=6),
)
TILE_KEYS = ["strew_sockets", "strew_rotations", "strew_weight", "strew_walkable", "strew_passable", "strew_mirror"]
KIT_KEYS = ["strew_cell_size", "strew_compatible"]


def _user_objects() -> set[str]:
    return {o.name for o in bpy.data.objects if "strew_owner" not in o}


def _check(operator, **options) -> None:
    """One line or success; on a refusal the scene is unchanged; the user's objects are all still there."""
    users, before = _user_objects(), scene_snapshot()
    try:
        result = operator(**options)
    except RuntimeError as error:
        message = str(error).strip()
        assert "Traceback" not in message and "\n" not in message, message
        assert scene_snapshot() == before
    else:
        assert result == {'FINISHED'}
    assert users <= _user_objects()


def _assign(block: bpy.types.ID, key: str, value: object) -> None:
    try:
        block[key] = value
    except (TypeError, ValueError, OverflowError):
        assume(False)  # Blender itself refuses to store it: nothing Strew could be given


def test_fuzz_prefab_properties() -> None:
    stones = scatter_scene()
    prefab = stones.objects["Stones 0"]

    @FUZZ
    @given(value=_values, on_collection=st.booleans())
    def run(value: object, on_collection: bool) -> None:
        block = stones.children[0] if on_collection and len(stones.children) else prefab
        _assign(block, "strew_weight", value)
        try:
            _check(bpy.ops.strew.scatter)
        finally:
            del block["strew_weight"]

    child = bpy.data.collections.new("Boulders")
    stones.children.link(child)
    child.objects.link(bpy.data.objects.new("Boulder", bpy.data.meshes.new("Boulder")))
    run()


def test_fuzz_tile_and_kit_properties() -> None:
    kit = road_kit()

    @FUZZ
    @given(tile=st.sampled_from(sorted(kit.objects.keys())), key=st.sampled_from(TILE_KEYS + KIT_KEYS),
           value=_values)
    def run(tile: str, key: str, value: object) -> None:
        block = kit if key in KIT_KEYS else kit.objects[tile]
        saved = block.get(key)
        saved = saved.to_dict() if hasattr(saved, "to_dict") else saved.to_list() if hasattr(saved, "to_list") \
            else saved
        _assign(block, key, value)
        try:
            _check(bpy.ops.strew.assemble_room, **ROOM)
            if key == "strew_cell_size":
                _check(bpy.ops.strew.detect_sockets, kit=kit.name)
        finally:
            if saved is None:
                del block[key]
            else:
                block[key] = saved

    run()


# Layer settings a script may set to anything (Blender clamps numbers to each property's hard range).
LAYER_VALUES = {
    "min_radius": st.one_of(st.just(0.0), st.floats(0.3, 6)), "max_radius": st.floats(0, 8),
    "keep_away": st.floats(0, 5), "seed": st.integers(0, 2**31 - 1), "start_points": st.integers(1, 300),
    "density_mode": st.sampled_from(['NONE', 'NOISE', 'VERTEX_GROUP', 'IMAGE']),
    "noise_scale": st.floats(0.01, 100), "density_low": st.floats(0, 1), "density_high": st.floats(0, 1),
    "density_vertex_group": st.sampled_from(["", "Missing"]), "max_slope": st.floats(0, 1.6),
    "use_height_range": st.booleans(), "height_min": st.floats(-10, 10), "height_max": st.floats(-10, 10),
    "mask_vertex_group": st.sampled_from(["", "Missing"]), "align_to_normal": st.floats(0, 1),
    "scale_min": st.floats(0.001, 3), "scale_max": st.floats(0.001, 3),
    "output_mode": st.sampled_from(['GEOMETRY_NODES', 'EMPTIES', 'DUPLICATES']), "use_tile": st.booleans(),
    "tile_size": st.floats(0.01, 60), "tile_keep": st.floats(0, 1),
}


def test_fuzz_layer_settings() -> None:
    scatter_scene()
    bpy.context.scene.strew.max_objects = 400
    layer = bpy.context.scene.strew.layers[0]
    defaults = {name: getattr(layer, name) for name in LAYER_VALUES}

    @settings(FUZZ, max_examples=60)
    @given(changes=st.fixed_dictionaries({}, optional=LAYER_VALUES))
    def run(changes: dict[str, object]) -> None:
        try:
            for name, value in changes.items():
                setattr(layer, name, value)
            _check(bpy.ops.strew.scatter)
        finally:
            for name, value in defaults.items():
                setattr(layer, name, value)

    run()


_hostile_numbers = st.one_of(
    st.sampled_from([float("nan"), float("inf"), -float("inf"), 3.4028234663852886e38, 1e21, 2.0**31, -1.0, 0.0]),
    st.floats(allow_nan=True, allow_infinity=True), st.integers(-2**31, 2**31 - 1),
)


def test_fuzz_number_settings_from_scripts() -> None:
    """Any number a script may hand any number setting of the scene, a layer or a rule: Blender clamps what it
    can, and Scatter either honours the result or refuses it in one line (NaN included)."""
    stones = scatter_scene()
    strew = bpy.context.scene.strew
    strew.max_objects = 400
    pebbles = strew.layers.add()
    pebbles.name, pebbles.collection, pebbles.min_radius, pebbles.max_radius = "Pebbles", stones, 1.0, 1.0
    rule = pebbles.keep_away_rules.add()
    rule.layer, rule.distance = "Stones", 2.0
    groups = {"scene": strew, "layer": pebbles, "rule": rule}
    names = [(group, p.identifier) for group, block in groups.items() for p in block.bl_rna.properties
             if p.type in ('FLOAT', 'INT') and not p.is_readonly and not getattr(p, "is_array", False)
             and p.identifier != "workers"]  # each count starts processes: the workers have their own tests
    defaults = {(group, name): getattr(groups[group], name) for group, name in names}

    @settings(FUZZ, max_examples=80)
    @given(changes=st.lists(st.tuples(st.sampled_from(names), _hostile_numbers), min_size=1, max_size=3))
    def run(changes: list[tuple[tuple[str, str], float]]) -> None:
        try:
            for (group, name), value in changes:
                block = groups[group]
                if block.bl_rna.properties[name].type == 'INT':
                    if isinstance(value, float) and not value.is_integer():
                        continue
                    value = int(value)
                try:
                    setattr(block, name, value)
                except (TypeError, ValueError, OverflowError):
                    continue  # Blender itself refuses it: nothing reaches Strew
            _check(bpy.ops.strew.scatter)
        finally:
            for (group, name), value in defaults.items():
                setattr(groups[group], name, value)

    run()
