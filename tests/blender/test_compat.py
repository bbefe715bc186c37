"""scene/compat.py on the running Blender: Geometry Nodes modifier inputs set, read back and evaluated."""

from __future__ import annotations

import importlib

import bpy
import pytest


@pytest.fixture
def compat(strew_extension):
    return importlib.import_module(f"{strew_extension.__name__}.scene.compat")


def _group() -> bpy.types.NodeTree:
    """Points in, a Float "Offset" that moves them up (Set Position), a Bool "Skip" that drops them, and a
    Collection input that only has to keep its value."""
    group = bpy.data.node_groups.new("Compat", 'GeometryNodeTree')
    interface = group.interface
    interface.new_socket("Geometry", in_out='INPUT', socket_type='NodeSocketGeometry')
    interface.new_socket("Offset", in_out='INPUT', socket_type='NodeSocketFloat')
    interface.new_socket("Skip", in_out='INPUT', socket_type='NodeSocketBool')
    interface.new_socket("Prefabs", in_out='INPUT', socket_type='NodeSocketCollection')
    interface.new_socket("Geometry", in_out='OUTPUT', socket_type='NodeSocketGeometry')
    nodes, links = group.nodes, group.links
    group_in, group_out = nodes.new('NodeGroupInput'), nodes.new('NodeGroupOutput')
    combine = nodes.new('ShaderNodeCombineXYZ')
    move = nodes.new('GeometryNodeSetPosition')
    drop = nodes.new('GeometryNodeDeleteGeometry')
    drop.domain = 'POINT'
    links.new(group_in.outputs["Offset"], combine.inputs["Z"])
    links.new(group_in.outputs["Geometry"], move.inputs["Geometry"])
    links.new(combine.outputs[0], move.inputs["Offset"])
    links.new(move.outputs[0], drop.inputs["Geometry"])
    links.new(group_in.outputs["Skip"], drop.inputs["Selection"])
    links.new(drop.outputs[0], group_out.inputs[0])
    return group


def _evaluated_z(obj: bpy.types.Object) -> list[float]:
    evaluated = obj.evaluated_get(bpy.context.evaluated_depsgraph_get())
    return [v.co.z for v in evaluated.data.vertices]


def test_inputs_set_by_name_are_read_back_and_drive_the_evaluated_geometry(compat) -> None:
    mesh = bpy.data.meshes.new("pts")
    mesh.vertices.add(3)
    obj = bpy.data.objects.new("pts", mesh)
    bpy.context.scene.collection.objects.link(obj)
    modifier = obj.modifiers.new("Compat", 'NODES')
    modifier.node_group = _group()
    prefabs = bpy.data.collections.new("Prefabs")

    compat.set_modifier_inputs(modifier, {"Offset": 2.5, "Skip": False, "Prefabs": prefabs})
    values = compat.modifier_input_values(modifier)
    assert values["Offset"] == pytest.approx(2.5) and not values["Skip"] and values["Prefabs"] == prefabs
    assert _evaluated_z(obj) == pytest.approx([2.5, 2.5, 2.5])

    compat.set_modifier_inputs(modifier, {"Skip": True})
    bpy.context.view_layer.update()
    assert _evaluated_z(obj) == []

    # Carried over to a new modifier the way a re-scatter keeps a layer's viewport display.
    twin = obj.modifiers.new("Twin", 'NODES')
    twin.node_group = modifier.node_group
    compat.set_modifier_inputs(twin, compat.modifier_input_values(modifier))
    assert compat.modifier_input_values(twin) == values | {"Skip": True}


def test_an_unknown_input_name_is_a_key_error(compat) -> None:
    obj = bpy.data.objects.new("pts", bpy.data.meshes.new("pts"))
    modifier = obj.modifiers.new("Compat", 'NODES')
    modifier.node_group = _group()
    with pytest.raises(KeyError):
        compat.set_modifier_inputs(modifier, {"Nope": 1.0})
