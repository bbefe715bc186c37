"""A small reader of binary FBX 7.x files, written from the format (not Blender's code), for export tests.

It reads the node records (32-bit offsets before 7.5, 64-bit from 7.5), their typed properties and zlib-compressed
arrays, and from them the scene a test checks: each Model's name, type, local TRS, user properties and parent, each
Geometry's name and vertices, which Geometry each Model draws, and the file's axes and unit. :meth:`FbxScene.world`
gives a Model's global transform the way the FBX SDK composes it (no pivots: T · Rpre · R · Rpost⁻¹ · S, Euler
XYZ in degrees), and :meth:`FbxScene.to_blender` maps it into Blender's Z-up metres from the file's axis system.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

MAGIC = b"Kaydara FBX Binary  \x00"
ARRAY_TYPES = {"f": ("<f", 4), "d": ("<d", 8), "l": ("<q", 8), "i": ("<i", 4), "b": ("<?", 1)}
SCALAR_TYPES = {"Y": ("<h", 2), "C": ("<?", 1), "I": ("<i", 4), "F": ("<f", 4), "D": ("<d", 8), "L": ("<q", 8)}


@dataclass
class Node:
    """One node record: its name, its properties and its children."""

    name: str
    props: list
    children: list[Node] = field(default_factory=list)

    def find(self, name: str) -> Node | None:
        return next((child for child in self.children if child.name == name), None)

    def all(self, name: str) -> list[Node]:
        return [child for child in self.children if child.name == name]


def parse(data: bytes) -> tuple[int, Node]:
    """The file's version and its root node (whose children are the top-level records)."""
    if not data.startswith(MAGIC):
        raise ValueError("not a binary FBX file")
    version = struct.unpack_from("<I", data, 23)[0]
    wide = version >= 7500
    root = Node("", [])
    offset = 27
    while True:
        node, offset = _record(data, offset, wide)
        if node is None:
            break
        root.children.append(node)
    return version, root


def _record(data: bytes, offset: int, wide: bool) -> tuple[Node | None, int]:
    head = "<QQQB" if wide else "<IIIB"
    end, count, _length, name_length = struct.unpack_from(head, data, offset)
    offset += struct.calcsize(head)
    if end == 0:
        return None, offset
    name = data[offset:offset + name_length].decode("utf-8", "replace")
    offset += name_length
    props = []
    for _ in range(count):
        value, offset = _property(data, offset)
        props.append(value)
    node = Node(name, props)
    while offset < end:
        child, offset = _record(data, offset, wide)
        if child is None:
            break
        node.children.append(child)
    return node, end


def _property(data: bytes, offset: int) -> tuple[object, int]:
    kind = chr(data[offset])
    offset += 1
    if kind in SCALAR_TYPES:
        fmt, size = SCALAR_TYPES[kind]
        return struct.unpack_from(fmt, data, offset)[0], offset + size
    if kind in ARRAY_TYPES:
        length, encoding, stored = struct.unpack_from("<III", data, offset)
        offset += 12
        raw = data[offset:offset + stored]
        if encoding == 1:
            raw = zlib.decompress(raw)
        fmt, size = ARRAY_TYPES[kind]
        return np.frombuffer(raw, dtype=np.dtype(fmt), count=length).copy(), offset + stored
    if kind in "SR":
        length = struct.unpack_from("<I", data, offset)[0]
        raw = data[offset + 4:offset + 4 + length]
        return (raw.decode("utf-8", "replace") if kind == "S" else raw), offset + 4 + length
    raise ValueError(f"unknown FBX property type {kind!r} at {offset - 1}")


def properties70(node: Node) -> dict[str, tuple[str, list]]:
    """A node's Properties70 as name -> (type, values)."""
    block = node.find("Properties70")
    if block is None:
        return {}
    return {str(p.props[0]): (str(p.props[1]), list(p.props[4:])) for p in block.all("P")}


def _name(raw: str) -> str:
    """An object's name without the "\\x00\\x01Class" FBX appends."""
    return raw.split("\x00\x01")[0]


def euler_xyz(degrees: np.ndarray) -> np.ndarray:
    """The rotation matrix of Euler angles applied about x, then y, then z (FBX's eEulerXYZ)."""
    x, y, z = np.radians(degrees)
    rx = np.array([[1, 0, 0], [0, np.cos(x), -np.sin(x)], [0, np.sin(x), np.cos(x)]])
    ry = np.array([[np.cos(y), 0, np.sin(y)], [0, 1, 0], [-np.sin(y), 0, np.cos(y)]])
    rz = np.array([[np.cos(z), -np.sin(z), 0], [np.sin(z), np.cos(z), 0], [0, 0, 1]])
    return rz @ ry @ rx


@dataclass
class Model:
    uid: int
    name: str
    kind: str
    props: dict[str, tuple[str, list]]
    parent: int = 0
    geometry: int | None = None

    def value(self, name: str, default: tuple = (0.0, 0.0, 0.0)) -> np.ndarray:
        found = self.props.get(name)
        return np.array(found[1] if found else default, dtype=np.float64)

    def local(self) -> np.ndarray:
        order = int(self.props.get("RotationOrder", ("", [0]))[1][0])
        if order != 0:
            raise ValueError(f"{self.name}: rotation order {order} is not XYZ")
        matrix = np.eye(4)
        rotation = euler_xyz(self.value("PreRotation")) @ euler_xyz(self.value("Lcl Rotation"))
        rotation = rotation @ np.linalg.inv(euler_xyz(self.value("PostRotation")))
        matrix[:3, :3] = rotation @ np.diag(self.value("Lcl Scaling", (1.0, 1.0, 1.0)))
        matrix[:3, 3] = self.value("Lcl Translation")
        return matrix

    def user(self) -> dict[str, object]:
        """The user (custom) properties: those flagged "U" in Properties70."""
        return {name: (values[0] if len(values) == 1 else tuple(values))
                for name, (_, values) in self.props.items() if name in self.user_names}

    user_names: set[str] = field(default_factory=set)


@dataclass
class FbxScene:
    version: int
    models: dict[int, Model]
    geometries: dict[int, tuple[str, np.ndarray]]
    settings: dict[str, tuple[str, list]]

    def world(self, model: Model) -> np.ndarray:
        matrix = model.local()
        parent = self.models.get(model.parent)
        return matrix if parent is None else self.world(parent) @ matrix

    def axes(self) -> np.ndarray:
        """The 4×4 map from the file's axes and unit to Blender's (right x, up z, front -y, metres)."""
        def axis(name: str) -> np.ndarray:
            vector = np.zeros(3)
            vector[int(self.settings[f"{name}Axis"][1][0])] = float(self.settings[f"{name}AxisSign"][1][0])
            return vector
        file_basis = np.array([axis("Coord"), axis("Up"), axis("Front")])  # rows: right, up, front
        blender_basis = np.array([[1.0, 0, 0], [0, 0, 1.0], [0, -1.0, 0]]).T  # columns: right, up, front
        out = np.eye(4)
        out[:3, :3] = blender_basis @ file_basis * float(self.settings["UnitScaleFactor"][1][0]) / 100.0
        return out

    def to_blender(self, model: Model) -> np.ndarray:
        """The model's global transform as a map from its geometry's coordinates to Blender's world."""
        return self.axes() @ self.world(model)

    def mesh_models(self) -> list[Model]:
        return [model for model in self.models.values() if model.geometry is not None]


def read(path: Path) -> FbxScene:
    version, root = parse(Path(path).read_bytes())
    objects = root.find("Objects")
    models: dict[int, Model] = {}
    geometries: dict[int, tuple[str, np.ndarray]] = {}
    for node in objects.children if objects else []:
        if node.name == "Model":
            props = properties70(node)
            block = node.find("Properties70")
            users = {str(p.props[0]) for p in block.all("P") if "U" in str(p.props[3])} if block else set()
            models[int(node.props[0])] = Model(int(node.props[0]), _name(str(node.props[1])), str(node.props[2]),
                                               props, user_names=users)
        elif node.name == "Geometry":
            vertices = node.find("Vertices")
            points = np.zeros((0, 3)) if vertices is None else np.asarray(vertices.props[0]).reshape(-1, 3)
            geometries[int(node.props[0])] = (_name(str(node.props[1])), points)
    connections = root.find("Connections")
    for link in connections.all("C") if connections else []:
        if link.props[0] != "OO":
            continue
        child, parent = int(link.props[1]), int(link.props[2])
        if child in geometries and parent in models:
            models[parent].geometry = child
        elif child in models:
            models[child].parent = parent
    header = root.find("GlobalSettings")
    settings = properties70(header) if header else {}
    return FbxScene(version, models, geometries, settings)
