"""Tile Rooms' paths in real Blender: the panel's list, Loops and Minimum Path Length reach the solve (read back
cell by cell: the endpoints hold walkable tiles in one region by a flood fill over the placed tiles' own passable
sides, no loop counted as E = V − C, the shortest walk by BFS), the operator's text, the command line, and bad
input in one line with the scene unchanged."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import bpy
import pytest
from cli_process import refused, strew_run, succeeded
from rooms_check import placed_tiles, read_room, violations, walkable_regions
from rooms_kits import boxes_object, check_room, demo_kit, hand_kit, module, pairs
from scenes import scene_snapshot

SIZE = (9, 7, 1)
STEP = {"e": (1, 0, 0), "n": (0, 1, 0), "w": (-1, 0, 0), "s": (0, -1, 0), "up": (0, 0, 1), "down": (0, 0, -1)}
BACK = {"e": "w", "w": "e", "n": "s", "s": "n", "up": "down", "down": "up"}


def _roads(kit: bpy.types.Collection) -> bpy.types.PropertyGroup:
    settings = bpy.context.scene.strew.room
    settings.kit, settings.use_border, settings.border, settings.connected = kit, True, "grass", False
    settings.size = SIZE
    return settings


def roads_with_dead_ends() -> bpy.types.Collection:
    """The road kit and a road that ends in a cell (without one every road runs on, so it always closes a loop)."""
    kit = hand_kit()
    obj = boxes_object("end", [(-1, 1, -1, 1, 0, 0.1), (-0.2, 0.2, 0, 1, 0.1, 0.2)], kit)
    obj.location = (len(kit.objects) * 3.0, 20.0, 0.0)
    obj["strew_sockets"] = {"n": "road", "e": "grass", "s": "grass", "w": "grass"}
    obj["strew_rotations"] = [0, 90, 180, 270]
    obj["strew_walkable"] = True
    obj["strew_passable"] = ["n"]
    return kit


def _graph(tiles: dict) -> dict:
    """Walkable cell -> neighbours through sides both placed tiles pass."""
    out: dict = {c: [] for c, t in tiles.items() if t["walkable"]}
    for cell in out:
        for side in tiles[cell]["passable"]:
            other = tuple(a + b for a, b in zip(cell, STEP[side], strict=True))
            if other in out and BACK[side] in tiles[other]["passable"]:
                out[cell].append(other)
    return out


def _distance(graph: dict, a, b) -> int | None:
    seen, queue = {a: 0}, deque([a])
    while queue:
        c = queue.popleft()
        for o in graph[c]:
            if o not in seen:
                seen[o] = seen[c] + 1
                queue.append(o)
    return seen.get(b)


def _checked(kit, paths, loops=True, min_length=0) -> dict:
    room = read_room()
    tiles = placed_tiles(room, kit)
    assert violations(tiles, SIZE, set()) == []
    graph = _graph(tiles)
    for a, b in paths:
        assert tiles[a]["walkable"] and tiles[b]["walkable"]
        assert any({a, b} <= region for region in walkable_regions(tiles))
        assert _distance(graph, a, b) + 1 >= min_length
    if not loops:
        for a, _ in paths:
            region = next(r for r in walkable_regions(tiles) if a in r)
            edges = sum(len(graph[c]) for c in region) // 2
            assert edges == len(region) - 1, "a loop in the path's region"
    return tiles


@pytest.mark.parametrize("seed", range(3))
def test_the_panels_paths_loops_and_minimum_length_reach_the_room(seed: int) -> None:
    kit = roads_with_dead_ends()
    settings = _roads(kit)
    settings.seed = seed
    for start, end in (((0, 0, 0), (8, 6, 0)), ((8, 0, 0), (2, 5, 0))):
        assert bpy.ops.strew.room_path_add() == {'FINISHED'}
        item = settings.paths[settings.active_path_index]
        item.start, item.end = start, end
    settings.loops, settings.min_path_length = 'NONE', 12
    assert bpy.ops.strew.assemble_room() == {'FINISHED'}
    _checked(kit, [((0, 0, 0), (8, 6, 0)), ((8, 0, 0), (2, 5, 0))], loops=False, min_length=12)


def test_without_dead_ends_no_loops_fails_in_one_line() -> None:
    """Every road of the plain kit runs on, so a path's roads always close a loop: refused, the scene kept."""
    _roads(hand_kit())
    before = scene_snapshot()
    with pytest.raises(RuntimeError, match="a loop of walkable cells formed") as failure:
        bpy.ops.strew.assemble_room(size=(3, 3, 1), paths="0,0,0:2,2,0", loops='NONE', time_limit=5.0)
    assert "\n" not in str(failure.value).strip() and "allow loops" in str(failure.value)
    assert scene_snapshot() == before


@pytest.mark.parametrize("seed", range(2))
def test_a_path_on_the_demo_kit_climbs_between_storeys(seed: int) -> None:
    kit = demo_kit()
    ends = ((1, 1, 0), (10, 10, 1))
    assert bpy.ops.strew.assemble_room(size=(12, 12, 2), seed=seed, connected=False,
                                       paths="1,1,0:10,10,1") == {'FINISHED'}
    tiles = check_room(kit, (12, 12, 2), (0, 0, 0), (4.0, 4.0, 3.0), pairs(kit["strew_compatible"]),
                       border=["wall", "window"], bottom="ground", top="sky")["tiles"]
    region = next(r for r in walkable_regions(tiles) if ends[0] in r)
    assert ends[1] in region and {z for _, _, z in region} == {0, 1}


def test_the_operators_text_replaces_the_list_and_pockets_may_stay_apart() -> None:
    kit = hand_kit()
    settings = _roads(kit)
    settings.paths.add().start = (4, 4, 0)  # the panel's (4, 4, 0) – (1, 0, 0), replaced below
    regions = []
    for seed in range(4):
        assert bpy.ops.strew.assemble_room(seed=seed, paths="1,1,0:7,5,0") == {'FINISHED'}
        tiles = _checked(kit, [((1, 1, 0), (7, 5, 0))])
        regions.append(len(walkable_regions(tiles)))
    assert max(regions) > 1  # connectivity off: some room keeps a road apart from the path


def test_pick_endpoints_sets_the_active_path_and_is_a_viewport_tool() -> None:
    room_paths = module("operators.room_paths")
    settings = _roads(hand_kit())
    assert room_paths.set_path(settings, (1, 2, 0), (5, 6, 0)) == "Path 1: from (1, 2, 0) to (5, 6, 0)"
    assert [(tuple(p.start), tuple(p.end)) for p in settings.paths] == [((1, 2, 0), (5, 6, 0))]
    assert bpy.ops.strew.room_path_add() == {'FINISHED'}
    assert tuple(settings.paths[1].end) == (8, 6, 0)  # a new path runs corner to corner
    assert bpy.ops.strew.room_path_remove() == {'FINISHED'} and len(settings.paths) == 1
    assert bpy.ops.strew.assemble_room() == {'FINISHED'}
    snapshot = scene_snapshot()
    with pytest.raises(RuntimeError, match="3D Viewport"):
        bpy.ops.strew.pick_room_path()
    assert scene_snapshot() == snapshot


BAD_OPERATOR = [
    ("0,0,0:9,0,0", r"path 1: endpoint \(9, 0, 0\) is outside the room of \(9, 7, 1\) cells"),
    ("2,2,0:2,2,0", "path 1 needs two different endpoints"),
    ("2,2,0", "path: give two endpoints or more, as X,Y,Z:X,Y,Z"),
    ("0,0,0:4,0,0:0,0,x", "path: write X,Y,Z:X,Y,Z"),
]


@pytest.mark.parametrize(("text", "message"), BAD_OPERATOR)
def test_bad_paths_are_one_line_and_leave_the_scene_as_it_was(text: str, message: str) -> None:
    _roads(hand_kit())
    assert bpy.ops.strew.assemble_room(seed=1) == {'FINISHED'}
    before = scene_snapshot()
    with pytest.raises(RuntimeError, match=message) as failure:
        bpy.ops.strew.assemble_room(seed=2, paths=text)
    assert "\n" not in str(failure.value).strip()
    assert scene_snapshot() == before


def test_endpoints_walled_apart_fail_in_one_line_naming_the_path() -> None:
    kit = hand_kit()
    _roads(kit)
    before = scene_snapshot()
    fixed = "; ".join(f"grass 4 {y} 0" for y in range(SIZE[1]))
    with pytest.raises(RuntimeError, match=r"path 1: its endpoints \(0, 3\) and \(8, 3\) were cut apart") as failure:
        bpy.ops.strew.assemble_room(seed=0, paths="0,3,0:8,3,0", fixed=fixed)
    assert "\n" not in str(failure.value).strip()
    assert scene_snapshot() == before


@pytest.fixture
def kit_file(tmp_path: Path) -> Path:
    _roads(roads_with_dead_ends())
    path = tmp_path / "kit.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    return path


def test_the_command_line_takes_paths_no_loops_and_a_minimum_length(kit_file: Path) -> None:
    out = kit_file.parent / "room.blend"
    succeeded(strew_run("room", kit_file, "--seed", "2", "--path", "0,0,0:8,6,0", "--path", "8,0,0 : 0,6,0:4,3,0",
                        "--no-loops", "--min-path-length", "10", "-o", out, cwd=kit_file.parent))
    bpy.ops.wm.open_mainfile(filepath=str(out))
    _checked(bpy.data.collections["Roads"], [((0, 0, 0), (8, 6, 0)), ((8, 0, 0), (0, 6, 0)), ((8, 0, 0), (4, 3, 0))],
             loops=False, min_length=10)


def test_loops_on_the_command_line_overrides_the_files_none(tmp_path: Path) -> None:
    settings = _roads(hand_kit())
    settings.loops = 'NONE'  # the plain road kit closes loops: the file's setting would fail
    path = tmp_path / "kit.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    out = tmp_path / "room.blend"
    succeeded(strew_run("room", path, "--seed", "1", "--path", "0,0,0:8,6,0", "--loops", "-o", out, cwd=tmp_path))
    bpy.ops.wm.open_mainfile(filepath=str(out))
    assert bpy.context.scene.strew.room.loops == 'NONE'  # the file's own setting is kept
    _checked(bpy.data.collections["Roads"], [((0, 0, 0), (8, 6, 0))])


BAD_CLI = [
    (["--path", "0,0,0"], "--path: path: give two endpoints or more"),
    (["--path", "0,0:1,1,0"], "--path: path: write X,Y,Z:X,Y,Z"),
    (["--path", "0,0,0:20,0,0"], "path 1: endpoint (20, 0, 0) is outside the room"),
    (["--path", "0,0,0:4,0,0", "--min-path-length", "-3"], "--min-path-length"),
]


@pytest.mark.parametrize(("given", "message"), BAD_CLI, ids=[" ".join(g) for g, _ in BAD_CLI])
def test_bad_paths_on_the_command_line_are_one_line_and_nothing_written(kit_file: Path, given: list[str],
                                                                         message: str) -> None:
    out = kit_file.parent / "room.blend"
    refused(strew_run("room", kit_file, *given, "-o", out, cwd=kit_file.parent), message)
    assert not out.exists()


class _RecordingLayout:
    """Stands in for a UILayout: keeps every label ``(text, icon)``, property ``(owner, name)`` and operator."""

    def __init__(self) -> None:
        self.labels: list[tuple[str, str]] = []
        self.props: list[tuple[object, str]] = []
        self.operators: list[str] = []

    def __getattr__(self, name: str):
        return lambda *args, **kwargs: self

    def label(self, text: str = "", translate: bool = True, icon: str = 'NONE', **kwargs) -> None:
        self.labels.append((text, icon))

    def prop(self, owner, name: str, **kwargs) -> None:
        self.props.append((owner, name))

    def operator(self, name: str, **kwargs):
        self.operators.append(name)
        return self


def test_the_panel_draws_the_list_endpoints_loops_and_minimum_length_headless() -> None:
    panels = module("panels.room_paths")
    settings = bpy.context.scene.strew.room
    settings.size = (6, 5, 2)
    good, outside, same = settings.paths.add(), settings.paths.add(), settings.paths.add()
    good.start, good.end = (0, 0, 0), (5, 4, 1)
    outside.start, outside.end = (0, 0, 0), (6, 0, 0)
    same.start, same.end = (2, 2, 0), (2, 2, 0)
    layout = _RecordingLayout()
    for item in (good, outside, same):
        panels.STREW_UL_room_paths.draw_item(None, None, layout, settings, item, 0, settings, "active_path_index")
    assert layout.labels == [("(0, 0, 0) → (5, 4, 1)", 'TRACKING'),
                             ("(0, 0, 0) → (6, 0, 0) is outside the room", 'ERROR'),
                             ("(2, 2, 0) → (2, 2, 0): give two different cells", 'ERROR')]
    settings.active_path_index = 0
    context = type("Context", (), {"scene": bpy.context.scene})()
    layout = _RecordingLayout()
    panels.STREW_PT_rooms_paths.draw(type("Panel", (), {"layout": layout})(), context)
    names = [name for _, name in layout.props]
    assert names == ["start", "end", "loops", "min_path_length"]
    assert layout.operators == ["strew.room_path_add", "strew.room_path_remove", "strew.pick_room_path"]


def test_paths_on_an_imported_mxgmn_tileset_are_refused_in_one_line(tmp_path: Path) -> None:
    from test_rooms_tools import KNOTS

    path = tmp_path / "Knots.xml"
    path.write_text(KNOTS)
    assert bpy.ops.strew.import_mxgmn(filepath=str(path)) == {'FINISHED'}
    before = scene_snapshot()
    with pytest.raises(RuntimeError, match="mxgmn tilesets have no walkable tiles: leave Paths empty"):
        bpy.ops.strew.assemble_room(size=(9, 8, 1), seed=1, periodic=True, paths="0,0,0:4,4,0")
    assert scene_snapshot() == before
