"""Chapter 4's new exercises and statements checked against sources outside robolab.

Exercise 1 relates Universal Robots' published standard DH table of the UR5 to the screw
model (MR's course-software UR5): the expected answer is T_s0 = Rz(π), T_6b = I. Exercise 4
puts a tool beyond the Puma's wrist centre. The references are ``modern_robotics`` with the
UR5 of MR's course software (its Slist and M01…M67, in tests/reference/screw_arms.py) and DH
products of the published tables (UR's; Corke's ``mdl_puma560`` with d1 = 0.67183 m).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import modern_robotics as mr
import numpy as np
from chapter_cells import notebook_cells, output_of, run_setup_cells
from reference.screw_arms import UR5_LINK_FRAMES, UR5_SCREW_AXES
from reference.singular_arms import PUMA_ROWS, frames

import robolab
from chapters.test_chapter03 import (
    SCARA_M,
    SCARA_S,
    assert_staged_hints,
    first_try,
    rot_x,
    rot_z,
    shift,
)

ROBOTS = Path(__file__).resolve().parents[2] / "robots"


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


# --- The chapter's own exercises, given the usual slips ------------------------------------------
#
# The exercises are the notebook's: its import cell and its (collapsed) exercises cell run as in
# the chapter, with the chapter's puma_numbers. Each slip must be named for what it is, and a
# first wrong try must not show the expected entries (see chapters.test_chapter03.first_try).

CELLS = notebook_cells("04-forward-kinematics-and-workspace.ipynb")


def chapter_exercises() -> dict:
    """The chapter's exercise_1 … exercise_4, fresh, made by the chapter's own cells."""
    namespace = run_setup_cells(CELLS, "%matplotlib widget")
    namespace["puma_numbers"] = robolab.load_robot("puma560", form="dh").numeric()  # section 3's
    exec(next(c.source for c in CELLS if c.source.startswith("# The exercises of")), namespace)
    return namespace


def scara_links(q: np.ndarray) -> list[np.ndarray]:
    """Corke's mdl_cobra600 standard DH rows, one transform each (as scara_dh multiplies them)."""
    rows = [
        (q[0], 0.387, 0.325, 0.0),
        (q[1], 0.0, 0.275, np.pi),
        (0.0, q[2], 0.0, 0.0),
        (q[3], 0.0, 0.0, 0.0),
    ]
    return [rot_z(t) @ shift(z=d) @ shift(x=a) @ rot_x(al) for t, d, a, al in rows]


def test_exercise_3_scara_in_degrees_is_named() -> None:
    exercise = chapter_exercises()["exercise_3"]
    p = exercise.parameters
    q = np.array([p["q1"], p["q2"], p["q3"], p["q4"]])
    right = mr.FKinSpace(SCARA_M, SCARA_S, q)
    np.testing.assert_allclose(np.linalg.multi_dot(scara_links(q)), right, atol=1e-12)
    assert exercise.with_seed(43).check(right).correct
    in_degrees = q.copy()
    in_degrees[[0, 1, 3]] = np.degrees(q[[0, 1, 3]])
    message = first_try(exercise.with_seed(43), mr.FKinSpace(SCARA_M, SCARA_S, in_degrees))
    assert message.startswith("Your answer is what the formula gives with q1, q2, q4 in degrees")
    only_q4 = q.copy()
    only_q4[3] = np.degrees(q[3])
    message = first_try(exercise.with_seed(43), mr.FKinSpace(SCARA_M, SCARA_S, only_q4))
    assert message.startswith("Your answer is what the formula gives with q4 in degrees")
    reverse = np.linalg.multi_dot(scara_links(q)[::-1])
    message = first_try(exercise.with_seed(43), reverse)
    assert message.startswith("You multiplied the link transforms in the reverse order")


def test_exercise_4_degrees_and_a_missing_tool_are_named() -> None:
    exercise = chapter_exercises()["exercise_4"]
    p = exercise.parameters
    tcp = np.array([p["dx"], 0.0, p["dz"], 1.0])
    q = np.radians(p["q_deg"])
    right = (chain(PUMA_TABLE, q) @ tcp)[:3]
    assert exercise.with_seed(44).check(right).correct
    in_degrees = (chain(PUMA_TABLE, np.array(p["q_deg"], dtype=float)) @ tcp)[:3]
    message = first_try(exercise.with_seed(44), in_degrees)
    assert message.startswith("Your answer is the TCP with q in degrees")
    wrist_centre = chain(PUMA_TABLE, q)[:3, 3]
    message = first_try(exercise.with_seed(44), wrist_centre)
    assert message.startswith("Your answer is the wrist centre")
    in_base_axes = wrist_centre + tcp[:3]
    message = first_try(exercise.with_seed(44), in_base_axes)
    assert message.startswith("Your answer adds the tool's offsets along the axes of {0}")


def test_exercise_2_ring_slips_are_named() -> None:
    exercise = chapter_exercises()["exercise_2"]
    p = exercise.parameters
    l1, l2, low, high = p["l1"], p["l2"], p["q2_min_deg"], p["q2_max_deg"]
    assert 0 < low < high  # q2 = 0 is outside the range: both ends are limits

    def r(bend):  # law of cosines
        return math.sqrt(l1**2 + l2**2 + 2 * l1 * l2 * math.cos(bend))

    right = [r(math.radians(high)), r(math.radians(low))]
    assert exercise.with_seed(42).check(right).correct
    message = first_try(exercise.with_seed(42), [r(high), r(low)])
    assert message.startswith("Your answer is what the law of cosines gives with q2 in degrees")
    message = first_try(exercise.with_seed(42), [abs(l1 - l2), l1 + l2])
    assert message.startswith("Your answer is the ring of an elbow that turns all the way round")
    message = first_try(exercise.with_seed(42), right[::-1])
    assert message.startswith("Your two distances are in the wrong order")


def test_exercise_1_swapped_transforms_are_named() -> None:
    exercise = chapter_exercises()["exercise_1"]
    right = np.stack([np.diag([-1.0, -1.0, 1.0, 1.0]), np.eye(4)])  # Rz(π), I (test above)
    assert exercise.with_seed(41).check(right).correct
    message = first_try(exercise.with_seed(41), right[::-1])
    assert message.startswith("Your two transforms are in each other's place")


def test_every_exercise_has_staged_hints() -> None:
    exercises = chapter_exercises()
    for number in range(1, 5):
        assert_staged_hints(exercises[f"exercise_{number}"])


def test_pendants_keep_the_compact_view() -> None:
    # A figsize of 4.5 in (450 px) beside the ~420 px controls is wider than JupyterLab's 844 px
    # output area at 1024×768, so the controls wrap under the figure: the pendants use the
    # default compact view.
    pendants = [c.source for c in CELLS if c.cell_type == "code" and "robolab.teach(" in c.source]
    assert len(pendants) == 4
    assert not any("figsize" in source for source in pendants)


# --- Section 6's workspaces: two elbows, the planar 3R's dexterous disc, the SCARA's slab --------
#
# The printed numbers against closed forms and screw products written here (no robolab): the
# law of cosines, the wrist-point test for the planar 3R, and MR's FKinSpace for the SCARA.


def numbers_in(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"-?\d+\.\d+|-?\d+", text)]


def test_two_elbows_reach_the_printed_point() -> None:
    lines = output_of(CELLS, "target = np.array([1.2, 0.6])").strip().splitlines()
    assert len(lines) == 2
    for line in lines:
        q1, q2, x, y = numbers_in(line)
        q1, q2 = math.radians(q1), math.radians(q2)
        hand = (math.cos(q1) + math.cos(q1 + q2), math.sin(q1) + math.sin(q1 + q2))
        np.testing.assert_allclose(hand, (1.2, 0.6), atol=1e-3)  # the angles print to 0.01°
        assert (x, y) == (1.2, 0.6)
        # law of cosines: |q2| = arccos((r² − 2)/2) for l1 = l2 = 1 m
        assert abs(abs(q2) - math.acos((1.2**2 + 0.6**2 - 2.0) / 2.0)) < 1e-3
    assert numbers_in(lines[0])[1] == -numbers_in(lines[1])[1]


def test_dexterous_workspace_counts_are_the_wrist_point_test() -> None:
    text = output_of(CELLS, "def reaches(p, phi)")
    phis = np.linspace(-np.pi, np.pi, 72, endpoint=False)
    printed = re.findall(r"hand (\S+) m from the base: (\d+) of 72", text)
    assert [d for d, _ in printed] == ["0.5", "1.0", "1.2", "2.5"]
    for distance, count in printed:
        p = np.array([float(distance), 0.0])
        wrist = p[None, :] - np.column_stack([np.cos(phis), np.sin(phis)])
        inside = np.linalg.norm(wrist, axis=1) <= 2.0 + 1e-12  # the 2R disc of radius 2 m
        assert int(count) == int(inside.sum()), distance
    # the dexterous disc is ‖p‖ ≤ l1 + l2 − l3 = 1 m: every orientation there, not beyond
    assert [int(c) for _, c in printed][:2] == [72, 72]
    assert all(int(c) < 72 for _, c in printed[2:])


def test_scara_workspace_radii_and_heights() -> None:
    text = output_of(CELLS, "tool_points = scara.numeric()")
    rho_min, rho_max = map(float, re.search(r"sampled: (\S+) m to (\S+) m", text).groups())
    folded, stretched = map(float, re.search(r"stretched: +(\S+) m and (\S+) m", text).groups())
    z_min, z_max = map(float, re.search(r"heights, sampled: (\S+) m to (\S+) m", text).groups())
    limits = json.loads((ROBOTS / "scara.json").read_text())["joint_limits"]
    elbow = limits[1][1]
    assert folded == round(math.sqrt(0.325**2 + 0.275**2 + 2 * 0.325 * 0.275 * math.cos(elbow)), 3)
    assert stretched == round(0.325 + 0.275, 3)
    assert folded - 0.0005 <= rho_min <= folded + 0.01 and stretched - 0.01 <= rho_max <= stretched
    # heights from MR's FKinSpace of the SCARA: the quill's ends at q3 = 0 and 0.21 m
    top = mr.FKinSpace(SCARA_M, SCARA_S, np.zeros(4))[2, 3]
    bottom = mr.FKinSpace(SCARA_M, SCARA_S, np.array([0.0, 0.0, limits[2][1], 0.0]))[2, 3]
    assert abs(z_max - top) < 0.002 and abs(z_min - bottom) < 0.002
