"""The Newton–Euler intermediate values (``inverse_dynamics_rnea_steps``) against outside engines.

References, none of them robolab:

* **Pinocchio**'s ``rnea`` on the model that ``reference/pinocchio_screw.py`` builds from a
  robot's screw form (joint i's frame has z on its screw axis). After ``pin.rnea`` the
  data hold, per joint i, the link's spatial velocity ``data.v[i]``, its acceleration with
  the base's fictitious -g ``data.a_gf[i]`` (without it: ``data.a[i]``) and the wrench
  transmitted through joint i ``data.f[i]``, all in Pinocchio's joint frame, ordered
  [v; ω] (forces [f; m]). The comparison goes through {s}: ``data.oMi[i].act`` writes them
  in the world frame, where a spatial vector no longer depends on which frame of the link
  it was attached to; a swap of the halves gives robolab's [ω; v] and [m; f]. The space-frame
  records must equal these directly; the link-frame records after
  [Ad_{T_si⁻¹}] (twists) and [Ad_{T_si}]ᵀ (wrenches), with T_si from ``mr.FKinSpace``.
  Pinocchio's external force on the last link is minus the tip wrench (MR's F_tip is the
  wrench the end-effector applies to the environment).
* **modern_robotics**: ``FKinSpace`` for the link poses, ``JacobianSpace`` for the space
  twists V_i = J_s(θ_1..θ_i) θ̇, ``InverseDynamics`` for τ, and the printed digits of the
  book library's three-link example.
"""

from __future__ import annotations

import dataclasses

import modern_robotics as mr
import numpy as np
import pinocchio as pin
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference.pinocchio_screw import pinocchio_from_screw
from reference.screw_arms import three_link_book

import robolab

SWAP = [3, 4, 5, 0, 1, 2]
ROBOTS = ["ur5", "puma560", "panda", "scara", "stanford"]


def screw_robot(name: str) -> robolab.ScrewRobot:
    robot = robolab.load_robot(name)
    return robot if isinstance(robot, robolab.ScrewRobot) else robot.to_screw()


def state(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return rng.uniform(-1.5, 1.5, n), rng.uniform(-1.0, 1.0, n), rng.uniform(-2.0, 2.0, n)


def pinocchio_run(robot, q, qd, qdd, tip=None):
    """Pinocchio's per-joint velocity, acceleration (with -g) and wrench, in {s}, [ω; v] order."""
    model, ee = pinocchio_from_screw(robot)
    data = model.createData()
    pin.framesForwardKinematics(model, data, q)
    if tip is None:
        pin.rnea(model, data, q, qd, qdd)
    else:
        # The environment pushes on the end-effector with -F_tip; Pinocchio wants it in the
        # local frame of the last joint. F_tip is in the end-effector frame {n+1}.
        world_tip = pin.Force(np.concatenate([tip[3:], tip[:3]]))  # [f; m]
        on_robot = -(data.oMf[ee].act(world_tip))
        fext = pin.StdVec_Force()
        for _ in range(model.njoints):
            fext.append(pin.Force.Zero())
        fext[model.njoints - 1] = data.oMi[model.njoints - 1].actInv(on_robot)
        pin.rnea(model, data, q, qd, qdd, fext)
    values = {"twist": [], "acceleration": [], "wrench": []}
    for i in range(1, model.njoints):
        placement = data.oMi[i]
        values["twist"].append(placement.act(data.v[i]).vector[SWAP])
        values["acceleration"].append(placement.act(data.a_gf[i]).vector[SWAP])
        values["wrench"].append(placement.act(data.f[i]).vector[SWAP])
    return {key: np.array(rows) for key, rows in values.items()}, np.array(data.tau)


def link_poses_mr(robot, q):
    """T_si of every centre-of-mass frame by the book's FKinSpace on the first i joints."""
    poses, home = [], np.eye(4)
    for i in range(robot.n_joints):
        home = home @ robot.link_frames[i]
        poses.append(mr.FKinSpace(home, robot.screw_axes_space[:, : i + 1], q[: i + 1]))
    return poses


@pytest.mark.parametrize("name", ROBOTS)
def test_space_frame_values_equal_pinocchio(name):
    robot = screw_robot(name)
    q, qd, qdd = state(robot.n_joints, 9)
    expected, tau = pinocchio_run(robot, q, qd, qdd)
    steps = robolab.inverse_dynamics_rnea_steps(robot, q, qd, qdd, frame="space")
    assert steps.frame == "space"
    np.testing.assert_allclose(steps.twists, expected["twist"], atol=1e-10)
    np.testing.assert_allclose(steps.accelerations, expected["acceleration"], atol=1e-9)
    np.testing.assert_allclose(steps.wrenches, expected["wrench"], atol=1e-8)
    np.testing.assert_allclose(steps.torques, tau, atol=1e-8)


@pytest.mark.parametrize("name", ["ur5", "scara"])
def test_link_frame_values_equal_pinocchio_written_in_the_link_frames(name):
    robot = screw_robot(name)
    q, qd, qdd = state(robot.n_joints, 19)
    tip = np.array([0.3, -0.2, 0.5, 4.0, -2.0, 7.0])
    expected, tau = pinocchio_run(robot, q, qd, qdd, tip)
    steps = robolab.inverse_dynamics_rnea_steps(robot, q, qd, qdd, tip_wrench=tip)
    assert steps.frame == "link"
    for i, (record, pose) in enumerate(zip(steps.links, link_poses_mr(robot, q), strict=True)):
        np.testing.assert_allclose(record.pose, pose, atol=1e-12)
        to_link = mr.Adjoint(mr.TransInv(pose))
        np.testing.assert_allclose(record.twist, to_link @ expected["twist"][i], atol=1e-10)
        np.testing.assert_allclose(
            record.acceleration, to_link @ expected["acceleration"][i], atol=1e-9
        )
        np.testing.assert_allclose(
            record.wrench, mr.Adjoint(pose).T @ expected["wrench"][i], atol=1e-8
        )
    np.testing.assert_allclose(steps.torques, tau, atol=1e-8)


def test_space_twists_are_space_jacobian_columns_times_rates():
    robot = screw_robot("puma560")
    q, qd, qdd = state(6, 29)
    steps = robolab.inverse_dynamics_rnea_steps(robot, q, qd, qdd, frame="space")
    for i, record in enumerate(steps.links):
        jacobian = mr.JacobianSpace(robot.screw_axes_space[:, : i + 1], q[: i + 1])
        np.testing.assert_allclose(record.twist, jacobian @ qd[: i + 1], atol=1e-12)
        np.testing.assert_allclose(record.screw_axis, jacobian[:, i], atol=1e-12)


def test_book_three_link_example_digits_and_modern_robotics():
    frames, inertias, screws = three_link_book()
    q, qd, qdd, g, tip = [0.1] * 3, [0.1, 0.2, 0.3], [2, 1.5, 1], [0, 0, -9.8], [1] * 6
    steps = robolab.inverse_dynamics_rnea_steps(q, qd, qdd, g, tip, frames, inertias, screws)
    np.testing.assert_allclose(steps.torques, [74.69616155, -33.06766016, -3.23057314], atol=5e-9)
    reference = mr.InverseDynamics(q, qd, qdd, g, tip, frames, inertias, screws)
    np.testing.assert_allclose(steps.torques, reference, atol=1e-10)
    np.testing.assert_allclose(steps.tip_wrench, tip, atol=0)
    np.testing.assert_allclose(steps.gravity, g, atol=0)


@settings(max_examples=25)
@given(seed=st.integers(0, 10_000), name=st.sampled_from(ROBOTS))
def test_torques_equal_the_fast_path_and_modern_robotics(seed, name):
    robot = screw_robot(name)
    q, qd, qdd = state(robot.n_joints, seed)
    tip = np.random.default_rng(seed + 1).normal(size=6)
    steps = robolab.inverse_dynamics_rnea_steps(robot, q, qd, qdd, tip_wrench=tip)
    fast = robolab.inverse_dynamics_rnea(robot, q, qd, qdd, tip_wrench=tip)
    np.testing.assert_allclose(steps.torques, fast, atol=1e-9)
    textbook = robolab.inverse_dynamics_rnea_textbook(robot, q, qd, qdd, tip_wrench=tip)
    np.testing.assert_allclose(steps.torques, textbook, atol=1e-9)  # the same lines
    reference = mr.InverseDynamics(
        q, qd, qdd, robot.gravity, tip, list(robot.link_frames), list(robot.spatial_inertias),
        robot.screw_axes_space,
    )  # fmt: skip
    np.testing.assert_allclose(steps.torques, reference, atol=1e-9)


def test_torque_is_the_wrench_on_the_screw_axis_in_either_frame():
    robot = screw_robot("panda")
    q, qd, qdd = state(7, 39)
    for frame in ("link", "space"):
        steps = robolab.inverse_dynamics_rnea_steps(robot, q, qd, qdd, frame=frame)
        by_axis = [record.wrench @ record.screw_axis for record in steps.links]
        np.testing.assert_allclose(by_axis, steps.torques, atol=1e-9)


def test_frames_convert_both_ways_and_records_are_frozen():
    robot = screw_robot("ur5")
    q, qd, qdd = state(6, 49)
    link = robolab.inverse_dynamics_rnea_steps(robot, q, qd, qdd)
    back = link.in_frame("space").in_frame("link")
    for key in ("twists", "accelerations", "wrenches"):
        np.testing.assert_allclose(getattr(back, key), getattr(link, key), atol=1e-10)
    assert link.in_frame("link") is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        link.links[0].torque = 0.0  # type: ignore[misc]
    with pytest.raises(ValueError, match="read-only"):
        link.links[0].twist[0] = 1.0
    assert link.order == tuple(("forward", i) for i in range(1, 7)) + tuple(
        ("backward", i) for i in range(6, 0, -1)
    )
    text = str(link)
    assert text.count("(link frame)") == 6 and "τ =" in text


def test_a_link_at_rest_accelerates_up_by_g():
    """Gravity enters as the base's acceleration [0; -g]: at rest, V̇_i = [0; -R_siᵀ g]."""
    robot = screw_robot("puma560")
    q = state(6, 59)[0]
    steps = robolab.inverse_dynamics_rnea_steps(robot, q, np.zeros(6), np.zeros(6))
    for record in steps.links:
        expected = np.concatenate([np.zeros(3), -record.pose[:3, :3].T @ robot.gravity])
        np.testing.assert_allclose(record.acceleration, expected, atol=1e-12)
    np.testing.assert_allclose(steps.torques, robolab.gravity_forces(robot, q), atol=1e-10)


def test_bad_input_is_refused_with_a_clear_message():
    robot = screw_robot("ur5")
    zeros = np.zeros(6)
    with pytest.raises(ValueError, match="frame"):
        robolab.inverse_dynamics_rnea_steps(robot, zeros, zeros, zeros, frame="world")
    with pytest.raises(ValueError, match=r"joint_velocities must have the shape of joint_pos"):
        robolab.inverse_dynamics_rnea_steps(robot, zeros, np.zeros((2, 6)), zeros)
    with pytest.raises(ValueError, match=r"must have shape \(6,\): the steps are those of one"):
        robolab.inverse_dynamics_rnea_steps(robot, *np.zeros((3, 2, 6)))
    with pytest.raises(ValueError, match="joint_positions"):
        robolab.inverse_dynamics_rnea_steps(robot, [0.0] * 5, zeros, zeros)
    with pytest.raises(ValueError, match="tip_wrench"):
        robolab.inverse_dynamics_rnea_steps(robot, zeros, zeros, zeros, tip_wrench=[1.0, 2.0])
    with pytest.raises(ValueError, match="finite"):
        robolab.inverse_dynamics_rnea_steps(robot, [np.nan] + [0.0] * 5, zeros, zeros)
    with pytest.raises(TypeError, match="robot must be a ScrewRobot"):
        robolab.inverse_dynamics_rnea_steps("ur5", zeros, zeros, zeros)
    with pytest.raises(ValueError, match="frame"):
        robolab.inverse_dynamics_rnea_steps(robot, zeros, zeros, zeros).in_frame("body")


@settings(max_examples=20)
@given(seed=st.integers(0, 10_000), name=st.sampled_from(["ur5", "scara", "stanford"]))
def test_power_and_kinetic_energy_do_not_depend_on_the_frame(seed, name):
    """F_iᵀ V_i (power) and ½ V_iᵀ G_i V_i (link i's kinetic energy) are frame invariants;
    Σ_i ½ V_iᵀ G_i V_i is mr's ½ θ̇ᵀ M θ̇."""
    robot = screw_robot(name)
    q, qd, qdd = state(robot.n_joints, seed)
    link = robolab.inverse_dynamics_rnea_steps(robot, q, qd, qdd)
    space = link.in_frame("space")
    for a, b in zip(link.links, space.links, strict=True):
        assert a.wrench @ a.twist == pytest.approx(b.wrench @ b.twist, abs=1e-9)
    energy = sum(
        0.5 * record.twist @ G @ record.twist
        for record, G in zip(link.links, robot.spatial_inertias, strict=True)
    )
    M = mr.MassMatrix(
        q, list(robot.link_frames), list(robot.spatial_inertias), robot.screw_axes_space
    )
    assert energy == pytest.approx(0.5 * qd @ M @ qd, abs=1e-10)
