"""Chapter 4's new exercises and statements checked against sources outside robolab.

Exercise 1 relates Universal Robots' published standard DH table of the UR5 to the screw
model (MR's course-software UR5): the expected answer is T_s0 = Rz(π), T_6b = I. Exercise 4
puts a tool beyond the Puma's wrist centre. The references are ``modern_robotics`` with the
UR5 of MR's course software (its Slist and M01…M67, in tests/reference/screw_arms.py) and DH
products of the published tables (UR's; Corke's ``mdl_puma560`` with d1 = 0.67183 m).
"""

from __future__ import annotations

import json
from pathlib import Path

import modern_robotics as mr
import numpy as np
from reference.screw_arms import UR5_LINK_FRAMES, UR5_SCREW_AXES
from reference.singular_arms import PUMA_ROWS, frames

import robolab

ROBOTS = Path(__file__).resolve().parents[1] / "robots"


def chain(rows: list[tuple[float, float, float]], q: np.ndarray) -> np.ndarray:
    """T_0n of standard DH rows (a, α, d), revolute joints (θ = q)."""
    return frames(rows, q)[-1]


UR5_TABLE = [
    (0.0, np.pi / 2, 0.089159),
    (-0.425, 0.0, 0.0),
    (-0.39225, 0.0, 0.0),
    (0.0, np.pi / 2, 0.10915),
    (0.0, -np.pi / 2, 0.09465),
    (0.0, 0.0, 0.0823),
]
UR5_S = UR5_SCREW_AXES  # MR's Slist for its UR5, one axis per column
UR5_M = np.linalg.multi_dot(list(UR5_LINK_FRAMES))  # M = M01 M12 ... M67 of MR's listing


def test_ur5_published_table_is_the_screw_model_turned_by_pi() -> None:
    # Exercise 1's expected answer: T_sb(q) = Rz(π) T_06(q) I, with MR's FKinSpace as T_sb.
    base = np.diag([-1.0, -1.0, 1.0, 1.0])
    rng = np.random.default_rng(41)
    for _ in range(30):
        q = rng.uniform(-np.pi, np.pi, 6)
        np.testing.assert_allclose(
            mr.FKinSpace(UR5_M, UR5_S, q), base @ chain(UR5_TABLE, q), atol=1e-12
        )


def test_exercise_1_reference_matches() -> None:
    # The notebook's reference (robolab's UR5 and dh_standard) against the closed answer.
    ur5 = robolab.load_robot("ur5")
    np.testing.assert_allclose(ur5.home_ee_pose, UR5_M, atol=1e-12)
    home = chain(UR5_TABLE, np.zeros(6))
    tool = np.linalg.inv(np.diag([-1.0, -1.0, 1.0, 1.0]) @ home) @ UR5_M
    np.testing.assert_allclose(tool, np.eye(4), atol=1e-12)


PUMA_TABLE = PUMA_ROWS


def test_exercise_4_tool_position_and_that_the_wrist_moves_it() -> None:
    # Seed 44's instance: q = (20, -46, 39, -29, 20, -11)°, TCP at (0.016, 0, 0.195) in {6}.
    q = np.radians([20, -46, 39, -29, 20, -11])
    tcp = np.array([0.016, 0.0, 0.195, 1.0])
    expected = (chain(PUMA_TABLE, q) @ tcp)[:3]
    puma = robolab.load_robot("puma560", form="dh").numeric()
    np.testing.assert_allclose((puma.forward_kinematics(q) @ tcp)[:3], expected, atol=1e-12)
    turned = q + np.radians([0, 0, 0, 30, 30, 30])
    wrist_centre = chain(PUMA_TABLE, q)[:3, 3]
    np.testing.assert_allclose(chain(PUMA_TABLE, turned)[:3, 3], wrist_centre, atol=1e-12)
    assert np.linalg.norm((chain(PUMA_TABLE, turned) @ tcp)[:3] - expected) > 0.01


def test_scara_joint_limits_quoted_in_the_text() -> None:
    # "±50°, ±88°, 0–210 mm, ±180°": the model file's limits (Corke's mdl_cobra600 hard stops).
    limits = json.loads((ROBOTS / "scara.json").read_text())["joint_limits"]
    np.testing.assert_allclose(np.degrees(limits[0]), [-50, 50], atol=1e-9)
    np.testing.assert_allclose(np.degrees(limits[1]), [-88, 88], atol=1e-9)
    np.testing.assert_allclose(limits[2], [0.0, 0.21], atol=1e-12)
    np.testing.assert_allclose(np.degrees(limits[3]), [-180, 180], atol=1e-9)
