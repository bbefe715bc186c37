"""Processes a test looks for: alive (not a zombie), and those a command started (found by an environment marker)."""

from __future__ import annotations

from pathlib import Path


def alive(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    try:
        return "State:\tZ" not in status.read_text()
    except OSError:
        return False


def processes_with(marker: str) -> list[int]:
    """Live processes whose environment holds ``marker`` (a command's workers inherit its environment)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker.encode() in (entry / "environ").read_bytes() and alive(int(entry.name)):
                found.append(int(entry.name))
        except OSError:
            continue
    return found
