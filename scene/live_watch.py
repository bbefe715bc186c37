"""What a live update looks at: which layer's inputs a depsgraph update changed.

What a layer reads: its settings, the scene's Scatter settings, the terrain's geometry and transform (unless it
places on its Targets), its prefabs (names, weights and ``strew_radius``; spaced by object size, their geometry and
transform too), and what each of its inputs says it watches (:mod:`.layer_inputs`: the objects of its Targets,
Exclude and Proximity collections, its images, its camera and the render frame's shape, the weights of the
terrain's vertex groups it reads).

At every update the settings and what is cheap to read beside them (which objects a layer reads, its prefabs, the
render frame) are compared whole (:func:`snapshot`); an object's geometry and transform only when Blender reports
the object updated (a fingerprint of its evaluated mesh). Weights are compared at the pause after an edit of the
terrain in Weight Paint or Edit mode (reading them takes a pass over every vertex: too slow for every brush dab).
The Viewport Display settings are no input: they redraw the output at once (``scene.display``).

A :class:`Watch` keeps what was last seen, keyed by ``session_uid`` (a rename loses nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import bpy

from ..core.modes import SpacingMode
from ..properties.layer_look import LayerDisplaySettings
from .custom_props import RADIUS_KEY, WEIGHT_KEY, CustomPropertyError, plain, prefab_weight
from .drawn import watched_objects
from .fingerprints import fingerprint, weight_digests
from .instancer import pick_order
from .layer_inputs import INPUTS, Watched
from .ownership import is_owned

# Scene settings that do not change any layer's result.
PASSIVE = {"rna_type", "live_update", "active_layer_index", "show_preview", "room", "layers"}
# Layer settings that do not change its result (the display ones redraw the output themselves).
LAYER_PASSIVE = {"rna_type", "layer_id", *LayerDisplaySettings.__annotations__}
# Object modes in which vertex weights change (painted, or assigned from the Vertex Groups panel).
WEIGHT_MODES = {'WEIGHT_PAINT', 'EDIT'}

Snapshot = tuple[tuple[Any, ...], list[tuple[Any, ...]]]


@dataclass
class Watch:
    """What one scene's live update saw last: settings, source fingerprints, vertex group weights."""

    snapshot: Snapshot | None = None
    fingerprints: dict[int, tuple[Any, ...]] = field(default_factory=dict)  # object session_uid -> fingerprint
    weights: dict[tuple[int, str], str] = field(default_factory=dict)  # (terrain uid, group) -> weights' hash
    repainted: bool = False  # the terrain was edited in a weight mode since the last check

    def start(self, scene: bpy.types.Scene, depsgraph: bpy.types.Depsgraph | None = None) -> None:
        """Take the current settings and sources as the reference."""
        settings = scene.strew
        self.snapshot = snapshot(settings)
        depsgraph = depsgraph or bpy.context.evaluated_depsgraph_get()
        for layer in settings.layers:
            for obj in sources(settings, layer):
                if isinstance(obj, bpy.types.Object):
                    self.fingerprints[obj.session_uid] = fingerprint(obj, depsgraph)
        self.remember_weights(settings, depsgraph)
        self.repainted = False

    def first_changed(self, scene: bpy.types.Scene, depsgraph: bpy.types.Depsgraph) -> int | None:
        """Index of the first layer whose inputs this depsgraph update changed, or None."""
        settings = scene.strew
        before = self.snapshot
        if before is None:  # a file loaded with Live Update on: what it holds now is the reference
            self.start(scene, depsgraph)
            return None
        now = snapshot(settings)
        self.snapshot = now
        first: int | None = None
        if before != now:
            if before[0] != now[0]:
                first = 0
            else:
                old, new = before[1], now[1]
                first = next((i for i in range(len(new)) if i >= len(old) or old[i] != new[i]), None)
        touched = _touched(depsgraph)
        for index, layer in enumerate(settings.layers):
            if first is not None and index >= first:
                break
            if any(self._changed(block, depsgraph) for block in sources(settings, layer)
                   if block.session_uid in touched):
                first = index
        terrain = settings.terrain
        edited = terrain is not None and terrain.session_uid in touched and terrain.mode in WEIGHT_MODES
        if edited and any(groups_per_layer(settings)):
            # Weights are not part of the geometry's fingerprint and reading them is too slow for every brush
            # dab: the check waits for the pause (:meth:`repaint_first`).
            self.repainted = True
        return first

    def _changed(self, block: bpy.types.ID, depsgraph: bpy.types.Depsgraph) -> bool:
        """Whether the object (or image) differs from when it was last seen; remembers it. Blender also reports
        objects as updated when only the relations around them were rebuilt (Strew adding its output), so an
        update counts only when the fingerprint changed."""
        if not isinstance(block, bpy.types.Object):
            return True  # an image: reported only when it changed
        now = fingerprint(block, depsgraph)
        if self.fingerprints.get(block.session_uid) == now:
            return False
        self.fingerprints[block.session_uid] = now
        return True

    def remember_weights(self, settings: Any, depsgraph: bpy.types.Depsgraph) -> set[str]:
        """Hash the weights of the terrain's vertex groups the layers read; the groups whose hash changed."""
        terrain = settings.terrain
        names = set().union(*groups_per_layer(settings)) if terrain is not None else set()
        if not names:
            return set()
        changed = set()
        for name, digest in weight_digests(terrain, depsgraph, names).items():
            key = (terrain.session_uid, name)
            if self.weights.get(key) != digest:
                changed.add(name)
                self.weights[key] = digest
        return changed

    def repaint_first(self, scene: bpy.types.Scene) -> int | None:
        """After weights were edited: the first layer that reads a vertex group whose weights changed, or None."""
        if not self.repainted:
            return None
        self.repainted = False
        changed = self.remember_weights(scene.strew, bpy.context.evaluated_depsgraph_get())
        return next((i for i, groups in enumerate(groups_per_layer(scene.strew)) if groups & changed), None)


_SCALARS = (str, int, float, bool, type(None))
_ID, _GROUP = bpy.types.ID, bpy.types.PropertyGroup  # looked up once: ``bpy.types.<name>`` costs microseconds


def _plain(value: Any) -> Any:
    """A setting's value as plain data: an ID by its ``session_uid``, a group (a keep-away rule) by its values."""
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, _ID):
        return ("ID", value.session_uid)
    if isinstance(value, _GROUP):
        return _signature(value, {"rna_type"})
    if isinstance(value, set):
        return tuple(sorted(value))
    try:
        return tuple(_plain(item) for item in value)
    except TypeError:
        return repr(value)


def _signature(group: bpy.types.PropertyGroup, skip: set[str]) -> tuple[Any, ...]:
    return tuple(_plain(getattr(group, name)) for name in _names(group, frozenset(skip)))


_NAMES: dict[tuple[type, frozenset[str]], tuple[str, ...]] = {}


def _names(group: bpy.types.PropertyGroup, skip: frozenset[str]) -> tuple[str, ...]:
    """The group's property names but ``skip``, listed once per class (walking ``bl_rna`` at every update cost
    more than reading the values)."""
    key = (type(group), skip)
    found = _NAMES.get(key)
    if found is None:
        found = _NAMES[key] = tuple(p.identifier for p in group.bl_rna.properties if p.identifier not in skip)
    return found


def snapshot(settings: Any) -> Snapshot:
    """The scene's settings and, per layer, its settings and what it reads beside them: which data-blocks
    (:func:`sources`: its collections' objects, its camera), its prefabs and the render frame its camera sees."""
    return _signature(settings, PASSIVE), [
        (*_signature(layer, LAYER_PASSIVE), tuple(block.session_uid for block in sources(settings, layer)),
         _prefabs(layer.collection), tuple(watched.values for watched in _watched(settings, layer)))
        for layer in settings.layers]


def _prefabs(collection: bpy.types.Collection | None) -> tuple[tuple[str, Any], ...]:
    """The prefabs' names in Pick Instance order, with their weights (an unusable custom property as stored: the
    job reports it) and the footprints set by hand."""
    if collection is None:
        return ()
    return tuple((block.name, _weight(block), repr(plain(block.get(RADIUS_KEY))))
                 for block in pick_order(collection))


def _weight(block: bpy.types.ID) -> Any:
    try:
        return prefab_weight(block)
    except CustomPropertyError:
        return repr(plain(block.get(WEIGHT_KEY)))


def sources(settings: Any, layer: Any) -> list[bpy.types.ID]:
    """The data-blocks a layer reads from the scene (objects, not Strew's own output, and images): its terrain,
    its prefabs when their size spaces it, and what its inputs watch."""
    found: list[bpy.types.ID] = []
    if layer.targets is None and settings.terrain is not None:  # else its Targets input watches them
        found.append(settings.terrain)
    if layer.spacing == SpacingMode.OBJECTS and layer.collection is not None:  # their size spaces the layer
        found += watched_objects(layer.collection)
    for watched in _watched(settings, layer):
        found += watched.blocks
    return found


def _watched(settings: Any, layer: Any) -> list[Watched]:
    """What each registered input of ``layer`` watches."""
    return [kind.watched(settings, layer) for kind in INPUTS]


def _touched(depsgraph: bpy.types.Depsgraph) -> set[int]:
    """session_uids of the objects and images this update changed (not Strew's own output)."""
    touched: set[int] = set()
    for update in depsgraph.updates:
        block = update.id.original
        if isinstance(block, bpy.types.Camera):  # lens or clipping: the objects showing it through
            touched |= {obj.session_uid for obj in bpy.data.objects if obj.data == block}
        elif isinstance(block, bpy.types.Image) or (
            isinstance(block, bpy.types.Object)
            and (update.is_updated_geometry or update.is_updated_transform)
            and not is_owned(block)
        ):
            touched.add(block.session_uid)
    return touched


def groups_per_layer(settings: Any) -> list[set[str]]:
    """Per layer, the terrain vertex groups it reads (empty for layers on their own Targets)."""
    return [set() if layer.targets is not None else
            set().union(*(watched.groups for watched in _watched(settings, layer)))
            for layer in settings.layers]
