"""The model file format: listing, loading, saving, validation messages, exchange, packaging."""

from __future__ import annotations

import copy
import dataclasses
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import jsonschema
import numpy as np
import pytest

from robolab import ScrewRobot
from robolab.models.library import (
    PlausibilityException,
    RobotModelData,
    check_plausibility,
    format_robot_json,
    list_robots,
    load_robot,
    read_robot_model,
    save_robot,
    tidy_number,
)

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["panda", "planar2r", "planar3r", "puma560", "scara", "stanford", "ur5"]
SCHEMA = json.loads((ROOT / "robots" / "robot.schema.json").read_text(encoding="utf-8"))


def bundled(name: str) -> dict:
    return json.loads((ROOT / "robots" / f"{name}.json").read_text(encoding="utf-8"))


def write(tmp_path: Path, data: dict, name: str = "robot.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def corrupted(name: str, corrupt) -> dict:
    """A bundled file's data after ``corrupt(data)`` changed it in place."""
    data = bundled(name)
    corrupt(data)
    return data


def assert_refused(data: dict, message: str, tmp_path: Path) -> None:
    """Reading ``data`` from robot.json fails with ``message`` (a regex) after the file name."""
    with pytest.raises(ValueError, match=r"robot\.json: " + message):
        read_robot_model(write(tmp_path, data))


# ------------------------------------------------------------------ listing and loading


def test_list_robots_gives_every_bundled_model_with_a_one_line_description():
    robots = list_robots()
    assert list(robots) == NAMES
    for name, description in robots.items():
        assert description and "\n" not in description and len(description) < 100, name


def test_unknown_name_lists_the_available_ones():
    with pytest.raises(ValueError, match=r"unknown robot 'ur10'; the bundled robots are: panda, "):
        load_robot("ur10")


def test_missing_file_is_named(tmp_path):
    with pytest.raises(ValueError, match=r"cannot read robot model file .*nothing\.json"):
        load_robot(tmp_path / "nothing.json")


@pytest.mark.parametrize("name", NAMES)
def test_every_bundled_model_loads_as_a_screw_robot(name):
    robot = load_robot(name)
    model = read_robot_model(name)
    assert robot.n_joints == model.n_joints
    assert np.array_equal(robot.screw_axes_space, model.screw_axes_space)
    assert np.array_equal(robot.link_frames, model.link_frames)
    assert np.array_equal(robot.spatial_inertias, model.spatial_inertias)
    assert np.array_equal(robot.gravity, model.gravity)
    assert tuple(robot.joint_names) == model.joint_names


def test_gravity_argument_overrides_the_file():
    assert load_robot("planar2r").gravity.tolist() == [0, -9.81, 0]
    assert load_robot("planar2r", gravity=[0, 0, -1.62]).gravity.tolist() == [0, 0, -1.62]
    with pytest.raises(ValueError, match="gravity"):
        load_robot("planar2r", gravity=[0, 0])


def test_form_and_convention_arguments_are_checked():
    with pytest.raises(ValueError, match="form must be 'screw' or 'dh', got 'moro'"):
        load_robot("ur5", form="moro")
    with pytest.raises(ValueError, match="convention applies to form='dh' only"):
        load_robot("ur5", convention="standard")
    with pytest.raises(ValueError, match="robot 'ur5' has no DH table"):
        load_robot("ur5", form="dh")
    with pytest.raises(
        ValueError, match="convention must be 'standard' or 'modified', got 'craig'"
    ):
        read_robot_model("puma560").to_dh("craig")


def test_loads_from_a_path_given_as_text_or_path(tmp_path):
    path = tmp_path / "copy.json"
    path.write_text((ROOT / "robots" / "scara.json").read_text(encoding="utf-8"))
    assert read_robot_model(str(path)).name == "scara"
    assert read_robot_model(path).name == "scara"


# ------------------------------------------------------------------ saving


@pytest.mark.parametrize("name", NAMES)
def test_saving_a_loaded_model_reproduces_the_file_exactly(name, tmp_path):
    text = (ROOT / "robots" / f"{name}.json").read_text(encoding="utf-8")
    assert format_robot_json(read_robot_model(name)) == text
    path = save_robot(read_robot_model(name), tmp_path / f"{name}.json")
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("name", NAMES)
def test_screw_robot_round_trip_is_exact(name, tmp_path):
    robot = load_robot(name)
    path = save_robot(robot, tmp_path / "saved.json")
    again = load_robot(path)
    for field in ("home_ee_pose", "screw_axes_space", "link_frames", "spatial_inertias", "gravity"):
        assert np.array_equal(getattr(again, field), getattr(robot, field)), field
    assert np.array_equal(np.asarray(again.joint_limits), np.asarray(robot.joint_limits))
    assert tuple(again.joint_types) == tuple(robot.joint_types)
    saved = read_robot_model(path)
    assert saved.source["citation"] == "not recorded"


def test_round_trip_is_exact_for_numbers_that_are_not_short_decimals(tmp_path):
    model = read_robot_model("planar2r")  # holds 1/12 and -9.81
    inertias = model.spatial_inertias.copy()
    inertias[0, 0, 0] = 1 / 3
    inertias[0, 3:, 3:] *= np.pi
    changed = type(model)(**{**model.__dict__, "spatial_inertias": inertias, "dh": {}})
    again = read_robot_model(save_robot(changed, tmp_path / "r.json"))
    assert np.array_equal(again.spatial_inertias, inertias)


def test_save_records_the_provenance_given(tmp_path):
    path = save_robot(
        load_robot("planar2r"),
        tmp_path / "mine.json",
        description="my arm",
        source={"citation": "lab measurements, 2025", "document": "notebook 3", "changes": []},
        plausibility_exceptions=[{"link": 1, "check": "mass", "reason": "test"}],
    )
    model = read_robot_model(path)
    assert model.description == "my arm"
    assert model.source["citation"] == "lab measurements, 2025"
    assert model.plausibility_exceptions == (PlausibilityException(1, "mass", "test"),)


def test_save_refuses_what_is_not_a_robot(tmp_path):
    with pytest.raises(
        TypeError, match="robot must be a RobotModelData, a ScrewRobot or a DHRobot"
    ):
        save_robot({"name": "x"}, tmp_path / "x.json")


def test_tidy_removes_float_noise_only():
    assert tidy_number(0.39499999999999996) == 0.395
    assert tidy_number(1e-13) == 0.0
    assert tidy_number(-0.0) == 0.0 and str(tidy_number(-0.0)) == "0.0"
    # Whole degrees keep every digit (DH angles read back as exact k·π/12).
    for value in (np.pi / 2, -np.pi, 170 * np.pi / 180, 0.817250000001, 1e-12, 123456.789):
        assert tidy_number(value) == value
        assert tidy_number(tidy_number(value)) == tidy_number(value)
    # Everything else keeps 12 significant digits.
    assert tidy_number(1 / 12) == 0.0833333333333
    assert tidy_number(0.014107248642161837) == 0.0141072486422


@pytest.mark.parametrize("value", [0.014107248642161837, 1 / 12, -0.12275373721398453, 2.79e-5])
def test_tidy_does_not_see_the_last_bits(value):
    """Two CPUs' BLAS kernels differ in the last bit or two; the tidy number does not."""
    neighbours = [value]
    for _ in range(4):
        neighbours = [
            np.nextafter(neighbours[0], -np.inf),
            *neighbours,
            np.nextafter(neighbours[-1], np.inf),
        ]
    assert len({tidy_number(x) for x in neighbours}) == 1


def test_files_are_written_one_matrix_row_per_line():
    text = format_robot_json(read_robot_model("ur5"))
    assert '  "home_ee_pose": [\n    [-1, 0, 0, 0.81725],\n    [0, 0, 1, 0.19145],\n' in text
    assert "      [0, 0, 1, 0.089159],\n" in text


# ------------------------------------------------------------------ validation


MALFORMED = [
    (lambda d: d.pop("link_frames"), r"\$\.link_frames: expected this required key, got nothing"),
    (lambda d: d.update(colour="red"), r"\$\.colour: expected one of the keys .*unknown key"),
    (lambda d: d.update(schema_version=2), r"\$\.schema_version: expected a version up to 1"),
    (
        lambda d: d.update(n_joints=0),
        r"\$\.n_joints: expected a positive integer, got the number 0",
    ),
    (
        lambda d: d["link_frames"][2].__setitem__(1, [0, 1, 0]),
        r"\$\.link_frames\[2\]\[1\]: expected a row of 4 numbers, got a list of 3 items",
    ),
    (
        lambda d: d["link_frames"].pop(),
        r"\$\.link_frames: expected a list of 7 items, got a list of 6 items",
    ),
    (
        lambda d: d["spatial_inertias"][1][3].__setitem__(3, "8.393"),
        r"\$\.spatial_inertias\[1\]\[3\]\[3\]: expected a finite number, got the text '8.393'",
    ),
    (
        lambda d: d["screw_axes_space"].__setitem__(1, [0, 2, 0, -0.089159, 0, 0]),
        r"\$\.screw_axes_space\[1\]: expected a revolute screw axis \[ω; v\] with \|ω\| = 1",
    ),
    (
        lambda d: d["joint_types"].__setitem__(2, "hinge"),
        r'\$\.joint_types\[2\]: expected "revolute" or "prismatic", got the text \'hinge\'',
    ),
    (
        lambda d: d["joint_limits"].__setitem__(0, [1, -1]),
        r"\$\.joint_limits\[0\]: expected \[lower, upper\] with lower <= upper",
    ),
    (
        lambda d: d["link_frames"][1][0].__setitem__(0, 0.5),
        r"\$\.link_frames\[1\]: expected a rotation part that is orthonormal",
    ),
    (
        lambda d: d["link_frames"][1][3].__setitem__(3, 2),
        r"\$\.link_frames\[1\]\[3\]: expected the bottom row \[0, 0, 0, 1\]",
    ),
    (
        lambda d: d["home_ee_pose"][0].__setitem__(3, 0.8),
        r"\$\.home_ee_pose: expected the product of the link frames",
    ),
    (
        lambda d: d["screw_axes_body"][0].__setitem__(3, 0.5),
        r"\$\.screw_axes_body: expected \[Ad_\(M\^-1\)\] S",
    ),
    (
        lambda d: d["spatial_inertias"][0][3].__setitem__(3, -3.7),
        r"\$\.spatial_inertias\[0\]\[3\.\.5\]: expected the lower-right block m·1",
    ),
    (
        lambda d: [d["spatial_inertias"][0][k].__setitem__(k, -3.7) for k in (3, 4, 5)],
        r"\$\.spatial_inertias\[0\]\[3\]\[3\]: expected a mass >= 0, got the number -3.7",
    ),
    (
        lambda d: d["spatial_inertias"][0][0].__setitem__(1, 0.5),
        r"\$\.spatial_inertias\[0\] \(I_c block\): expected a symmetric inertia tensor",
    ),
    (
        lambda d: d["spatial_inertias"][0][0].__setitem__(4, 0.1),
        r"\$\.spatial_inertias\[0\]: expected G = \[\[I_c, 0\], \[0, m 1\]\]",
    ),
    (
        lambda d: d.update(units={"length": "mm", "angle": "rad", "mass": "kg", "time": "s"}),
        r"\$\.units: expected the SI units",
    ),
    (lambda d: d["source"].pop("citation"), r"\$\.source\.citation: expected this required key"),
    (
        lambda d: d.update(description="two\nlines"),
        r"\$\.description: expected a one-line description",
    ),
    (
        lambda d: d.update(plausibility_exceptions=[{"link": 9, "check": "mass", "reason": "x"}]),
        r"\$\.plausibility_exceptions\[0\]\.link: expected a link number 1\.\.6",
    ),
    (
        lambda d: d.update(gravity=[0, 0, "-9.81"]),
        r"\$\.gravity\[2\]: expected a finite number, got the text '-9.81'",
    ),
    (
        lambda d: d["joint_names"].__setitem__(1, d["joint_names"][0]),
        r"\$\.joint_names: expected distinct names",
    ),
]


@pytest.mark.parametrize(("corrupt", "message"), MALFORMED)
def test_malformed_file_names_the_json_path_and_what_was_expected(corrupt, message, tmp_path):
    assert_refused(corrupted("ur5", corrupt), message, tmp_path)


DH_MALFORMED = [
    (
        lambda d: d["dh"]["standard"]["rows"][2].__setitem__(4, "p"),
        r'\$\.dh\.standard\.rows\[2\]\[4\]: expected "r" \(joint_types\[2\] is revolute\)',
    ),
    (
        lambda d: d["dh"]["modified"]["masses"].__setitem__(1, 17.5),
        r"\$\.dh\.modified\.masses\[1\]: expected the mass in spatial_inertias\[1\] \(17\.4\)",
    ),
    (
        lambda d: d["dh"].update(craig=d["dh"]["modified"]),
        r'\$\.dh\.craig: expected the key "standard" or "modified"',
    ),
    (
        lambda d: d["dh"]["standard"]["rows"][0].__setitem__(1, "pi/2"),
        r"\$\.dh\.standard\.rows\[0\]\[1\]: expected a finite number, got the text 'pi/2'",
    ),
    (
        lambda d: d["dh"]["standard"]["inertia_tensors"][1][0].__setitem__(0, -1),
        r"\$\.dh\.standard\.inertia_tensors\[1\]: expected a positive semi-definite",
    ),
]


@pytest.mark.parametrize(("corrupt", "message"), DH_MALFORMED)
def test_malformed_dh_section_names_the_json_path(corrupt, message, tmp_path):
    assert_refused(corrupted("puma560", corrupt), message, tmp_path)


def test_invalid_json_and_non_finite_numbers_are_refused(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"name": "x",', encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.json: not valid JSON \(line 1, column 14"):
        read_robot_model(path)
    path.write_text('{"gravity": [0, 0, NaN]}', encoding="utf-8")
    with pytest.raises(ValueError, match="NaN is not valid JSON; write finite numbers only"):
        read_robot_model(path)
    path.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(ValueError, match=r"\$: expected a JSON object, got a list of 2 items"):
        read_robot_model(path)


def test_nothing_in_a_file_is_evaluated(tmp_path):
    """Text where a number belongs is refused, never run (no eval, no sympify of text)."""
    marker = tmp_path / "ran.txt"
    payload = f"__import__('pathlib').Path({str(marker)!r}).write_text('x')"
    data = bundled("puma560")
    data["dh"]["standard"]["rows"][0][2] = payload
    with pytest.raises(ValueError, match=r"rows\[0\]\[2\]: expected a finite number, got the text"):
        load_robot(write(tmp_path, data), form="dh")
    data = bundled("puma560")
    data["gravity"] = [0, 0, payload]
    with pytest.raises(ValueError, match=r"\$\.gravity\[2\]: expected a finite number"):
        load_robot(write(tmp_path, data))
    assert not marker.exists()


# ------------------------------------------------------------------ schema file


@pytest.mark.parametrize("name", NAMES)
def test_bundled_files_satisfy_the_json_schema(name):
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.validate(bundled(name), SCHEMA, cls=jsonschema.Draft202012Validator)


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda d: d.pop("source"),
        lambda d: d.update(colour="red"),
        lambda d: d["link_frames"][2].__setitem__(1, [0, 1, 0]),
        lambda d: d["joint_types"].__setitem__(2, "hinge"),
        lambda d: d.update(units={"length": "mm", "angle": "rad", "mass": "kg", "time": "s"}),
        lambda d: d["dh"]["standard"]["rows"][0].__setitem__(4, "x"),
        lambda d: d.update(plausibility_exceptions=[{"link": 1, "check": "vibes", "reason": "x"}]),
    ],
)
def test_schema_and_reader_refuse_the_same_structural_errors(corrupt, tmp_path):
    data = corrupted("puma560", corrupt)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, SCHEMA, cls=jsonschema.Draft202012Validator)
    assert_refused(data, r"\$", tmp_path)


# ------------------------------------------------------------------ exchange


#: The keys ModernRoboticsBook.jl's load_robot reads (screw axes as n rows of 6).
MODERNROBOTICSBOOK_JL_KEYS = (
    "name",
    "n_joints",
    "home_ee_pose",
    "screw_axes_space",
    "screw_axes_body",
    "link_frames",
    "spatial_inertias",
    "joint_names",
    "joint_types",
    "joint_limits",
)


def test_files_carry_every_key_modernroboticsbook_jl_reads():
    for name in NAMES:
        data = bundled(name)
        assert set(MODERNROBOTICSBOOK_JL_KEYS) <= set(data), name
        assert len(data["screw_axes_space"]) == data["n_joints"]
        assert all(len(row) == 6 for row in data["screw_axes_space"])


def test_a_modernroboticsbook_jl_file_loads_without_provenance(tmp_path):
    data = {key: bundled("ur5")[key] for key in MODERNROBOTICSBOOK_JL_KEYS}
    model = read_robot_model(write(tmp_path, data, "ur5_jl.json"))
    assert model.source["citation"] == "not recorded"
    assert "ModernRoboticsBook.jl" in model.description
    assert model.gravity.tolist() == [0, 0, -9.81]
    assert np.array_equal(model.link_frames, read_robot_model("ur5").link_frames)
    data["gravity"] = [0, 0, -9.81]
    with pytest.raises(ValueError, match=r"\$\.gravity: expected one of the keys .*ModernRobot"):
        read_robot_model(write(tmp_path, data, "ur5_jl.json"))


# ------------------------------------------------------------------ plausibility


def test_plausibility_flags_what_no_exception_accepts(tmp_path):
    data = bundled("puma560")
    data.pop("plausibility_exceptions")
    model = read_robot_model(write(tmp_path, data))
    findings = check_plausibility(model)
    assert [(f.link, f.check, f.accepted) for f in findings] == [
        (1, "mass", None),
        (1, "inertia_triangle", None),
        (3, "inertia_triangle", None),
    ]
    assert "NOT ACCEPTED" in str(findings[0])
    assert "largest exceeds the sum of the others by 0.0075" in findings[2].detail


def test_zero_mass_and_singular_inertia_are_accepted_by_the_reader():
    """Published idealisations load (Clarification): Puma link 1 has m = 0, diag(0, 0.35, 0)."""
    model = read_robot_model("puma560")
    assert model.masses[0] == 0
    assert np.linalg.matrix_rank(model.spatial_inertias[0, :3, :3]) == 1


# ------------------------------------------------------------------ packaging


def test_wheel_contains_the_models_and_loads_them_outside_the_checkout(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(wheels),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = wheels.glob("robolab-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {f"robolab/robots/{name}.json" for name in NAMES} | {
        "robolab/robots/README.md",
        "robolab/robots/robot.schema.json",
        "robolab/robots/urdf/panda.urdf",
        "robolab/robots/urdf/panda.LICENSE.txt",
    }
    assert expected <= names, expected - names
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); import robolab.models.library as lib; "
        "assert lib.__file__.startswith(sys.argv[1]), lib.__file__; "
        "print(sorted(lib.list_robots())); print(lib.read_robot_model('panda').n_joints)"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(target)],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.stdout.splitlines() == [str(NAMES), "7"]


def test_deep_copies_of_file_data_do_not_alias():
    model = read_robot_model("ur5")
    data = copy.deepcopy(bundled("ur5"))
    data["link_frames"][0][0][0] = 99
    assert model.link_frames[0][0, 0] == 1


# ------------------------------------------------------------------ DH form


def test_dh_form_builds_exact_sympy_numbers_from_the_parsed_floats():
    import sympy as sp

    from robolab.symbols import q1, q3

    robot = load_robot("puma560", form="dh")
    assert robot.convention == "standard"
    alpha1 = robot.dh_parameters[0][1]
    assert alpha1 == sp.pi / 2  # 1.5707963267948966 in the file: an exact multiple of π
    assert robot.dh_parameters[0][3] == q1
    assert robot.masses[1] == sp.Float(17.4) and robot.masses[0] == 0
    assert float(robot.dh_parameters[0][2]) == 0.67183  # 26.45 in
    stanford = load_robot("stanford", form="dh", convention="modified")
    assert stanford.convention == "modified"
    assert stanford.joint_type(3) == "p" and stanford.dh_parameters[2][2] == q3
    assert [tuple(map(float, limits)) for limits in stanford.joint_limits][2] == (0.3048, 1.27)


def test_dh_form_takes_gravity_from_the_file_or_the_argument():
    assert [float(g) for g in load_robot("planar2r", form="dh").gravity] == [0, -9.81, 0]
    moon = load_robot("planar2r", form="dh", gravity=[0, -1.62, 0])
    assert [float(g) for g in moon.gravity] == [0, -1.62, 0]


@pytest.mark.parametrize("convention", ["standard", "modified"])
def test_dh_robot_round_trip_keeps_the_table_exactly(convention, tmp_path):
    robot = load_robot("puma560", form="dh", convention=convention)
    saved = read_robot_model(save_robot(robot, tmp_path / "puma.json"))
    original = read_robot_model("puma560").dh[convention]
    table = saved.dh[convention]
    assert list(saved.dh) == [convention]
    assert table.rows == original.rows
    assert np.array_equal(table.masses, original.masses)
    assert np.array_equal(table.cm_positions, original.cm_positions)
    assert np.array_equal(table.inertia_tensors, original.inertia_tensors)
    assert table.tool is None and original.tool is None
    assert saved.joint_limits.tolist() == read_robot_model("puma560").joint_limits.tolist()


def test_saving_a_dh_robot_with_symbols_left_is_refused(tmp_path):
    from robolab import DHRobot
    from robolab.symbols import l1, q1

    robot = DHRobot((l1, 0, 0, q1))
    with pytest.raises(ValueError, match=r"row 1 of the DH table has a symbolic a \(l_1\)"):
        save_robot(robot, tmp_path / "x.json")


# ------------------------------------------------------------------ one record, one validator


def test_a_read_model_becomes_a_robot_without_its_arrays_checked_twice(monkeypatch):
    import robolab.screw.robot as screw_robot

    model = read_robot_model("puma560")
    assert model.checked
    expected = ScrewRobot(
        model.name,
        model.home_ee_pose,
        model.screw_axes_space,
        model.link_frames,
        model.spatial_inertias,
        gravity=model.gravity,
        joint_names=model.joint_names,
        joint_types=model.joint_types,
        joint_limits=model.joint_limits.tolist(),
        plausibility_exceptions=model.plausibility_exceptions,
    )

    def checked_again(*args, **kwargs):
        raise AssertionError("the reader's arrays were checked a second time")

    for name in ("screw_axis_problem", "transform_problem"):
        monkeypatch.setattr(screw_robot, name, checked_again)
    assert model.to_screw() == expected


def test_a_record_built_by_hand_is_checked_by_the_robot():
    model = read_robot_model("planar2r")
    axes = model.screw_axes_space.copy()
    axes[2, 0] = 2.0
    fields = {f.name: getattr(model, f.name) for f in dataclasses.fields(RobotModelData)}
    by_hand = RobotModelData(**{**fields, "screw_axes_space": axes, "checked": False})
    with pytest.raises(ValueError, match=r"^screw_axes_space\[:, 0\] \(joint 'joint1'\): a screw"):
        by_hand.to_screw()


def test_the_file_reader_and_the_robot_judge_a_screw_axis_alike(tmp_path):
    # ω of 1e-7 on a prismatic joint: more than robolab.conventions.ZERO_OMEGA_TOLERANCE,
    # so neither door takes it for a prismatic axis (the reader once allowed 1e-6).
    data = bundled("scara")
    k = data["joint_types"].index("prismatic")
    data["screw_axes_space"][k][0] = 1e-7
    data.pop("screw_axes_body")
    data.pop("dh")
    with pytest.raises(ValueError, match=rf"\$\.screw_axes_space\[{k}\]: expected a prismatic"):
        read_robot_model(write(tmp_path, data))
    model = read_robot_model("scara")
    with pytest.raises(ValueError, match=rf"screw_axes_space\[:, {k}\] .*: a screw axis needs"):
        ScrewRobot(
            "scara",
            model.home_ee_pose,
            np.array(data["screw_axes_space"]).T,
            model.link_frames,
            model.spatial_inertias,
            plausibility_exceptions=model.plausibility_exceptions,
        )
