"""Russian UI: every string a Strew user can see has a Russian entry, registered with Blender."""

from __future__ import annotations

import importlib
import string
import threading

import bpy
import pytest
import ui_strings
from conftest import ADDON_MODULE, disable_strew, enable_strew


def _translations():
    return importlib.import_module(f"{ADDON_MODULE}.translations")


def _fields(text: str) -> list[str]:
    return sorted(f"{name}!{conversion}:{spec}" for _, name, spec, conversion in string.Formatter().parse(text)
                  if name is not None)


def _missing_report(missing: list[tuple[str, str]]) -> str:
    lines = [f"{len(missing)} UI string(s) have no Russian entry in translations.py RUSSIAN; add them:"]
    for text, where in missing:
        lines.append(f"    {text!r}: \"\",  # {where}")
    return "\n".join(lines)


def test_every_registered_ui_string_has_a_russian_entry() -> None:
    russian = _translations().RUSSIAN
    strings = ui_strings.registered_strings(ADDON_MODULE)
    assert len(strings) > 50, "the enumeration found too few strings; is the extension registered?"
    missing = [(text, where) for text, where in strings if text not in russian]
    assert not missing, _missing_report(missing)


def test_every_report_label_and_message_template_has_a_russian_entry() -> None:
    russian = _translations().RUSSIAN
    strings = ui_strings.source_strings()
    assert any(where.startswith("scene/scatter_job.py") for _, where in strings)
    missing = [(text, where) for text, where in strings if text not in russian]
    assert not missing, _missing_report(missing)


def test_messages_with_values_are_translated_from_their_templates() -> None:
    built = ui_strings.built_messages()
    assert not built, "messages built before translation (use rpt_/iface_(template).format(...)):\n" + "\n".join(
        f"    {where}: {source}" for source, where in built)


def test_room_messages_are_scanned() -> None:
    scanned = {where.split(":")[0] for _, where in ui_strings.source_strings()}
    assert {"operators/rooms.py", "panels/rooms.py", "scene/room_job.py", "scene/room_kit.py"} <= scanned


def test_russian_entries_keep_placeholders_and_are_translated() -> None:
    for english, russian in _translations().RUSSIAN.items():
        assert russian.strip(), f"empty translation for {english!r}"
        assert _fields(english) == _fields(russian), f"placeholders differ: {english!r} -> {russian!r}"


def test_table_has_both_contexts_and_operator_wording() -> None:
    module = _translations()
    table = module.translation_table()[module.LOCALE]
    assert table[("Operator", "Scatter")] == module.OPERATOR_RUSSIAN["Scatter"]
    assert table[("*", "Scatter")] == module.RUSSIAN["Scatter"]
    assert len(table) == 2 * len(module.RUSSIAN)


def test_translations_are_registered_with_the_extension(strew_extension: object) -> None:
    assert strew_extension._BLENDER_MODULES[0] == "translations", "register translations before the UI classes"
    module = _translations()
    if not bpy.app.build_options.international:
        pytest.skip("this bpy build has no translation support: register() is a no-op, nothing to look up")
    with pytest.raises(ValueError):  # Blender refuses a second registration under the same name
        bpy.app.translations.register(module.__package__, {})
    disable_strew()
    try:
        bpy.app.translations.register(module.__package__, {})  # free again once the extension is off
        bpy.app.translations.unregister(module.__package__)
    finally:
        enable_strew()


@pytest.mark.skipif(not bpy.app.build_options.international,
                    reason="this bpy build has no translation support (build_options.international is False)")
def test_russian_interface_shows_russian_operator_label() -> None:
    view = bpy.context.preferences.view
    before = (view.language, view.use_translate_interface, view.use_translate_reports)
    try:
        view.language = 'ru_RU'
        view.use_translate_interface = True
        view.use_translate_reports = True
        label = bpy.ops.strew.layer_add.get_rna_type().name
        assert bpy.app.translations.pgettext_iface(label, "Operator") == "Добавить слой"
        assert bpy.app.translations.pgettext_iface("Scatter", "Operator") == "Разбросать"
        assert bpy.app.translations.pgettext_rpt("Scatter finished in {seconds:.2f} s") == \
            "Разброс завершён за {seconds:.2f} с"
    finally:
        view.language, view.use_translate_interface, view.use_translate_reports = before


class _RecordingLayout:
    """Stands in for a UILayout and keeps every label: ``(text, translate)``."""

    def __init__(self) -> None:
        self.labels: list[tuple[str, bool]] = []

    def __getattr__(self, name: str):
        return lambda *args, **kwargs: self  # row, column, box, prop, operator…

    def label(self, text: str = "", translate: bool = True, **kwargs) -> None:
        self.labels.append((text, translate))


def test_room_labels_read_as_before_and_are_not_translated_twice() -> None:
    panels = importlib.import_module(f"{ADDON_MODULE}.panels.rooms")
    assert bpy.ops.strew.build_demo_kit() == {'FINISHED'}
    tile = bpy.data.collections["Tiles"].objects["wall_door"]
    tile["strew_sockets"] = {"n": "wall", "e": "door"}
    tile["strew_weight"] = 3.0
    layout = _RecordingLayout()
    panels.draw_tile_settings(layout, tile)
    assert ('Custom property "strew_sockets" wins:', False) in layout.labels
    assert ("e: door", False) in layout.labels and ("s: ", False) in layout.labels
    assert ('Weight: custom property "strew_weight" wins', False) in layout.labels

    room = bpy.context.scene.strew.room
    room.fixed.add()
    item = room.fixed.add()
    item.tile, item.rotation, item.cell = tile, '90', (1, 2, 0)
    layout = _RecordingLayout()
    panels.STREW_UL_fixed_tiles.draw_item(None, None, layout, room, room.fixed[0], 0, room, "active_fixed_index")
    panels.STREW_UL_fixed_tiles.draw_item(None, None, layout, room, item, 0, room, "active_fixed_index")
    assert layout.labels == [("(pick a tile)", True), ("0°  (0, 0, 0)", False), ("wall_door", False),
                             ("90°  (1, 2, 0)", False)]

    placed = bpy.data.objects.new("placed", None)
    placed["strew_tile"], placed["strew_cell"], placed["strew_rotation"] = "floor", (3, 4, 1), 180
    layout = _RecordingLayout()
    context = type("Context", (), {"active_object": placed})()
    panels.STREW_PT_rooms_tile.draw(type("Panel", (), {"layout": layout})(), context)
    assert layout.labels == [("placed", False), ("Placed: floor at (3, 4, 1), 180°", False)]


def test_room_solve_errors_are_worded_in_the_main_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blender translates only in the main thread: the solve is stepped there (no worker thread)."""
    room_job = importlib.import_module(f"{ADDON_MODULE}.scene.room_job")
    threads = []

    def recording_rpt(text: str) -> str:
        threads.append(threading.current_thread())
        return text

    monkeypatch.setattr(room_job, "rpt_", recording_rpt)
    assert bpy.ops.strew.build_demo_kit() == {'FINISHED'}
    # The solver gives up (its time runs out at once): a core Contradiction, worded by the job.
    params = room_job.RoomParams(kit="Tiles", size=(30, 30, 2), seed=4, time_limit=1e-9, max_restarts=0)
    with pytest.raises(room_job.RoomError) as blocking:
        room_job.run_to_end(bpy.context.scene, params)
    assert str(blocking.value).startswith("No room found: time_limit="), str(blocking.value)
    assert threads and all(thread is threading.main_thread() for thread in threads)
