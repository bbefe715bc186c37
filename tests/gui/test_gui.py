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
    state = step(session, "russian")["state"]
    assert state["language"] == "ru_RU" and state["translate_interface"]
