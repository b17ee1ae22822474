"""The robot library: listing the bundled robots, loading them as robots, saving robots,
and the robot files packaged in the wheel."""

from __future__ import annotations

import subprocess
import sys
import zipfile

import numpy as np
import pytest
from robot_files import NAMES, ROOT

from robolab.models.library import (
    PlausibilityException,
    list_robots,
    load_robot,
    read_robot_model,
    save_robot,
)

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


def test_dh_form_takes_gravity_from_the_file_or_the_argument():
    assert [float(g) for g in load_robot("planar2r", form="dh").gravity] == [0, -9.81, 0]
    moon = load_robot("planar2r", form="dh", gravity=[0, -1.62, 0])
    assert [float(g) for g in moon.gravity] == [0, -1.62, 0]


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


# ------------------------------------------------------------------ saving


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
    (wheel,) = wheels.glob("robolab_edu-*.whl")
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


# ------------------------------------------------------------------ a URDF, told by its content

URDF_DATA = ROOT / "tests" / "data" / "urdf"


def test_a_urdf_loads_in_one_call_whatever_its_file_is_called(tmp_path):
    # Issue 28: load_robot("arm.urdf") said "not valid JSON".
    robot = load_robot(URDF_DATA / "branch.urdf", ee_link="tcp")
    assert robot.joint_names == ("j1", "j2", "j3")
    assert any("locked at q = 0" in note for note in robot.notes)
    renamed = tmp_path / "branch.json"  # a URDF whose name says JSON is still a URDF
    renamed.write_bytes((URDF_DATA / "branch.urdf").read_bytes())
    again = load_robot(renamed, ee_link="tcp")
    assert np.array_equal(again.spatial_inertias, robot.spatial_inertias)
    json_named_urdf = tmp_path / "ur5.urdf"  # and a model file named .urdf is a model file
    json_named_urdf.write_bytes((ROOT / "robots" / "ur5.json").read_bytes())
    assert load_robot(json_named_urdf) == load_robot("ur5")


def test_a_branching_urdf_lists_its_leaves_and_says_how_to_choose():
    with pytest.raises(ValueError, match=r"leaves \[.*'tcp'.*\]; say which chain .*ee_link="):
        load_robot(URDF_DATA / "branch.urdf")


def test_a_urdf_file_in_the_current_folder_is_found_by_its_name(tmp_path, monkeypatch):
    (tmp_path / "arm.urdf").write_bytes((URDF_DATA / "branch.urdf").read_bytes())
    monkeypatch.chdir(tmp_path)
    assert load_robot("arm.urdf", ee_link="tcp").n_joints == 3


def test_urdf_options_are_refused_for_a_model_file_and_dh_for_a_urdf():
    with pytest.raises(ValueError, match=r"^ee_link applies to a URDF only; ur5\.json is a robot"):
        load_robot("ur5", ee_link="tool0")
    with pytest.raises(ValueError, match=r"branch\.urdf is a URDF: it has no DH table"):
        load_robot(URDF_DATA / "branch.urdf", ee_link="tcp", form="dh")
    with pytest.raises(ValueError, match=r"branch\.urdf is a URDF, not a robot model file; load"):
        read_robot_model(URDF_DATA / "branch.urdf")


def test_neither_json_nor_urdf_is_named(tmp_path):
    path = tmp_path / "arm.yaml"
    path.write_text("name: arm\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"arm\.yaml: not valid JSON"):
        load_robot(path)


def test_a_urdf_errors_name_the_file(tmp_path):
    path = tmp_path / "broken.urdf"
    path.write_text("<robot name='r'><link name='a'>", encoding="utf-8")
    with pytest.raises(ValueError, match=r"^URDF file .*broken\.urdf: not well-formed XML"):
        load_robot(path)


def test_gravity_of_a_urdf_is_the_worlds():
    robot = load_robot(URDF_DATA / "branch.urdf", ee_link="tcp", gravity=[0, 0, -1.62])
    assert robot.gravity.tolist() == [0, 0, -1.62]  # the root is the base: same axes


def test_the_old_keyword_still_works():
    with pytest.warns(DeprecationWarning, match=r"load_robot\(name_or_path=...\) is now"):
        assert load_robot(name_or_path="planar2r").n_joints == 2


def test_the_bring_your_own_robot_examples_run_and_agree(capsys):
    # robots/README.md, "Bring your own robot": a URDF, a DH table, screw axes.
    import re

    text = (ROOT / "robots" / "README.md").read_text(encoding="utf-8")
    section = text.split("## Bring your own robot", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert len(blocks) == 3
    results = []
    for block in blocks:
        namespace: dict = {}
        exec(compile(block, "robots/README.md", "exec"), namespace)
        results.append(namespace)
    assert results[0]["panda"].n_joints == 7
    dh_arm, screw_arm = results[1]["arm"], results[2]["arm"]
    from robolab import gravity_forces, mass_matrix_crba

    for q in ([0.0, 0.0], [0.3, -1.1]):
        assert np.allclose(gravity_forces(dh_arm, q), gravity_forces(screw_arm, q), atol=1e-12)
        assert np.allclose(mass_matrix_crba(dh_arm, q), mass_matrix_crba(screw_arm, q), atol=1e-12)
    assert np.allclose(gravity_forces(screw_arm, [0.0, 0.0]), [19.62, 4.905])
