"""On Layer: a layer placed on every face of an earlier layer's instances (moss on the rocks just placed), spaced
in 3-D. Its surface is those instances' triangles, built in numpy (:mod:`..instance_meshes`), read again when the
instances or their prefabs change."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import bpy
from bpy.app.translations import pgettext_rpt as rpt_

from ...core.modes import OutputMode
from ..fingerprints import fingerprint
from ..instance_meshes import instance_triangles, prefab_mesh
from ..layer_links import LINKS, Linked, Placed, linked_layer
from ..ownership import is_owned
from ..terrain import MeshArrays
from .base import Input, Key, LookError, Part, Reach, Reading, Source, Watched
from .related import Related


def _prefab_objects(collection: bpy.types.Collection | None) -> tuple[bpy.types.Object, ...]:
    """The mesh objects of a prefab collection (child collections too), not Strew's own."""
    if collection is None:
        return ()
    return tuple(obj for obj in collection.all_objects if obj.type == 'MESH' and not is_owned(obj))


@dataclass(frozen=True)
class OnLayer(Related, Input):
    """The linked layer whose instances' faces this layer places on (its prefabs and output mode decide what they
    draw)."""

    scene: bpy.types.Scene
    linked: Linked
    points: Placed | None = None
    label = "On Layer"

    @classmethod
    def read(cls, reading: Reading) -> OnLayer | None:
        layer = reading.settings
        linked = linked_layer(layer, reading.scene, layer.on_layer, cls.label, LINKS)
        if linked is None:
            return None
        if layer.targets is not None:
            raise LookError(rpt_('On Layer places on the instances of "{other}": clear Targets or On Layer').format(
                other=linked.name))
        return cls(reading.scene, linked)

    @staticmethod
    def watched(settings: Any, layer: Any) -> Watched:
        """The linked layer's prefab meshes (their geometry: what each instance draws)."""
        link = layer.on_layer
        if not link.layer and not link.layer_id:
            return Watched()
        other = next((found for found in settings.layers if found.layer_id == link.layer_id), None) if link.layer_id \
            else None
        other = other or next((found for found in settings.layers if found.name == link.layer), None)
        return Watched(blocks=_prefab_objects(None if other is None else other.collection))

    def vertex_groups(self) -> frozenset[str]:
        return frozenset()

    def key(self, depsgraph: bpy.types.Depsgraph) -> Key:
        """The linked layer's instances (a digest) and its prefab meshes' fingerprints: the key of the surface."""
        return (self.run_key(), tuple((obj.name, fingerprint(obj, depsgraph))
                                      for obj in _prefab_objects(self.linked.collection)))

    def run_key(self) -> Key:
        placed = self.placed()
        return (self.linked.layer_id, self.linked.output, None if placed is None else placed.digest)

    def reaches(self) -> tuple[Reach, ...]:
        return ()

    def mesh(self, depsgraph: bpy.types.Depsgraph) -> MeshArrays:
        """The triangles of every instance of the linked layer in world space (``ValueError`` when none)."""
        output = OutputMode(self.linked.output)
        meshes = [prefab_mesh(prefab, output, depsgraph) for prefab in self.linked.prefabs()]
        found = instance_triangles(self.needed(), meshes)
        if not len(found.triangles):
            raise ValueError(rpt_('On Layer "{other}": its instances draw no mesh faces: give its prefabs faces or '
                                  "clear On Layer").format(other=self.linked.name))
        return found

    def build(self, source: Source) -> Part:
        """Nothing of the fields: the instances are where the layer places, not how densely."""
        return Part()
