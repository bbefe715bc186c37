"""Identifiers of the enum settings of Scatter and Tile Rooms, declared once: the properties build their items
from them, and the scene code and the command line compare with them (``layer.density_mode ==
DensityMode.IMAGE``), so a renamed item cannot drift apart. The solver's heuristics, a Tile Rooms setting too, are
``core.wfc.vocab.Heuristic`` with the other words of the WFC code."""

from __future__ import annotations

from enum import StrEnum


class DensityMode(StrEnum):
    """Where a layer's density comes from (``StrewLayer.density_mode``)."""

    NONE = 'NONE'
    NOISE = 'NOISE'
    VERTEX_GROUP = 'VERTEX_GROUP'
    IMAGE = 'IMAGE'


class SpacingMode(StrEnum):
    """What a layer's instances keep apart (``StrewLayer.spacing``): their points, or their objects' footprints."""

    RADIUS = 'RADIUS'
    OBJECTS = 'OBJECTS'


class OutputMode(StrEnum):
    """What a layer writes (``StrewLayer.output_mode``)."""

    GEOMETRY_NODES = 'GEOMETRY_NODES'
    EMPTIES = 'EMPTIES'
    DUPLICATES = 'DUPLICATES'


class DisplayMode(StrEnum):
    """How a layer's output is drawn in the viewport (``StrewLayer.display_mode``)."""

    FULL = 'FULL'
    BOUNDS = 'BOUNDS'
    POINTS = 'POINTS'


class ProxyKind(StrEnum):
    """What a layer's instances beyond its Proxy Beyond distance are drawn as (``StrewLayer.proxy_kind``)."""

    BOUNDS = 'BOUNDS'
    HULL = 'HULL'
    DECIMATE = 'DECIMATE'


class ProximityMode(StrEnum):
    """Whether a layer gathers near its proximity objects or avoids them (``StrewLayer.proximity_mode``)."""

    ATTRACT = 'ATTRACT'
    REPEL = 'REPEL'


class SurfaceMode(StrEnum):
    """Which part of the targets a layer scatters on (``StrewLayer.surface``)."""

    TOP = 'TOP'
    ALL = 'ALL'


class RoomOutput(StrEnum):
    """What Assemble Room writes (``StrewRoomSettings.output``)."""

    INSTANCES = 'INSTANCES'
    OBJECTS = 'OBJECTS'


class ExportFormat(StrEnum):
    """The file formats Export Level writes, each through Blender's own exporter."""

    GLB = 'GLB'
    GLTF = 'GLTF'
    USD = 'USD'
    FBX = 'FBX'


class EngineAxes(StrEnum):
    """Axis and unit presets of Export Level for the engine a level goes to (``BLENDER``: the exporter's own)."""

    BLENDER = 'BLENDER'
    UNITY = 'UNITY'
    GODOT = 'GODOT'
    UNREAL = 'UNREAL'


class AlongMode(StrEnum):
    """How a curve layer follows its curves (``StrewLayer.along_mode``)."""

    SPACED = 'SPACED'
    STEP = 'STEP'
    BAND = 'BAND'


class AlongPlace(StrEnum):
    """Where a curve layer's instances stand (``StrewLayer.along_place``): on the surface under the curve (its
    height and normal), or on the curve itself."""

    SURFACE = 'SURFACE'
    CURVE = 'CURVE'
