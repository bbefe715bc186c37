"""What Blender draws for each Strew output, read once from the evaluated depsgraph for an exporter.

An *output* is a Strew-owned object whose instances Blender makes: a scatter layer's Point Instancer, a room's
Instances object, or the parent empty of a scatter layer written as empties or duplicates. For each one this
module gives every mesh Blender draws for it — the source mesh object, the world matrix, the point (or child) it
comes from — and the per-instance values a game engine needs (:data:`VALUES`), so that every format writer works
from the same arrays and never walks the scene itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import bpy
import numpy as np

from ..instancer import ID_ATTRIBUTE, PREFAB_ATTRIBUTE, RANDOM_ATTRIBUTE
from ..ownership import OWNER_KEY, is_owned
from ..room_output import CELL_KEY, MIRROR_KEY, ROTATION_KEY, TILE_KEY, TILES_KEY

SCATTER = "scatter"
ROOM = "room"


@dataclass(frozen=True)
class Value:
    """A per-instance value as it leaves Blender: the point attribute or custom property it is read from, its
    name in files (glTF's custom instance attributes start with ``_``), and its width (1 or 3)."""

    attribute: str
    name: str
    width: int = 1
    integer: bool = False

    @property
    def key(self) -> str:
        """The value's name where a format names it in lower case (USD primvars, FBX properties, glTF extras)."""
        return key_of(self.name)


def key_of(name: str) -> str:
    """``_STREW_RANDOM`` → ``strew_random``: a value's name outside glTF's custom attributes."""
    return name[1:].lower()


VALUES: dict[str, tuple[Value, ...]] = {
    SCATTER: (Value(RANDOM_ATTRIBUTE, "_STREW_RANDOM"), Value(ID_ATTRIBUTE, "_STREW_ID", integer=True),
              Value(PREFAB_ATTRIBUTE, "_STREW_PREFAB", integer=True)),
    ROOM: (Value(TILE_KEY, "_STREW_TILE", integer=True), Value(CELL_KEY, "_STREW_CELL", 3, integer=True),
           Value(ROTATION_KEY, "_STREW_ROTATION", integer=True), Value(MIRROR_KEY, "_STREW_MIRROR", integer=True),
           Value(ID_ATTRIBUTE, "_STREW_ID", integer=True)),
}
"""What each kind of output hands an engine per instance (``strew_id`` of a room is the tile's number in the
room's x-major order)."""


@dataclass
class Output:
    """One Strew output and every mesh instance Blender draws for it, in the depsgraph's order.

    ``matrices`` are world matrices (float64); ``sources`` the original mesh objects drawn; ``points`` the point
    (or child object) of the output each instance comes from; ``values`` one array per :class:`Value` name, one
    row per instance; ``tiles`` the room's tile names that ``_STREW_TILE`` indexes (empty for scatter).
    """

    obj: bpy.types.Object
    kind: str
    matrix: np.ndarray
    sources: list[bpy.types.Object] = field(default_factory=list)
    matrices: np.ndarray = field(default_factory=lambda: np.zeros((0, 4, 4)))
    points: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    values: dict[str, np.ndarray] = field(default_factory=dict)
    tiles: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.obj.name

    def __len__(self) -> int:
        return len(self.sources)

    def local_matrices(self) -> np.ndarray:
        """Each instance's matrix in the output object's own space."""
        return np.linalg.inv(self.matrix) @ self.matrices


def is_output(obj: bpy.types.Object) -> str | None:
    """The kind of Strew output ``obj`` is (:data:`SCATTER`, :data:`ROOM`) or None for anything else, a user's
    copy of an output included."""
    kind = obj.get(OWNER_KEY)
    if kind not in (SCATTER, ROOM) or not is_owned(obj, kind):
        return None
    if obj.type == 'MESH' and any(modifier.type == 'NODES' for modifier in obj.modifiers):
        return kind
    if obj.type == 'EMPTY' and obj.parent is None and obj.children:
        return kind
    return None


def collect(depsgraph: bpy.types.Depsgraph, objects: Iterable[bpy.types.Object] | None = None) -> list[Output]:
    """Every Strew output in the depsgraph (or those among ``objects``) with the mesh instances drawn for it.

    A scatter layer written as empties or duplicates is one output: the empty it hangs from, its children the
    points. Room tiles written as real objects are ordinary objects and are not outputs here.
    """
    wanted = None if objects is None else {obj.name for obj in objects}
    outputs: dict[str, Output] = {}
    for obj in depsgraph.scene.objects:
        kind = is_output(obj)
        if kind is not None and (wanted is None or obj.name in wanted):
            outputs[obj.name] = Output(obj, kind, np.array(obj.matrix_world, dtype=np.float64))
    if not outputs:
        return []
    found: dict[str, tuple[list, list, list]] = {name: ([], [], []) for name in outputs}
    children = {child.name: (number, output) for output in outputs.values() if output.obj.type == 'EMPTY'
                for number, child in enumerate(_point_children(output.obj))}
    for instance in depsgraph.object_instances:
        source = instance.object
        if source.type != 'MESH':
            continue
        owner, point = _owner_of(instance, outputs, children)
        if owner is None:
            continue
        sources, matrices, points = found[owner]
        sources.append(source.original)
        matrices.append(np.array(instance.matrix_world, dtype=np.float64))
        points.append(point)
    for name, output in outputs.items():
        sources, matrices, points = found[name]
        output.sources = sources
        output.matrices = np.array(matrices, dtype=np.float64).reshape(-1, 4, 4)
        output.points = np.array(points, dtype=np.int64)
        output.values = _values(output)
        output.tiles = [str(tile) for tile in output.obj.get(TILES_KEY, [])]
    return [output for output in outputs.values()]


def _point_children(parent: bpy.types.Object) -> list[bpy.types.Object]:
    """The children of an empties or duplicates output in ``strew_id`` order."""
    return sorted(parent.children, key=lambda child: int(child.get(ID_ATTRIBUTE, 0)))


def _owner_of(instance: bpy.types.DepsgraphObjectInstance, outputs: dict[str, Output],
              children: dict[str, tuple[int, Output]]) -> tuple[str | None, int]:
    """The output an evaluated instance belongs to and its point number there, or (None, -1)."""
    if instance.is_instance:
        parent = instance.parent.original
        if parent.name in outputs:
            return parent.name, int(instance.persistent_id[0])  # type: ignore[index]
        if parent.name in children:
            number, output = children[parent.name]
            return output.name, number
        return None, -1
    original = instance.object.original
    if original.name in children and original.parent is not None and original.parent.name in outputs:
        number, output = children[original.name]
        return output.name, number
    return None, -1


def _values(output: Output) -> dict[str, np.ndarray]:
    """One array per :class:`Value` of the output's kind, indexed by its instances."""
    out: dict[str, np.ndarray] = {}
    if output.obj.type == 'MESH':
        mesh: bpy.types.Mesh = output.obj.data  # type: ignore[assignment]
        per_point = _point_attributes(mesh, VALUES[output.kind])
    else:
        per_point = _child_properties(_point_children(output.obj), VALUES[output.kind])
    for value in VALUES[output.kind]:
        column = per_point[value.name]
        out[value.name] = column[output.points] if len(column) else np.zeros((len(output), *column.shape[1:]))
    return out


def _point_attributes(mesh: bpy.types.Mesh, values: tuple[Value, ...]) -> dict[str, np.ndarray]:
    count = len(mesh.vertices)
    out: dict[str, np.ndarray] = {}
    for value in values:
        if value.attribute == ID_ATTRIBUTE and value.attribute not in mesh.attributes:
            out[value.name] = np.arange(count, dtype=np.float64)
            continue
        data = np.zeros(count * value.width, dtype=np.float64)
        attribute = mesh.attributes.get(value.attribute)
        if attribute is not None:
            kind = attribute.data_type
            raw = np.zeros(count * value.width, dtype=bool if kind == 'BOOLEAN' else np.float64)
            attribute.data.foreach_get("vector" if kind == 'FLOAT_VECTOR' else "value", raw)
            data = raw.astype(np.float64)
        out[value.name] = data.reshape(count, value.width) if value.width > 1 else data
    return out


def _child_properties(children: list[bpy.types.Object], values: tuple[Value, ...]) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}
    for value in values:
        rows = [child.get(value.attribute, 0) for child in children]
        column = np.array([list(row) if value.width > 1 else float(row) for row in rows], dtype=np.float64)
        out[value.name] = column.reshape(len(children), value.width) if value.width > 1 else column.ravel()
    return out
