"""What the inputs that read an earlier layer's instances share (*Around*, *On Layer*): the layer they name, and
its instances bound by the Scatter job before the layer runs (this run's, or the scene's output)."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, cast

import bpy
from bpy.app.translations import pgettext_rpt as rpt_

from ..layer_links import Linked, Placed, placed_in_scene
from .base import Input


class Related(Input):
    """An input built from the instances of the earlier layer ``linked`` names. Subclasses are frozen dataclasses
    with the fields ``scene``, ``linked`` and ``points`` (None until the job binds them)."""

    scene: bpy.types.Scene
    linked: Linked
    points: Placed | None
    label: ClassVar[str] = ""  # the setting, as the panel names it

    def bound(self, points: Placed) -> Any:
        """This input with the linked layer's instances the job hands it."""
        return dataclasses.replace(cast(Any, self), points=points)  # every subclass is a dataclass

    def placed(self) -> Placed | None:
        """The linked layer's instances: bound by the job, else its output in the scene (None: it has none)."""
        if self.points is not None:
            return self.points
        return placed_in_scene(self.scene, self.linked.layer_id, self.linked.prefabs())

    def needed(self) -> Placed:
        """:meth:`placed`, or a ``ValueError`` saying to scatter the linked layer first."""
        found = self.placed()
        if found is None:
            raise ValueError(rpt_('{what} "{other}" has no instances yet: scatter "{other}" first (Scatter runs '
                                    "every layer)").format(what=rpt_(self.label), other=self.linked.name))
        return found
