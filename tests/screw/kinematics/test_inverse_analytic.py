"""Closed-form inverse kinematics (planar 2R, Puma-type 6R) against outside references.

References: Spong, Hutchinson & Vidyasagar's closed form of the planar 2R arm
(θ2 = atan2(±√(1 − D²), D), θ1 = atan2(y, x) − atan2(a2 sin θ2, a1 + a2 cos θ2));
``modern_robotics.FKinSpace`` with the robot's M and screw axes for checking each
returned solution; ``modern_robotics.IKinSpace`` from many seeded random starts, whose
distinct converged answers must all be among the returned ones.
"""

import math

import modern_robotics as mr
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robolab as rl
from robolab.screw.kinematics.inverse_analytic import (
    FAMILIES,
    NoClosedFormError,
    OutOfReachError,
    arm_family,
    inverse_kinematics_analytic,
)

PUMA = rl.load_robot("puma560")
ARM_2R = rl.load_robot("planar2r")


def wrapped(q):
    return np.remainder(np.asarray(q) + np.pi, 2 * np.pi) - np.pi


def same_angles(a, b, atol):
    return bool(np.abs(wrapped(np.asarray(a) - np.asarray(b))).max() < atol)


def mr_pose(robot, q):
    return mr.FKinSpace(np.array(robot.home_ee_pose), np.array(robot.screw_axes_space), q)


def spong_2r(x, y, a1=1.0, a2=1.0):
    D = (x * x + y * y - a1 * a1 - a2 * a2) / (2 * a1 * a2)
    out = []
    for sign in (-1.0, 1.0):
        theta2 = math.atan2(sign * math.sqrt(1 - D * D), D)
        theta1 = math.atan2(y, x) - math.atan2(a2 * math.sin(theta2), a1 + a2 * math.cos(theta2))
        out.append((theta1, theta2))
    return out


@settings(max_examples=40, deadline=None)
@given(radius=st.floats(0.05, 1.99), angle=st.floats(-math.pi, math.pi))
def test_planar_2r_matches_spongs_closed_form(radius, angle):
    x, y = radius * math.cos(angle), radius * math.sin(angle)
    result = inverse_kinematics_analytic(ARM_2R, [x, y, 0.0])
    assert result.family == "planar 2R" and len(result) == 2
    expected = spong_2r(x, y)
    for theta in expected:
        assert any(same_angles(theta, row, 1e-9) for row in result.solutions)
    # Spong's elbow up is the negative θ2 branch.
    up = result.solutions[result.branches.index("elbow up")]
    assert same_angles(up, expected[0], 1e-9)
    for row in result.solutions:
        np.testing.assert_allclose(mr_pose(ARM_2R, row)[:2, 3], [x, y], atol=1e-9)


def test_planar_2r_out_of_reach_says_by_how_much():
    with pytest.raises(
        OutOfReachError, match=r"out of reach of the planar 2R arm by 0\.5 m"
    ) as err:
        inverse_kinematics_analytic(ARM_2R, [2.5, 0.0, 0.0])
    assert err.value.distance == pytest.approx(0.5, abs=1e-12)
    with pytest.raises(OutOfReachError, match="out of the plane") as err:
        inverse_kinematics_analytic(ARM_2R, [1.0, 0.0, 0.3])
    assert err.value.distance == pytest.approx(0.3, abs=1e-12)


def test_planar_2r_pose_target_keeps_the_branch_of_its_orientation():
    q = np.array([0.4, 1.1])
    result = inverse_kinematics_analytic(ARM_2R, mr_pose(ARM_2R, q))
    assert len(result) == 1 and result.branches == ("elbow down",)
    np.testing.assert_allclose(result.solutions[0], q, atol=1e-9)
    wrong = mr_pose(ARM_2R, q) @ mr.RpToTrans(mr.MatrixExp3(mr.VecToso3([0, 0, 0.3])), [0, 0, 0])
    wrong[:3, 3] = mr_pose(ARM_2R, q)[:3, 3]
    with pytest.raises(OutOfReachError, match="only with other orientations"):
        inverse_kinematics_analytic(ARM_2R, wrong)


def random_puma_configurations(seed, count):
    rng = np.random.default_rng(seed)
    limits = np.array(PUMA.joint_limits)
    return rng.uniform(limits[:, 0], limits[:, 1], (count, 6))


@pytest.mark.parametrize("q", random_puma_configurations(7, 25))
def test_every_puma_solution_reproduces_the_pose(q):
    T = mr_pose(PUMA, q)
    result = inverse_kinematics_analytic(PUMA, T)
    assert result.family == FAMILIES[1]
    assert len(result) == 8  # a generic pose: all eight branches
    assert len(set(result.branches)) == 8
    for row in result.solutions:
        np.testing.assert_allclose(mr_pose(PUMA, row), T, atol=1e-9)
    assert any(same_angles(q, row, 1e-8) for row in result.solutions)
    limits = np.array(PUMA.joint_limits)
    inside = np.all((result.solutions >= limits[:, 0]) & (result.solutions <= limits[:, 1]), axis=1)
    np.testing.assert_array_equal(result.within_limits, inside)
    assert result.within_limits[[same_angles(q, r, 1e-8) for r in result.solutions]].all()


def assert_numerical_solutions_are_returned(robot, q, seed):
    """Every distinct answer of mr.IKinSpace from 150 seeded random starts is returned."""
    T = mr_pose(robot, q)
    S, M = np.array(robot.screw_axes_space), np.array(robot.home_ee_pose)
    returned = inverse_kinematics_analytic(robot, T).solutions
    rng = np.random.default_rng(seed)
    found = []
    for start in rng.uniform(-np.pi, np.pi, (150, 6)):
        theta, ok = mr.IKinSpace(S, M, T, start, 1e-10, 1e-10)
        converged = ok and np.allclose(mr_pose(robot, theta), T, atol=1e-8)
        if converged and not any(same_angles(theta, f, 1e-5) for f in found):
            found.append(theta)
    assert len(found) >= 3  # the random starts do reach several branches
    for theta in found:
        assert any(same_angles(theta, row, 1e-6) for row in returned), wrapped(theta)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_solution_a_numerical_solver_finds_is_returned(seed):
    assert_numerical_solutions_are_returned(
        PUMA, random_puma_configurations(100 + seed, 1)[0], seed
    )


def test_straight_wrist_is_solved_with_the_free_angle_set():
    q = np.array([0.2, 0.4, -0.6, 0.3, 0.0, 0.5])  # θ5 = 0: axes 4 and 6 line up
    T = mr_pose(PUMA, q)
    result = inverse_kinematics_analytic(PUMA, T)
    assert len(result) >= 4
    for row in result.solutions:
        np.testing.assert_allclose(mr_pose(PUMA, row), T, atol=1e-9)


def test_puma_out_of_reach_says_by_how_much():
    # The wrist centre's distance from the shoulder point depends on θ3 only: its largest
    # value, sampled with modern_robotics' forward kinematics, is the reach.
    S, M = np.array(PUMA.screw_axes_space), np.array(PUMA.home_ee_pose)
    shoulder = np.array([0.0, 0.0, 0.6718])
    wrist = M[:3, 3]  # the bundled Puma's end-effector frame sits at the wrist centre
    reach = max(
        np.linalg.norm(mr.FKinSpace(M, S, [0, 0, t, 0, 0, 0])[:3, 3] - shoulder)
        for t in np.linspace(-np.pi, np.pi, 20001)
    )
    T = np.eye(4)
    T[:3, 3] = shoulder + np.array([1.5, 0.0, 0.0])
    with pytest.raises(OutOfReachError, match=r"out of reach by 0\.\d+ m") as err:
        inverse_kinematics_analytic(PUMA, T)
    assert err.value.distance == pytest.approx(1.5 - reach, abs=1e-6)
    np.testing.assert_allclose(wrist, [0.4521, -0.15, 1.1036], atol=1e-3)


@pytest.mark.parametrize("name", ["panda", "stanford", "scara", "planar3r"])
def test_arms_without_a_closed_form_are_refused_with_the_families(name):
    robot = rl.load_robot(name)
    assert arm_family(robot) is None
    with pytest.raises(NoClosedFormError, match=r"planar 2R arm.*Puma type.*UR type"):
        inverse_kinematics_analytic(robot, np.eye(4))


def test_family_comes_from_geometry_not_name():
    renamed = PUMA.replace(name="my arm")
    assert arm_family(renamed) == FAMILIES[1]
    # Move axis 6 off the wrist centre: no longer a spherical wrist.
    S = np.array(PUMA.screw_axes_space)
    S[3:, 5] += np.cross(S[:3, 5], [0.0, 0.1, 0.0])
    assert arm_family(PUMA.replace(screw_axes_space=S)) is None


@pytest.mark.parametrize(
    ("robot", "target", "error", "message"),
    [
        (PUMA, [0.5, 0.0, 0.5], ValueError, r"4×4 pose .* got shape \(3,\)"),
        (PUMA, np.eye(3), ValueError, r"target must have shape \(4, 4\)"),
        (PUMA, 2 * np.eye(4), ValueError, "target must be a homogeneous transform"),
        (ARM_2R, [1.0, math.nan, 0.0], ValueError, "target contains a non-finite value"),
        (ARM_2R, "far", TypeError, "target"),
        ("puma560", np.eye(4), TypeError, "robot must be a robolab.ScrewRobot"),
    ],
)
def test_bad_input_is_refused_with_a_message(robot, target, error, message):
    with pytest.raises(error, match=message):
        inverse_kinematics_analytic(robot, target)


# --- the UR type (three parallel middle axes) ----------------------------------------------------

UR5 = rl.load_robot("ur5")


@pytest.mark.parametrize("q", np.random.default_rng(11).uniform(-np.pi, np.pi, (25, 6)))
def test_every_ur5_solution_reproduces_the_pose(q):
    T = mr_pose(UR5, q)
    result = inverse_kinematics_analytic(UR5, T)
    assert result.family == FAMILIES[2] and 2 <= len(result) <= 8
    assert len(set(result.branches)) == len(result)
    for row in result.solutions:
        np.testing.assert_allclose(mr_pose(UR5, row), T, atol=1e-9)
    assert any(same_angles(q, row, 1e-8) for row in result.solutions)


@pytest.mark.parametrize("seed", [4, 5])
def test_every_ur5_solution_a_numerical_solver_finds_is_returned(seed):
    q = np.random.default_rng(200 + seed).uniform(-np.pi, np.pi, 6)
    assert_numerical_solutions_are_returned(UR5, q, seed)


def test_ur5_out_of_reach_says_by_how_much():
    T = np.eye(4)
    T[:3, 3] = [2.0, 0.3, 0.4]
    with pytest.raises(OutOfReachError, match=r"out of reach by \d\.\d+ m") as err:
        inverse_kinematics_analytic(UR5, T)
    assert err.value.distance > 0.5  # the UR5 reaches under 1 m


@pytest.mark.parametrize("arm", [ARM_2R, PUMA, rl.load_robot("ur5")])
def test_a_target_beyond_the_floats_is_out_of_reach_without_overflow(arm):
    """A target 1e300 m away made NumPy overflow (issue 29); it is out of reach, and says so."""
    pose = np.eye(4)
    pose[:3, 3] = [1e300, 0.0, 0.0]
    with pytest.raises(OutOfReachError) as info:
        inverse_kinematics_analytic(arm, pose if arm is not ARM_2R else pose[:3, 3])
    assert info.value.distance == 1e300
    assert "the target is 1e+300 m from the origin of the space frame: out of reach" in str(
        info.value
    )
