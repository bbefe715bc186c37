"""Export Level to FBX, read back with a reader Blender did not write (fbx_reader.py): every instance Blender draws
for Strew's outputs is a Model on its source mesh at its world matrix, with its values, mirrored tiles mirrored,
and the user's scene as it was."""

from __future__ import annotations

from pathlib import Path

import bpy
import fbx_reader
import numpy as np
import pytest
from rooms_kits import module, plane, road_kit
from scenes import add_layer, make_prefabs, make_terrain

TOLERANCE = 1e-4


def _level() -> None:
    """A terrain, a Point Instancer layer, a Collection Empties layer, and a room (Instances) of mirrored shelves."""
    scene = bpy.context.scene
    scene.strew.terrain = make_terrain(size=30.0, subdivisions=8)
    add_layer("Bushes", make_prefabs("Bushes", 2), 2.5, 3.0, seed=4, output_mode='EMPTIES', align_to_normal=1.0)
    rocks = make_prefabs("Rocks", 3)
    rocks.objects[0].modifiers.new("Subdivision", 'SUBSURF').levels = 1  # drawn (and exported) subdivided
    add_layer("Rocks", rocks, 1.0, 1.6, seed=2, scale_min=0.5, scale_max=1.5)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    kit = bpy.data.collections.new("Shelves")
    scene.collection.children.link(kit)
    kit["strew_cell_size"] = (2.0, 2.0, 2.0)
    kit["strew_compatible"] = "back_l=back_r"
    plane("floor", kit, 2.0)["strew_sockets"] = {side: "open" for side in "nesw"}
    shelf = plane("shelf", kit, 2.0, marks=[(0.5, 1.0, -1.0, 0.2)])
    shelf["strew_sockets"] = {"n": "open", "e": "back_l", "s": "open", "w": "open"}
    shelf["strew_mirror"] = True
    assert bpy.ops.strew.assemble_room(kit="Shelves", size=(6, 6, 1), seed=2, counts="shelf=4..*", periodic=True,
                                       origin=(40.0, 5.0, 1.0)) == {'FINISHED'}
    bpy.context.view_layer.layer_collection.children["Shelves"].exclude = True


def _drawn() -> list[dict]:
    """Every mesh instance the depsgraph draws for a Strew output (an instancer's points, a layer's empties, a
    room's real objects): its mesh, world matrix, and the values a script reads off the output."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    out = []
    for inst in depsgraph.object_instances:
        source, parent = inst.object, inst.parent.original if inst.is_instance else None
        if source.type != 'MESH' or parent is None:
            continue
        point_empty = parent.type == 'EMPTY' and parent.parent is not None
        owner = parent.parent if point_empty else parent
        if owner is None or owner.get("strew_owner") not in ("scatter", "room"):
            continue
        mesh = source.original.data.name + (" modified" if source.original.modifiers else "")
        found = {"mesh": mesh, "matrix": np.array(inst.matrix_world), "output": owner.name,
                 "vertices": len(source.data.vertices)}
        if parent.type == 'MESH':  # an instancer: its point's attributes
            point = inst.persistent_id[0]
            room = "strew_tiles" in parent
            names = ("strew_random", "strew_id") + (("strew_tile", "strew_rotation", "strew_mirror") if room else ())
            for name in names:
                attribute = parent.data.attributes.get(name)
                if attribute is not None:
                    found[name] = attribute.data[point].value
            if room:
                found["strew_tile"] = parent["strew_tiles"][found["strew_tile"]]
        else:
            found.update({k: parent[k] for k in ("strew_random", "strew_id") if k in parent})
        out.append(found)
    return out


def _snapshot() -> dict:
    bpy.context.view_layer.update()
    return {o.name: (o.type, o.data.name if o.data else None, o.parent.name if o.parent else None,
                     tuple(np.round(np.array(o.matrix_world), 9).ravel()), o.select_get(),
                     {k: (v.to_list() if hasattr(v, "to_list") else v.to_dict() if hasattr(v, "to_dict") else v)
                      for k, v in o.items()})
            for o in bpy.data.objects} | {"collections": sorted(c.name for c in bpy.data.collections)}


def _export(tmp_path: Path, name: str = "level.fbx", **options: object):
    job = module("scene.export.job")
    before = _snapshot()
    result = job.export_level(bpy.context, job.ExportRequest(tmp_path / name, **options))
    assert _snapshot() == before  # the same objects, names, matrices, selection and custom properties
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".strew-export")]
    return result, fbx_reader.read(tmp_path / name)


def _match(expected: list[dict], scene: fbx_reader.FbxScene, by_vertices: bool = False) -> list:
    """For each expected instance, the file's Model on its mesh at its place (asserting one is within tolerance)."""
    models: dict[str, list] = {}
    for model in scene.mesh_models():
        models.setdefault(scene.geometries[model.geometry][0], []).append(model)
    worlds = {mesh: np.array([scene.to_blender(m) for m in found]) for mesh, found in models.items()}
    taken: set[int] = set()
    matched, worst = [], 0.0
    for item in expected:
        candidates = worlds[item["mesh"]]
        if by_vertices:  # any axis, unit and baked geometry: the world positions of the mesh's vertices
            ours = _vertices(item["mesh"]) @ item["matrix"][:3, :3].T + item["matrix"][:3, 3]
            theirs = [scene.geometries[m.geometry][1] @ w[:3, :3].T + w[:3, 3]
                      for m, w in zip(models[item["mesh"]], candidates, strict=True)]
            errors = np.array([np.abs(t - ours).max() for t in theirs])
        else:
            errors = np.abs(candidates - item["matrix"]).reshape(len(candidates), -1).max(axis=1)
        best = int(np.argmin(errors))
        model = models[item["mesh"]][best]
        assert model.uid not in taken, f"two instances of {item['mesh']} at one Model"
        taken.add(model.uid)
        worst = max(worst, float(errors[best]))
        matched.append((item, model, candidates[best]))
    assert worst <= TOLERANCE, worst
    return matched


def _vertices(mesh_name: str) -> np.ndarray:
    mesh = bpy.data.meshes[mesh_name]
    co = np.empty(len(mesh.vertices) * 3)
    mesh.vertices.foreach_get("co", co)
    return co.reshape(-1, 3)


def test_every_instance_is_a_model_on_its_shared_mesh_with_its_values(tmp_path: Path) -> None:
    _level()
    expected = _drawn()
    kinds = {item["output"] for item in expected}
    assert kinds == {"Strew Rocks", "Strew Bushes", "Strew Room"} and len(expected) > 150
    result, scene = _export(tmp_path)
    assert result.instances == len(expected) and "custom properties" in result.notes[0]
    assert scene.version >= 7400
    matched = _match(expected, scene)
    assert len(scene.mesh_models()) >= len(expected)
    # One Geometry per source mesh, shared by all its instances.
    by_mesh: dict[str, set[int]] = {}
    for _, model, _ in matched:
        by_mesh.setdefault(scene.geometries[model.geometry][0], set()).add(model.geometry)
    assert all(len(ids) == 1 for ids in by_mesh.values()), by_mesh
    mirrored = 0
    for item, model, world in matched:
        assert len(scene.geometries[model.geometry][1]) == item["vertices"], item["mesh"]
        user = model.user()
        for key in ("strew_random", "strew_id", "strew_rotation"):
            if key in item:
                assert user[key] == pytest.approx(item[key], abs=1e-6), (model.name, key)
        if item["output"] == "Strew Room":
            assert user["strew_tile"] == item["strew_tile"] == item["mesh"]
            assert len(user["strew_cell"]) == 3 and model.name.startswith("Strew Room ")
            flipped = np.linalg.det(item["matrix"][:3, :3]) < 0
            assert (np.linalg.det(world[:3, :3]) < 0) == flipped == bool(user["strew_mirror"])
            mirrored += flipped
    assert mirrored >= 2
    assert {"Rocks 0_mesh modified", "Rocks 1_mesh"} <= set(by_mesh)
    # The outputs' own objects (instancers, the layer's empties) are not in the file; the terrain is.
    names = {m.name for m in scene.models.values()}
    assert {"Strew Rocks", "Strew Bushes", "Strew Room", "Terrain"} & names == {"Terrain"}
    assert not [m for m in scene.models.values() if m.kind == "Null"]
    assert not [o for o in bpy.data.objects if o.name.startswith(("Strew Rocks.", "Strew Room "))]
    assert "Strew FBX Export" not in bpy.data.collections and "Rocks 0_mesh modified" not in bpy.data.meshes


@pytest.mark.parametrize("engine", ['UNITY', 'UNREAL', 'GODOT'])
def test_engine_presets_keep_every_vertex_where_blender_draws_it(tmp_path: Path, engine: str) -> None:
    modes = module("core.modes")
    bpy.context.scene.strew.terrain = make_terrain(size=12.0, subdivisions=4)
    add_layer("Rocks", make_prefabs("Rocks", 2), 1.0, 1.5, seed=5)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    expected = _drawn()
    result, scene = _export(tmp_path, engine=modes.EngineAxes[engine])
    _match(expected, scene, by_vertices=True)
    assert any("Godot" in note for note in result.notes) == (engine == 'GODOT')


def test_a_room_of_real_objects_exports_with_its_custom_properties(tmp_path: Path) -> None:
    kit = road_kit()
    assert bpy.ops.strew.assemble_room(kit=kit.name, size=(4, 3, 1), seed=3, output='OBJECTS') == {'FINISHED'}
    bpy.context.scene.strew.terrain = make_terrain(size=8.0, subdivisions=2)  # Export Level wants an output
    add_layer("Rocks", make_prefabs("Rocks", 1), 1.5, 1.5)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    tiles = [o for o in bpy.data.objects if "strew_cell" in o]
    assert len(tiles) == 12 and isinstance(tiles[0]["strew_cell"].to_list()[0], int)
    cube = bpy.data.objects.new("user cube", kit.objects[0].data)
    bpy.context.scene.collection.objects.link(cube)
    cube["v"] = [1, 2, 3]  # crashes Blender's own FBX export with custom properties
    result, scene = _export(tmp_path, "room.fbx")
    by_name = {m.name: m for m in scene.models.values()}
    for tile in tiles:
        model = by_name[tile.name]
        assert scene.geometries[model.geometry][0] == tile.data.name
        np.testing.assert_allclose(scene.to_blender(model), np.array(tile.matrix_world), atol=TOLERANCE)
        user = model.user()
        assert user["strew_cell"] == tuple(float(c) for c in tile["strew_cell"])
        assert user["strew_tile"] == tile["strew_tile"] and user["strew_rotation"] == tile["strew_rotation"]
    assert by_name["user cube"].user()["v"] == (1.0, 2.0, 3.0)
    assert any("strew_cell" in note and "v" in note for note in result.notes)
    assert isinstance(tiles[0]["strew_cell"].to_list()[0], int) and cube["v"].to_list() == [1, 2, 3]
