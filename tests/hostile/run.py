"""The hostile pass: generate the trials, run each in its own process (8 GiB cap, a timeout), count the outcomes.

``python tests/hostile/run.py [--every N] [--only CLASS] [--jobs J]`` (``make test-hostile`` runs it under
``nice -n 19``). Outcomes: clean-error, correct, traceback, silent-wrong, oom, hang, damage. Exit 1 when any trial
ends in traceback, silent-wrong, oom, hang or damage.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PYTHON = sys.executable
MEMORY = 8 * 2**30
TIMEOUT = 120.0
BAD = {"traceback", "silent-wrong", "oom", "hang", "damage"}
HOSTILE_NUMBERS = [float("nan"), float("inf"), float("-inf"), 1e30, -1e30, -1.0, 2.0**31, 1e21]
CLI_VALUES = ["nan", "inf", "-inf", "1e300", "-1", "0", "1e21", "2147483648", "-2147483649", "junk", ""]


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    os.setpgrp()  # a group of its own: a hang is ended with its workers


def layer_number_settings() -> list[tuple[str, str]]:
    """The layer's number settings (name, type), read from a Blender process once."""
    code = ("import sys, json; sys.path.insert(0, {!r}); import conftest, bpy; conftest._install_dev_repository(); "
            "conftest.enable_strew(); rna = bpy.types.Scene.bl_rna.properties['strew'].fixed_type"
            ".properties['layers'].fixed_type; print('NUMBERS ' + json.dumps([(p.identifier, p.type) for p in "
            "rna.properties if p.type in ('FLOAT', 'INT') and not p.is_readonly]))").format(
                str(REPO / "tests" / "blender"))
    out = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, timeout=300, cwd=REPO).stdout
    line = next(line for line in out.splitlines() if line.startswith("NUMBERS "))
    return [tuple(item) for item in json.loads(line.removeprefix("NUMBERS "))]


def generate(work: Path) -> list[dict]:
    """Every trial, in a fixed order (the same list on every run)."""
    trials: list[dict] = []
    for prop, kind in layer_number_settings():
        for value in HOSTILE_NUMBERS + ([2**31, -(2**31) - 1] if kind == 'INT' else []):
            trials.append({"cls": "numbers_script", "prop": prop, "value": value})
    trials += [{"cls": "names", "seed": seed, "steps": 14} for seed in range(40)]
    trials += [{"cls": "regenerate", "seed": seed, "output": output} for seed in range(12)
               for output in ("INSTANCES", "OBJECTS")]
    trials += [{"cls": "detect_budget", "scale": scale, "quantum": quantum}
               for scale in (0.01, 1.0, 100.0, 1e4, 1e6) for quantum in (1e-5, 1e-3, 0.01)]
    trials += [{"cls": "detect_bad_sockets", "value": value}
               for value in (42, 1.5, float("nan"), "nan", "\x00\x01\x02", "n=;e=", "n e s w", "", "x" * 10000,
                             [1, 2, 3], "n=a;e=b;s=c;w=\n", "\u202e\u200b")]
    trials += [{"cls": "prefab_cycle", "how": how} for how in ("child", "instance")]
    trials += [{"cls": "far", "at": at} for at in (1e3, 1e5, 1e6, 1e7, 1e8, 5e8, 2e9)]
    trials += [{"cls": "degenerate", "shape": shape} for shape in ("tiny", "wall", "repeated", "no faces")]
    trials += [{"cls": "live_removed", "index": index} for index in (0, 1)]
    xml = {
        "empty": "",
        "not xml": "<<<",
        "no tiles": "<set><tiles/></set>",
        "empty neighbor": '<set><tiles><tile name="a" symmetry="X"/></tiles><neighbors><neighbor left="" '
                          'right="a"/></neighbors><subsets><subset name="s"><tile name="a"/></subset></subsets></set>',
        "unknown symmetry": '<set><tiles><tile name="a" symmetry="Q"/></tiles><neighbors/></set>',
        "bomb": '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
                ']><set><tiles><tile name="&b;" symmetry="X"/></tiles></set>',
        "many F": "<set><tiles>" + "".join(f'<tile name="t{i}" symmetry="F"/>' for i in range(8000))
                  + "</tiles><neighbors/></set>",
    }
    trials += [{"cls": "mxgmn", "xml": text, "subset": subset, "case": case, "dir": str(work)}
               for case, text in xml.items() for subset in ("", "s")]
    # The command line, in a process of its own each.
    for option in ("--seed", "--chunk-size", "--max-slope", "--workers", "--scheduler-timeout"):
        for value in CLI_VALUES:
            trials.append({"cls": "cli_numbers", "args": ["scatter", "{scene}", option, value, "-o", "{out}"]})
    for option in ("--seed", "--time-limit", "--max-backtracks", "--max-restarts"):
        for value in CLI_VALUES[:9]:
            trials.append({"cls": "cli_numbers", "args": ["room", "{scene}", "--kit", "Roads", "--border", "",
                                                          option, value, "-o", "{out}"]})
    trials += [{"cls": "cli_interrupt", "after": after} for after in (0.1, 0.5, 1.0, 2.0, 3.0, 4.5)]
    trials += [{"cls": "farm", "case": case} for case in ("parts is a file", "plan is a folder", "truncated part",
                                                         "junk part", "other seed", "empty folder")]
    trials += [{"cls": "dask", "timeout": timeout} for timeout in ("2", "4")]
    return trials


def _one_line_refusal(code: int, err: str) -> bool:
    lines = err.strip().splitlines()
    return code == 2 and len(lines) == 1 and lines[0].startswith("strew: error: ") and "Traceback" not in err


def _run(args: list[str], timeout: float = TIMEOUT, interrupt_after: float | None = None
         ) -> tuple[int | None, str, str]:
    """A process with the memory cap; (None, out, err) when it hung."""
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
                               preexec_fn=_cap_memory)
    try:
        if interrupt_after is not None:
            time.sleep(interrupt_after)
            os.kill(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=timeout)
        return process.returncode, out, err
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        return None, out, err


def _memory(err: str) -> bool:
    return "MemoryError" in err or "std::bad_alloc" in err or "Cannot allocate memory" in err


def _cli(spec: dict, scene: Path, tmp: Path) -> tuple[str, str]:
    out = tmp / "out.blend"
    args = [a.replace("{scene}", str(scene)).replace("{out}", str(out)) for a in spec["args"]]
    code, _, err = _run([PYTHON, "-m", "strew", *args])
    if code is None:
        return "hang", " ".join(args)
    if "Traceback" in err:
        return "traceback", err[-300:]
    if _memory(err):
        return "oom", err[-200:]
    if code == 0:
        return ("correct", "") if out.exists() else ("silent-wrong", "exit 0 without the output file")
    if _one_line_refusal(code, err):
        return ("clean-error", "") if not out.exists() else ("damage", "refused but wrote the output")
    return "silent-wrong", f"exit {code}: {err.strip()[-200:]}"


def _interrupt(spec: dict, scene: Path, tmp: Path) -> tuple[str, str]:
    out = tmp / "out.blend"
    code, _, err = _run([PYTHON, "-m", "strew", "scatter", str(scene), "--workers", "2", "-o", str(out)],
                        interrupt_after=spec["after"])
    if code is None:
        return "hang", ""
    if "Traceback" in err:
        return "traceback", err[-300:]
    if code == 0:
        return ("correct", "finished before the interrupt") if out.exists() else ("silent-wrong", "no output")
    lines = err.strip().splitlines()
    if code == 130 and len(lines) <= 1 and not out.exists():
        return "clean-error", ""
    return ("damage" if out.exists() else "silent-wrong"), f"exit {code}: {err.strip()[-200:]}"


def _farm(spec: dict, scene: Path, tmp: Path) -> tuple[str, str]:
    parts = tmp / "parts"
    case = spec["case"]
    strew = [PYTHON, "-m", "strew"]
    if case == "parts is a file":
        parts.write_text("x")
        args = ["merge", str(scene), "--parts", str(parts), "-o", str(tmp / "out.blend")]
    elif case == "plan is a folder":
        parts.mkdir()
        args = ["scatter", str(scene), "--plan", str(parts)]
    elif case == "empty folder":
        parts.mkdir()
        args = ["merge", str(scene), "--parts", str(parts), "-o", str(tmp / "out.blend")]
    else:
        code, _, err = _run([*strew, "scatter", str(scene), "--chunks", "0:1000000", "--parts", str(parts)])
        files = sorted(p for p in parts.iterdir() if p.is_file()) if parts.is_dir() else []
        if code != 0 or not files:
            code, _, err = _run([*strew, "scatter", str(scene), "--chunks", "0:1", "--parts", str(parts)])
            files = sorted(p for p in parts.iterdir() if p.is_file()) if parts.is_dir() else []
        if not files:
            return "clean-error", f"no parts to spoil: {err.strip()[-120:]}"
        victim = files[len(files) // 2]
        if case == "truncated part":
            victim.write_bytes(victim.read_bytes()[: max(1, victim.stat().st_size // 2)])
        elif case == "junk part":
            victim.write_bytes(os.urandom(4096))
        else:  # parts of another seed
            other = tmp / "other"
            _run([*strew, "scatter", str(scene), "--seed", "99", "--chunks", "0:1000000", "--parts", str(other)])
            for part in other.iterdir() if other.is_dir() else []:
                (parts / part.name).write_bytes(part.read_bytes())
        args = ["merge", str(scene), "--parts", str(parts), "-o", str(tmp / "out.blend")]
    code, _, err = _run([*strew, *args])
    if code is None:
        return "hang", case
    if "Traceback" in err:
        return "traceback", err[-300:]
    if _one_line_refusal(code, err):
        return ("clean-error", "") if not (tmp / "out.blend").exists() else ("damage", "wrote a refused merge")
    if code == 0 and case == "other seed":
        return "silent-wrong", "merged parts of another seed"
    return ("correct", "") if code == 0 else ("silent-wrong", f"exit {code}: {err.strip()[-200:]}")


def _dask(spec: dict, scene: Path, tmp: Path) -> tuple[str, str]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:  # accepts and never answers
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    port = listener.getsockname()[1]
    try:
        code, _, err = _run([PYTHON, "-m", "strew", "scatter", str(scene), "--scheduler", f"tcp://127.0.0.1:{port}",
                             "--scheduler-timeout", spec["timeout"], "-o", str(tmp / "out.blend")], timeout=90)
    finally:
        stop.set()
        thread.join()
        for connection in accepted:
            connection.close()
        listener.close()
    if code is None:
        return "hang", ""
    if "Traceback" in err:
        return "traceback", err[-300:]
    if "No module named" in err and "dask" in err.lower():
        return "clean-error", "dask not installed"
    return ("clean-error", "") if _one_line_refusal(code, err) else ("silent-wrong", f"exit {code}: {err[-200:]}")


def _blender(spec: dict) -> tuple[str, str]:
    with tempfile.NamedTemporaryFile("w", suffix=".json", prefix="strew-hostile-", delete=False) as file:
        json.dump(spec, file)  # a file: an 8,000-tile XML is longer than a command line may be
    try:
        code, out, err = _run([PYTHON, str(HERE / "trial.py"), file.name])
    finally:
        Path(file.name).unlink(missing_ok=True)
    verdict = next((line for line in reversed(out.splitlines()) if line.startswith("HOSTILE ")), None)
    if verdict is not None:
        found = json.loads(verdict.removeprefix("HOSTILE "))
        return found["outcome"], found["detail"]
    if code is None:
        return "hang", ""
    if _memory(err) or code in (-9, 137):
        return "oom", err[-200:]
    if "Traceback" in err:
        return "traceback", err.strip()[-400:]
    return "traceback", f"exit {code} without a verdict: {err.strip()[-300:]}"


RUNNERS = {"cli_numbers": _cli, "cli_interrupt": _interrupt, "farm": _farm, "dask": _dask}


def run_trial(spec: dict, scene: Path) -> tuple[str, str]:
    with tempfile.TemporaryDirectory(prefix="strew-hostile-") as tmp:
        if spec["cls"] in RUNNERS:
            return RUNNERS[spec["cls"]](spec, scene, Path(tmp))
        return _blender({**spec, "dir": tmp} if spec["cls"] == "mxgmn" else spec)


def make_scene(work: Path) -> Path:
    """The .blend the command-line trials open: a terrain with two layers and a road kit."""
    path = work / "scene.blend"
    code = ("import sys; sys.path.insert(0, {!r}); import conftest, bpy; conftest._install_dev_repository(); "
            "conftest.enable_strew(); from small_scenes import scatter_scene, road_kit; scatter_scene(); road_kit(); "
            "bpy.ops.wm.save_as_mainfile(filepath={!r})").format(str(REPO / "tests" / "blender"), str(path))
    subprocess.run([PYTHON, "-c", code], check=True, capture_output=True, timeout=300, cwd=REPO)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--every", type=int, default=1, help="run every Nth trial (a deterministic subset)")
    parser.add_argument("--only", help="run one class")
    parser.add_argument("--jobs", type=int, default=1, help="trials at a time")
    parser.add_argument("--list", action="store_true", help="print the trials' count per class and stop")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="strew-hostile-"))
    trials = generate(work)
    print(f"{len(trials)} trials: " + ", ".join(f"{k} {v}" for k, v in Counter(t["cls"] for t in trials).items()),
          flush=True)
    if args.list:
        return 0
    chosen = [t for t in trials if args.only in (None, t["cls"])][:: args.every]
    scene = make_scene(work)
    counts: Counter = Counter()
    bad: list[str] = []

    def one(item: tuple[int, dict]) -> None:
        number, spec = item
        started = time.perf_counter()
        outcome, detail = run_trial(spec, scene)
        counts[(spec["cls"], outcome)] += 1
        shown = {k: v for k, v in spec.items() if k not in ("cls", "dir", "xml")}
        line = f"[{number + 1}/{len(chosen)}] {spec['cls']} {outcome} ({time.perf_counter() - started:.1f} s) {shown}"
        if outcome in BAD:
            bad.append(f"{line}: {detail}")
            line += f": {detail}"
        print(line[:400], flush=True)

    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(one, enumerate(chosen)))
    print("\nclass, outcome, trials")
    for (cls, outcome), count in sorted(counts.items()):
        print(f"{cls}, {outcome}, {count}")
    print(f"\n{len(chosen)} of {len(trials)} trials run; {len(bad)} not clean")
    for line in bad:
        print(" ", line[:400])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
