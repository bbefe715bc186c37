"""Every measured figure README and the docs quote comes from BENCHMARKS.md (written by ``make bench``).

A quoted figure is a link to the section that holds it, ``[0.42 s](BENCHMARKS.md#wave-function-collapse-…)``
(``../BENCHMARKS.md#…`` from docs/), and its text must occur in that section. A figure the bench no longer writes
(a section re-run with other results, a renamed section) fails here.

The rule for what counts as a measured figure, outside such a link, in README.md and every docs/*.md:

- a number with a unit of time (``µs``, ``ms``, ``s``), a share (``%``), a rate (``M/s``), a memory size (``MiB``,
  ``GiB``), or a ratio written against its number (``2.9x``, ``12.1×``) is a figure (:data:`FIGURE`);
- it is *not* a measurement, and passes, when the text marks it as something else: inside a code span or block
  (a value typed or printed: a setting, a default, a signature, a command's output, ``--scheduler-timeout 10``);
  after a bound (``≤ 5 s``, ``within 1 %``, ``up to 1 GiB``, ``more than``…: a target, a tolerance, a limit:
  :data:`BOUND`); or a product written with spaces (``64 × a layer's radius``: a factor of a setting);
- numbers without such a unit (a default of ``0.4 m``, a literature constant such as 0.6965 points per r², an
  instance count) are not figures for this check.

So a sentence that reports what was measured links each figure to its section, or says it in words without one.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "BENCHMARKS.md"
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[([^\[\]]*\d[^\[\]]*)\]\((?:\.\./)?BENCHMARKS\.md#([^)\s]+)\)")
FIGURE = re.compile(r"(?<![\w.])\d(?:[\d,.]*\d)?(?:\s?(?:ms|µs|s|%|M/s|MiB|GiB)|[×x](?!\s?\d))(?![\w])")
"""A measured quantity: a time, a ratio, a share, a rate or a memory size."""
TARGET = re.compile(r"[≤≥]\s?\d[\d,.]*\s?\S*")
"""A target (``≤ 5 s``) is a goal, not a measurement."""
BOUND = re.compile(r"(?:[≤≥<>]|\b(?:within|up to|at most|at least|more than|less than|no (?:more|less|higher|lower) "
                   r"than|down to))\s?~?\d[\d,.]*(?:[–-]\d[\d,.]*)?\s?\S*", re.IGNORECASE)
"""A bound (a target, a tolerance, a limit) states no measurement."""
CODE = re.compile(r"```.*?```|`[^`]*`", re.DOTALL)
"""Code blocks and spans: values typed or printed."""


def slug(heading: str) -> str:
    """GitHub's anchor for a markdown heading."""
    kept = "".join(c for c in heading.strip().lower() if c.isalnum() or c in " -_")
    return kept.replace(" ", "-")


def sections() -> dict[str, str]:
    found: dict[str, str] = {}
    current = None
    for line in BENCHMARKS.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            current = slug(line[3:])
            found[current] = ""
        elif current is not None:
            found[current] += line + "\n"
    return found


def plain(text: str) -> str:
    return " ".join(text.replace("**", "").replace("\u202f", " ").split())


def links() -> list[tuple[str, str, str]]:
    return [(doc.relative_to(ROOT).as_posix(), text, anchor)
            for doc in DOCUMENTS for text, anchor in LINK.findall(doc.read_text(encoding="utf-8"))]


def test_slug_follows_github():
    assert slug("Wave Function Collapse (mxgmn simple-tiled sets)") == "wave-function-collapse-mxgmn-simple-tiled-sets"
    assert slug("Parallel chunks: 10 km world, 1 vs 2 worker processes") == \
        "parallel-chunks-10-km-world-1-vs-2-worker-processes"


def test_readme_quotes_figures():
    assert any(doc == "README.md" for doc, _, _ in links()), "README quotes no figure from BENCHMARKS.md"


@pytest.mark.parametrize(("doc", "text", "anchor"), links())
def test_quoted_figure_is_in_its_section(doc, text, anchor):
    held = sections()
    assert anchor in held, f"{doc}: [{text}] links to #{anchor}, which BENCHMARKS.md has no section for"
    assert plain(text) in plain(held[anchor]), f"{doc}: {text!r} is not in BENCHMARKS.md#{anchor}: re-quote it"


def test_readme_benchmark_table_quotes_only_linked_figures():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Benchmarks", 1)[1].split("\n## ", 1)[0]
    for row in (line for line in section.splitlines() if line.startswith("|")):
        loose = FIGURE.findall(TARGET.sub("", LINK.sub("", row)))
        assert not loose, f"README's Benchmarks table quotes {loose} without a link to BENCHMARKS.md: {row[:80]}"


def loose_figures(text: str) -> list[str]:
    """The figures of ``text`` that are neither linked to BENCHMARKS.md nor marked as something else (see above)."""
    return FIGURE.findall(BOUND.sub("", LINK.sub("", CODE.sub("", text))))


def test_the_rule_tells_measurements_from_other_numbers():
    assert loose_figures("a layer takes 2.9x the time and 0.52 s") == ["2.9x", "0.52 s"]
    assert loose_figures("[0.52 s](BENCHMARKS.md#scatter) and `--timeout 10 s` within 1 % ≤ 5 s") == []
    assert loose_figures("up to 1 GiB, 64 × a layer's radius, numpy 2.x, 0.4 m, 0.6965 points per r²") == []
    assert loose_figures("```\nmake demo   # 4 s\n```") == []


@pytest.mark.parametrize("doc", [doc.relative_to(ROOT).as_posix() for doc in DOCUMENTS])
def test_every_measured_figure_links_to_its_section(doc):
    lines = (ROOT / doc).read_text(encoding="utf-8")
    loose = loose_figures(lines)
    assert not loose, f"{doc} quotes {loose} without a link to the BENCHMARKS.md section that holds them"
