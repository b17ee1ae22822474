"""The robot file format's record (RobotModelData: the one record between a file and a robot,
turned into a ScrewRobot or a DHRobot) and its bounded file access."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import sympy as sp

import robolab.screw.robot as screw_robot
from robolab import JointFriction, ScrewRobot
from robolab.models.file_format import (
    MAX_ROBOT_FILE_BYTES,
    RobotModelData,
    check_text_size,
    read_source,
    shorten,
    too_large,
    write_text,
)
from robolab.models.library import load_robot
from robolab.models.reading import read_robot_model
from robolab.symbols import q1, q3


def one_joint_record(**changes) -> RobotModelData:
    """A record of a 1R arm written by hand: joint on z at the base, end-effector at x = 1."""
    x = np.eye(4)
    x[0, 3] = 1.0
    fields = {
        "name": "1R",
        "description": "a test arm",
        "home_ee_pose": x,
        "screw_axes_space": np.array([[0.0], [0], [1], [0], [0], [0]]),
        "link_frames": np.array([x, np.eye(4)]),
        "spatial_inertias": np.array([np.diag([0, 0, 0, 2.0, 2.0, 2.0])]),
        "gravity": np.array([0, -9.81, 0]),
        "joint_names": ("j1",),
        "joint_types": ("revolute",),
        "joint_limits": np.array([[-np.pi, np.pi]]),
        "source": {"citation": "by hand", "document": "", "changes": []},
    }
    return RobotModelData(**(fields | changes))


# ------------------------------------------------------------------ the record


def test_the_record_derives_the_body_screw_axes_and_the_masses():
    record = one_joint_record()
    # B = [Ad_(M^-1)] S: the axis seen from the end-effector, 1 m behind it along x.
    np.testing.assert_array_equal(record.screw_axes_body[:, 0], [0, 0, 1, 0, 1, 0])
    assert record.n_joints == 1
    assert record.masses.tolist() == [2.0]


def test_the_record_becomes_a_screw_robot_with_its_gravity_and_friction():
    friction = JointFriction(viscous=0.5)
    robot = one_joint_record(friction=friction).to_screw(gravity=[0, 0, -1.62])
    assert isinstance(robot, ScrewRobot) and robot.joint_names == ("j1",)
    assert robot.gravity.tolist() == [0, 0, -1.62]
    assert robot.friction == friction
    assert one_joint_record().to_screw().gravity.tolist() == [0, -9.81, 0]


def test_a_record_without_the_asked_dh_table_says_what_it_has():
    with pytest.raises(ValueError, match=r"robot '1R' has no DH table .*load it with form='screw'"):
        one_joint_record().to_dh()
    puma = read_robot_model("puma560")
    modified_only = dataclasses.replace(puma, dh={"modified": puma.dh["modified"]})
    assert modified_only.to_dh().convention == "modified"  # the only table there is
    with pytest.raises(
        ValueError, match=r"robot 'puma560' has no standard DH table; it has: \['modified'\]"
    ):
        modified_only.to_dh("standard")


def test_dh_form_builds_exact_sympy_numbers_from_the_parsed_floats():
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


# ------------------------------------------------------------------ one record, one validator


def test_a_read_model_becomes_a_robot_without_its_arrays_checked_twice(monkeypatch):
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


# ------------------------------------------------------------------ file access


def test_long_texts_are_shortened_in_the_middle():
    assert shorten("x" * 34) == "x" * 34  # up to 2 * 12 + 10 characters: whole
    assert shorten("1" * 5001) == "111111111111…111111111111 (5001 digits)"
    assert shorten("-" + "9" * 40) == "-99999999999…999999999999 (40 digits)"
    assert shorten("ab" * 20, keep=3) == "aba…bab (40 characters)"


def test_a_source_is_a_robot_name_or_a_path():
    text, where = read_source("planar2r")
    assert where == "planar2r.json" and '"name": "planar2r"' in text
    with pytest.raises(
        TypeError, match=r"name_or_path must be a robot name or a file path, got int"
    ):
        read_source(3)
    with pytest.raises(ValueError, match=r"unknown robot 'r2d2'; the bundled robots are: panda, "):
        read_source("r2d2")


def test_write_text_writes_a_file_and_refuses_a_directory(tmp_path):
    write_text(tmp_path / "r.json", "{}\n")
    assert (tmp_path / "r.json").read_text(encoding="utf-8") == "{}\n"
    with pytest.raises(ValueError, match=r"cannot write robot model file .*: it is a directory"):
        write_text(tmp_path, "{}\n")


def test_text_is_held_to_the_file_limit_in_its_utf8_bytes():
    limit = MAX_ROBOT_FILE_BYTES
    check_text_size("a" * limit, "URDF text", "URDF text")  # exactly the limit is allowed
    with pytest.raises(ValueError, match=rf"^URDF text: it has {limit + 1} characters \(as many "):
        check_text_size("a" * (limit + 1), "URDF text", "URDF text")
    # 2 bytes a character in UTF-8: half as many characters already exceed the limit
    with pytest.raises(ValueError, match=rf"^URDF text: it has {limit + 2} bytes, more than the "):
        check_text_size("é" * (limit // 2 + 1), "URDF text", "URDF text")
    check_text_size("\ud800", "URDF text", "URDF text")  # counted, not encoded: the parser says


def test_a_file_and_a_text_too_large_are_refused_in_the_same_words():
    error = too_large("cannot read URDF file r.urdf", "has 9 bytes", "a .urdf file")
    assert str(error) == (
        f"cannot read URDF file r.urdf: it has 9 bytes, more than the {MAX_ROBOT_FILE_BYTES} "
        "bytes robolab reads (robolab.models.file_format.MAX_ROBOT_FILE_BYTES); expected a "
        ".urdf file no larger than that"
    )


def test_a_long_unknown_name_or_path_is_shortened_in_the_message(tmp_path):
    with pytest.raises(ValueError, match=r"^unknown robot 'xxxxxxxxxxxx…xxxxxxxxxxxx \(100000 "):
        read_source("x" * 100_000)
    with pytest.raises(ValueError, match=r"^cannot read robot model file .{100}…") as caught:
        read_source(str(tmp_path / ("y" * 100_000 + ".json")))
    assert len(str(caught.value)) < 500
