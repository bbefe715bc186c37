"""GUI steps for Export Level: File ▸ Export ▸ Strew Level to a .glb, the Strew tab's export button to an .fbx, a
folder gone before Export, and the file browser's options in English and in Russian.

Starts from a scattered layer and an assembled room (a 6×6×2 room of the demo kit beside the terrain, set directly
when no earlier part made one). Menu items and buttons are found by hover and Ctrl+C (a menu item copies its
operator's command too); what the browser holds is read from its operator (``active_operator``), as the options
panel shows it. The .glb is read back here with the standard library: each ``EXT_mesh_gpu_instancing`` node's
TRANSLATION accessor count, summed, against the instances Blender draws for Strew's outputs.
"""

from __future__ import annotations

import json
import shutil
import struct
import time
from pathlib import Path
from typing import TYPE_CHECKING

from window import StepFailed

if TYPE_CHECKING:
    from session import Session

OPTIONS = ("file_format", "engine", "strew_only", "selection_only", "terrain", "gpu_instancing")
FORMATS = (".glb", ".gltf", ".usdc", ".usda", ".fbx")  # the Format list's order
ROW, FIRST_ROW, ITEM = 26, 18, 23  # options panel: row pitch, first row's centre; dropdown item pitch (UI scale 1)

BROWSER = """
window = bpy.context.window_manager.windows[0]
area = next((a for a in window.screen.areas if a.type == 'FILE_BROWSER'), None)
op = area and area.spaces.active.active_operator
result = None
if op is not None:
    params = area.spaces.active.params
    folder = params.directory
    result = {'idname': op.bl_idname, 'filepath': op.filepath, 'filename': params.filename,
              'directory': folder.decode() if isinstance(folder, bytes) else folder,
              **{name: getattr(op, name) for name in OPTIONS}}
""".replace("OPTIONS", repr(OPTIONS))

ROOM = """
settings = bpy.context.scene.strew
area = next(a for a in bpy.context.window.screen.areas if a.type == 'VIEW_3D')
with bpy.context.temp_override(area=area, region=area.regions[-1]):
    if settings.room.kit is None:
        bpy.ops.strew.build_demo_kit()
    settings.room.size = (6, 6, 2)
    settings.room.origin = (34, 0, 0)
    bpy.ops.strew.assemble_room('EXEC_DEFAULT')
"""

INSTANCES = """
owned = {o.name for o in bpy.context.scene.objects if o.get('strew_owner') in ('scatter', 'room')}
counts = {}
for instance in bpy.context.evaluated_depsgraph_get().object_instances:
    parent = instance.parent
    if instance.is_instance and instance.object.type == 'MESH' and parent and parent.original.name in owned:
        counts[parent.original.name] = counts.get(parent.original.name, 0) + 1
result = counts
"""

# The window's reports, as the Info editor lists them (its Copy): the timeline shown as an Info editor for a moment.
REPORTS = """
window = bpy.context.window_manager.windows[0]
area = next(a for a in window.screen.areas if a.type == 'DOPESHEET_EDITOR')
shown = area.ui_type
area.type = 'INFO'
with bpy.context.temp_override(window=window, area=area, region=next(r for r in area.regions if r.type == 'WINDOW')):
    bpy.ops.info.select_all(action='SELECT')
    bpy.ops.info.report_copy()
area.ui_type = shown
result = bpy.context.window_manager.clipboard.splitlines()
"""


def reports(session: Session, containing: str) -> list[str]:
    return [line for line in session.window.run(REPORTS) or [] if containing in line]  # type: ignore[union-attr]


def glb_instances(path: Path) -> dict:
    """The instances a .glb holds: the TRANSLATION accessor counts of its EXT_mesh_gpu_instancing nodes."""
    data = path.read_bytes()
    magic, _version, _length = struct.unpack_from("<4sII", data, 0)
    size, kind = struct.unpack_from("<I4s", data, 12)
    if magic != b"glTF" or kind != b"JSON":
        raise StepFailed(f"{path.name} is not a binary glTF ({magic!r}, {kind!r})")
    gltf = json.loads(data[20:20 + size])
    counts = [gltf["accessors"][ext["attributes"]["TRANSLATION"]]["count"] for node in gltf.get("nodes", [])
              if (ext := node.get("extensions", {}).get("EXT_mesh_gpu_instancing"))]
    return {"instances": sum(counts), "instanced_nodes": len(counts), "nodes": len(gltf.get("nodes", [])),
            "extensions": gltf.get("extensionsUsed", [])}


def browser(session: Session) -> dict | None:
    return session.window.run(BROWSER)  # type: ignore[return-value]


def wait_browser(session: Session, is_open: bool) -> None:
    session.window.wait_for(lambda: bool(browser(session)) == is_open, 30,
                            f"the file browser to {'open' if is_open else 'close'}")


def open_from_file_menu(session: Session) -> list[str]:
    """File (top bar) ▸ Export ▸ Strew Level, each by hover and click; pictures of the two menus."""
    w = session.window
    window = w.state()["window"]
    for attempt in range(3):  # a loaded machine may draw a menu after the hover that should open it
        try:
            w.click(window["x"] + 46, window["y"] + 12, settle=1.0 + attempt)  # "File", right of Blender's logo
            # The File menu: find "Export All Collections" (the item under Export), then hover the row above it.
            menu = {"x": window["x"] + 120, "y": window["y"] + 28, "width": 1, "height": 520}
            x, below = w.find("bpy.ops.wm.collection_export_all(", menu, 0.0, hint=320)
            w.move(x - 40, below - 21)
            time.sleep(0.8 + attempt)
            submenu = {"x": window["x"] + 330, "y": below - 32, "width": 1, "height": 300}
            x, y = w.find("bpy.ops.strew.export_level(", submenu, 0.0, hint=140)
            break
        except StepFailed:
            if attempt == 2:
                raise
            w.key("Escape")
            w.key("Escape")
            time.sleep(1.0)
    shots = [w.shot("export_menu_open")]
    w.click(x, y, settle=1.5)
    wait_browser(session, True)
    return shots


def open_from_tab(session: Session) -> None:
    """The export icon in the header row of the Strew tab's main panel."""
    session.press("bpy.ops.strew.export_level(", column=0.73, hint=38, settle=1.5)
    wait_browser(session, True)


def tool_props(session: Session) -> dict:
    return session.window.area("FILE_BROWSER")["regions"]["TOOL_PROPS"]


def pick_format(session: Session, suffix: str) -> dict:
    """Open the Format dropdown and click ``suffix``'s item; the browser's operator read back."""
    w = session.window
    props = tool_props(session)
    x, y = props["x"] + int(0.7 * props["width"]), props["y"] + FIRST_ROW
    w.click(x, y, settle=1.0)
    w.move(x, y + ITEM * (FORMATS.index(suffix) + 1) - 4)
    w.click(x, y + ITEM * (FORMATS.index(suffix) + 1), settle=1.0)
    found = browser(session) or {}
    if found.get("file_format") != suffix or not found.get("filename", "").endswith(suffix):
        raise StepFailed(f"Format {suffix} picked in the dropdown, the browser holds {found}")
    return found


def toggle_options(session: Session) -> dict[str, bool]:
    """Click each check box of the options panel twice: the option it flips, then back (it is drawn and works)."""
    w = session.window
    props = tool_props(session)
    flipped: dict[str, bool] = {}
    for row, name in enumerate(OPTIONS[2:], start=2):
        x, y = props["x"] + int(0.5 * props["width"]), props["y"] + FIRST_ROW + ROW * row
        before = browser(session) or {}
        w.click(x, y, settle=0.6)
        middle = browser(session) or {}
        w.click(x, y, settle=0.6)
        after = browser(session) or {}
        changed = [key for key in OPTIONS if middle.get(key) != before.get(key)]
        flipped[name] = changed == [name] and after == before
    return flipped


def type_name(session: Session, name: str) -> dict:
    """Click the file name field, type ``name``, Return (it confirms the name)."""
    w = session.window
    field = w.area("FILE_BROWSER")["regions"]["EXECUTE"]
    w.click(field["x"] + int(0.3 * field["width"]), field["y"] + field["height"] // 2, settle=0.8)
    w.key("ctrl+a", settle=0.2)
    w.type(name)
    w.key("Return", settle=1.0)
    return browser(session) or {}


def press_export(session: Session) -> None:
    """The browser's Export Level button (bottom right), then wait for the browser to close."""
    if browser(session):
        field = session.window.area("FILE_BROWSER")["regions"]["EXECUTE"]
        session.window.click(field["x"] + field["width"] - 60, field["y"] + field["height"] // 2, settle=1.0)
    wait_browser(session, False)


def rest_in_browser(session: Session) -> None:
    files = session.window.area("FILE_BROWSER")["regions"]["WINDOW"]
    session.window.move(files["x"] + files["width"] // 2, files["y"] + files["height"] - 40)
    time.sleep(0.6)


def options_picture(session: Session, name: str) -> str:
    """The right part of the browser: the options, the file list beside them, the name field and the buttons."""
    area = session.window.area("FILE_BROWSER")["rect"]
    rest_in_browser(session)
    width = min(800, area["width"])
    return session.picture(name, {"x": area["x"] + area["width"] - width, "y": area["y"], "width": width,
                                  "height": area["height"]})


def export_steps(session: Session) -> None:
    w = session.window
    out = w.out
    if not w.state()["room"]["tiles"]:
        w.run(ROOM)
    counts = w.run(INSTANCES)
    expected = sum(counts.values())  # type: ignore[union-attr]
    for stale in [*out.glob("level_*"), *out.glob(".strew-export-*")]:
        (shutil.rmtree if stale.is_dir() else Path.unlink)(stale)

    # (1) File ▸ Export ▸ Strew Level, Format .glb, a name typed, Export Level.
    menus = open_from_file_menu(session)
    opened = browser(session)
    regions = sorted(w.area("FILE_BROWSER")["regions"])
    flipped = toggle_options(session)
    pick_format(session, ".fbx")  # away and back: the Format the name follows
    named = type_name(session, "level_menu")
    chosen = pick_format(session, ".glb")
    picture = options_picture(session, "ui_export")
    press_export(session)
    glb = out / "level_menu.glb"
    session.record("export_menu", opened=opened, regions=regions, flipped=flipped, named=named, chosen=chosen,
                   expected=expected, counts=counts, written=sorted(p.name for p in out.glob("level_*")),
                   glb=glb_instances(glb) if glb.is_file() else None, reports=reports(session, "Exported "),
                   pictures=[*menus, picture])

    # (2) The Strew tab's export button, Format FBX, a name typed, Export Level.
    open_from_tab(session)
    reopened = browser(session)
    pick_format(session, ".fbx")
    chosen = type_name(session, "level_tab")
    press_export(session)
    fbx = out / "level_tab.fbx"
    session.record("export_tab", reopened=reopened, chosen=chosen, expected=expected,
                   written=sorted(p.name for p in out.glob("level_*")),
                   fbx_header=fbx.read_bytes()[:18].decode(errors="replace") if fbx.is_file() else None,
                   reports=reports(session, "Exported "))

    # (3) A folder that is not there: typed, the browser asks to create it (Cancel); a folder removed after it
    # was picked (another program, a drive unplugged) reaches Export Level: one error line, nothing written.
    gone = out / "level_gone"
    gone.mkdir(exist_ok=True)
    open_from_tab(session)
    path_field = w.area("FILE_BROWSER")["regions"]["UI"]
    w.click(path_field["x"] + int(0.3 * path_field["width"]), path_field["y"] + path_field["height"] // 2)
    w.key("ctrl+a", settle=0.2)
    w.type(f"{out}/no_such_folder/")
    w.key("Return", settle=1.5)
    asked = w.shot("export_create_folder")
    w.key("Escape", settle=1.0)
    kept = (browser(session) or {}).get("directory")
    w.click(path_field["x"] + int(0.3 * path_field["width"]), path_field["y"] + path_field["height"] // 2)
    w.key("ctrl+a", settle=0.2)
    w.type(f"{gone}/")
    w.key("Return", settle=1.5)
    inside = (browser(session) or {}).get("directory")
    type_name(session, "level_gone.glb")
    shutil.rmtree(gone)
    press_export(session)
    time.sleep(1.0)
    session.rest_mouse()
    session.record("export_bad_path", asked=asked, kept=kept, inside=inside, gone=str(gone),
                   errors=reports(session, "Cannot export"), created=(out / "no_such_folder").exists() or gone.exists(),
                   drafts=[p.name for p in out.rglob(".strew-export-*")],
                   written=sorted(p.name for p in out.glob("level_*")),
                   pictures=[session.picture("ui_export_error", session.status_bar())])

    # (4) The options in Russian (Preferences › Interface › Translation, set as the `russian` part does).
    w.run("p = bpy.context.preferences.view; p.language = 'ru_RU'; p.use_translate_interface = True; "
          "p.use_translate_tooltips = True; p.use_translate_reports = True")
    time.sleep(1.5)
    open_from_tab(session)
    picture = options_picture(session, "ui_export_ru")
    w.key("Escape", settle=1.0)
    wait_browser(session, False)
    w.run("bpy.context.preferences.view.language = 'en_US'")
    time.sleep(1.0)
    session.record("export_russian", shot=False, pictures=[picture],
                   tracebacks=session.reports("Traceback"), errors=session.reports("Error"))
