"""Writing a robot file (format_robot_json, tidy_number, save_robot's record of a robot):
the text read_robot_model reads back unchanged, one matrix row per line."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from robot_files import NAMES, ROOT

from robolab import DHRobot
from robolab.models.library import load_robot, save_robot
from robolab.models.reading import read_robot_model
from robolab.models.writing import format_robot_json, tidy_number
from robolab.symbols import l1, q1

# ------------------------------------------------------------------ the file's text


@pytest.mark.parametrize("name", NAMES)
def test_saving_a_loaded_model_reproduces_the_file_exactly(name, tmp_path):
    text = (ROOT / "robots" / f"{name}.json").read_text(encoding="utf-8")
    assert format_robot_json(read_robot_model(name)) == text
    path = save_robot(read_robot_model(name), tmp_path / f"{name}.json")
    assert path.read_text(encoding="utf-8") == text


def test_files_are_written_one_matrix_row_per_line():
    text = format_robot_json(read_robot_model("ur5"))
    assert '  "home_ee_pose": [\n    [-1, 0, 0, 0.81725],\n    [0, 0, 1, 0.19145],\n' in text
    assert "      [0, 0, 1, 0.089159],\n" in text


def test_round_trip_is_exact_for_numbers_that_are_not_short_decimals(tmp_path):
    model = read_robot_model("planar2r")  # holds 1/12 and -9.81
    inertias = model.spatial_inertias.copy()
    inertias[0, 0, 0] = 1 / 3
    inertias[0, 3:, 3:] *= np.pi
    changed = type(model)(**{**model.__dict__, "spatial_inertias": inertias, "dh": {}})
    again = read_robot_model(save_robot(changed, tmp_path / "r.json"))
    assert np.array_equal(again.spatial_inertias, inertias)


# ------------------------------------------------------------------ tidy numbers


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


def test_a_tidy_file_holds_tidy_numbers():
    model = read_robot_model("planar2r")
    noisy = dataclasses.replace(model, gravity=np.array([0.0, 0.1 + 0.2, 0.0]))
    assert '"gravity": [0, 0.30000000000000004, 0],' in format_robot_json(noisy)
    assert '"gravity": [0, 0.3, 0],' in format_robot_json(noisy, tidy=True)


# ------------------------------------------------------------------ DH tables


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
    robot = DHRobot((l1, 0, 0, q1))
    with pytest.raises(ValueError, match=r"row 1 of the DH table has a symbolic a \(l_1\)"):
        save_robot(robot, tmp_path / "x.json")
