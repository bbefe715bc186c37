"""What Export Level is asked for: the target file and its format, the options, and the one error it raises."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bpy.app.translations import pgettext_rpt as rpt_

from ...core.modes import EngineAxes, ExportFormat

FORMATS: dict[str, ExportFormat] = {
    ".glb": ExportFormat.GLB, ".gltf": ExportFormat.GLTF, ".usd": ExportFormat.USD, ".usdc": ExportFormat.USD,
    ".usda": ExportFormat.USD, ".fbx": ExportFormat.FBX,
}


class ExportError(Exception):
    """A one-line reason the level was not exported; nothing was written."""


@dataclass(frozen=True)
class ExportRequest:
    """What to export and how (the Export Level operator's and ``python -m strew export``'s options)."""

    path: Path
    selection_only: bool = False
    strew_only: bool = False
    terrain: bool = True
    engine: EngineAxes = EngineAxes.BLENDER
    gpu_instancing: bool = True

    @property
    def format(self) -> ExportFormat:
        return format_of(self.path)


def format_of(path: Path) -> ExportFormat:
    """The format a file name asks for (ExportError naming the extensions Strew writes for any other)."""
    found = FORMATS.get(path.suffix.lower())
    if found is None:
        known = ", ".join(FORMATS)
        raise ExportError(rpt_('Cannot export to "{name}": use one of the extensions {known}').format(
            name=path.name, known=known))
    return found
