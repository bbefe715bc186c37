"""The extension registers, unregisters and installs like any Blender extension."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import tomllib
import zipfile
from pathlib import Path

import bpy
from conftest import ADDON_MODULE, REPO_ROOT, disable_strew, enable_strew

MANIFEST = tomllib.loads((REPO_ROOT / "blender_manifest.toml").read_text())


def _blender_ext_cli() -> Path:
    return Path(bpy.utils.system_resource('SCRIPTS')) / "addons_core" / "bl_pkg" / "cli" / "blender_ext.py"


def test_operators_and_panel_are_registered(strew_extension: object) -> None:
    assert hasattr(bpy.ops.strew, "about")
    assert bpy.ops.strew.about() == {'FINISHED'}
    panel = bpy.types.Panel.bl_rna_get_subclass_py("STREW_PT_main")
    assert panel is not None
    assert panel.bl_category == "Strew" and panel.bl_region_type == 'UI'
    assert strew_extension.__name__ == ADDON_MODULE


def test_scene_settings_exist() -> None:
    assert hasattr(bpy.context.scene, "strew")
    assert bpy.context.scene.strew.show_preview is False


def test_version_matches_manifest(strew_extension: object) -> None:
    assert strew_extension.__version__ == MANIFEST["version"]


def test_enable_disable_enable() -> None:
    disable_strew()
    assert not hasattr(bpy.types.Scene, "strew")
    assert bpy.types.Panel.bl_rna_get_subclass_py("STREW_PT_main") is None
    enable_strew()
    assert hasattr(bpy.types.Scene, "strew")
    assert bpy.ops.strew.about() == {'FINISHED'}


def test_built_zip_installs_and_enables(tmp_path: Path) -> None:
    """Build the zip with Blender's own tool, then install it in a fresh Blender process."""
    dist = tmp_path / "dist"
    dist.mkdir()
    subprocess.run(
        [sys.executable, str(_blender_ext_cli()), "build", "--source-dir", str(REPO_ROOT),
         "--output-dir", str(dist)],
        check=True, capture_output=True, text=True,
    )
    (archive,) = dist.glob("strew-*.zip")
    names = zipfile.ZipFile(archive).namelist()
    assert "blender_manifest.toml" in names and "core/__init__.py" in names
    assert not any(n.startswith(("tests/", "bench/", ".venv/", ".git/")) or "__pycache__" in n for n in names)

    script = textwrap.dedent(f"""
        import os, tempfile
        os.environ["BLENDER_USER_RESOURCES"] = tempfile.mkdtemp()
        import bpy, addon_utils
        result = bpy.ops.extensions.package_install_files(
            filepath={str(archive)!r}, repo="user_default", enable_on_install=True)
        assert result == {{'FINISHED'}}, result
        enabled = list(bpy.context.preferences.addons.keys())
        assert "bl_ext.user_default.strew" in enabled, enabled
        assert bpy.ops.strew.about() == {{'FINISHED'}}
        print("INSTALLED-OK")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert "INSTALLED-OK" in done.stdout, done.stdout + done.stderr


def test_natural_name_order_matches_blender_pick_instance() -> None:
    """Our sort of a collection's children is the order Collection Info (Separate Children) uses."""
    from strew.scene.naming import natural_name_key

    names = ["b_cone", "a_cube", "C_ico", "Tree10", "tree2", "Tree_1", "tree 3", "Z9", "z10", "x01", "x1a"]
    collection = bpy.data.collections.new("Order")
    for name in names:
        collection.objects.link(bpy.data.objects.new(name, bpy.data.meshes.new(name)))
    group = bpy.data.node_groups.new("Probe", 'GeometryNodeTree')
    group.interface.new_socket("Geometry", in_out='OUTPUT', socket_type='NodeSocketGeometry')
    info = group.nodes.new('GeometryNodeCollectionInfo')
    info.inputs['Collection'].default_value = collection
    info.inputs['Separate Children'].default_value = True
    points = group.nodes.new('GeometryNodePoints')
    points.inputs['Count'].default_value = len(names)
    index = group.nodes.new('GeometryNodeInputIndex')
    position = group.nodes.new('ShaderNodeCombineXYZ')
    group.links.new(index.outputs[0], position.inputs['X'])
    group.links.new(position.outputs[0], points.inputs['Position'])
    on_points = group.nodes.new('GeometryNodeInstanceOnPoints')
    on_points.inputs['Pick Instance'].default_value = True
    group.links.new(points.outputs[0], on_points.inputs['Points'])
    group.links.new(info.outputs[0], on_points.inputs['Instance'])
    group.links.new(index.outputs[0], on_points.inputs['Instance Index'])
    group.links.new(on_points.outputs[0], group.nodes.new('NodeGroupOutput').inputs[0])
    holder = bpy.data.objects.new("Holder", bpy.data.meshes.new("Holder"))
    bpy.context.scene.collection.objects.link(holder)
    holder.modifiers.new("Probe", 'NODES').node_group = group
    depsgraph = bpy.context.evaluated_depsgraph_get()
    picked = sorted(
        (round(inst.matrix_world.translation.x), inst.instance_object.original.name)
        for inst in depsgraph.object_instances
        if inst.is_instance and inst.parent is not None and inst.parent.original == holder
    )
    assert [name for _, name in picked] == sorted(names, key=natural_name_key)


def test_scatter_panels_are_in_the_strew_tab() -> None:
    names = ["STREW_PT_scatter", "STREW_PT_scatter_source", "STREW_PT_scatter_spacing", "STREW_PT_scatter_density",
             "STREW_PT_scatter_masks", "STREW_PT_scatter_placement", "STREW_PT_scatter_large"]
    panels = [bpy.types.Panel.bl_rna_get_subclass_py(name) for name in names]
    assert all(panel is not None and panel.bl_category == "Strew" for panel in panels)
    assert all(panel.bl_parent_id == "STREW_PT_scatter" for panel in panels[1:])
    assert bpy.types.UIList.bl_rna_get_subclass_py("STREW_UL_layers") is not None
