"""Blender's Distribute Points on Faces (Poisson), the reference the samplers' benchmarks measure against."""

from __future__ import annotations

import math
import time

import numpy as np


def distribute_points(ob, distance_min: float, density_max: float, repeats: int) -> tuple[float, list[np.ndarray]]:
    """Evaluate the node on ``ob`` for seeds ``0 .. repeats-1``.

    Returns the best seconds of the depsgraph evaluation and the (N, 3) world positions of each seed. The node
    tree is mesh -> Distribute Points on Faces -> Points to Vertices (to read positions back).
    """
    import bpy

    tree = bpy.data.node_groups.new("StrewDistributeBench", "GeometryNodeTree")
    tree.interface.new_socket(name="Geometry", in_out="INPUT", socket_type="NodeSocketGeometry")
    tree.interface.new_socket(name="Geometry", in_out="OUTPUT", socket_type="NodeSocketGeometry")
    group_in, group_out = tree.nodes.new("NodeGroupInput"), tree.nodes.new("NodeGroupOutput")
    distribute = tree.nodes.new("GeometryNodeDistributePointsOnFaces")
    distribute.distribute_method = "POISSON"
    distribute.inputs["Distance Min"].default_value = distance_min
    distribute.inputs["Density Max"].default_value = density_max
    to_vertices = tree.nodes.new("GeometryNodePointsToVertices")
    tree.links.new(group_in.outputs[0], distribute.inputs["Mesh"])
    tree.links.new(distribute.outputs["Points"], to_vertices.inputs["Points"])
    tree.links.new(to_vertices.outputs[0], group_out.inputs[0])
    ob.modifiers.new("poisson", "NODES").node_group = tree
    best, sets = math.inf, []
    for seed in range(repeats):
        distribute.inputs["Seed"].default_value = seed
        started = time.perf_counter()
        mesh = ob.evaluated_get(bpy.context.evaluated_depsgraph_get()).data
        count = len(mesh.vertices)
        best = min(best, time.perf_counter() - started)
        co = np.empty(count * 3, dtype=np.float32)
        mesh.vertices.foreach_get("co", co)
        sets.append(co.reshape(-1, 3).astype(np.float64))
    return best, sets
