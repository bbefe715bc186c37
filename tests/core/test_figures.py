"""Every measured figure README and the docs quote comes from BENCHMARKS.md (written by ``make bench``).

A quoted figure is a link to the section that holds it, ``[0.42 s](BENCHMARKS.md#wave-function-collapse-…)``,
and its text must occur in that section; README's Benchmarks table quotes no figure outside such a link. A
figure the bench no longer writes (a section re-run with other results, a renamed section) fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "BENCHMARKS.md"
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[([^\]]*\d[^\]]*)\]\((?:\.\./)?BENCHMARKS\.md#([^)\s]+)\)")
FIGURE = re.compile(r"(?<![\w.])\d[\d,.]*\s?(?:ms|µs|s|×(?!\s?\d)|x(?!\s?\d)|%|M/s|MiB|GiB)(?![\w])")
"""A measured quantity: a time, a ratio, a share, a rate or a memory size."""
TARGET = re.compile(r"[≤≥]\s?\d[\d,.]*\s?\S*")
"""A target (``≤ 5 s``) is a goal, not a measurement."""


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
