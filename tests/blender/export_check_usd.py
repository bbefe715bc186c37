"""A USD file read back with usd-core's pxr (a reader Blender did not write): every mesh placement the stage
draws (plain meshes and PointInstancer rows) with its world matrix in Blender's axes and metres."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

# USD's Y-up axes from Blender's Z-up ones: (x, y, z) -> (x, z, -y).
Y_UP = np.array([[1.0, 0, 0, 0], [0, 0, 1.0, 0], [0, -1.0, 0, 0], [0, 0, 0, 1.0]])
DATA_NAME = "userProperties:blender:data_name"


@dataclass
class UsdInstance:
    mesh: str
    matrix: np.ndarray  # world, Blender's Z-up axes, metres
    values: dict[str, np.ndarray] = field(default_factory=dict)
    instancer: str = ""


@dataclass
class UsdFile:
    placed: list[UsdInstance]
    instancers: dict[str, object]  # path -> UsdGeom.PointInstancer
    stage: object


def to_blender(stage) -> np.ndarray:
    """The matrix taking the stage's world space (its up axis, its units) into Blender's Z-up metres."""
    from pxr import UsdGeom

    up = UsdGeom.GetStageUpAxis(stage)
    meters = UsdGeom.GetStageMetersPerUnit(stage)
    axes = Y_UP if up == UsdGeom.Tokens.y else np.eye(4)
    return np.linalg.inv(axes) @ np.diag([meters, meters, meters, 1.0])


def _gf(matrix) -> np.ndarray:
    """A Gf matrix (row vectors) as a numpy matrix acting on column vectors."""
    return np.array(matrix, dtype=np.float64).T


def _mesh_name(prim) -> str:
    from pxr import Usd

    for candidate in Usd.PrimRange(prim, Usd.PrimAllPrimsPredicate):
        if candidate.GetTypeName() == "Mesh":
            attribute = candidate.GetAttribute(DATA_NAME)
            return str(attribute.Get()) if attribute else candidate.GetName()
    return ""


def read_usd(path: Path) -> UsdFile:
    """Every mesh the stage draws: meshes in the scene graph and each PointInstancer instance."""
    from pxr import Usd, UsdGeom

    stage = Usd.Stage.Open(str(path))
    back = to_blender(stage)
    cache = UsdGeom.XformCache()
    placed: list[UsdInstance] = []
    instancers: dict[str, object] = {}
    time = Usd.TimeCode.Default()
    walk = iter(Usd.PrimRange.Stage(stage))
    for prim in walk:
        if prim.IsA(UsdGeom.PointInstancer):
            walk.PruneChildren()
            instancer = UsdGeom.PointInstancer(prim)
            instancers[str(prim.GetPath())] = instancer
            world = _gf(cache.GetLocalToWorldTransform(prim))
            rows = [_gf(m) for m in instancer.ComputeInstanceTransformsAtTime(time, time)]
            targets = instancer.GetPrototypesRel().GetTargets()
            names = [_mesh_name(stage.GetPrimAtPath(target)) for target in targets]
            indices = np.array(instancer.GetProtoIndicesAttr().Get())
            values = {}
            for primvar in UsdGeom.PrimvarsAPI(prim).GetPrimvars():
                if primvar.GetInterpolation() in (UsdGeom.Tokens.vertex, UsdGeom.Tokens.varying):
                    values[primvar.GetPrimvarName()] = np.array(primvar.Get(time))
            for number, row in enumerate(rows):
                placed.append(UsdInstance(names[indices[number]], back @ world @ row,
                                          {key: column[number] for key, column in values.items()},
                                          str(prim.GetPath())))
        elif prim.IsA(UsdGeom.Mesh) and UsdGeom.Imageable(prim).ComputeVisibility(time) != UsdGeom.Tokens.invisible:
            placed.append(UsdInstance(_mesh_name(prim), back @ _gf(cache.GetLocalToWorldTransform(prim))))
    return UsdFile(placed, instancers, stage)
