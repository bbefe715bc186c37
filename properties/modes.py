"""Identifiers of the Scatter enum settings, shared by the properties that declare them and the scene code that
reads them (``layer.density_mode == DensityMode.IMAGE``), so a renamed item cannot drift apart."""

from __future__ import annotations

from enum import StrEnum


class DensityMode(StrEnum):
    """Where a layer's density comes from (``StrewLayer.density_mode``)."""

    NONE = 'NONE'
    NOISE = 'NOISE'
    VERTEX_GROUP = 'VERTEX_GROUP'
    IMAGE = 'IMAGE'


class OutputMode(StrEnum):
    """What a layer writes (``StrewLayer.output_mode``)."""

    GEOMETRY_NODES = 'GEOMETRY_NODES'
    EMPTIES = 'EMPTIES'
    DUPLICATES = 'DUPLICATES'


class SurfaceMode(StrEnum):
    """Which part of the targets a layer scatters on (``StrewLayer.surface``)."""

    TOP = 'TOP'
    ALL = 'ALL'
