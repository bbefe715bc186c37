"""Scatter settings: the scene's terrain and its list of layers (``scene.strew``)."""

from __future__ import annotations

import math

import bpy
from bpy.props import (
    BoolProperty,
    CollectionProperty,
    EnumProperty,
    FloatProperty,
    IntProperty,
    PointerProperty,
    StringProperty,
)

from ..core.inputs import MAX_DISTANCE
from ..core.modes import DensityMode, OutputMode, SpacingMode, SurfaceMode
from ..core.pool import close_kept_pool
from ..core.scatter.spec import MAX_SCALE
from ..core.worker_choice import AUTO
from . import hooks
from .layer_along import LayerAlongSettings
from .layer_look import (
    LayerCameraSettings,
    LayerDisplaySettings,
    LayerKeepAwaySettings,
    LayerProximitySettings,
    LayerVarietySettings,
    StrewKeepAwayRule,
)
from .rooms import StrewRoomSettings


def _is_mesh(_self: bpy.types.PropertyGroup, obj: bpy.types.Object) -> bool:
    return obj.type == 'MESH'


def _stop_workers(_self: bpy.types.PropertyGroup, _context: bpy.types.Context) -> None:
    """The kept worker processes stop; the next Scatter starts the new count."""
    close_kept_pool()


def _redraw_viewports(_self: bpy.types.PropertyGroup, context: bpy.types.Context) -> None:
    """The preview is drawn by the 3D views, which a sidebar toggle does not redraw by itself."""
    for window in context.window_manager.windows:
        for area in window.screen.areas:
            if area.type == 'VIEW_3D':
                area.tag_redraw()


DENSITY_MODES = [
    (DensityMode.NONE, "Uniform", "Every place gets the largest density (the Min Radius spacing)"),
    (DensityMode.NOISE, "Noise", "Density from seeded gradient noise: groves and clearings"),
    (DensityMode.VERTEX_GROUP, "Vertex Group", "Density painted on the terrain as vertex weights"),
    (DensityMode.IMAGE, "Image", "Density from an image stretched over the terrain's XY bounds"),
]

SPACING_MODES = [
    (SpacingMode.RADIUS, "Radius", "Instances keep the radius between their origins, whatever their size"),
    (SpacingMode.OBJECTS, "Object Size", "Each instance takes its prefab's footprint at its scale (the smallest "
     "circle around its origin holding it seen from above, a sphere on Every Face; a prefab's strew_radius "
     "property overrides it) and footprints keep the radius between their edges: big and small objects pack "
     "without overlapping"),
]

OUTPUT_MODES = [
    (OutputMode.GEOMETRY_NODES, "Point Instancer",
     "One point object per layer instancing the collection with Geometry Nodes (fast, 100k+ instances)"),
    (OutputMode.EMPTIES, "Collection Empties", "One empty per instance that instances the picked prefab"),
    (OutputMode.DUPLICATES, "Linked Duplicates",
     "One real object per instance sharing the prefab's data (slow above a few thousand)"),
]

SURFACE_MODES = [
    (SurfaceMode.TOP, "From Above", "What a ray from straight above hits first (a terrain)"),
    (SurfaceMode.ALL, "Every Face", "Every face of the targets, walls and undersides too; instances stand along "
     "the face normal and keep their spacing in 3-D"),
]


class StrewLayer(LayerAlongSettings, LayerCameraSettings, LayerDisplaySettings, LayerVarietySettings,
                 LayerProximitySettings, LayerKeepAwaySettings, bpy.types.PropertyGroup):
    """One scatter pass (trees, bushes, rocks…). Layers run top to bottom; earlier layers block later ones."""

    # ``name`` is inherited from PropertyGroup: the layer's name, also used for its output object.
    enabled: BoolProperty(name="Enabled", description="Include this layer when scattering all layers",
                          default=True)
    layer_id: StringProperty(
        name="Layer ID", description="Marks this layer's output so Strew finds it after a rename (set once by Strew)",
        options={'HIDDEN'},
    )
    collection: PointerProperty(
        name="Collection", type=bpy.types.Collection,
        description="Collection whose objects are the prefabs placed by this layer",
    )

    # Spacing
    spacing: EnumProperty(name="Spacing", items=SPACING_MODES, default=SpacingMode.RADIUS,
                          description="What the instances keep apart: their origins, or their objects' footprints")
    min_radius: FloatProperty(
        name="Min Radius", description="Smallest distance between two instances of this layer (densest places)",
        default=1.0, min=0.0, max=MAX_DISTANCE, soft_min=0.05, soft_max=50.0, subtype='DISTANCE', unit='LENGTH',
    )
    max_radius: FloatProperty(
        name="Max Radius", description="Largest distance between two instances, in the sparsest places of the "
        "Density; with Uniform density every instance keeps Min Radius",
        default=2.0, min=0.0, max=MAX_DISTANCE, soft_min=0.05, soft_max=100.0, subtype='DISTANCE', unit='LENGTH',
    )
    keep_away: FloatProperty(
        name="Keep Away", description="Minimum distance from the instances of the layers above this one "
        "(the layer's own radius applies when it is larger)",
        default=0.0, min=0.0, max=MAX_DISTANCE, soft_max=50.0, subtype='DISTANCE', unit='LENGTH',
    )
    seed: IntProperty(name="Seed", description="Same seed, same settings: same result", default=0,
                      min=0)
    start_points: IntProperty(
        name="Start Points", description="Random starting places, so islands cut off by masks get points too",
        default=16, min=1, soft_max=256,
    )

    # Density
    density_mode: EnumProperty(name="Density", items=DENSITY_MODES, default=DensityMode.NONE)
    noise_scale: FloatProperty(
        name="Noise Scale", description="Size of groves and clearings", default=40.0, min=0.01,
        max=MAX_DISTANCE, soft_max=1000.0, subtype='DISTANCE', unit='LENGTH',
    )
    noise_octaves: IntProperty(name="Octaves", description="Layers of finer noise detail", default=3, min=1,
                               max=8)
    density_vertex_group: StringProperty(
        name="Density Group", description="Terrain vertex group whose weights give the density",
    )
    density_image: PointerProperty(
        name="Density Image", type=bpy.types.Image,
        description="Image whose brightness gives the density over the terrain's XY bounds",
    )
    density_low: FloatProperty(
        name="Low", description="Density values at or below this count as empty (curve remap)",
        default=0.0, min=0.0, max=1.0, subtype='FACTOR',
    )
    density_high: FloatProperty(
        name="High", description="Density values at or above this count as full; a narrow band between Low and High "
        "gives sharp forest edges",
        default=1.0, min=0.0, max=1.0, subtype='FACTOR',
    )
    density_invert: BoolProperty(name="Invert", description="Swap dense and sparse places",
                                 default=False)

    # Masks
    max_slope: FloatProperty(
        name="Max Slope", description="No instances where the terrain is steeper than this",
        default=math.pi, min=0.0, max=math.pi, subtype='ANGLE',
    )
    use_height_range: BoolProperty(name="Height Range", description="Only between Lowest and Highest",
                                   default=False)
    height_min: FloatProperty(name="Lowest", default=0.0, min=-MAX_DISTANCE, max=MAX_DISTANCE, subtype='DISTANCE',
                              unit='LENGTH')
    height_max: FloatProperty(name="Highest", default=100.0, min=-MAX_DISTANCE, max=MAX_DISTANCE,
                              subtype='DISTANCE', unit='LENGTH')
    mask_vertex_group: StringProperty(
        name="Mask Group", description="Only where this terrain vertex group's weight reaches the threshold",
    )
    mask_threshold: FloatProperty(name="Threshold", default=0.5, min=0.0, max=1.0,
                                  subtype='FACTOR')
    mask_image: PointerProperty(
        name="Mask Image", type=bpy.types.Image,
        description="Only where this image, stretched over the terrain seen from above, is at least as bright as "
                    "the threshold",
    )
    mask_image_threshold: FloatProperty(name="Threshold", default=0.5, min=0.0, max=1.0, subtype='FACTOR')
    exclusion_collection: PointerProperty(
        name="Exclude", type=bpy.types.Collection,
        description="Curves (roads, rivers) and meshes (houses, ponds) to keep clear, seen from above",
    )
    exclusion_margin: FloatProperty(
        name="Margin", description="Distance to keep from the excluded curves and meshes",
        default=1.0, min=0.0, max=MAX_DISTANCE, soft_max=50.0, subtype='DISTANCE', unit='LENGTH',
    )

    # Placement
    align_to_normal: FloatProperty(
        name="Align to Normal", description="0: instances stand upright; 1: they follow the terrain's slope",
        default=0.0, min=0.0, max=1.0, subtype='FACTOR',
    )
    random_yaw: BoolProperty(name="Random Yaw", description="Turn each instance randomly about its up axis",
                             default=True)
    scale_min: FloatProperty(name="Scale Min", default=0.85, min=0.001, max=MAX_SCALE, soft_max=10.0)
    scale_max: FloatProperty(name="Scale Max", default=1.15, min=0.001, max=MAX_SCALE, soft_max=10.0)

    # Output
    output_mode: EnumProperty(name="Output", items=OUTPUT_MODES,
                              default=OutputMode.GEOMETRY_NODES)

    # Large worlds
    use_tile: BoolProperty(
        name="Repeat Tile", description="Sample one seamless tile and repeat it over the terrain "
        "(fast for huge areas); a per-position hash hides the repetition",
        default=False,
    )
    tile_size: FloatProperty(
        name="Tile Size", description="Side of the repeated tile; at least ten radii", default=100.0,
        min=0.01, max=MAX_DISTANCE, soft_max=1000.0, subtype='DISTANCE', unit='LENGTH',
    )
    tile_keep: FloatProperty(
        name="Keep", description="Fraction of the tile's points kept at each world position (hides the repeat)",
        default=0.85, min=0.0, max=1.0, subtype='FACTOR',
    )

    # Surface
    surface: EnumProperty(
        name="Surface", items=SURFACE_MODES, default=SurfaceMode.TOP,
        description="Where on the targets this layer places instances",
    )
    targets: PointerProperty(
        name="Targets", type=bpy.types.Collection,
        description="Collection whose meshes (with modifiers and transforms) this layer scatters on; "
        "empty: the terrain",
    )
    min_slope: FloatProperty(
        name="Min Slope", description="Every Face: no instances where the surface is less steep than this "
        "(90° walls, above 90° undersides)",
        default=0.0, min=0.0, max=math.pi, subtype='ANGLE',
    )


def _live_update_switched(_self: bpy.types.PropertyGroup, context: bpy.types.Context) -> None:
    hooks.live_update_switched(context.scene)


class StrewSceneSettings(bpy.types.PropertyGroup):
    """Per-scene Strew settings (``scene.strew``)."""

    terrain: PointerProperty(
        name="Terrain", type=bpy.types.Object, poll=_is_mesh,
        description="Mesh object to scatter on (its modifiers and transform are taken into account)",
    )
    layers: CollectionProperty(type=StrewLayer)
    active_layer_index: IntProperty(name="Active Layer", default=0, min=0)
    show_preview: BoolProperty(
        name="Preview", description="Draw scatter points and their radius circles in the viewport",
        default=False, update=_redraw_viewports,
    )
    chunk_size: FloatProperty(
        name="Chunk Size", description="Large terrains are processed in square chunks of this side, in bounded "
        "memory and without seams; 0: automatic (64 times a layer's largest radius)",
        default=0.0, min=0.0, max=MAX_DISTANCE, soft_max=4096.0,
        subtype='DISTANCE', unit='LENGTH',
    )
    workers: IntProperty(
        name="Workers", description="Processes that sample the chunks of a large terrain at the same time; "
        "0: Auto (one per core for each layer where that is faster than one process, else one); the result is "
        "the same for any number",
        default=AUTO, min=AUTO, soft_max=64, update=_stop_workers,
    )
    max_objects: IntProperty(
        name="Max Objects", description="Refuse to create more real objects (empties or duplicates) than this "
        "per layer; use the Point Instancer output for more",
        default=5000, min=1,
    )
    room: PointerProperty(type=StrewRoomSettings)
    live_update: BoolProperty(
        name="Live Update", description="Re-scatter the affected layers a moment after a target, a density or "
        "mask source or a Scatter setting changes",
        default=False, update=_live_update_switched,
    )


classes = (StrewKeepAwayRule, StrewLayer, StrewSceneSettings)
_register, _unregister = bpy.utils.register_classes_factory(classes)


def register() -> None:
    _register()
    bpy.types.Scene.strew = PointerProperty(type=StrewSceneSettings)


def unregister() -> None:
    del bpy.types.Scene.strew
    _unregister()
