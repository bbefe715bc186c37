"""The windowed Blender a GUI session drives: the process, the driver's requests, mouse, keyboard and screen.

Standard library only (it runs where Blender runs). Buttons are found the way a user could check them: hover,
Ctrl+C (an operator button copies its Python command) and Ctrl+Shift+C (a property copies its data path).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
Rect = dict[str, int]


class StepFailed(Exception):
    """A step could not be done in the window (a button not found, Blender not answering)."""


class Window:
    """One Blender process with a window, and the mouse, keyboard and screen around it."""

    def __init__(self, blender: str, out: Path, exchange: Path) -> None:
        self.blender, self.out, self.exchange = blender, out, exchange
        self.process: subprocess.Popen[bytes] | None = None
        self.counter = 0
        self.log_start = 0

    # -- Blender ---------------------------------------------------------------------------------------------
    def start(self, blend: Path, language_reset: bool = True) -> float:
        for name in ("ready", "request.json", "response.json"):
            (self.exchange / name).unlink(missing_ok=True)
        env = dict(os.environ, STREW_GUI_DIR=str(self.exchange))
        log = (self.out / "blender.log").open("ab")
        self.log_start = log.tell()  # this run's output starts here
        started = time.perf_counter()
        self.process = subprocess.Popen(
            [self.blender, "--window-geometry", "0", "0", "1600", "1000", str(blend),
             "--python", str(HERE / "driver.py")], env=env, stdout=log, stderr=subprocess.STDOUT)
        self.wait_for(lambda: (self.exchange / "ready").exists(), 400, "Blender's window to come up")
        return time.perf_counter() - started

    def stop(self) -> None:
        if self.process is None:
            return
        with contextlib.suppress(StepFailed):
            self.request("quit", timeout=20)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.process = None

    def request(self, kind: str, timeout: float = 60.0, **fields: object) -> dict:
        self.counter += 1
        response_path = self.exchange / "response.json"
        response_path.unlink(missing_ok=True)
        partial = self.exchange / "request.part"
        partial.write_text(json.dumps({"kind": kind, "id": self.counter, **fields}))
        partial.replace(self.exchange / "request.json")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if response_path.exists():
                response = json.loads(response_path.read_text())
                if response.get("id") == self.counter:
                    if not response.get("ok"):
                        raise StepFailed(f"driver: {response.get('error')}")
                    return response
            if self.process is not None and self.process.poll() is not None:
                raise StepFailed(f"Blender exited with code {self.process.returncode}")
            time.sleep(0.05)
        raise StepFailed(f"Blender did not answer {kind!r} within {timeout:.0f} s")

    def state(self, timeout: float = 60.0) -> dict:
        return self.request("state", timeout=timeout)["state"]

    def run(self, code: str, timeout: float = 60.0) -> object:
        return self.request("exec", code=code, timeout=timeout)["result"]

    def wait_for(self, condition: Callable[[], object], timeout: float, what: str, every: float = 0.2) -> object:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = condition()
            if value:
                return value
            if self.process is not None and self.process.poll() is not None:
                raise StepFailed(f"Blender exited with code {self.process.returncode} while waiting for {what}")
            time.sleep(every)
        raise StepFailed(f"gave up waiting for {what} after {timeout:.0f} s")

    # -- mouse, keyboard, screen ----------------------------------------------------------------------------
    @staticmethod
    def xdotool(*args: object) -> None:
        subprocess.run(["xdotool", *map(str, args)], check=True)

    def move(self, x: int, y: int) -> None:
        self.xdotool("mousemove", x, y)
        time.sleep(0.25)  # Blender needs a hover before a click or a key

    def click(self, x: int, y: int, button: int = 1, repeat: int = 1, settle: float = 0.6) -> None:
        self.move(x, y)
        self.xdotool("click", "--repeat", repeat, "--delay", 80, button)
        time.sleep(settle)

    def key(self, *keys: str, settle: float = 0.5) -> None:
        self.xdotool("key", "--delay", 60, *keys)
        time.sleep(settle)

    def type(self, text: str) -> None:
        self.xdotool("type", "--delay", 40, text)
        time.sleep(0.3)

    def shot(self, name: str, rect: Rect | None = None) -> str:
        """Screenshot of the screen, or of ``rect`` on it, as ``OUT/name.png``."""
        path = self.out / f"{name}.png"
        crop = [] if rect is None else ["-crop", f"{rect['width']}x{rect['height']}+{rect['x']}+{rect['y']}", "+repage"]
        subprocess.run(["import", "-window", "root", *crop, str(path)], check=True)
        return path.name

    # -- where things are -----------------------------------------------------------------------------------
    def area(self, kind: str) -> dict:
        for area in self.state()["areas"]:
            if area["type"] == kind:
                return area
        raise StepFailed(f"no {kind} area in the window")

    def under_mouse(self, x: int, y: int, wait: float = 0.8) -> str:
        """What a button at (x, y) copies: ``bpy.ops.…(…)`` for an operator, a data path for a property.

        The clipboard first holds a marker; a busy Blender may handle the keys late, so the answer is the first
        change within ``wait`` seconds (nothing under the mouse: the marker stays, "" is returned).
        """
        self.counter += 1
        marker = f"strew-gui-probe-{self.counter}"
        self.run(f"bpy.context.window_manager.clipboard = {marker!r}")
        self.move(x, y)
        self.key("ctrl+c", settle=0.05)
        self.key("ctrl+shift+c", settle=0.1)
        deadline = time.monotonic() + wait
        while True:
            text = str(self.run("result = bpy.context.window_manager.clipboard"))
            if text != marker:
                time.sleep(0.3)  # Ctrl+Shift+C may follow Ctrl+C's copy
                return str(self.run("result = bpy.context.window_manager.clipboard"))
            if time.monotonic() > deadline:
                return ""
            time.sleep(0.1)

    def find(self, what: str, region: Rect, column: float, hint: int, downward: bool = False) -> tuple[int, int]:
        """Scan ``region``'s column for the button whose copied text starts with ``what``, starting at ``hint``
        pixels below its top and going outward (or only downward), one row of buttons at a time."""
        step = 18  # a button row is 20 px high at UI scale 1
        rows = range(0, region["height"], step)
        offsets = sorted((y for y in rows), key=lambda y: abs(y - hint)) if not downward else \
            [y for y in rows if y >= hint - 2 * step]
        x = region["x"] + int(column * region["width"])
        for offset in offsets + offsets:  # twice: the first pass may meet a panel still sliding open or shut
            y = region["y"] + offset + 8
            if y >= region["y"] + region["height"] - 4:
                continue
            if self.under_mouse(x, y).startswith(what):
                return x, y
        raise StepFailed(f"no button {what!r} in the column {column} of the region at {region}")
