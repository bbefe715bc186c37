"""Where Blender's Python API differs between the versions Strew supports (4.2 LTS to 5.3), and only that.

Each function asks the running Blender whether it has a feature, never which version it is, so a point
release that back-ports a change needs no edit here.

- **Geometry Nodes modifier inputs.** Up to 5.1 a modifier keeps its group inputs as ID properties
  (``modifier[socket.identifier] = value``). From 5.2 that raises "id properties not supported for this type":
  each input is an RNA struct ``modifier.properties.inputs.<identifier>`` with a ``value``.
"""

from __future__ import annotations

from typing import Any

import bpy


def _input_structs(modifier: bpy.types.Modifier) -> Any | None:
    """``modifier.properties.inputs`` where the inputs are RNA structs (Blender 5.2+), else None."""
    properties = getattr(modifier, "properties", None)
    return getattr(properties, "inputs", None) if properties is not None else None


def _identifiers(modifier: bpy.types.Modifier) -> dict[str, str]:
    """The modifier's group inputs: name → socket identifier."""
    group = modifier.node_group
    if group is None:
        return {}
    return {item.name: item.identifier for item in group.interface.items_tree
            if item.item_type == 'SOCKET' and item.in_out == 'INPUT'}


def set_modifier_inputs(modifier: bpy.types.Modifier, values: dict[str, Any]) -> None:
    """Set Geometry Nodes modifier inputs by socket name (``{"Prefabs": collection, "Share": 0.25}``) and tag
    the object for re-evaluation.

    ``KeyError`` for a name the modifier's node group does not have.
    """
    identifiers = _identifiers(modifier)
    structs = _input_structs(modifier)
    for name, value in values.items():
        identifier = identifiers[name]
        if structs is not None:
            getattr(structs, identifier).value = value
        else:
            modifier[identifier] = value
    # Neither way of setting an input tells the depsgraph: tag the object so the next evaluation sees it.
    modifier.id_data.update_tag()


def modifier_input_values(modifier: bpy.types.Modifier) -> dict[str, Any]:
    """The modifier's current input values by socket name (the Geometry input, which has no value, left out)."""
    structs = _input_structs(modifier)
    out: dict[str, Any] = {}
    for name, identifier in _identifiers(modifier).items():
        if structs is not None:
            item = getattr(structs, identifier, None)
            if item is not None and hasattr(item, "value"):
                out[name] = item.value
        elif identifier in modifier:
            value = modifier[identifier]
            out[name] = value.to_list() if hasattr(value, "to_list") else value
    return out
