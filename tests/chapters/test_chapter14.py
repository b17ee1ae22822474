"""Every number chapter 14 prints, recomputed from sources outside robolab.

The references: a resolved-rate loop written here with ``modern_robotics`` (``FKinBody``,
``JacobianBody``, ``MatrixLog6``, ``se3ToVec``) and NumPy (``pinv`` for J⁺ and the null-space
projector, ``lstsq`` of the augmented system [J; λ1] for the damped least-squares step,
Wampler 1986), Liégeois' joint-limit gradient written out (Siciliano §3.5.1), Yoshikawa's
√det(J Jᵀ); SciPy's ``CubicSpline(bc_type="clamped")`` for the via-point spline (Siciliano
§4.2.2); ``modern_robotics.SimulateControl`` for the computed-torque simulation and
``FKinSpace`` for the hand. The printed values are copied from the notebook's outputs (four
decimals unless printed otherwise); the widget and the exercises are checked by nbval (the
solutions pass).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import modern_robotics as mr
import numpy as np
import pytest
from chapter_cells import notebook_cells, output_of, run_setup_cells
from exercise_tries import first_try, shows_expected
from scipy.interpolate import CubicSpline
from scipy.linalg import lstsq

import robolab

CELLS = notebook_cells("14-capstone-pick-and-place.ipynb")
UR5 = robolab.load_robot("ur5")
PANDA = robolab.load_robot("panda")
LOW, HIGH = np.array(PANDA.joint_limits).T
READY = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785])
VELOCITY_LIMIT = np.array([2.175, 2.175, 2.175, 2.175, 2.61, 2.61, 2.61])
TORQUE_LIMIT = np.array([87.0, 87.0, 87.0, 87.0, 12.0, 12.0, 12.0])
PRINTED = 5e-5  # four decimals


def deg(*values: float) -> np.ndarray:
    return np.radians(np.array(values, dtype=float))


def liegeois(robot, q):
    low, high = np.array(robot.joint_limits).T
    return -(q - (low + high) / 2) / (len(q) * (high - low) ** 2)


def book_resolved_rate(robot, q, target, gain, dt, damping=0.0, k0=0.0, max_steps=500):
    """Whitney's loop with MR's functions; returns (joint positions, errors, w, status)."""
    low, high = np.array(robot.joint_limits).T
    B, M, n = robot.screw_axes_body, robot.home_ee_pose, robot.n_joints
    qs, errors, manipulability = [q], [], []
    for _ in range(max_steps + 1):
        V = mr.se3ToVec(mr.MatrixLog6(mr.TransInv(mr.FKinBody(M, B, q)) @ target))
        J = mr.JacobianBody(B, q)
        errors.append((np.linalg.norm(V[:3]), np.linalg.norm(V[3:])))
        manipulability.append(np.sqrt(np.linalg.det(J @ J.T)))
        if errors[-1][0] <= 1e-3 and errors[-1][1] <= 1e-4:
            return np.array(qs), np.array(errors), np.array(manipulability), "reached"
        A = np.vstack([J, damping * np.eye(n)])
        rates = np.linalg.lstsq(A, np.concatenate([gain * V, np.zeros(n)]), rcond=None)[0]
        rates += (np.eye(n) - np.linalg.pinv(J) @ J) @ (k0 * liegeois(robot, q))
        q = q + dt * rates
        if np.any(q < low) or np.any(q > high):
            return np.array(qs), np.array(errors), np.array(manipulability), "joint_limit", q
        qs.append(q)
    return np.array(qs[:-1]), np.array(errors), np.array(manipulability), "iteration_limit"


def margin(q):
    return (np.minimum(q - LOW, HIGH - q) / (HIGH - LOW)).min(axis=-1)


def hand_down(x, y, z, yaw=0.0):
    c, s = np.cos(yaw), np.sin(yaw)
    pose = np.eye(4)
    pose[:3, :3] = [[c, s, 0.0], [s, -c, 0.0], [0.0, 0.0, -1.0]]
    pose[:3, 3] = [x, y, z]
    return pose


# --- section 1: resolved rate on the UR5 ---------------------------------------------------------


def test_section_1_ur5_resolved_rate():
    target = mr.FKinSpace(UR5.home_ee_pose, UR5.screw_axes_space, deg(60, -90, 70, -60, -50, 30))
    qs, errors, _, status = book_resolved_rate(
        UR5, deg(10, -60, 90, -120, -90, 0), target, 2.0, 0.05
    )
    assert status == "reached" and len(qs) - 1 == 85
    printed = output_of(CELLS, "ratio of successive errors")
    assert "reached after 85 steps, t = 4.25 s" in printed
    assert f"‖ω‖ = {errors[-1, 0]:.2e} rad, ‖v‖ = {errors[-1, 1]:.2e} m" in printed
    assert "‖ω‖ = 9.84e-05 rad, ‖v‖ = 9.44e-05 m" in printed
    np.testing.assert_allclose(
        np.degrees(qs[-1]), [59.9944, -90.0039, 70.0148, -60.0086, -50.0059, 29.9965], atol=PRINTED
    )
    np.testing.assert_allclose(errors[21:26, 1] / errors[20:25, 1], 0.9, atol=5e-3)  # prints 0.9
    assert "[0.9 0.9 0.9 0.9 0.9]  1 − KΔt = 0.9" in printed
    # the figure's legend: steps for KΔt = 0.5 and 1
    for gain, steps in ((10.0, 14), (20.0, 5)):
        qs, *_ = book_resolved_rate(UR5, deg(10, -60, 90, -120, -90, 0), target, gain, 0.05)
        assert len(qs) - 1 == steps


# --- section 2: damping near the stretched elbow -------------------------------------------------


def test_section_2_damped_and_undamped():
    start = deg(0, -30, 2, -40, 20, 0)
    target = mr.FKinSpace(UR5.home_ee_pose, UR5.screw_axes_space, deg(30, -70, 80, -60, -40, 20))
    printed = {0.0: (81, 43.3993, 0.0016, 0.0637), 0.05: (86, 2.6764, 0.0016, 0.0638)}
    for damping, (steps, peak, w0, w_end) in printed.items():
        qs, _, w, status = book_resolved_rate(UR5, start, target, 2.0, 0.05, damping)
        assert status == "reached" and len(qs) - 1 == steps
        np.testing.assert_allclose(np.abs(np.diff(qs, axis=0)).max() / 0.05, peak, atol=PRINTED)
        np.testing.assert_allclose([w[0], w[-1]], [w0, w_end], atol=PRINTED)
    text = output_of(CELLS, "near_singular = ")
    assert "λ = 0.00: reached in 81 steps, peak |q̇| = 43.3993 rad/s" in text
    assert "λ = 0.05: reached in 86 steps, peak |q̇| = 2.6764 rad/s" in text


# --- section 3: null-space motion on the Panda ---------------------------------------------------

LIMIT_GOAL = [1.191, -1.524, 1.677, -1.742, -0.346, 2.078, -1.186]


def test_section_3_null_space():
    target = mr.FKinSpace(PANDA.home_ee_pose, PANDA.screw_axes_space, np.array(LIMIT_GOAL))
    plain = book_resolved_rate(PANDA, READY, target, 2.0, 0.05, 0.02)
    assert plain[3] == "joint_limit" and len(plain[0]) == 10  # step 10 is refused
    np.testing.assert_allclose(plain[4][1], -1.8321, atol=PRINTED)
    assert LOW[1] == -1.7628  # Franka's published range of joint 2
    weak = book_resolved_rate(PANDA, READY, target, 2.0, 0.05, 0.02, 20.0)
    assert weak[3] == "joint_limit" and len(weak[0]) - 1 == 9
    np.testing.assert_allclose([margin(weak[0]).min(), margin(weak[0][-1])], 0.0159, atol=PRINTED)
    strong = book_resolved_rate(PANDA, READY, target, 2.0, 0.05, 0.02, 60.0)
    assert strong[3] == "reached" and len(strong[0]) - 1 == 89
    np.testing.assert_allclose(
        [margin(strong[0]).min(), margin(strong[0][-1])], [0.0267, 0.0507], atol=PRINTED
    )
    np.testing.assert_allclose(
        liegeois(PANDA, READY), [0, 0.009, 0, 0.0124, 0, 0.003, -0.0033], atol=PRINTED
    )
    text = output_of(CELLS, "∇w at the ready pose")
    assert "step 10 would take joint 2 ('panda_joint2') to -1.8321, past its limit -1.7628" in text
    assert "k0 =  20.0: joint_limit in 9 steps, smallest margin 0.0159, final margin 0.0159" in text
    assert "k0 =  60.0: reached in 89 steps, smallest margin 0.0267, final margin 0.0507" in text


# --- section 4: pick and place -------------------------------------------------------------------

LIFT = np.array([[1.0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, -0.15], [0, 0, 0, 1]])
PICK, PLACE = hand_down(0.5, -0.3, 0.1), hand_down(0.35, 0.45, 0.25, 0.6)
VIA_TIMES = np.array([0.0, 1.5, 2.3, 3.1, 4.8, 5.6])
STATIONS = {
    "above pick": (80, [-13.3, 11.3, -18.3, -116.6, 4.4, 127.3, 11.0]),
    "pick": (70, [-16.5, 26.5, -14.3, -120.0, 11.2, 145.3, 6.5]),
    "lift": (70, [-14.9, 11.2, -16.6, -116.6, 4.0, 127.3, 11.3]),
    "above place": (86, [26.0, 1.7, 26.4, -105.9, -0.8, 107.4, 63.3]),
    "place": (70, [29.6, 9.4, 23.1, -119.5, -4.7, 128.0, 66.0]),
}


@pytest.fixture(scope="module")
def configurations():
    poses = [PICK @ LIFT, PICK, PICK @ LIFT, PLACE @ LIFT, PLACE]
    q, result = READY, [READY]
    for pose, (steps, printed) in zip(poses, STATIONS.values(), strict=True):
        qs, _, _, status = book_resolved_rate(PANDA, q, pose, 2.0, 0.05, 0.02, 50.0, 1000)
        assert status == "reached" and len(qs) - 1 == steps
        q = qs[-1]
        np.testing.assert_allclose(np.degrees(q), printed, atol=0.05)  # one decimal
        result.append(q)
    return np.array(result)


@pytest.mark.slow
def test_section_4_pick_and_place(configurations, monkeypatch):
    monkeypatch.setattr(plt, "show", lambda *a, **k: None)
    spline = CubicSpline(VIA_TIMES, configurations, bc_type="clamped")
    fine = np.linspace(0.0, 5.6, 56001)
    np.testing.assert_allclose(
        np.abs(spline(fine, 1)).max(axis=0) / VELOCITY_LIMIT,
        [0.2372, 0.4016, 0.2755, 0.1817, 0.0787, 0.238, 0.2511],
        atol=PRINTED,
    )
    times = np.arange(0.0, 5.6 + 0.005, 0.01)
    q_d, qd_d, qdd_d = spline(times), spline(times, 1), spline(times, 2)
    frames, inertias = list(PANDA.link_frames), list(PANDA.spatial_inertias)
    try:
        torques, q_sim = mr.SimulateControl(
            q_d[0], qd_d[0], PANDA.gravity, np.zeros((len(times), 6)), frames, inertias,
            PANDA.screw_axes_space, q_d, qd_d, qdd_d, PANDA.gravity, frames,
            [1.1 * G for G in inertias], 100.0, 500.0, 20.0, 0.01, 2,
        )  # fmt: skip
    finally:
        plt.close("all")
    np.testing.assert_allclose(
        np.degrees(np.abs(q_sim - q_d).max(axis=0)),
        [0.1963, 0.4248, 0.2648, 0.4776, 0.1473, 0.3819, 0.2514],
        atol=PRINTED,
    )
    peak = np.abs(torques).max(axis=0)
    np.testing.assert_allclose(
        peak, [2.6933, 40.9249, 4.1601, 23.8808, 0.6361, 2.593, 0.0064], atol=PRINTED
    )
    np.testing.assert_allclose(
        peak / TORQUE_LIMIT, [0.031, 0.4704, 0.0478, 0.2745, 0.053, 0.2161, 0.0005], atol=PRINTED
    )
    for pose, k, mm in ((PICK, 230, 2.73), (PLACE, 560, 1.94)):
        hand = mr.FKinSpace(PANDA.home_ee_pose, PANDA.screw_axes_space, q_sim[k])[:3, 3]
        np.testing.assert_allclose(1000 * np.linalg.norm(hand - pose[:3, 3]), mm, atol=0.005)
    assert np.all((q_sim >= LOW) & (q_sim <= HIGH))
    # the text: with K_i = 0 the error reaches 2° before the pick (t = 2.3 s), missed by 9 mm
    try:
        _, q_p = mr.SimulateControl(
            q_d[0], qd_d[0], PANDA.gravity, np.zeros((231, 6)), frames, inertias,
            PANDA.screw_axes_space, q_d[:231], qd_d[:231], qdd_d[:231], PANDA.gravity, frames,
            [1.1 * G for G in inertias], 100.0, 0.0, 20.0, 0.01, 2,
        )  # fmt: skip
    finally:
        plt.close("all")
    largest = float(np.degrees(np.abs(q_p - q_d[:231]).max()))
    hand = mr.FKinSpace(PANDA.home_ee_pose, PANDA.screw_axes_space, q_p[230])[:3, 3]
    missed = 1000 * float(np.linalg.norm(hand - PICK[:3, 3]))
    assert round(largest) == 2 and round(missed) == 9
    printed = output_of(CELLS, "hand speed as it passes the pick")
    assert f"K_i = 0: largest error before the pick {largest:.1f}°, hand {missed:.1f} mm" in printed
    # the planned hand strays sideways from the vertical lines through the pick and the place
    fine = np.arange(0.0, 5.6 + 0.0005, 0.001)
    hands = np.array(
        [mr.FKinSpace(PANDA.home_ee_pose, PANDA.screw_axes_space, q)[:3, 3] for q in spline(fine)]
    )
    for name, (start, end), pose in (
        ("down to the pick", (1.5, 2.3), PICK),
        ("lift", (2.3, 3.1), PICK),
        ("down to the place", (4.8, 5.6), PLACE),
    ):
        span = (fine >= start) & (fine <= end)
        sideways = 1000 * np.linalg.norm(hands[span, :2] - pose[:2, 3], axis=1).max()
        assert sideways > 10.0  # centimetres, not "straight down"
        assert f"{name:17s} ({start}–{end} s): up to {sideways:.1f} mm off" in printed
    # the hand's speed at the pick, v = v_s + ω_s × p from the space Jacobian (exact derivative)
    q_pick, qd_pick = spline(2.3), spline(2.3, 1)
    twist = mr.JacobianSpace(PANDA.screw_axes_space, q_pick) @ qd_pick
    p = mr.FKinSpace(PANDA.home_ee_pose, PANDA.screw_axes_space, q_pick)[:3, 3]
    speed = 100 * np.linalg.norm(twist[3:] + np.cross(twist[:3], p))
    assert speed > 1.0  # it does not stop
    assert f"hand speed as it passes the pick (t = 2.3 s): {speed:.1f} cm/s" in printed
    text = output_of(CELLS, "inside the joint limits all the way")
    assert "hand at the pick (t = 2.3 s): 2.73 mm off" in text
    assert "hand at the place (t = 5.6 s): 1.94 mm off" in text
    assert "inside the joint limits all the way: True" in text


# --- the capstone project: the five stages' graders (issue 27) -----------------------------------
#
# The good plan is built here with modern_robotics (IKinBody at every sample, FKinSpace) and
# SciPy's CubicSpline for the joint-space moves' derivatives, never with robolab's planners; the
# bad plans are the same plan with a 25° tilt at the grasp, 0.5 rad of extra yaw at the place, a
# pass through the grasp without stopping, or a joint-space (curved) approach.

TOOL = 0.10
APPROACH = 0.10


@pytest.fixture(scope="module")
def capstone():
    cells = notebook_cells("14-capstone-pick-and-place.ipynb")
    return run_setup_cells(
        cells, "%matplotlib widget", "# The exercises of this chapter", "# The capstone project"
    )


def part_on_table(x, y, yaw):
    pose = np.eye(4)
    pose[:3, :3] = mr.MatrixExp3(mr.VecToso3([0.0, 0.0, yaw]))
    pose[:3, 3] = [x, y, 0.025]
    return pose


def grip(part, turn=0.0):
    """A flange pose grasping the part: z down, y across it, fingertips TOOL below the flange."""
    flange_in_part = np.diag([1.0, -1.0, -1.0, 1.0])
    flange_in_part[2, 3] = TOOL
    return (
        part
        @ mr.RpToTrans(mr.MatrixExp3(mr.VecToso3([0.0, 0.0, turn])), [0, 0, 0])
        @ (flange_in_part)
    )


def mr_ik(target, guess):
    q, ok = mr.IKinBody(PANDA.screw_axes_body, PANDA.home_ee_pose, target, guess, 1e-9, 1e-9)
    assert ok
    return q


def mr_plan(part, target, tilt=0.0, extra_yaw=0.0, stop=True, straight=True):
    """Rest-to-rest quintic moves (MR's QuinticTimeScaling), straight vertical approaches."""
    ready_rotation = mr.FKinSpace(PANDA.home_ee_pose, PANDA.screw_axes_space, READY)[:3, :3]
    grasp = max(
        (grip(part), grip(part, np.pi)), key=lambda g: np.trace(ready_rotation.T @ g[:3, :3])
    )
    place = target @ mr.TransInv(part) @ grasp
    if tilt:
        grasp = grasp @ mr.RpToTrans(mr.MatrixExp3(mr.VecToso3([np.radians(tilt), 0, 0])), [0] * 3)
    if extra_yaw:
        place = place @ mr.RpToTrans(mr.MatrixExp3(mr.VecToso3([0, 0, extra_yaw])), [0] * 3)
    rows, closed = [READY], [False]

    def scaling(duration, rest=True):
        n = round(duration / 0.01)
        t = np.arange(1, n + 1) * 0.01
        return [mr.QuinticTimeScaling(duration, tk) if rest else tk / duration for tk in t]

    def joint_move(goal, duration):
        start = rows[-1]
        for s in scaling(duration):
            rows.append(start + s * (goal - start))
            closed.append(closed[-1])

    def line(a, b, duration, rest=True):
        if not straight:  # a joint-space move instead: the hand follows a curve
            joint_move(mr_ik(b, rows[-1]), duration)
            return
        q = rows[-1]
        for s in scaling(duration, rest):
            pose = a.copy()
            pose[:3, 3] = a[:3, 3] + s * (b[:3, 3] - a[:3, 3])
            q = mr_ik(pose, q)
            rows.append(q)
            closed.append(closed[-1])

    for station, state, travel in ((grasp, True, 1.5), (place, False, 2.5)):
        above = station.copy()
        above[2, 3] += APPROACH
        q_above = mr_ik(above, READY)  # from the ready pose: the branch near it
        joint_move(q_above, travel)
        line(above, station, 0.8, rest=stop)
        if stop:
            rows.extend([rows[-1]] * 50)
            closed.extend([closed[-1]] * 25 + [state] * 25)
        else:
            closed[-1] = state
        line(station, above, 0.8)
    q = np.array(rows)
    qd = np.gradient(q, 0.01, axis=0)
    qd[[0, -1]] = 0.0
    return 0.01 * np.arange(len(q)), q, qd, np.gradient(qd, 0.01, axis=0), np.array(closed)


def scene_of(exercise):
    return exercise.parameters["scenes"][0]


@pytest.mark.slow
def test_capstone_plans_graded_on_outcomes(capstone):
    stage3 = capstone["stage3_exercise"](seed=6)
    part, target = scene_of(stage3)
    grade = capstone["grade_motion"]
    tolerances = capstone["PLAN_TOLERANCES"]

    def graded(**bad):
        times, q, qd, _, closed = mr_plan(part, target, **bad)
        return grade(3, times, q, qd, closed, part, target, tolerances)

    assert graded() is None  # a good plan passes
    tilted = graded(tilt=25.0)
    assert "Stage 3" in tilted and "25.0° tilt" in tilted and "grasp" in tilted
    turned = graded(extra_yaw=0.5)
    assert "Stage 3" in turned and "28.6°" in turned and "target" in turned  # 0.5 rad
    passing = graded(stop=False)
    assert "Stage 3" in passing and "must stop and dwell" in passing
    curved = graded(straight=False)
    assert "Stage 3" in curved and "not straight" in curved


def test_capstone_stage_slips(capstone):
    for make, seed in (("stage1_exercise", 4), ("stage2_exercise", 5), ("stage4_exercise", 7)):
        exercise = capstone[make](seed=seed)
        assert len(exercise.hints) >= 2 and exercise._slips
        assert "Hint" not in str(exercise.check(None))
        for message, slip in exercise._slips.items():
            result = exercise.check(slip(**exercise.parameters))
            assert not result.correct and message.split(":")[0] in str(result)
            assert message[:60] in str(result), (message, str(result))
    # stage 1 and 2 accept answers written here with modern_robotics
    stage1 = capstone["stage1_exercise"](seed=4)
    assert stage1.check(lambda p, t: (grip(p), t @ mr.TransInv(p) @ grip(p))).correct
    assert stage1.check(lambda p, t: (grip(p, np.pi), t @ mr.TransInv(p) @ grip(p, np.pi))).correct
    stage2 = capstone["stage2_exercise"](seed=5)
    ready_ik = lambda T, q: mr_ik(T, q)  # noqa: E731 - MR's Newton-Raphson
    result = stage2.check(ready_ik)
    assert result.correct or "outside its limits" in str(result)


def mr_control(q, qd, q_d, qd_d, qdd_d, e_int):
    """Computed torque with MR's InverseDynamics on the model (inertias × 1.1)."""
    a = qdd_d + 400.0 * (q_d - q) + 40.0 * (qd_d - qd) + 2000.0 * e_int
    return mr.InverseDynamics(
        q, qd, a, PANDA.gravity, np.zeros(6), list(PANDA.link_frames),
        [1.1 * G for G in PANDA.spatial_inertias], PANDA.screw_axes_space,
    )  # fmt: skip


def test_capstone_stage4_accepts_mr_computed_torque(capstone):
    stage4 = capstone["stage4_exercise"](seed=7)
    assert stage4.check(mr_control).correct
    # without the integral term the payload's weight leaves the hand off the goal
    result = stage4.check(
        lambda q, qd, q_d, qd_d, qdd_d, e: mr_control(q, qd, q_d, qd_d, qdd_d, 0 * e)
    )
    assert not result.correct and "Stage 4" in str(result) and "mm from it" in str(result)


# --- exercises 1-3: resolved rate, null space, tuning ---------------------------------------------
# The correct answers are computed here: the 2R Jacobian from modern_robotics (JacobianSpace of
# the arm's screw axes, the hand point's velocity v_s + ω × p) and the damped step by SciPy's
# least squares on Wampler's augmented system [J; λ1] q̇ = [v; 0]; the null-space objective is a
# w(q) of the test's own; the gains are checked against the MR loop above.

PLANAR_2R_SCREWS = np.array([[0, 0, 1, 0, 0, 0], [0, 0, 1, 0, -1, 0]], dtype=float).T
PLANAR_2R_HOME = np.array([[1.0, 0, 0, 2], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])


def mr_damped_step(q1, q2, vx, vy, lam):
    q = np.array([q1, q2])
    J_s = mr.JacobianSpace(PLANAR_2R_SCREWS, q)
    hand = mr.FKinSpace(PLANAR_2R_HOME, PLANAR_2R_SCREWS, q)[:3, 3]
    J = (J_s[3:] + np.cross(J_s[:3].T, hand).T)[:2]  # the hand point's (ẋ, ẏ) per joint
    A = np.vstack([J, lam * np.eye(2)])
    return lstsq(A, np.array([vx, vy, 0.0, 0.0]))[0]


def untried(exercise):
    exercise.wrong_tries = 0
    return exercise


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_exercise_1_damped_step(capstone, seed):
    exercise = capstone["dls_exercise"](seed=seed)
    p = exercise.parameters
    assert exercise.kind == "apply" and len(exercise.hints) >= 2 and len(exercise._slips) >= 5
    assert "Hint" not in str(exercise.check(None))
    expected = mr_damped_step(**p)
    for message, slip in exercise._slips.items():
        text = first_try(untried(exercise), slip(**p), expected)
        assert text.startswith("✗ " + message[:40])
    # the slips, written here with MR's Jacobian: pinv, λ for λ², Jᵀv, J for Jᵀ, degrees
    q = np.array([p["q1"], p["q2"]])
    J = mr_jacobian_2r(q)
    v = np.array([p["vx"], p["vy"]])
    first_try(untried(exercise), np.linalg.pinv(J) @ v, expected, "undamped", "pseudo-inverse")
    lam = p["lam"]
    first_try(untried(exercise), J.T @ np.linalg.solve(J @ J.T + lam * np.eye(2), v), expected,
              "λ²")  # fmt: skip
    first_try(untried(exercise), J.T @ v, expected, "Jacobian-transpose")
    degrees = mr_damped_step(*np.degrees(q), p["vx"], p["vy"], lam)
    first_try(untried(exercise), degrees, expected, "degrees")
    assert untried(exercise).check(expected).correct
    assert untried(exercise).check(list(expected)).correct


def mr_jacobian_2r(q):
    J_s = mr.JacobianSpace(PLANAR_2R_SCREWS, q)
    hand = mr.FKinSpace(PLANAR_2R_HOME, PLANAR_2R_SCREWS, q)[:3, 3]
    return (J_s[3:] + np.cross(J_s[:3].T, hand).T)[:2]


def test_exercise_1_damping_bounds_the_step(capstone):
    """Near the stretched-out elbow the damped step is far smaller than J⁻¹v (why it is asked)."""
    p = capstone["dls_exercise"](seed=1).parameters
    q = np.array([p["q1"], p["q2"]])
    v = np.array([p["vx"], p["vy"]])
    damped = mr_damped_step(**p)
    assert np.linalg.norm(damped) <= np.linalg.norm(v) / (2 * p["lam"]) + 1e-12
    assert np.linalg.norm(np.linalg.solve(mr_jacobian_2r(q), v)) > 3 * np.linalg.norm(damped)


def test_exercise_2_null_space_gradient(capstone):
    exercise = capstone["twist_exercise"](seed=5)
    c = exercise.parameters["c"]
    assert exercise.kind == "model" and len(exercise.hints) >= 2 and len(exercise._slips) >= 4
    assert "Hint" not in str(exercise.check(None))
    for message, slip in exercise._slips.items():
        result = untried(exercise).check(slip(**exercise.parameters))
        assert not result.correct and str(result).startswith("✗ " + message), str(result)
        assert "Hint: " + exercise.hints[0] in str(result)
    # an objective of the test's own, w(q) = cos(q₃ − c), largest at c; and the parabola's
    assert untried(exercise).check(lambda q: -np.sin(q[2] - c) * np.eye(7)[2]).correct
    assert untried(exercise).check(lambda q: 2.0 * (c - q[2]) * np.eye(7)[2]).correct
    # a student's slips written here: the sign turned, joint 4, a fixed push
    turned = untried(exercise).check(lambda q: np.sin(q[2] - c) * np.eye(7)[2])
    assert "points away from c" in str(turned)
    joint_4 = untried(exercise).check(lambda q: -np.sin(q[3] - c) * np.eye(7)[3])
    assert "index 3" in str(joint_4)
    fixed = untried(exercise).check(lambda q: np.eye(7)[2])
    assert "does not change with q" in str(fixed)


def test_exercise_3_gains_near_the_limits(capstone):
    exercise = capstone["design_exercise"](seed=3)
    steps, targets = exercise.parameters["steps"], exercise.parameters["targets"]
    assert len(exercise.hints) >= 2 and len(exercise._slips) >= 6
    assert "Hint" not in str(exercise.check(None))
    # the worked gains reach every target in MR's loop within the budget; section 3's k₀ = 60
    # and the old answer K = 10 do not
    for gains, status in (((2.0, 0.02, 300.0), "reached"), ((2.0, 0.02, 60.0), "joint_limit")):
        statuses = [
            book_resolved_rate(PANDA, READY, T, gains[0], 0.05, gains[1], gains[2], steps)[3]
            for T in targets
        ]
        assert (status in statuses) if status == "joint_limit" else set(statuses) == {status}
    assert untried(exercise).check([2.0, 0.02, 300.0]).correct
    assert untried(exercise).check((2.0, 0.05, 300.0)).correct
    for message, slip in exercise._slips.items():
        result = untried(exercise).check(slip(**exercise.parameters))
        assert not result.correct and str(result).startswith("✗ " + message), str(result)
    # written here: KΔt = 0.1 given as K, section 3's k₀ = 60, K·Δt = 2, the old K = 10
    assert "KΔt (no unit)" in str(untried(exercise).check([0.1, 0.02, 300.0]))
    assert "Raise k₀" in str(untried(exercise).check([2.0, 0.02, 60.0]))
    assert "K·Δt ≥ 2" in str(untried(exercise).check([40.0, 0.0, 300.0]))
    assert "Lower K" in str(untried(exercise).check([10.0, 0.02, 300.0]))
    assert not shows_expected(str(untried(exercise).check([10.0, 0.02, 300.0])), [2.0, 300.0])


def test_exercise_3_worked_gains_hold_for_other_numbers(capstone):
    for seed in (0, 1, 5, 11):
        exercise = capstone["design_exercise"](seed=seed)
        assert exercise.check([2.0, 0.02, 300.0]).correct, seed
