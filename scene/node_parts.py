"""Pieces of Strew's Geometry Nodes trees that more than one tree builds: a stored attribute read by name, and
instances of one collection's objects on points, each picking its prefab, turn and scale from the attributes the
instancer stores."""

from __future__ import annotations

import bpy

from .instancer import PREFAB_ATTRIBUTE, ROTATION_ATTRIBUTE, SCALE_ATTRIBUTE


def named(tree: bpy.types.NodeTree, name: str, data_type: str) -> bpy.types.NodeSocket:
    """The attribute ``name`` (of ``data_type``) of the geometry the node evaluates on."""
    node = tree.nodes.new('GeometryNodeInputNamedAttribute')
    node.data_type = data_type
    node.inputs['Name'].default_value = name
    return node.outputs['Attribute']


def picked_instances(tree: bpy.types.NodeTree, collection: bpy.types.NodeSocket,
                     points: bpy.types.NodeSocket) -> bpy.types.NodeSocket:
    """Each point instancing the object of ``collection`` its stored prefab index picks (children in the
    collection's order, placed at the origin), turned and scaled as stored."""
    nodes, links = tree.nodes, tree.links
    info = nodes.new('GeometryNodeCollectionInfo')
    info.transform_space = 'ORIGINAL'
    info.inputs['Separate Children'].default_value = True
    info.inputs['Reset Children'].default_value = True
    links.new(collection, info.inputs['Collection'])
    placed = nodes.new('GeometryNodeInstanceOnPoints')
    placed.inputs['Pick Instance'].default_value = True
    links.new(points, placed.inputs['Points'])
    links.new(info.outputs[0], placed.inputs['Instance'])
    links.new(named(tree, PREFAB_ATTRIBUTE, 'INT'), placed.inputs['Instance Index'])
    links.new(named(tree, ROTATION_ATTRIBUTE, 'FLOAT_VECTOR'), placed.inputs['Rotation'])
    links.new(named(tree, SCALE_ATTRIBUTE, 'FLOAT'), placed.inputs['Scale'])
    return placed.outputs[0]
