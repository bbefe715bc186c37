"""Strew in a real Blender window, driven with the mouse and keyboard (``make test-gui``).

One session (conftest.py) clicks through the Strew tab; each test checks one step's scene state, read back
inside Blender after the step. Screenshots are in tests/gui/out/.
"""

from __future__ import annotations

import pytest


def step(session: dict, name: str) -> dict:
    steps = session["steps"]
    if name not in steps:
        pytest.fail(f"step {name!r} was not reached; the session stopped with: {session['error']}")
    return steps[name]


def test_session_ran_to_the_end(session: dict) -> None:
    assert session["error"] is None, session["error"]


def test_strew_tab_opens(session: dict) -> None:
    state = step(session, "strew_tab")["state"]
    assert state["strew_enabled"]
    assert state["categories"]["VIEW_3D"] == ["Strew"]


def test_terrain_layer_and_collection_picked_by_mouse(session: dict) -> None:
    assert step(session, "terrain_picked")["state"]["terrain"] == "Terrain"
    assert len(step(session, "layer_added")["state"]["layers"]) == 1
    layer = step(session, "collection_picked")["state"]["layers"][0]
    assert layer["name"] == "Trees" and layer["collection"] == "Trees"


def test_scatter_button_places_instances(session: dict) -> None:
    counts = step(session, "scattered")["state"]["scatter_output"]
    assert counts.get("Strew Trees", 0) > 100, counts


def test_undo_and_redo_the_scatter(session: dict) -> None:
    scattered = step(session, "scattered")["state"]["scatter_output"]
    assert step(session, "undone")["state"]["scatter_output"] == {}
    assert step(session, "redone")["state"]["scatter_output"] == scattered


def test_preview_toggle_and_clear(session: dict) -> None:
    assert step(session, "preview_on")["state"]["show_preview"] is True
    cleared = step(session, "cleared")["state"]
    assert cleared["scatter_output"] == {}
    assert {"Terrain"} <= set(cleared["objects"])  # the user's objects stay


def test_this_layer_scatters_the_active_layer(session: dict) -> None:
    counts = step(session, "this_layer")["state"]["scatter_output"]
    assert counts.get("Strew Trees", 0) == step(session, "scattered")["state"]["scatter_output"]["Strew Trees"]


def test_demo_kit_and_assemble_room(session: dict) -> None:
    kit = step(session, "kit_built")["state"]
    assert kit["room"]["kit"] is not None
    room = step(session, "room_assembled")["state"]["room"]
    assert room["size"] == [30, 30, 3]
    assert room["tiles"] > 0


def test_escape_leaves_the_room_as_it_was(session: dict) -> None:
    before = step(session, "room_assembled")["state"]
    after = step(session, "room_cancelled")["state"]
    assert after["room"]["tiles"] == before["room"]["tiles"]
    assert after["objects"] == before["objects"]
    assert after["modal"] == []


def test_russian_interface(session: dict) -> None:
    russian = step(session, "russian")
    assert russian["state"]["language"] == "ru_RU" and russian["state"]["translate_interface"]
    labels = russian["labels"]
    assert labels["missing"] == [], f"shown in English in the Russian window: {labels['missing'][:20]}"
    assert labels["checked"] >= 100, labels  # every panel title, button and setting name of the tab


def test_camera_culling_keeps_what_the_camera_sees(session: dict) -> None:
    culled_step = step(session, "camera_culled")
    full, culled = culled_step["full"], culled_step["culled"]
    assert culled["count"] < 0.8 * full["count"], (full, culled)
    assert culled["farthest"] <= 30.0 + 1.0  # the clip distance (a margin widens the view, not the clip)
    assert culled["in_view_near"] >= 0.85 * full["in_view_near"] > 0  # what the camera sees is still there


def test_brush_paints_erases_and_survives_scatter(session: dict) -> None:
    painted = step(session, "painted")
    assert painted["painted"]["painted"] > 0
    assert 0 <= painted["erased"]["painted"] < painted["painted"]["painted"]
    assert painted["reports"], "the brush reported nothing when it finished"
    kept = step(session, "painted_kept")["after"]
    assert kept["painted"] == painted["erased"]["painted"]


def test_spacing_by_object_size_from_the_panel(session: dict) -> None:
    done = step(session, "spacing_objects")["footprints"]
    assert done["spacing"] == "OBJECTS" and done["count"] > 20
    assert done["closest_gap"] >= done["gap"] - 1e-4  # what Blender draws: footprints keep the gap


def test_rescatter_circle_from_the_panel(session: dict) -> None:
    done = step(session, "rescatter_circle")
    assert done["reports"], "Rescatter Circle reported nothing"
    assert done["after"]["painted"] > done["before"]["painted"]  # the new ones are kept by a later Scatter
    assert done["footprints"]["closest_gap"] >= done["footprints"]["gap"] - 1e-4


def test_every_face_of_a_target_rock(session: dict) -> None:
    moss = step(session, "every_face")["moss"]
    assert moss["count"] > 50
    assert moss["z_min"] < 3.0 and moss["z_max"] > 9.0  # under the rock (centre 6 m, radius 4 m) and on top


def test_live_update_follows_the_rock(session: dict) -> None:
    before = step(session, "every_face")["moss"]
    after = step(session, "live_update")
    assert after["rock_z"] > 9.0
    assert abs(after["moss"]["z_min"] - (before["z_min"] + 4.0)) < 0.5, (before, after)


def test_live_update_follows_weight_painting(session: dict) -> None:
    painted = step(session, "weight_paint")
    assert painted["before"] == 0  # the mask's group is 0 everywhere: no tree but painted ones
    assert painted["painted_vertices"] > 0
    assert painted["after"] > 0, painted  # trees grew under the stroke after the pause


def test_pick_box_in_the_viewport_then_regenerate(session: dict) -> None:
    regenerated = step(session, "box_regenerated")
    low, high = regenerated["box"]
    assert low[:2] == [12, 12] and high[:2] == [15, 14], regenerated["box"]
    assert low[2] <= high[2]
    assert regenerated["reports"], "Regenerate Box reported nothing"
    assert regenerated["state"]["room"]["tiles"] > 0


def test_entrance_and_region_picked_in_the_viewport_hold(session: dict) -> None:
    levelled = step(session, "levelled")
    placed = levelled["placed"]
    assert [cell[:2] for cell in placed["entrances"]] == [[4, 4]], placed["entrances"]
    assert placed["at_entrances"] and all(walkable for _, walkable in placed["at_entrances"]), placed["at_entrances"]
    [region] = placed["regions"]
    assert region["low"][:2] == [16, 16] and region["high"][:2] == [22, 20], region
    assert region["tiles"] == "stair=0, stair_top=0, spiral=0, spiral_top=0"
    inside = [name for cell, name, _ in placed["cells"]
              if all(low <= c <= high for c, low, high in zip(cell, region["low"], region["high"], strict=True))]
    cells = 1
    for low, high in zip(region["low"], region["high"], strict=True):
        cells *= high - low + 1
    assert len(inside) == cells, (len(inside), cells)
    assert not [name for name in inside if name.startswith(("stair", "spiral"))], sorted(set(inside))
    assert levelled["entrance_reports"] and levelled["region_reports"], "Pick Cell / Pick Box reported nothing"
    assert len(levelled["reports"]) >= 2  # the first room, then this one


def test_counts_typed_in_the_panel_hold(session: dict) -> None:
    counted = step(session, "counted")
    assert counted["tiles_used"] and "spiral" not in counted["tiles_used"], counted["tiles_used"]
    assert len(counted["reports"]) >= 2  # the first room, then this one


def test_detect_sockets_then_assemble_in_the_window(session: dict) -> None:
    detected = step(session, "detected")
    room = detected["state"]["room"]
    assert room["connected"] is True and room["size"] == [30, 30, 3]
    assert len(detected["reports"]) > len(step(session, "counted")["reports"])  # the room after Detect Sockets
    assert len(detected["tiles_used"]) > 10
    assert room["tiles"] > 0


def test_a_flat_kit_of_the_users_own(session: dict) -> None:
    room = step(session, "streets")["room"]
    assert room["kit"] == "Streets" and room["cells"] == 12 * 10
    assert room["cell_size"] == [4.0, 4.0, 4.0]  # planes: cubic cells
    assert room["checked"] == 11 * 10 + 12 * 9 and room["bad"] == []
    assert {"verge", "road", "bend"} <= set(room["tiles"])


def test_a_hand_made_kit_with_a_mirrored_tile(session: dict) -> None:
    room = step(session, "garden")["room"]
    assert room["kit"] == "Garden" and room["cells"] == 12 * 12
    assert room["checked"] == 2 * 11 * 12 and room["bad"] == []
    assert "hedge_path" in room["tiles"] and room["mirrored"] > 0


def test_a_kit_with_a_big_tile(session: dict) -> None:
    room = step(session, "courtyard")["room"]
    assert room["kit"] == "Courtyard" and "pavilion" in room["tiles"], room["tiles"]
    assert room["big"] == [["pavilion", [2, 2, 1]]], room["big"]
    assert room["covered"] == room["covered_once"] == 10 * 10  # every cell covered once, the pavilions whole
    assert room["cells"] < 10 * 10 and room["bad"] == []


def test_import_mxgmn_xml_from_the_panel(session: dict) -> None:
    kit, tiles = step(session, "mxgmn_imported")["kit"]
    assert kit == "Knots" and tiles == ["corner", "cross", "empty", "line", "t"], tiles  # Knots.xml's tiles
    room = step(session, "mxgmn_assembled")["room"]
    assert room["kit"] == kit and room["cells"] == 12 * 12
    assert len(room["tiles"]) >= 3


def test_export_level_from_the_file_menu_writes_every_instance(session: dict) -> None:
    done = step(session, "export_menu")
    assert done["opened"]["idname"] == "STREW_OT_export_level"
    assert "TOOL_PROPS" in done["regions"]  # the options panel beside the files
    assert done["flipped"] == {name: True for name in ("strew_only", "selection_only", "terrain", "gpu_instancing")}
    assert done["named"]["filename"] == "level_menu.fbx"  # a name typed takes the Format's extension
    assert done["chosen"]["file_format"] == ".glb" and done["chosen"]["filename"] == "level_menu.glb"
    glb = done["glb"]
    assert glb is not None, f"no level_menu.glb; written: {done['written']}"
    assert "EXT_mesh_gpu_instancing" in glb["extensions"]
    assert glb["instances"] == done["expected"] > 0, (glb, done["counts"])
    assert any(f"Exported {done['expected']:,} instances" in line for line in done["reports"]), done["reports"]


def test_export_level_from_the_strew_tab_as_fbx(session: dict) -> None:
    done = step(session, "export_tab")
    assert done["reopened"]["file_format"] == ".glb"  # the Format last used
    assert done["chosen"]["file_format"] == ".fbx" and done["chosen"]["filename"] == "level_tab.fbx"
    assert done["fbx_header"] == "Kaydara FBX Binary", done["written"]
    assert any(f"Exported {done['expected']:,} instances" in line and "level_tab.fbx" in line
               for line in done["reports"]), done["reports"]


def test_export_level_to_a_missing_folder_reports_one_line(session: dict) -> None:
    done = step(session, "export_bad_path")
    assert done["kept"] and "no_such_folder" not in done["kept"]  # the browser's Cancel keeps the folder
    assert done["inside"].rstrip("/").endswith("level_gone")
    assert len(done["errors"]) == 1 and "does not exist" in done["errors"][0], done["errors"]
    assert not done["created"] and done["drafts"] == []
    assert "level_gone.glb" not in done["written"]


def test_export_options_in_russian_and_no_traceback(session: dict) -> None:
    done = step(session, "export_russian")
    assert done["pictures"] == ["ui_export_ru.png"]
    assert done["tracebacks"] == [], done["tracebacks"]
