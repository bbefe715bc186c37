"""Every user-visible string of the registered Strew classes, read back from Blender's RNA.

Used by ``test_translations.py``; run as a script (inside the test harness) to list them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import bpy

REPO_ROOT = Path(__file__).resolve().parents[2]

# Calls whose literal string arguments reach the user (the translation helpers, reports, labels, poll messages).
_TEXT_CALLS = {"iface_", "rpt_", "tip_", "pgettext_iface", "pgettext_rpt", "pgettext_tip", "poll_message_set",
               "report"}
_TEXT_KEYWORDS = {"text", "name", "description"}
_SOURCE_FOLDERS = ("operators", "panels", "properties", "scene")
# Built messages that need no translation (a name and a version), as ``ast.unparse`` writes them.
_UNTRANSLATED_OK = {"f'Strew {__version__}'"}


def _rna_strings(rna: bpy.types.Struct, where: str) -> list[tuple[str, str]]:
    found = []
    for prop in rna.properties:
        if prop.identifier in {"rna_type", "name"} and prop.name in {"RNA", "Name"}:
            continue  # inherited from PropertyGroup / bpy_struct, translated by Blender itself
        found.append((prop.name, f"{where}.{prop.identifier} name"))
        found.append((prop.description, f"{where}.{prop.identifier} description"))
        if prop.type == 'ENUM':
            for item in prop.enum_items:
                found.append((item.name, f"{where}.{prop.identifier} item {item.identifier} name"))
                found.append((item.description, f"{where}.{prop.identifier} item {item.identifier} description"))
    return found


def _ours(cls: type, module: str) -> bool:
    return getattr(cls, "__module__", "").startswith(module)


def registered_strings(addon_module: str) -> list[tuple[str, str]]:
    """``(text, where)`` for every label, tooltip, property and enum item of the registered Strew classes."""
    found: list[tuple[str, str]] = []
    for name in dir(bpy.ops.strew):
        rna = getattr(bpy.ops.strew, name).get_rna_type()
        where = f"operator strew.{name}"
        found.append((rna.name, f"{where} label"))
        found.append((rna.description, f"{where} description"))
        found.extend(_rna_strings(rna, where))
    for base in (bpy.types.Panel, bpy.types.UIList, bpy.types.Menu):
        for cls in base.__subclasses__():
            if _ours(cls, addon_module) and getattr(cls, "is_registered", False):
                label = getattr(cls, "bl_label", "")
                found.append((label, f"{base.__name__} {cls.__name__} label"))
                found.append((getattr(cls, "bl_description", ""), f"{base.__name__} {cls.__name__} description"))
    for cls in bpy.types.PropertyGroup.__subclasses__():
        if _ours(cls, addon_module) and getattr(cls, "is_registered", False):
            found.extend(_rna_strings(cls.bl_rna, f"PropertyGroup {cls.__name__}"))
    return [(text, where) for text, where in found if text and text.strip()]


def _message_arguments(folders: tuple[str, ...], errors: bool = False):
    """``(path, expression)`` for every argument that becomes a user-visible message: of the translation helpers,
    reports and poll messages, ``text=`` of the UI code, and (``errors``) of the ``...Error(...)`` constructors.
    Both branches of ``a if c else b`` count."""
    for folder in folders:
        for path in sorted((REPO_ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(), filename=str(path))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                values = []
                if called in _TEXT_CALLS or (errors and called.endswith("Error")):
                    values.extend(node.args)
                values.extend(k.value for k in node.keywords if k.arg == "text" and called != "prop_search")
                while values:
                    value = values.pop()
                    if isinstance(value, ast.IfExp):
                        values.extend((value.body, value.orelse))
                    else:
                        yield path, value


def source_strings(folders: tuple[str, ...] = _SOURCE_FOLDERS) -> list[tuple[str, str]]:
    """Literal strings handed to the translation helpers, reports, poll messages and ``text=`` of the UI code."""
    found = []
    for path, value in _message_arguments(folders):
        if isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value.strip():
            found.append((value.value, f"{path.relative_to(REPO_ROOT)}:{value.lineno}"))
    return found


def built_messages(folders: tuple[str, ...] = _SOURCE_FOLDERS) -> list[tuple[str, str]]:
    """Messages built before translation, which no translation table can match: f-strings and
    ``"template".format(...)`` given to a report, label, translation helper or ``...Error(...)``.
    Write ``rpt_("template {name}").format(name=...)`` (labels: ``iface_``) instead."""
    found = []
    for path, value in _message_arguments(folders, errors=True):
        func = value.func if isinstance(value, ast.Call) else None
        formats_a_literal = (isinstance(func, ast.Attribute) and func.attr == "format"
                             and isinstance(func.value, ast.Constant))
        if isinstance(value, ast.JoinedStr) or formats_a_literal:
            source = ast.unparse(value)
            if source not in _UNTRANSLATED_OK:
                found.append((source, f"{path.relative_to(REPO_ROOT)}:{value.lineno}"))
    return found
