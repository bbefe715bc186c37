"""Drive a windowed Blender with Strew as a person does, and record what the scene holds after each step.

Runs where the windowed Blender runs (on this machine inside ``blender-gui run``), with the standard library
only: ``python3 tests/gui/session.py --zip dist/strew-X.zip --out tests/gui/out``. Mouse and keyboard go
through ``xdotool``, screenshots through ImageMagick's ``import``; the scene is read back through
``driver.py`` inside Blender. Buttons are found the way a user could check them: hover, Ctrl+C (an operator
button copies its Python command) and Ctrl+Shift+C (a property copies its data path). The steps and their
scene states go to ``OUT/session.json``; ``test_gui.py`` asserts on them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import scenario_export
import scenario_kits
import scenario_look
import scenario_rooms
from window import HERE, Rect, StepFailed, Window


def _numbers(texts: list[str]) -> list[float] | None:
    """The values of ``texts`` when every one is a number, else None."""
    try:
        return [round(float(text), 6) for text in texts]
    except ValueError:
        return None


ROW = 20  # pixels from one item of a vector setting to the next at UI scale 1

# Every writable plain value of the scene's Strew settings, by data path, as Python text (for putting back what
# a keystroke that landed in the wrong field changed).
_SETTINGS = """
def _walk(group, path, out):
    for prop in group.bl_rna.properties:
        key = prop.identifier
        if key == "rna_type":
            continue
        value = getattr(group, key)
        if prop.type == "POINTER":
            if isinstance(value, bpy.types.PropertyGroup):
                _walk(value, f"{path}.{key}", out)
        elif prop.type == "COLLECTION":
            for i, item in enumerate(value):
                _walk(item, f"{path}.{key}[{i}]", out)
        elif not prop.is_readonly:
            if getattr(prop, "is_enum_flag", False):
                out[f"{path}.{key}"] = repr(set(value))
            elif prop.type != "STRING" and getattr(prop, "is_array", False):
                out[f"{path}.{key}"] = repr(tuple(value))
            else:
                out[f"{path}.{key}"] = repr(value)
result = {}
_walk(bpy.context.scene.strew, "strew", result)
"""

class Session:
    """The steps of one run; each records the scene state and a screenshot under its name."""

    def __init__(self, window: Window, docs: Path | None = None) -> None:
        self.window = window
        self.docs = docs
        self.steps: dict[str, dict] = {}
        self.places: dict[str, tuple[int, int]] = {}

    def record(self, name: str, shot: bool = True, **extra: object) -> dict:
        step = {"state": self.window.state(), **extra}
        if shot:
            step["screenshot"] = self.window.shot(name)
        self.steps[name] = step
        return step

    def sidebar(self) -> Rect:
        return self.window.area("VIEW_3D")["regions"]["UI"]

    def viewport(self) -> Rect:
        """The 3D view between the toolbar and the sidebar, below the headers."""
        regions = self.window.area("VIEW_3D")["regions"]
        view, tools, headers = regions["WINDOW"], regions["TOOLS"], regions["TOOL_HEADER"]
        left, top = tools["x"] + tools["width"], headers["y"] + headers["height"]
        right = regions["UI"]["x"] if "UI" in regions else view["x"] + view["width"]
        return {"x": left, "y": top, "width": right - left, "height": view["y"] + view["height"] - top}

    def status_bar(self) -> Rect:
        window = self.window.state()["window"]
        return {"x": window["x"], "y": window["y"] + window["height"] - 26, "width": window["width"], "height": 26}

    def picture(self, name: str, rect: Rect) -> str:
        """A cropped screenshot for the docs: ``OUT/name.png``, copied to the docs folder when one is given."""
        shot = self.window.shot(name, rect)
        if self.docs is not None:
            shutil.copyfile(self.window.out / shot, self.docs / shot)
        return shot

    def sidebar_pages(self, prefix: str, pages: int = 5) -> list[str]:
        """Screenshots of the whole sidebar, scrolling down a page at a time until it stops moving."""
        w = self.window
        sidebar = self.sidebar()
        w.move(sidebar["x"] + sidebar["width"] // 2, sidebar["y"] + sidebar["height"] // 2)
        w.key("Home", settle=0.8)  # back to the top
        names: list[str] = []
        for page in range(pages):
            self.rest_mouse()  # no tooltip or hover highlight in the picture
            time.sleep(0.4)
            names.append(w.shot(f"{prefix}_{page}", sidebar))
            if page and (w.out / names[-1]).read_bytes() == (w.out / names[-2]).read_bytes():
                names.pop()
                break
            w.move(sidebar["x"] + sidebar["width"] // 2, sidebar["y"] + sidebar["height"] // 2)
            for _ in range(30):
                w.xdotool("click", 5)
            time.sleep(0.8)
        return names

    def button(self, what: str, column: float, hint: int, downward: bool = False) -> tuple[int, int]:
        """Where a sidebar button is; a remembered place is checked first (the layout may have moved)."""
        w = self.window
        if what in self.places and w.under_mouse(*self.places[what]).startswith(what):
            return self.places[what]
        self.places[what] = w.find(what, self.sidebar(), column, hint, downward)
        return self.places[what]

    def first_item(self, what: str, column: float, hint: int, downward: bool, items: int) -> tuple[int, int]:
        """Where the first item of a vector setting is (all its items copy one data path, so the scan may meet a
        later one first): up one row at a time while the row above still copies ``what``."""
        x, y = self.button(what, column, hint, downward)
        for _ in range(items - 1):
            if not self.window.under_mouse(x, y - ROW).startswith(what):
                break
            y -= ROW
        self.places[what] = (x, y)
        return x, y

    def press(self, what: str, column: float, hint: int, settle: float = 0.8) -> None:
        x, y = self.button(what, column, hint)
        self.window.click(x, y, settle=settle)

    def pick(self, what: str, name: str, hint: int, column: float = 0.7, check: str = "") -> None:
        """Click an ID field, type the name into its search list, Enter; ``check`` (Python on the driver
        side, setting ``result``) says whether it took. A busy Blender may open the list late: then the keys
        would reach the viewport, so the list gets time to open, and a miss is tried once more."""
        for wait in (1.5, 3.0):
            x, y = self.button(what, column, hint)
            self.window.click(x, y, settle=wait)
            self.window.type(name)
            self.window.key("Return", settle=1.0)
            if not check or self.window.run(check):
                return
            self.window.key("Escape", settle=0.5)
            self.places.pop(what, None)
        raise StepFailed(f"picking {name!r} in {what} did not take")

    def edit(self, what: str, texts: list[str], hint: int, column: float = 0.7, double: bool = False,
             downward: bool = False, tries: int = 3) -> None:
        """Click a field (double-click a list name), replace its text, Tab to the next field, Enter at the end.

        Numbers typed into a scene setting (``what`` a data path such as ``strew.room.size``) are read back; on a
        loaded machine a key can come before the field is ready, so a wrong value is typed again, slower."""
        numbers = _numbers(texts)
        checked = numbers is not None and what.startswith("strew.")
        for attempt in range(1, tries + 1):
            before = self.window.run(_SETTINGS) if checked else None
            x, y = self.first_item(what, column, hint, downward, len(texts))
            self.window.click(x, y, repeat=2 if double else 1)
            for k, text in enumerate(texts):
                self.window.key("ctrl+a", settle=0.2 * attempt)
                self.window.type(text)
                self.window.key("Return" if k == len(texts) - 1 else "Tab", settle=0.5 * attempt)
            time.sleep(0.5)
            if not checked:
                return
            found = self.window.run(f"value = bpy.context.scene.{what}\n"
                                    "result = list(value) if hasattr(value, '__len__') else [value]")
            if [round(float(v), 6) for v in found] == numbers:  # type: ignore[union-attr]
                return
            self.restore_settings(before, what)  # type: ignore[arg-type]
            self.places.pop(what, None)
        raise StepFailed(f"{what} reads {found} after typing {texts} ({tries} tries)")

    def restore_settings(self, before: dict[str, str], what: str) -> None:
        """Put back every Strew setting but ``what`` that differs from ``before`` (keys that went to a
        neighbouring field); each put back is printed, so a run's log shows the miss."""
        after = self.window.run(_SETTINGS)
        changed = {path: text for path, text in before.items()
                   if path != what and not path.startswith(what + "[") and after.get(path) != text}  # type: ignore[union-attr]
        for path, text in changed.items():
            print(f"  a key went to {path} (now {after.get(path)}): put back {text}", flush=True)  # type: ignore[union-attr]
            self.window.run(f"bpy.context.scene.{path} = {text}")

    def scroll_sidebar(self, clicks: int = 10) -> None:
        """Scroll the sidebar down ``clicks`` wheel steps (a long sub-panel's last buttons come into view)."""
        sidebar = self.sidebar()
        self.window.move(sidebar["x"] + sidebar["width"] // 2, sidebar["y"] + sidebar["height"] // 2)
        for _ in range(clicks):
            self.window.xdotool("click", 5)
        time.sleep(0.8)
        self.places.clear()  # the layout moved

    def rest_mouse(self) -> None:
        """Park the mouse over an empty corner of the viewport: no tooltip or hover highlight in a picture."""
        sidebar = self.sidebar()
        self.window.move(sidebar["x"] - 60, sidebar["y"] + sidebar["height"] - 60)

    def click_header(self, hint: int) -> None:
        """Open or close the panel whose header is ``hint`` pixels below the sidebar's top (scrolled to the top
        first)."""
        sidebar = self.sidebar()
        self.window.move(sidebar["x"] + sidebar["width"] // 2, sidebar["y"] + sidebar["height"] // 2)
        self.window.key("Home", settle=0.8)
        self.window.click(sidebar["x"] + int(0.35 * sidebar["width"]), sidebar["y"] + hint, settle=2.5)

    def reports(self, containing: str) -> list[str]:
        """The reports Blender printed so far (its log: every report also goes to stdout) with ``containing``."""
        with (self.window.out / "blender.log").open("rb") as log:
            log.seek(self.window.log_start)
            text = log.read().decode(errors="replace")
        return [line for line in text.splitlines() if containing in line]

    def wait_idle(self, timeout: float, done: Callable[[dict], bool] = lambda state: True) -> dict:
        """Wait until no Strew modal operator runs and ``done(state)`` holds; the last state."""
        states: list[dict] = []

        def idle() -> bool:
            states.append(self.window.state(timeout=timeout))
            running = any(name.startswith("STREW_OT") for name in states[-1]["modal"])
            return not running and done(states[-1])

        self.window.wait_for(idle, timeout, "the Strew job to finish", every=0.3)
        return states[-1]

    # -- the scenario ---------------------------------------------------------------------------------------
    def open_strew_tab(self) -> None:
        w = self.window
        view = w.area("VIEW_3D")["regions"]["WINDOW"]
        w.move(view["x"] + view["width"] // 3, view["y"] + view["height"] // 2)
        w.key("Home")  # View All: the whole terrain in the viewport
        if "UI" not in w.area("VIEW_3D")["regions"]:
            w.key("n")
        sidebar = self.sidebar()
        # The tabs run down the sidebar's right edge; click down the strip until the Strew tab is active.
        for y in range(sidebar["y"] + 20, sidebar["y"] + sidebar["height"] - 20, 18):
            categories = w.state()["categories"]["VIEW_3D"]
            if "Strew" in categories:
                break
            w.click(sidebar["x"] + sidebar["width"] - 10, y, settle=0.3)
        self.record("strew_tab")

    # Hints: where each button is at UI scale 1 in Blender 4.3 (pixels below the sidebar's top, fraction of its
    # width); a button elsewhere is still found, only later.
    def scatter_steps(self) -> None:
        w = self.window
        self.pick("strew.terrain", "Terrain", hint=111,
                  check="result = bpy.context.scene.strew.terrain is not None")
        self.record("terrain_picked", shot=False)
        self.press("bpy.ops.strew.layer_add(", column=0.83, hint=137)
        self.record("layer_added", shot=False)
        # Renaming in the list (double-click or Ctrl+click on the name) does not take xdotool's clicks here.
        w.run("bpy.context.scene.strew.layers[0].name = 'Trees'")
        self.pick("strew.layers[0].collection", "Trees", hint=450,
                  check="result = bpy.context.scene.strew.layers[0].collection is not None")
        self.edit("strew.layers[0].min_radius", ["1.5"], hint=587)
        self.record("collection_picked")

        started = time.perf_counter()
        self.press("bpy.ops.strew.scatter()", column=0.22, hint=250, settle=0.05)
        self.wait_idle(300, lambda state: bool(state["scatter_output"]))
        self.record("scattered", seconds=time.perf_counter() - started)

        view = w.area("VIEW_3D")["regions"]["WINDOW"]
        w.move(view["x"] + view["width"] // 3, view["y"] + view["height"] // 2)
        w.key("ctrl+z", settle=1.5)
        self.record("undone", shot=False)
        w.key("ctrl+shift+z", settle=1.5)
        self.record("redone", shot=False)

        self.press("strew.show_preview", column=0.63, hint=305)
        self.rest_mouse()  # no hover highlight in the pictures
        self.record("preview_on", pictures=[self.picture("ui_scatter", self.sidebar()),
                                            self.picture("ui_preview", self.viewport())])
        self.press("strew.show_preview", column=0.63, hint=305)
        self.press("bpy.ops.strew.clear(", column=0.76, hint=278)
        self.record("cleared", shot=False)
        # The row under Scatter; its copied command may not show layer_index (a SKIP_SAVE property).
        self.press("bpy.ops.strew.scatter(", column=0.3, hint=274, settle=0.05)
        self.wait_idle(300, lambda state: bool(state["scatter_output"]))
        self.record("this_layer")

    def room_steps(self) -> None:
        w = self.window
        self.click_header(80)  # fold the Scatter panel: Tile Rooms moves up under it
        self.press("bpy.ops.strew.build_demo_kit(", column=0.75, hint=139)  # "+" left of the import button
        self.record("kit_built", shot=False)
        self.edit("strew.room.size", ["30", "30", "3"], hint=150, downward=True)
        started = time.perf_counter()
        self.press("bpy.ops.strew.assemble_room(", column=0.4, hint=450, settle=0.05)
        time.sleep(2.0)
        progress = [self.window.shot("room_progress"), self.picture("ui_progress", self.status_bar())]
        self.wait_idle(600, lambda state: state["room"]["tiles"] > 0)
        seconds = time.perf_counter() - started
        self.rest_mouse()
        self.record("room_assembled", seconds=seconds, progress=progress, reports=self.reports("tiles placed"),
                    pictures=[self.picture("ui_tile_rooms", self.sidebar())])

        before = self.steps["room_assembled"]["state"]
        x, y = self.button("bpy.ops.strew.assemble_room(", column=0.4, hint=450)
        self.window.click(x, y, settle=0.05)
        self.window.wait_for(lambda: any(n.startswith("STREW_OT") for n in w.state()["modal"]), 30,
                             "Assemble Room to start")
        time.sleep(1.0)
        w.move(x, y)
        w.key("Escape", settle=0.3)
        self.wait_idle(120)
        self.record("room_cancelled", shot=False, before_objects=len(before["objects"]))

    def every_panel(self, prefix: str) -> list[str]:
        """Pages of the sidebar with each layer sub-panel open alone, then the Tile Rooms panel and its
        sub-panels (Scatter folded)."""
        pages: list[str] = []
        for k, title in enumerate(scenario_look.SUB_PANELS):
            scenario_look.open_sub_panel(self, title)
            pages += self.sidebar_pages(f"{prefix}_scatter_{k}")
        scenario_look.open_sub_panel(self, "Objects")
        self.click_header(80)  # fold Scatter: the Tile Rooms panel and its sub-panels
        pages += self.sidebar_pages(f"{prefix}_rooms")
        for k, title in enumerate(scenario_look.ROOM_SUB_PANELS):
            scenario_look.open_sub_panel(self, title, scenario_look.ROOM_SUB_PANELS,
                                         "bpy.ops.strew.detect_sockets(", hint=330)
            pages += self.sidebar_pages(f"{prefix}_rooms_{k}")
        self.click_header(80)
        return pages

    def russian_steps(self) -> None:
        w = self.window
        self.click_header(80)  # unfold the Scatter panel again
        self.record("english", shot=False, pages=self.every_panel("en"))
        # Preferences › Interface › Translation, as the user sets it (the preferences window is a separate
        # window that a virtual screen without a window manager cannot place, so the value is set directly).
        w.run("p = bpy.context.preferences.view; p.language = 'ru_RU'; p.use_translate_interface = True; "
              "p.use_translate_tooltips = True; p.use_translate_reports = True")
        time.sleep(1.5)
        pages = self.every_panel("ru")
        sidebar = self.sidebar()
        w.move(sidebar["x"] + sidebar["width"] // 2, sidebar["y"] + sidebar["height"] // 2)
        w.key("Home", settle=0.8)
        self.rest_mouse()
        time.sleep(0.5)
        labels = w.run(RUSSIAN_LABELS)
        self.record("russian", pages=pages, labels=labels, pictures=[self.picture("ui_russian", self.sidebar())])


RUSSIAN_LABELS = """
import sys
from bpy.app.translations import pgettext_iface
table = next(m for n, m in sys.modules.items() if n.endswith('strew.translations')).RUSSIAN
labels = []  # (English label, translation context) of what the Strew tab draws
for cls in bpy.types.Panel.__subclasses__():
    if getattr(cls, 'bl_category', '') == 'Strew':
        labels.append((cls.bl_label, '*'))
for cls in bpy.types.Operator.__subclasses__():
    if getattr(cls, 'bl_idname', '').startswith('strew.'):
        labels.append((cls.bl_label, 'Operator'))
settings = bpy.context.scene.strew
for group in (settings, settings.room, *settings.layers[:1]):
    labels += [(p.name, '*') for p in group.bl_rna.properties if p.identifier != 'rna_type' and p.name]
checked, missing = 0, []
for label, context in sorted(set(labels)):
    if table.get(label) == label:  # a name that reads the same in Russian (Strew)
        continue
    checked += 1  # ours, or Blender's own word (Name)
    if pgettext_iface(label, context) == label:
        missing.append(label)
result = {'language': bpy.context.preferences.view.language, 'checked': checked, 'missing': missing}
"""
"""What the Russian window shows for each Strew panel title, button and setting name: Blender's own lookup in the
running window (the one that draws them), against the Russian table; a label with no entry, or one Blender does not
translate, is listed as missing."""

SCATTERED = """
settings = bpy.context.scene.strew
settings.terrain = bpy.data.objects['Terrain']
settings.layers.add().name = 'Trees'
settings.layers[0].collection = bpy.data.collections['Trees']
settings.layers[0].min_radius = 1.5
area = next(a for a in bpy.context.window.screen.areas if a.type == 'VIEW_3D')
with bpy.context.temp_override(area=area, region=area.regions[-1]):
    bpy.ops.strew.scatter('EXEC_DEFAULT')
"""


def headless_room(blender: str) -> dict:
    """Assemble Room 30×30×3 from the demo kit in ``blender -b``: the reference for the window's time."""
    done = subprocess.run([blender, "--background", "--python", str(HERE / "headless_room.py")],
                          capture_output=True, text=True, timeout=1800)
    result: dict = {"report": [line for line in done.stdout.splitlines() if "tiles placed" in line]}
    for line in done.stdout.splitlines():
        if line.startswith("HEADLESS_ROOM "):
            result.update(json.loads(line.removeprefix("HEADLESS_ROOM ")))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blender", default="blender")
    parser.add_argument("--zip", required=True, help="the built extension, e.g. dist/strew-0.1.0.zip")
    parser.add_argument("--out", default=str(HERE / "out"))
    parser.add_argument("--steps", default="scatter,look,anywhere,weights,kits,room,export,russian",
                        help="which parts to run")
    parser.add_argument("--docs", help="also copy the UI pictures (ui_*.png) to this folder")
    parser.add_argument("--hold", type=float, default=0.0,
                        help="keep Blender open this many seconds after the steps (to poke at it by hand)")
    args = parser.parse_args(argv)
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    exchange = out / "exchange"
    exchange.mkdir(exist_ok=True)
    report: dict[str, object] = {"steps": {}, "error": None}

    subprocess.run([args.blender, "--background", "--command", "extension", "install-file",
                    "--repo", "user_default", "--enable", args.zip], check=True, capture_output=True)
    blend = out / "scene.blend"
    subprocess.run([args.blender, "--background", "--factory-startup", "--python", str(HERE / "make_scene.py"),
                    "--", str(blend)], check=True, capture_output=True)
    window = Window(args.blender, out, exchange)
    session = Session(window, Path(args.docs).resolve() if args.docs else None)
    try:
        report["startup_seconds"] = window.start(blend)
        session.open_strew_tab()
        parts = args.steps.split(",")
        if "scatter" in parts:
            session.scatter_steps()
        elif {"look", "anywhere", "weights", "export"} & set(parts):  # the scatter part's end state, set directly
            window.run(SCATTERED)
            session.wait_idle(300, lambda state: bool(state["scatter_output"]))
            session.record("scattered", shot=False)
        if "look" in parts:
            scenario_look.camera_steps(session)
            scenario_look.spacing_steps(session)
            scenario_look.brush_steps(session)
        if "anywhere" in parts:
            scenario_look.anywhere_steps(session)
        if "weights" in parts:
            scenario_look.weight_paint_steps(session)
        if "kits" in parts:
            scenario_kits.user_kit_steps(session)
        if "room" in parts:
            session.room_steps()
            scenario_rooms.pick_box_steps(session)
            scenario_rooms.level_steps(session)
            scenario_rooms.kit_steps(session)
        if "export" in parts:
            scenario_export.export_steps(session)
        if "russian" in parts:
            session.russian_steps()
        held_until = time.monotonic() + args.hold
        while time.monotonic() < held_until and not (exchange / "release").exists():
            time.sleep(0.5)
    except (StepFailed, subprocess.CalledProcessError) as error:
        report["error"] = str(error)
        with contextlib.suppress(subprocess.CalledProcessError):
            window.shot("failure")
    finally:
        report["steps"] = session.steps
        window.stop()
        if "room" in args.steps.split(",") and "room_assembled" in session.steps:
            report["headless_room"] = headless_room(args.blender)  # after the window: one Blender at a time
        (out / "session.json").write_text(json.dumps(report, indent=1))
    print(f"gui session: {len(session.steps)} steps recorded; error: {report['error']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
