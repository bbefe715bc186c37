"""The WFC references the bench runs beside our solver, in the same run, on the same mxgmn set, size and seeds.

- **fast-wfc** (C++, github.com/math-fehr/fast-wfc): built here with ``g++ -O3 -march=native`` from the sources
  named by ``STREW_FASTWFC_SRC`` (default: ``../shared/bench-data/fast-wfc`` beside the checkout) together with
  our driver ``bench/refs/fastwfc_driver.cpp``.
- **wavefunctioncollapse** (the npm package: kchapelier's JavaScript port of mxgmn's WFC): installed with npm
  into the bench's cache and driven by ``bench/refs/wfc_reference.mjs`` under node.

Neither backtracks: a seed that hits a contradiction counts as not solved. Both get the set as mxgmn wrote it
(tile names, symmetries, weights, neighbour pairs; the subset applied here) and time the model's construction and
its run, not the process start. Builds and installs go to ``STREW_BENCH_CACHE`` (default
``~/.cache/strew-bench``), never into the checkout. A reference that cannot run says why instead of a number.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import statistics
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
REFS = Path(__file__).resolve().parent / "refs"
CACHE = Path(os.environ.get("STREW_BENCH_CACHE", Path.home() / ".cache" / "strew-bench"))
FASTWFC_SRC = Path(os.environ.get("STREW_FASTWFC_SRC", REPO_ROOT.parent / "shared" / "bench-data" / "fast-wfc"))
JS_PACKAGE = "wavefunctioncollapse@2.1.0"


@dataclass
class RefRuns:
    """One reference on one problem: the seeds it ran (within its time budget) and the times of the solved ones."""

    seeds_run: int = 0
    solved_times: list[float] = field(default_factory=list)
    attempt_times: list[float] = field(default_factory=list)
    not_run: str | None = None

    def median(self) -> float | None:
        return statistics.median(self.solved_times) if self.solved_times else None


@dataclass(frozen=True)
class MxgmnSet:
    """An mxgmn simple-tiled set with its subset applied: ``(name, symmetry, weight)`` per tile and the
    neighbour pairs as written (``"corner 1"``), only those between kept tiles."""

    tiles: tuple[tuple[str, str, float], ...]
    neighbors: tuple[tuple[str, str], ...]

    @classmethod
    def read(cls, path: Path, subset: str | None) -> MxgmnSet:
        root = ET.parse(path).getroot()
        keep = None
        if subset:
            node = next(s for s in root.iter("subset") if s.get("name") == subset)
            keep = {t.get("name") for t in node.iter("tile")}
        tiles = tuple((t.get("name", ""), t.get("symmetry", "X"), float(t.get("weight", "1")))
                      for t in root.find("tiles").iter("tile")  # type: ignore[union-attr]
                      if keep is None or t.get("name") in keep)
        names = {t[0] for t in tiles}
        pairs = tuple((n.get("left", ""), n.get("right", "")) for n in root.iter("neighbor"))
        neighbors = tuple(p for p in pairs if all(side.split(" ")[0] in names for side in p))
        return cls(tiles, neighbors)

    def as_text(self) -> str:
        """fastwfc_driver's input: tiles by index, neighbours as index and orientation."""
        index = {name: i for i, (name, _, _) in enumerate(self.tiles)}
        lines = [f"tiles {len(self.tiles)}", *(f"{n} {s} {w!r}" for n, s, w in self.tiles),
                 f"neighbors {len(self.neighbors)}"]
        for left, right in self.neighbors:
            (a, _, oa), (b, _, ob) = left.partition(" "), right.partition(" ")
            lines.append(f"{index[a]} {oa or 0} {index[b]} {ob or 0}")
        return "\n".join(lines) + "\n"

    def as_json(self) -> str:
        return json.dumps({"tiles": [{"name": n, "symmetry": s, "weight": w} for n, s, w in self.tiles],
                           "neighbors": [{"left": a, "right": b} for a, b in self.neighbors]})


def _parse(output: str, runs: RefRuns) -> RefRuns:
    for line in output.splitlines():
        _, solved, seconds = line.split()
        runs.seeds_run += 1
        runs.attempt_times.append(float(seconds))
        if solved == "1":
            runs.solved_times.append(float(seconds))
    return runs


class Reference:
    """A reference solver: ``prepare()`` once (build or install), then ``run()`` per problem."""

    name = ""
    problem_suffix = ""
    _ready: bool | None = None
    why_not = ""

    def prepare(self) -> bool:
        if self._ready is None:
            try:
                self.why_not = self._prepare() or ""
            except (OSError, subprocess.SubprocessError) as error:
                self.why_not = f"{type(error).__name__}: {error}"
            self._ready = not self.why_not
        return self._ready

    def version(self) -> str:
        return ""

    def _prepare(self) -> str | None:
        raise NotImplementedError

    def _command(self, problem: Path, size: int, periodic: bool, seeds: int, budget: float) -> list[str]:
        raise NotImplementedError

    def _problem_text(self, problem: MxgmnSet) -> str:
        raise NotImplementedError

    def run(self, problem: MxgmnSet, size: int, periodic: bool, seeds: int, budget: float) -> RefRuns:
        """Seeds 0, 1, … until ``seeds`` ran or ``budget`` seconds passed (the seed under way finishes)."""
        if not self.prepare():
            return RefRuns(not_run=f"not run ({self.why_not})")
        digest = hashlib.sha256(self._problem_text(problem).encode()).hexdigest()[:16]
        path = CACHE / "problems" / f"{digest}{self.problem_suffix}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self._problem_text(problem))
        done = subprocess.run(self._command(path, size, periodic, seeds, budget), capture_output=True, text=True,
                              timeout=budget * 4 + 600)
        runs = _parse(done.stdout, RefRuns())
        if done.returncode < 0 and not runs.seeds_run:  # ended by a signal: it ran and crashed on this set
            return RefRuns(not_run=f"crashed (signal {-done.returncode})")
        if done.returncode != 0 and not runs.seeds_run:
            return RefRuns(not_run=f"not run (exit {done.returncode}: {done.stderr.strip()[-200:]})")
        return runs


class FastWfc(Reference):
    name = "fast-wfc (C++)"
    problem_suffix = ".txt"

    def _prepare(self) -> str | None:
        compiler = shutil.which(os.environ.get("CXX", "g++"))
        if compiler is None:
            return "no C++ compiler: install g++ or set CXX"
        lib = FASTWFC_SRC / "src" / "lib"
        if not (FASTWFC_SRC / "src" / "include" / "tiling_wfc.hpp").is_file():
            return f"no fast-wfc sources at {FASTWFC_SRC}: set STREW_FASTWFC_SRC"
        sources = [REFS / "fastwfc_driver.cpp", *sorted(lib.glob("*.cpp"))]
        key = hashlib.sha256(b"".join(p.read_bytes() for p in sources) + compiler.encode()).hexdigest()[:16]
        self.binary = CACHE / "fastwfc" / f"fastwfc_driver-{key}"
        if not self.binary.is_file():
            self.binary.parent.mkdir(parents=True, exist_ok=True)
            built = subprocess.run([compiler, "-O3", "-march=native", "-std=c++17", "-I",
                                    str(FASTWFC_SRC / "src" / "include"), *map(str, sources), "-o",
                                    str(self.binary)], capture_output=True, text=True, timeout=600)
            if built.returncode != 0:
                return f"build failed: {built.stderr.strip()[-200:]}"
        self.compiler = subprocess.run([compiler, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
        return None

    def version(self) -> str:
        return f"fast-wfc sources from {FASTWFC_SRC.name}/, {self.compiler}, -O3 -march=native"

    def _problem_text(self, problem: MxgmnSet) -> str:
        return problem.as_text()

    def _command(self, problem: Path, size: int, periodic: bool, seeds: int, budget: float) -> list[str]:
        return [str(self.binary), str(problem), str(size), str(size), str(int(periodic)), str(seeds), str(budget)]


class JsWfc(Reference):
    name = "wavefunctioncollapse (JS)"
    problem_suffix = ".json"

    def _prepare(self) -> str | None:
        node, npm = shutil.which("node"), shutil.which("npm")
        if node is None or npm is None:
            return "no node/npm: install Node.js"
        self.node = node
        self.folder = CACHE / "js"
        if not (self.folder / "node_modules" / "wavefunctioncollapse" / "package.json").is_file():
            self.folder.mkdir(parents=True, exist_ok=True)
            done = subprocess.run([npm, "install", "--prefix", str(self.folder), "--no-audit", "--no-fund",
                                   "--silent", JS_PACKAGE], capture_output=True, text=True, timeout=600)
            if done.returncode != 0:
                return f"npm install {JS_PACKAGE} failed: {done.stderr.strip()[-200:]}"
        self.node_version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
        return None

    def version(self) -> str:
        return f"npm {JS_PACKAGE} on node {self.node_version}"

    def _problem_text(self, problem: MxgmnSet) -> str:
        return problem.as_json()

    def _command(self, problem: Path, size: int, periodic: bool, seeds: int, budget: float) -> list[str]:
        module = self.folder / "node_modules" / "wavefunctioncollapse"
        return [self.node, str(REFS / "wfc_reference.mjs"), str(module), str(problem), str(size), str(size),
                str(int(periodic)), str(seeds), str(budget)]


REFERENCES: tuple[Reference, ...] = (FastWfc(), JsWfc())
