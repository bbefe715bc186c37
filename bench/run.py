"""Run the benchmarks and rewrite BENCHMARKS.md.

Each ``bench/bench_<topic>.py`` defines ``TITLE`` and ``run() -> str`` (a markdown section whose figures
and ratios are all measured in that one call). Results are kept per topic in ``bench/results/<topic>.md``
so one topic can be re-run alone (``python -m bench.run poisson``) without losing the others; then
BENCHMARKS.md is assembled from all of them with the machine's description.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import os
import platform
import subprocess
import sys
import time
import traceback
from pathlib import Path

import numpy as np

BENCH_DIR = Path(__file__).resolve().parent
RESULTS_DIR = BENCH_DIR / "results"
OUTPUT = BENCH_DIR.parent / "BENCHMARKS.md"


def available_topics() -> list[str]:
    return sorted(p.stem.removeprefix("bench_") for p in BENCH_DIR.glob("bench_*.py"))


def machine_description() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        from importlib.metadata import version

        bpy_version = version("bpy")
    except Exception:
        bpy_version = "not installed"
    return (
        f"{cpu} ({cpu_flags()}), {os.cpu_count()} cores; Python {platform.python_version()}, numpy {np.__version__}, "
        f"bpy {bpy_version}; {platform.system()} {platform.release()}"
    )


def cpu_flags() -> str:
    """The SIMD extensions numpy may pick kernels by (AVX2, AVX-512 …), as the CPU reports them."""
    try:
        flags = next(line for line in Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("flags"))
    except (OSError, StopIteration):
        return "flags unknown"
    have = set(flags.split(":", 1)[1].split())
    wanted = ("sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl")
    return " ".join(flag for flag in wanted if flag in have) or "no AVX"


def commit() -> str:
    """The checkout's commit, with "+changes" when the work tree's code differs from it (what the bench itself
    writes does not count: its results, BENCHMARKS.md, the pictures of docs/images)."""
    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=BENCH_DIR.parent, capture_output=True, text=True, check=False)
        return done.stdout.strip() if done.returncode == 0 else ""

    head = git("rev-parse", "--short=10", "HEAD") or "unknown"
    changed = git("status", "--porcelain", "--untracked-files=no", "--", ".", ":!bench/results", ":!BENCHMARKS.md",
                  ":!docs/images")
    return head + ("+changes" if changed else "")


def run_topic(topic: str) -> Path:
    module = importlib.import_module(f"bench.bench_{topic}")
    started = time.perf_counter()
    body = module.run()
    took = time.perf_counter() - started
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    text = (
        f"## {module.TITLE}\n\n_Measured {stamp} at commit {commit()} on {machine_description()}; "
        f"this section took {took:.0f} s._\n\n{body.strip()}\n"
    )
    RESULTS_DIR.mkdir(exist_ok=True)
    path = RESULTS_DIR / f"{topic}.md"
    path.write_text(text)
    return path


def assemble() -> None:
    paths = [RESULTS_DIR / f"{topic}.md" for topic in available_topics()]
    sections = [path.read_text() for path in paths if path.exists()]
    header = (
        "# Strew benchmarks\n\n"
        "Written by `make bench` (`python -m bench.run`); do not edit by hand. Every ratio compares figures "
        "measured in the same run on the same machine (2 cores, noisy), so ratios are more telling than "
        "seconds.\n\n"
    )
    OUTPUT.write_text(header + "\n".join(sections))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("topics", nargs="*", help=f"topics to run (default: all of {available_topics()})")
    parser.add_argument("--assemble", action="store_true", help="only rebuild BENCHMARKS.md")
    args = parser.parse_args(argv)
    topics = [] if args.assemble else (args.topics or available_topics())
    unknown = sorted(set(topics) - set(available_topics()))
    if unknown:
        parser.error(f"unknown topic(s) {unknown}; choose from {available_topics()}")
    failed = []
    for topic in topics:
        print(f"bench: {topic} …", flush=True)
        try:
            path = run_topic(topic)
        except Exception:  # one broken topic must not cost the others' hour: report it, go on, fail at the end
            traceback.print_exc()
            failed.append(topic)
            continue
        print(f"bench: wrote {path.relative_to(BENCH_DIR.parent)}", flush=True)
    assemble()
    print(f"bench: wrote {OUTPUT.name}")
    if failed:
        print(f"bench: failed: {', '.join(failed)} (their sections keep their earlier results)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
