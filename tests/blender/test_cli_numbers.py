"""The command line's numbers at their limits: one line on stderr, exit code 2, nothing written; never a traceback.

Each option is checked against the range of the setting it goes to (the same check Scatter applies to a saved
file), before any work.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import bpy
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from small_scenes import road_kit, scatter_scene

HOSTILE = ["nan", "inf", "-inf", "1e300", "3.4028234663852886e38", "-1", "0", "1e21", "2147483648", "-2147483649"]


@pytest.fixture
def scene_file(tmp_path: Path) -> Path:
    scatter_scene()
    road_kit()
    path = tmp_path / "scene.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    return path


def _refused(result: tuple[int, str, str], *parts: str) -> str:
    code, _, err = result
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("strew: error: "), err
    assert "Traceback" not in err
    for part in parts:
        assert part in lines[0], lines[0]
    return lines[0]


SCATTER = [
    ("--seed", "2147483648", "--seed is 2147483648; give a whole number from 0 to 2147483647"),
    ("--seed", "-1", "--seed is -1"),
    ("--chunk-size", "nan", "--chunk-size is nan; give a number from 0 to 1e+09"),
    ("--chunk-size", "inf", "--chunk-size is inf"),
    ("--chunk-size", "1e21", "--chunk-size is 1e+21"),
    ("--chunk-size", "-1", "--chunk-size is -1"),
    ("--max-slope", "nan", "--max-slope (degrees) is nan; give a number from 0 to 90"),
    ("--max-slope", "-inf", "--max-slope (degrees) is -inf"),
    ("--scheduler-timeout", "nan", "--scheduler-timeout is nan; give a number from 0.1 to 86400"),
    ("--scheduler-timeout", "inf", "--scheduler-timeout is inf"),
    ("--scheduler-timeout", "0", "--scheduler-timeout is 0"),
    ("--scheduler-timeout", "-4", "--scheduler-timeout is -4"),
    ("--workers", "2147483648", "--workers is 2147483648"),
    ("--workers", "-3", "--workers is -3"),
    ("--layer", "Stones:nan:nan", "--layer 'Stones:nan:nan'"),
    ("--layer", "Stones:inf:inf", "--layer 'Stones:inf:inf'"),
    ("--layer", "Stones:1e21:1e21", "min_radius is 1e+21; give a number from 0 to 1e+09"),
    ("--layer", "Stones:1:3.4e38", "max_radius is 3.4e+38"),
]


@pytest.mark.parametrize(("option", "value", "message"), SCATTER, ids=[f"{o} {v}" for o, v, _ in SCATTER])
def test_scatter_numbers_out_of_range(strew, scene_file: Path, option: str, value: str, message: str) -> None:
    out = scene_file.parent / "out.blend"
    _refused(strew("scatter", scene_file, "--layer", "Stones:2.5:2.5", f"{option}={value}", "-o", out), message)
    assert not out.exists()


def test_the_last_layers_seed_must_fit_too(strew, scene_file: Path) -> None:
    """Three --layer layers get seed, seed + 1 and seed + 2: the largest first seed is 2147483645."""
    out = scene_file.parent / "out.blend"
    layers = ["--layer", "Stones:2.5:2.5", "--layer", "B:2.5:2.5:Stones", "--layer", "C:2.5:2.5:Stones"]
    _refused(strew("scatter", scene_file, *layers, "--seed", "2147483646", "-o", out),
             "give a whole number from 0 to 2147483645")
    code, _, err = strew("scatter", scene_file, *layers, "--seed", "2147483645", "-o", out)
    assert code == 0, err
    bpy.ops.wm.open_mainfile(filepath=str(out))
    assert bpy.context.scene.strew.layers["C"].seed == 2**31 - 1


ROOM = [
    ("--seed", ["2147483648"], "--seed is 2147483648; give a whole number from 0 to 2147483647"),
    ("--seed", ["=-1"], "--seed is -1; give a whole number from 0 to 2147483647"),
    ("--time-limit", ["nan"], "--time-limit is nan; give a number ≥ 0.1"),
    ("--time-limit", ["inf"], "--time-limit is inf; give a number ≥ 0.1"),
    ("--time-limit", ["0"], "--time-limit is 0; give a number ≥ 0.1"),
    ("--origin", ["nan", "0", "0"], "--origin is nan; give a number from -1e+09 to 1e+09"),
    ("--origin", ["0", "inf", "0"], "--origin is inf; give a number from -1e+09 to 1e+09"),
    ("--origin", ["0", "0", "1e12"], "--origin is 1e+12; give a number from -1e+09 to 1e+09"),
    ("--origin", ["0", "3e9", "0"], "--origin is 3e+09; give a number from -1e+09 to 1e+09"),
    ("--size", ["2147483648", "1", "1"], "--size is 2147483648"),
    ("--size", ["4", "0", "1"], "--size is 0; give a whole number from 1 to 2147483647"),
    ("--max-backtracks", ["2147483648"], "--max-backtracks is 2147483648"),
    ("--max-restarts", ["=-1"], "--max-restarts is -1; give a whole number from 0 to 2147483647"),
    ("--cell-size", ["nan", "1", "1"], "--cell-size"),
]


@pytest.mark.parametrize(("option", "values", "message"), ROOM, ids=[f"{o} {' '.join(v)}" for o, v, _ in ROOM])
def test_room_numbers_out_of_range(strew, scene_file: Path, option: str, values: list[str], message: str) -> None:
    out = scene_file.parent / "room.blend"
    given = [option + values[0]] if values[0].startswith("=") else [option, *values]
    _refused(strew("room", scene_file, "--kit", "Roads", "--border", "", *given, "-o", out), message)
    assert not out.exists()


def test_more_workers_than_cores_are_capped_in_one_line(strew, scene_file: Path, strew_extension) -> None:
    pool = importlib.import_module(f"{strew_extension.__name__}.core.pool")
    cores = pool.default_workers()
    out = scene_file.parent / "out.blend"
    code, stdout, err = strew("scatter", scene_file, "--workers", "10000", "-o", out)
    assert code == 0, err
    assert f"--workers 10000: this machine has {cores} cores; using {cores} worker processes" in stdout.splitlines()
    bpy.ops.wm.open_mainfile(filepath=str(out))
    assert bpy.context.scene.strew.workers == cores
    assert all(kept.workers <= cores for kept in pool._KEPT)


def test_a_files_workers_setting_is_capped_too(strew, tmp_path: Path, strew_extension) -> None:
    pool = importlib.import_module(f"{strew_extension.__name__}.core.pool")
    scatter_scene()
    bpy.context.scene.strew.workers = 100000
    assert bpy.ops.strew.scatter() == {'FINISHED'}  # the operator: capped in silence, the same points
    assert all(kept.workers <= pool.default_workers() for kept in pool._KEPT)
    path = tmp_path / "many.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    code, stdout, err = strew("scatter", path, "-o", tmp_path / "out.blend")
    assert code == 0, err
    assert "the file's Workers setting (100000): this machine has" in stdout


_options = st.sampled_from(["--seed", "--chunk-size", "--max-slope", "--scheduler-timeout", "--workers"])
_numbers = st.one_of(st.sampled_from(HOSTILE), st.floats(allow_nan=True, allow_infinity=True).map(repr),
                     st.integers(-2**40, 2**40).map(str))


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(chosen=st.dictionaries(_options, _numbers, max_size=3),
       radii=st.tuples(_numbers, _numbers).map(":".join))
def test_fuzz_scatter_options(strew, scene_file: Path, chosen: dict[str, str], radii: str) -> None:
    """Any numbers for the options: a plan is written, or one line says which option to change."""
    plan = scene_file.parent / "plan.json"
    plan.unlink(missing_ok=True)
    args = ["scatter", scene_file, "--plan", plan, f"--layer=Stones:{radii}"]
    args += [f"{option}={value}" for option, value in chosen.items()]
    try:
        code, _, err = strew(*args)
    except SystemExit as stop:  # argparse: a word where it wants an integer
        assert stop.code == 2
        return  # one line too: test_usage_errors_are_one_line
    if code == 0:
        assert plan.is_file()
    else:
        _refused((code, "", err))
        assert not plan.exists()


class _Labels:
    """Stands in for a UILayout and keeps the labels a panel draws."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def __getattr__(self, name: str):
        return lambda *args, **kwargs: self

    def label(self, text: str = "", **kwargs) -> _Labels:
        self.texts.append(text)
        return self


@pytest.mark.parametrize("workers", [1, 100000])
def test_the_panel_says_when_workers_are_capped(strew_extension, workers: int) -> None:
    panels = importlib.import_module(f"{strew_extension.__name__}.panels.scatter")
    cores = importlib.import_module(f"{strew_extension.__name__}.core.pool").default_workers()
    bpy.context.scene.strew.workers = workers
    drawn = _Labels()
    panels.STREW_PT_scatter_large.draw(type("Panel", (), {"layout": drawn})(), bpy.context)
    note = f"This machine has {cores} cores: {cores} workers run"
    assert (note in drawn.texts) == (workers > cores)


USAGE = [
    (["scatter", "{scene}", "--seed", "abc"], "argument --seed: invalid int value: 'abc'", "scatter"),
    (["scatter", "{scene}", "--workers", "2.5"], "argument --workers: invalid int value: '2.5'", "scatter"),
    (["scatter", "{scene}", "--chunk-size", "big"], "argument --chunk-size: invalid float value: 'big'", "scatter"),
    (["scatter", "{scene}", "--size", "3"], "unrecognized arguments: --size 3", ""),
    (["room", "{scene}", "--size", "1", "2"], "argument --size: expected 3 arguments", "room"),
    ([], "the following arguments are required: COMMAND", ""),
    (["fly"], "argument COMMAND: invalid choice: 'fly'", ""),
]


@pytest.mark.parametrize(("args", "message", "command"), USAGE, ids=[m for _, m, _ in USAGE])
def test_usage_errors_are_one_line(strew, scene_file: Path, capsys, args: list[str], message: str,
                                   command: str) -> None:
    with pytest.raises(SystemExit) as stop:
        strew(*[a.format(scene=scene_file) for a in args])
    assert stop.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    prog = " ".join(["python -m strew", command]).strip()
    assert len(lines) == 1 and lines[0].startswith(f"strew: error: {message}"), lines  # argparse's own words
    assert lines[0].endswith(f"; `{prog} --help` lists the options"), lines
