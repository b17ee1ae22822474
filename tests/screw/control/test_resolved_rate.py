"""Resolved-rate motion control (robolab.screw.control.resolved_rate) against references.

The references: ``modern_robotics`` (``FKinBody``, ``FKinSpace``, ``JacobianBody``,
``MatrixLog6``) with NumPy's ``pinv`` and ``lstsq`` for the (damped) pseudo-inverse step of
Whitney 1969 / Wampler 1986 and the null-space projector of Liégeois 1977 (gradient of
w = -1/(2n) Σ ((q_i - q̄_i)/(q_max - q_min))², written out here); the bound ‖J^# V‖ ≤ ‖V‖/(2λ)
of the damped inverse (Siciliano et al. §3.7.1).
"""

from __future__ import annotations

import modern_robotics as mr
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robolab
from robolab import forward_kinematics_space, resolved_rate_control

PANDA = robolab.load_robot("panda")
UR5 = robolab.load_robot("ur5")
LOW, HIGH = np.array(PANDA.joint_limits).T
READY = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785])  # Franka's "ready" pose
# a target whose straight resolved-rate path drives joint 2 into its limit (chapter 14, §3)
LIMIT_TARGET = np.array([1.191, -1.524, 1.677, -1.742, -0.346, 2.078, -1.186])


def mr_error_twist(robot: robolab.ScrewRobot, q: np.ndarray, target: np.ndarray) -> np.ndarray:
    T = mr.FKinBody(robot.home_ee_pose, robot.screw_axes_body, q)
    return mr.se3ToVec(mr.MatrixLog6(mr.TransInv(T) @ target))


def liegeois_gradient(q: np.ndarray) -> np.ndarray:
    return -(q - (LOW + HIGH) / 2) / (len(q) * (HIGH - LOW) ** 2)


def mr_step(q, target, gain, dt, damping, k0=0.0):
    J = mr.JacobianBody(PANDA.screw_axes_body, q)
    V = gain * mr_error_twist(PANDA, q, target)
    if damping:
        # damped least squares as an augmented least-squares problem [J; λ1] q̇ ≈ [V; 0]
        A = np.vstack([J, damping * np.eye(7)])
        rates = np.linalg.lstsq(A, np.concatenate([V, np.zeros(7)]), rcond=None)[0]
    else:
        rates = np.linalg.pinv(J) @ V
    rates = rates + (np.eye(7) - np.linalg.pinv(J) @ J) @ (k0 * liegeois_gradient(q))
    return q + dt * rates


@pytest.mark.parametrize(("damping", "k0"), [(0.0, 0.0), (0.05, 0.0), (0.0, 80.0), (0.05, 80.0)])
def test_first_steps_match_modern_robotics(damping, k0):
    target = mr.FKinSpace(PANDA.home_ee_pose, PANDA.screw_axes_space, LIMIT_TARGET)
    motion = resolved_rate_control(
        PANDA,
        READY,
        target,
        gain=2.0,
        timestep=0.05,
        damping=damping,
        null_space="joint_limits" if k0 else None,
        null_space_gain=k0,
        max_steps=4,
    )
    q = READY.copy()
    for k in range(1, 5):
        q = mr_step(q, target, 2.0, 0.05, damping, k0)
        np.testing.assert_allclose(motion.joint_positions[k], q, atol=1e-9)
    errors = [np.linalg.norm(mr_error_twist(PANDA, p, target)[3:]) for p in motion.joint_positions]
    np.testing.assert_allclose(motion.linear_errors, errors, atol=1e-9)
    J0 = mr.JacobianBody(PANDA.screw_axes_body, READY)
    np.testing.assert_allclose(
        motion.manipulability[0], np.sqrt(np.linalg.det(J0 @ J0.T)), atol=1e-9
    )
    assert motion.status == "iteration_limit"


def test_null_space_motion_does_not_move_the_hand():
    target = mr.FKinSpace(PANDA.home_ee_pose, PANDA.screw_axes_space, LIMIT_TARGET)
    kwargs = dict(gain=2.0, timestep=0.05, max_steps=1)
    plain = resolved_rate_control(PANDA, READY, target, **kwargs)
    extra = resolved_rate_control(
        PANDA, READY, target, null_space="joint_limits", null_space_gain=100.0, **kwargs
    )
    difference = (extra.joint_positions[1] - plain.joint_positions[1]) / 0.05
    assert np.linalg.norm(difference) > 1e-3  # the joints do move differently ...
    J = mr.JacobianBody(PANDA.screw_axes_body, READY)
    np.testing.assert_allclose(J @ difference, np.zeros(6), atol=1e-10)  # ... the hand not


@pytest.mark.parametrize("seed", range(6))
def test_converges_on_seeded_targets_within_the_joint_limits(seed):
    rng = np.random.default_rng(seed)
    goal = rng.uniform(LOW + 0.3, HIGH - 0.3)
    start = np.clip(goal + rng.uniform(-0.4, 0.4, 7), LOW + 0.05, HIGH - 0.05)
    target = mr.FKinSpace(PANDA.home_ee_pose, PANDA.screw_axes_space, goal)
    motion = resolved_rate_control(
        PANDA,
        start,
        target,
        gain=2.0,
        timestep=0.05,
        damping=0.02,
        null_space="joint_limits",
        null_space_gain=50.0,
    )
    assert motion.reached, motion.message
    path = motion.joint_positions
    assert np.all(path >= LOW) and np.all(path <= HIGH)
    reached = mr.FKinSpace(PANDA.home_ee_pose, PANDA.screw_axes_space, path[-1])
    np.testing.assert_allclose(reached[:3, 3], target[:3, 3], atol=1e-4)
    np.testing.assert_allclose(reached[:3, :3], target[:3, :3], atol=2e-3)


def test_joint_limit_stops_before_the_limit_and_null_space_avoids_it():
    target = forward_kinematics_space(PANDA, LIMIT_TARGET)
    kwargs = dict(gain=2.0, timestep=0.05, damping=0.02)
    plain = resolved_rate_control(PANDA, READY, target, **kwargs)
    assert plain.status == "joint_limit"
    assert "joint 2" in plain.message and "-1.7628" in plain.message
    assert np.all(plain.joint_positions >= LOW) and np.all(plain.joint_positions <= HIGH)
    avoided = resolved_rate_control(
        PANDA, READY, target, null_space="joint_limits", null_space_gain=100.0, **kwargs
    )
    assert avoided.reached
    assert np.all(avoided.joint_positions >= LOW) and np.all(avoided.joint_positions <= HIGH)
    # the margin is the smallest distance to a limit as a fraction of the range: recompute it
    room = np.minimum(avoided.joint_positions - LOW, HIGH - avoided.joint_positions)
    np.testing.assert_allclose(avoided.limit_margin, (room / (HIGH - LOW)).min(axis=1), atol=1e-12)


def test_singularity_undamped_stops_damped_goes_on():
    home = np.zeros(6)  # the UR5 at home: arm stretched out, an elbow singularity
    J = mr.JacobianBody(UR5.screw_axes_body, home)
    assert np.linalg.svd(J, compute_uv=False)[-1] < 1e-9
    goal = np.array([0.3, -0.5, 0.8, -0.4, 0.3, 0.2])
    target = mr.FKinSpace(UR5.home_ee_pose, UR5.screw_axes_space, goal)
    undamped = resolved_rate_control(UR5, home, target, gain=2.0, timestep=0.05)
    assert undamped.status == "singularity" and undamped.steps == 0
    assert "add damping" in undamped.message
    damped = resolved_rate_control(UR5, home, target, gain=2.0, timestep=0.05, damping=0.05)
    assert damped.steps > 0 and damped.smallest_singular_value[-1] > 1e-2


def test_damped_motion_stalled_at_a_singularity_says_so():
    beyond = UR5.home_ee_pose.copy()
    beyond[:3, 3] *= 1.3  # 30 % beyond the stretched-out arm: out of reach
    motion = resolved_rate_control(
        UR5, np.full(6, 0.01), beyond, gain=2.0, timestep=0.05, damping=0.05, max_steps=300
    )
    assert motion.status == "singularity" and motion.steps == 300
    assert "stalled" in motion.message and "out of reach" in motion.message
    J = mr.JacobianBody(UR5.screw_axes_body, motion.final_joint_positions)
    assert np.linalg.svd(J, compute_uv=False)[-1] < 1e-3


def test_iteration_limit_and_speed_limit():
    target = forward_kinematics_space(PANDA, LIMIT_TARGET)
    motion = resolved_rate_control(
        PANDA, READY, target, gain=2.0, timestep=0.05, max_steps=5, max_joint_speed=0.3
    )
    assert motion.status == "iteration_limit" and motion.steps == 5
    speeds = np.abs(np.diff(motion.joint_positions, axis=0)) / 0.05
    assert speeds.max() <= 0.3 + 1e-12
    np.testing.assert_allclose(motion.times, 0.05 * np.arange(6), atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(
    q=st.lists(st.floats(-0.3, 0.3), min_size=6, max_size=6),
    damping=st.floats(0.01, 0.5),
)
def test_damped_step_is_bounded(q, damping):
    # ‖J^# V‖ ≤ ‖V‖ / (2λ) for J^# = Jᵀ(JJᵀ + λ²1)⁻¹: each singular value σ/(σ² + λ²) ≤ 1/(2λ)
    q = np.array(q)
    target = mr.FKinSpace(UR5.home_ee_pose, UR5.screw_axes_space, q + 0.5)
    motion = resolved_rate_control(
        UR5, q, target, gain=1.0, timestep=1.0, damping=damping, max_steps=1
    )
    rates = motion.joint_positions[1] - motion.joint_positions[0]
    V = mr_error_twist(UR5, q, target)
    assert np.linalg.norm(rates) <= np.linalg.norm(V) / (2 * damping) + 1e-9


@pytest.mark.parametrize(
    ("change", "error", "words"),
    [
        (dict(gain=-1.0), ValueError, "gain must be a positive"),
        (dict(gain=50.0), ValueError, "unstable"),
        (dict(timestep=0.0), ValueError, "timestep must be a positive"),
        (dict(damping=-0.1), ValueError, "damping must be zero or positive"),
        (dict(damping="a lot"), TypeError, "damping"),
        (dict(null_space_gain=-1.0), ValueError, "null_space_gain"),
        (dict(null_space="limits"), ValueError, "null_space must be None, 'joint_limits'"),
        (dict(null_space=lambda q: q[:3]), ValueError, "gradient of shape (7,)"),
        (dict(null_space=lambda q: q * np.nan), ValueError, "non-finite"),
        (dict(max_joint_speed=-1.0), ValueError, "max_joint_speed must be positive"),
        (dict(max_joint_speed=[1.0, 2.0]), ValueError, "shape (7,)"),
        (dict(max_steps=0), ValueError, "max_steps must be at least 1"),
        (dict(max_steps=2.5), TypeError, "max_steps must be an int"),
        (dict(angular_tolerance=0.0), ValueError, "angular_tolerance"),
    ],
)
def test_bad_arguments_are_named(change, error, words):
    target = forward_kinematics_space(PANDA, LIMIT_TARGET)
    kwargs = dict(gain=2.0, timestep=0.05, null_space="joint_limits") | change
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
        resolved_rate_control(PANDA, READY, target, **kwargs)


def test_bad_robot_start_and_target():
    target = forward_kinematics_space(PANDA, LIMIT_TARGET)
    with pytest.raises(ValueError, match=r"joint_positions\[3\] \(joint 'panda_joint4'\)"):
        resolved_rate_control(PANDA, np.zeros(7), target)  # joint 4 range is [-3.07, -0.07]
    with pytest.raises(ValueError, match="joint_positions"):
        resolved_rate_control(PANDA, READY[:6], target)
    with pytest.raises(ValueError, match="target_pose"):
        resolved_rate_control(PANDA, READY, 2 * np.eye(4))
    with pytest.raises(TypeError, match="to_screw"):
        resolved_rate_control(robolab.load_robot("puma560", form="dh"), np.zeros(6), np.eye(4))
    with pytest.raises(TypeError, match="robot must be a ScrewRobot"):
        resolved_rate_control("panda", READY, target)


@pytest.mark.parametrize(
    ("change", "error", "words"),
    [
        # issue 29: every long run bounded, every number in its range
        (dict(max_steps=10**9), ValueError, "max_steps must be at most 100,000 (the iteration"),
        (dict(damping=1e300), ValueError, "damping must be 0 (none) or lie in [1e-06, 1e+06]"),
        (dict(damping=1e-300), ValueError, "damping must be 0 (none) or lie in [1e-06, 1e+06]"),
        (dict(timestep=1e-300), ValueError, "timestep must be at least 1e-09 s"),
        (dict(angular_tolerance=1e-300), ValueError, "angular_tolerance must be at least 1e-15"),
        (dict(linear_tolerance=1e-300), ValueError, "linear_tolerance must be at least 1e-15"),
        (dict(angular_tolerance=4.0), ValueError, "angular_tolerance must be at most 3.14159"),
        (dict(null_space_gain=1e300), ValueError, "null_space_gain must be at most 1e+06"),
        (
            dict(null_space=lambda q: np.full(7, 1e308), null_space_gain=1e6),
            ValueError,
            "step 1 of the resolved-rate motion left the finite numbers",
        ),
    ],
)
def test_out_of_range_arguments_are_named(change, error, words):
    target = forward_kinematics_space(PANDA, LIMIT_TARGET)
    kwargs = dict(gain=2.0, timestep=0.05, null_space="joint_limits") | change
    with pytest.raises(
        error,
        match=words.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[").replace("+", r"\+"),
    ):
        resolved_rate_control(PANDA, READY, target, **kwargs)


def test_the_ends_of_the_ranges_are_accepted():
    target = forward_kinematics_space(PANDA, LIMIT_TARGET)
    for damping in (1e-6, 1e6):
        motion = resolved_rate_control(PANDA, READY, target, damping=damping, max_steps=3)
        assert motion.steps <= 3
