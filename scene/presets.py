"""Layer-stack presets: a scene's scatter layers to a JSON document and back.

A preset holds every layer setting by its property identifier (read through RNA, so new settings are saved
without touching this module). Data-block settings (a layer's collection, an exclusion collection, an image)
are saved by name and found again by name in the file that loads the preset; a missing one stays empty and is
reported. Loading validates the whole document before it changes anything.

Shipped biomes live in the extension's ``presets`` folder (read only); the user's own in the extension's user
folder (``bpy.utils.extension_path_user``), which survives updates of the extension.
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import bpy
from bpy.app.translations import pgettext_rpt as rpt_

from ..properties.numbers import check_value
from .preset_names import Names, with_rules_renamed

FORMAT = "strew-layer-preset"
VERSION = 1
SUFFIX = ".json"
SHIPPED = Path(__file__).resolve().parent.parent / "presets"
_SKIPPED = {"rna_type", "layer_id"}  # a layer's id belongs to its scene's output
_ID_COLLECTIONS = {"Collection": "collections", "Image": "images", "Object": "objects"}


class PresetError(ValueError):
    """A preset that cannot be saved or loaded; the message says what to change."""


@dataclass
class LoadReport:
    """What a load did: the layers it added and the names it could not find in this file."""

    layers: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)


def user_folder() -> Path:
    """The folder of the user's presets (created on first use)."""
    return Path(bpy.utils.extension_path_user(__package__.rsplit(".", 1)[0], path="presets", create=True))


def safe_name(name: str) -> str:
    """A preset name that is also a portable file name, or ``PresetError``."""
    cleaned = name.strip()
    if not cleaned or not re.fullmatch(r"[\w][\w .()\-]*", cleaned) or len(cleaned) > 64:
        raise PresetError(rpt_("Preset name {name!r}: use 1–64 letters, digits, spaces, '.', '-', '_' or brackets")
                          .format(name=name))
    return cleaned


def _presets_in(folder: Path) -> dict[str, Path]:
    """Preset name → file for the preset files in ``folder``, sorted by name."""
    return {path.stem: path for path in sorted(folder.glob(f"*{SUFFIX}"))} if folder.is_dir() else {}


def user_presets() -> dict[str, Path]:
    """The user's own presets, name → file: the only ones Delete and Rename act on."""
    with contextlib.suppress(ValueError, OSError, AttributeError):  # not running as an installed extension
        return _presets_in(user_folder())
    return {}


def available() -> dict[str, Path]:
    """Preset name → file: shipped biomes first, the user's own after (a user preset hides a shipped one)."""
    return {**_presets_in(SHIPPED), **user_presets()}


def _gone(name: str) -> PresetError:
    """The error for a user preset whose file was removed outside Blender since the menu listed it."""
    return PresetError(rpt_("Preset '{name}' is no longer in the preset folder (removed outside Blender?)")
                       .format(name=name))


def _user_file(name: str) -> Path:
    """The file of the user's preset ``name``; ``PresetError`` for a shipped biome or a file that is gone."""
    path = user_presets().get(name)
    if path is not None:
        return path
    if name in _presets_in(SHIPPED):
        raise PresetError(rpt_("'{name}' ships with Strew: only presets you saved can be deleted or renamed")
                          .format(name=name))
    raise _gone(name)


def delete(name: str) -> Path:
    """Remove the user's preset ``name`` from disk and return the file it was."""
    path = _user_file(name)
    try:
        path.unlink()
    except FileNotFoundError:
        raise _gone(name) from None
    except OSError as exc:
        raise PresetError(rpt_("Preset {file} cannot be deleted ({reason}): check the folder's permissions")
                          .format(file=path.name, reason=exc.__class__.__name__)) from None
    return path


def _free_name(new_name: str, source: Path) -> Path:
    """The file for ``new_name`` when no other preset has that name; ``PresetError`` otherwise.

    A case-only change on a case-insensitive disk names ``source`` itself, which is allowed.
    """
    target = user_folder() / f"{new_name}{SUFFIX}"
    if new_name == source.stem:
        raise PresetError(rpt_("Preset '{name}' already has that name: type a different one").format(name=new_name))
    same_file = target.exists() and target.samefile(source)
    if new_name in available() or (target.exists() and not same_file):
        raise PresetError(rpt_("A preset named '{name}' exists: choose another name").format(name=new_name))
    return target


def rename(name: str, new_name: str) -> Path:
    """Give the user's preset ``name`` the name ``new_name`` (its file and the name inside it); returns the new file.

    Every check comes before the first write, so a refused name leaves the files as they were.
    """
    source = _user_file(name)
    target = _free_name(safe_name(new_name), source)
    try:
        data = read(source)
    except PresetError:
        data = None  # not a readable preset: move the file as it is
    try:
        if data is not None:
            _write(source, {**data, "name": target.stem})
        source.rename(target)
    except FileNotFoundError:
        raise _gone(name) from None
    except OSError as exc:
        raise PresetError(rpt_("Preset {file} cannot be renamed ({reason}): check the folder's permissions")
                          .format(file=source.name, reason=exc.__class__.__name__)) from None
    return target


def _saved(rna: Any) -> dict[str, Any]:
    """The properties of a group's RNA that a preset holds: every writable setting, every list of groups and every
    group held by pointer (an Around or On Layer link)."""
    return {prop.identifier: prop for prop in rna.properties
            if prop.identifier not in _SKIPPED and (not prop.is_readonly or prop.type == 'COLLECTION' or _group(prop))}


def _group(prop: Any) -> bool:
    """Whether ``prop`` points to a property group (saved as its settings), not to a data-block."""
    if prop.type != 'POINTER':
        return False
    kind = prop.fixed_type
    while kind is not None and kind.identifier not in ("ID", "PropertyGroup"):
        kind = kind.base
    return kind is not None and kind.identifier == "PropertyGroup"


def layer_to_dict(layer: bpy.types.PropertyGroup) -> dict[str, Any]:
    """Every setting of ``layer``: numbers, flags, enum identifiers, text, data-blocks by name, and lists of
    settings (the Keep Away per Layer rules) as lists of such dictionaries."""
    out: dict[str, Any] = {}
    for prop in _saved(layer.bl_rna).values():
        value = getattr(layer, prop.identifier)
        if prop.type == 'COLLECTION':
            out[prop.identifier] = [layer_to_dict(item) for item in value]
            continue
        if _group(prop):
            out[prop.identifier] = layer_to_dict(value)
            continue
        if prop.type == 'POINTER':
            if isinstance(value, bpy.types.ID):
                out[prop.identifier] = {"id": type(value).__name__, "name": value.name}
            elif value is None:
                out[prop.identifier] = None
            continue
        if getattr(prop, "is_array", False):
            value = list(value)
        out[prop.identifier] = value
    return out


def stack_to_dict(settings: bpy.types.PropertyGroup, name: str) -> dict[str, Any]:
    """The preset document of a scene's layer stack."""
    return {"format": FORMAT, "version": VERSION, "name": name,
            "layers": [layer_to_dict(layer) for layer in settings.layers]}


def save(settings: bpy.types.PropertyGroup, name: str, overwrite: bool = False) -> Path:
    """Write the layer stack as the user preset ``name``; refuses to replace a file unless ``overwrite``."""
    name = safe_name(name)
    if not len(settings.layers):
        raise PresetError(rpt_("There are no layers to save: add a layer first"))
    path = user_folder() / f"{name}{SUFFIX}"
    if path.exists() and not overwrite:
        raise PresetError(rpt_("Preset '{name}' exists: choose another name or turn on Overwrite").format(name=name))
    _write(path, stack_to_dict(settings, name))
    return path


def _write(path: Path, document: dict[str, Any]) -> None:
    """Write ``document`` to ``path`` through a temporary file, so a failed write leaves the old file whole."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(document, indent=1, ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)


def read(path: Path) -> dict[str, Any]:
    """The document in ``path``, checked for its format; ``PresetError`` otherwise."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PresetError(rpt_("Preset {file} cannot be read ({reason}): pick another file").format(
            file=path.name, reason=exc.__class__.__name__)) from None
    except (RecursionError, ValueError, MemoryError):  # nested too deep, a number of thousands of digits
        raise PresetError(rpt_("Preset {file} is nested too deep or holds a number too long to read: pick another "
                               "file").format(file=path.name)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PresetError(rpt_("{file} is not a Strew layer preset (no \"format\": \"{format}\")").format(
            file=path.name, format=FORMAT))
    if data.get("version") != VERSION:
        raise PresetError(rpt_("{file} is preset version {found!r}; this Strew reads {version}").format(
            file=path.name, found=data.get("version"), version=VERSION))
    layers = data.get("layers")
    if not isinstance(layers, list) or not layers or not all(isinstance(layer, dict) for layer in layers):
        raise PresetError(rpt_("{file}: \"layers\" must be a non-empty list of objects").format(file=path.name))
    return data


def _check_pointer(prop: Any, value: Any, where: str) -> Any:
    """A data-block reference ``{"id": …, "name": …}`` of the type ``prop`` takes (or None)."""
    if value is None:
        return None
    if not (isinstance(value, dict) and isinstance(value.get("name"), str) and value.get("id") in _ID_COLLECTIONS):
        raise PresetError(rpt_("{where}: expected null or a data-block {{\"id\": …, \"name\": …}}").format(
            where=where))
    expected = prop.fixed_type.identifier
    if value["id"] != expected:
        raise PresetError(rpt_("{where}: takes a {expected}, not the {found} '{name}': name a {expected}").format(
            where=where, expected=expected, found=value["id"], name=value["name"]))
    return value


def _check_value(prop: Any, value: Any, where: str) -> Any:
    """``value`` converted for ``prop``, or ``PresetError`` naming ``where`` and the expected form."""
    kind = prop.type
    if _group(prop):
        if not isinstance(value, dict):
            raise PresetError(rpt_("{where}: expected settings {{…}}").format(where=where))
        item_props = _saved(prop.fixed_type)
        return {key: _check_value(item_props[key], item, f"{where}.{key}") for key, item in value.items()
                if key in item_props}
    if kind == 'POINTER':
        return _check_pointer(prop, value, where)
    if kind == 'BOOLEAN':
        if not isinstance(value, bool):
            raise PresetError(rpt_("{where}: expected true or false, got {value!r}").format(where=where, value=value))
        return value
    if kind in ('INT', 'FLOAT'):
        wrong_kind = kind == 'INT' and isinstance(value, float)
        if isinstance(value, bool) or not isinstance(value, int | float) or wrong_kind:
            expected = rpt_("{where}: expected an integer, got {value!r}") if kind == 'INT' else rpt_(
                "{where}: expected a number, got {value!r}")
            raise PresetError(expected.format(where=where, value=value))
        try:
            return check_value(prop, value)
        except ValueError:
            raise PresetError(rpt_("{where}: {value!r} is outside {low:g} … {high:g}").format(
                where=where, value=value, low=prop.hard_min, high=prop.hard_max)) from None
    if kind == 'STRING':
        if not isinstance(value, str):
            raise PresetError(rpt_("{where}: expected text, got {value!r}").format(where=where, value=value))
        return value
    if kind == 'ENUM':
        names = {item.identifier for item in prop.enum_items}
        if not isinstance(value, str) or value not in names:
            raise PresetError(rpt_("{where}: expected one of {names}, got {value!r}").format(
                where=where, names=", ".join(sorted(names)), value=value))
        return value
    if kind == 'COLLECTION':
        if not (isinstance(value, list) and all(isinstance(item, dict) for item in value)):
            raise PresetError(rpt_("{where}: expected a list of settings {{…}}").format(where=where))
        item_props = _saved(prop.fixed_type)
        return [{key: _check_value(item_props[key], item_value, f"{where}[{number}].{key}")
                 for key, item_value in item.items() if key in item_props}
                for number, item in enumerate(value)]
    raise PresetError(rpt_("{where}: settings of type {kind} are not part of presets").format(where=where, kind=kind))


def _apply(group: bpy.types.PropertyGroup, values: dict[str, Any], props: dict[str, Any], report: LoadReport) -> None:
    """Set checked ``values`` on ``group``; lists are filled item by item."""
    for key, value in values.items():
        prop = props[key]
        if prop.type == 'COLLECTION':
            items = getattr(group, key)
            items.clear()
            item_props = _saved(prop.fixed_type)
            for item_values in value:
                _apply(items.add(), item_values, item_props, report)
        elif _group(prop):
            _apply(getattr(group, key), value, _saved(prop.fixed_type), report)
        else:
            setattr(group, key, _resolve(value, report) if prop.type == 'POINTER' else value)


def _resolve(value: dict[str, str] | None, report: LoadReport) -> bpy.types.ID | None:
    if value is None:
        return None
    found = getattr(bpy.data, _ID_COLLECTIONS[value["id"]]).get(value["name"])
    if found is None:
        report.missing.append(f"{value['id']} '{value['name']}'")
    return found


def load(settings: bpy.types.PropertyGroup, data: dict[str, Any], replace: bool = False) -> LoadReport:
    """Add the preset's layers below the existing ones (or instead of them with ``replace``).

    Every value is checked before the first layer changes, so a bad preset leaves the scene as it was. Layers
    are held by index, never by reference: adding to a list may move its items in memory.
    """
    props = _saved(type(settings).bl_rna.properties["layers"].fixed_type)
    report = LoadReport()
    checked: list[dict[str, Any]] = []
    for index, layer in enumerate(data["layers"]):
        values = {}
        name = layer.get("name", f"Layer {index + 1}")
        for key, value in layer.items():
            if key not in props:
                report.ignored.append(f"{name}.{key}")
                continue
            where = rpt_("layer {number} ('{name}'), setting '{key}'").format(number=index + 1, name=name, key=key)
            values[key] = _check_value(props[key], value, where)
        checked.append(values)
    if replace:
        settings.layers.clear()
    names = Names({layer.name for layer in settings.layers})
    new_names = [names.unique(values.get("name") or "Layer") for values in checked]
    everywhere = {values.get("name", ""): new for values, new in zip(checked, new_names, strict=True)}
    above: dict[str, str] = {}
    start = len(settings.layers)
    for offset, values in enumerate(checked):
        settings.layers.add()
        _apply(settings.layers[start + offset],
               {**with_rules_renamed(values, above, everywhere), "name": new_names[offset]}, props, report)
        above[values.get("name", "")] = new_names[offset]
    report.layers.extend(new_names)
    settings.active_layer_index = len(settings.layers) - 1
    return report
