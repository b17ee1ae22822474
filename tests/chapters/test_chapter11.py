"""Every number chapter 11 prints, recomputed from sources outside robolab.

The references: the closed forms of Modern Robotics §9.2 (peaks of the cubic and quintic,
the trapezoid's vT - v²/a = 1), Spong's LSPB and the minimum-time trapezoid/triangle of a
rest-to-rest motion under |q̇| ≤ V, |q̈| ≤ A; ``modern_robotics`` (``JointTrajectory``,
``CartesianTrajectory``, ``FKinSpace``, ``IKinSpace``, ``MatrixLog3``, ``AxisAng3``); SciPy's
``CubicHermiteSpline`` with Craig's via velocities and ``CubicSpline(bc_type="clamped")``
(MR §9.3, Siciliano §4.2.2); Spong's closed-form inverse kinematics and Jacobian of the planar
2R arm. The printed values are copied from the notebook's outputs (four decimals).
"""

from __future__ import annotations

import math

import modern_robotics as mr
import numpy as np
from reference.craig_via_velocities import craig_velocities
from scipy.interpolate import CubicHermiteSpline, CubicSpline

import robolab

PANDA_VELOCITY = np.array([2.175, 2.175, 2.175, 2.175, 2.61, 2.61, 2.61])
PANDA_ACCELERATION = np.array([15.0, 7.5, 10.0, 12.5, 15.0, 20.0, 20.0])
PRINTED = 5e-5  # numbers printed with four decimals


def deg(*values: float) -> np.ndarray:
    return np.radians(np.array(values, dtype=float))


# --- section 2: cubic and quintic on the Puma ---------------------------------------------------


def test_section_2_puma_peaks_and_midpoint():
    q_start, q_end = deg(0, 45, -90, 0, 30, 0), deg(60, 10, -30, 45, -20, 90)
    delta, T = q_end - q_start, 2.0
    np.testing.assert_allclose(
        delta, [1.0472, -0.6109, 1.0472, 0.7854, -0.8727, 1.5708], atol=PRINTED
    )
    D = np.abs(delta)
    printed = {
        "cubic speed": [0.7854, 0.4581, 0.7854, 0.589, 0.6545, 1.1781],
        "cubic accel": [1.5708, 0.9163, 1.5708, 1.1781, 1.309, 2.3562],
        "quintic speed": [0.9817, 0.5727, 0.9817, 0.7363, 0.8181, 1.4726],
        "quintic accel": [1.5115, 0.8817, 1.5115, 1.1336, 1.2596, 2.2672],
    }
    # MR §9.2.2: 3/(2T), 6/T² (cubic); 15/(8T), 10/(√3 T²) (quintic)
    np.testing.assert_allclose(1.5 * D / T, printed["cubic speed"], atol=PRINTED)
    np.testing.assert_allclose(6 * D / T**2, printed["cubic accel"], atol=PRINTED)
    np.testing.assert_allclose(15 / 8 * D / T, printed["quintic speed"], atol=PRINTED)
    np.testing.assert_allclose(10 / math.sqrt(3) * D / T**2, printed["quintic accel"], atol=PRINTED)
    # and the same peaks from finite differences of mr.JointTrajectory on a fine grid
    for method, name in ((3, "cubic"), (5, "quintic")):
        samples = mr.JointTrajectory(q_start, q_end, T, 40001, method)
        step = T / 40000
        speed = np.abs(np.diff(samples, axis=0)).max(axis=0) / step
        accel = np.abs(np.diff(samples, 2, axis=0)).max(axis=0) / step**2
        np.testing.assert_allclose(speed, printed[f"{name} speed"], atol=2e-4)
        np.testing.assert_allclose(accel, printed[f"{name} accel"], atol=2e-3)
    middle = np.array(mr.JointTrajectory(q_start, q_end, T, 5, 5))[2]
    np.testing.assert_allclose(
        middle, [0.5236, 0.48, -1.0472, 0.3927, 0.0873, 0.7854], atol=PRINTED
    )


# --- section 3: the trapezoid -------------------------------------------------------------------


def lspb_minimum_time(D: float, V: float, A: float) -> tuple[float, float, float]:
    """(T, t_1, peak speed) of the fastest rest-to-rest motion by D under V, A."""
    if D >= V * V / A:
        return D / V + V / A, V / A, V
    return 2 * math.sqrt(D / A), math.sqrt(D / A), math.sqrt(A * D)


def test_section_3_trapezoids():
    T, v = 2.0, 0.75
    a = v * v / (v * T - 1)  # MR: v T - v²/a = 1
    assert abs(a - 1.125) < PRINTED and abs(v / a - 0.6667) < PRINTED
    for D, printed in (
        (math.radians(90), (0.8672, 0.1450, 0.7222, 2.1750)),
        (math.radians(10), (0.2157, 0.1079, 0.1079, 1.6180)),
    ):
        total, t1, peak = lspb_minimum_time(D, 2.175, 15.0)
        np.testing.assert_allclose((total, t1, total - t1, peak), printed, atol=PRINTED)


def test_section_3_panda_line():
    start, end = deg(0, -30, 0, -150, 0, 120, 45), deg(90, 20, -40, -80, 30, 100, 0)
    D = np.abs(end - start)
    moving = D > 0
    v = np.min(PANDA_VELOCITY[moving] / D[moving])
    a = np.min(PANDA_ACCELERATION[moving] / D[moving])
    T, t1, _ = lspb_minimum_time(1.0, v, a)
    np.testing.assert_allclose((T, t1, T - t1), (0.8833, 0.1611, 0.7222), atol=PRINTED)
    np.testing.assert_allclose(
        D * v / PANDA_VELOCITY, [1.0, 0.5556, 0.4444, 0.7778, 0.2778, 0.1852, 0.4167], atol=PRINTED
    )
    np.testing.assert_allclose(
        D * a / PANDA_ACCELERATION, [0.9, 1.0, 0.6, 0.84, 0.3, 0.15, 0.3375], atol=PRINTED
    )


# --- section 4: via points and the editor's read-out --------------------------------------------

WAYPOINTS = np.radians(
    [[0, -30, 0, -150, 0, 120, 45], [30, 10, 0, -100, 0, 110, 45],
     [60, 20, 0, -80, 0, 100, 45], [90, -20, 0, -130, 0, 110, 45]]
)  # fmt: skip
TIMES = np.array([0.0, 1.0, 2.0, 3.0])
SHOWN = [0, 1, 3]


def test_section_4_via_points():
    fine = np.linspace(0.0, 3.0, 300_001)
    hermite = CubicHermiteSpline(TIMES, WAYPOINTS, craig_velocities(WAYPOINTS, TIMES))
    clamped = CubicSpline(TIMES, WAYPOINTS, bc_type="clamped")
    printed = {
        "velocity": (
            [[0.5236, 0.4363, 0.6109], [0.5236, 0.0, 0.0]],
            [[1.0472, 1.7453, 2.4435], [1.0472, -4.0143, -4.3633]],
            [0.321, 0.4815, 0.6018],
        ),
        "acceleration": (
            [[0.6283, 0.8029, 1.0821], [0.6283, -0.5934, -0.6632]],
            [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
            [0.325, 0.4308, 0.5451],
        ),
    }
    for name, spline in (("velocity", hermite), ("acceleration", clamped)):
        velocities, jumps, ratios = printed[name]
        np.testing.assert_allclose(spline(TIMES[1:3], 1)[:, SHOWN], velocities, atol=PRINTED)
        jump = spline(TIMES[1:3] + 1e-9, 2) - spline(TIMES[1:3] - 1e-9, 2)
        np.testing.assert_allclose(jump[:, SHOWN], jumps, atol=PRINTED)
        peaks = np.abs(spline(fine, 1)).max(axis=0)
        np.testing.assert_allclose((peaks / PANDA_VELOCITY)[SHOWN], ratios, atol=PRINTED)
    # the text after the cell: the spline lowers the peak speeds of joints 2 and 4 (which turn
    # back under Craig's rule) and raises joint 1's a little
    craig = np.abs(hermite(fine, 1)).max(axis=0)[SHOWN]
    spline_peaks = np.abs(clamped(fine, 1)).max(axis=0)[SHOWN]
    assert spline_peaks[1] < craig[1] and spline_peaks[2] < craig[2]
    assert craig[0] < spline_peaks[0] < 1.05 * craig[0]


def test_the_editors_saved_readout():
    hermite = CubicHermiteSpline(TIMES, WAYPOINTS, craig_velocities(WAYPOINTS, TIMES))
    fine = np.linspace(0.0, 3.0, 300_001)
    speed = np.abs(hermite(fine, 1)).max(axis=0)[SHOWN]
    accel = np.abs(hermite(fine, 2)).max(axis=0)[SHOWN]
    np.testing.assert_allclose(speed, [0.70, 1.05, 1.31], atol=5e-3)
    np.testing.assert_allclose(accel, [2.09, 4.19, 5.24], atol=5e-3)
    np.testing.assert_allclose(WAYPOINTS[0, SHOWN], [0.0, -0.524, -2.618], atol=5e-4)


# --- section 5: joint-space vs Cartesian lines on the UR5 ---------------------------------------


def axis_angle(R: np.ndarray) -> tuple[np.ndarray, float]:
    axis, angle = mr.AxisAng3(mr.so3ToVec(mr.MatrixLog3(R)))
    return np.asarray(axis), float(angle)


def test_section_5_ur5_lines():
    ur5 = robolab.load_robot("ur5")
    M, S = ur5.home_ee_pose, ur5.screw_axes_space
    qa, qb = deg(10, -60, 90, -120, -90, 0), deg(80, -100, 60, -50, -40, 45)
    Xa, Xb = mr.FKinSpace(M, S, qa), mr.FKinSpace(M, S, qb)
    assert abs(np.linalg.norm(Xb[:3, 3] - Xa[:3, 3]) - 0.9113) < PRINTED
    joint_line = np.array(mr.JointTrajectory(qa, qb, 4.0, 41, 5))
    tips = np.array([mr.FKinSpace(M, S, q)[:3, 3] for q in joint_line])
    u = (Xb[:3, 3] - Xa[:3, 3]) / np.linalg.norm(Xb[:3, 3] - Xa[:3, 3])
    offsets = tips - Xa[:3, 3]
    stray = np.linalg.norm(offsets - np.outer(offsets @ u, u), axis=1).max()
    assert abs(stray - 0.2192) < PRINTED
    hand_line = mr.CartesianTrajectory(Xa, Xb, 4.0, 41, 5)
    printed = {
        (10, "cartesian"): ([-0.765, -0.4874, -0.421], 0.1003, 0.9694),
        (10, "joint"): ([-0.0928, -0.8897, -0.4469], 0.1010, 0.9756),
        (20, "cartesian"): ([-0.765, -0.4874, -0.421], 0.4847, 0.9694),
        (20, "joint"): ([-0.4317, -0.787, -0.4408], 0.4871, 0.9741),
        (30, "cartesian"): ([-0.765, -0.4874, -0.421], 0.8690, 0.9694),
        (30, "joint"): ([-0.7084, -0.5625, -0.4263], 0.8701, 0.9706),
    }
    for (k, kind), (axis, angle, ratio) in printed.items():
        pose = hand_line[k] if kind == "cartesian" else mr.FKinSpace(M, S, joint_line[k])
        got_axis, got_angle = axis_angle(Xa[:3, :3].T @ pose[:3, :3])
        s = mr.QuinticTimeScaling(4.0, k / 10)
        np.testing.assert_allclose(got_axis, axis, atol=PRINTED)
        assert abs(got_angle - angle) < PRINTED and abs(got_angle / s - ratio) < PRINTED
    # inverse kinematics along the Cartesian line, warm-started, with the book's solver
    guess, following = qa.copy(), []
    for X in hand_line:
        guess, success = mr.IKinSpace(S, M, X, guess, 1e-9, 1e-9)
        assert success
        following.append(guess)
    difference = np.degrees(np.abs(np.array(following) - joint_line).max(axis=0))
    np.testing.assert_allclose(difference, [17.5, 23.59, 22.39, 25.05, 7.76, 20.7], atol=5e-3)


# --- section 6: the planar 2R arm near its folded singularity -----------------------------------


def planar_2r_rates(c: float, y: float, speed: np.ndarray) -> np.ndarray:
    """Spong: q2 = atan2(+√(1-D²), D) (this branch is robolab's 'elbow down' of the bundled
    arm), q1 = atan2(y, x) - atan2(sin q2, 1 + cos q2); J of the planar 2R with unit links."""
    D = (c * c + y * y - 2.0) / 2.0
    q2 = math.atan2(math.sqrt(1 - D * D), D)
    q1 = math.atan2(y, c) - math.atan2(math.sin(q2), 1 + math.cos(q2))
    s1, c1, s12, c12 = math.sin(q1), math.cos(q1), math.sin(q1 + q2), math.cos(q1 + q2)
    J = np.array([[-s1 - s12, -s12], [c1 + c12, c12]])
    return np.linalg.solve(J, speed)


def test_section_6_joint_speeds_near_the_singularity():
    heights = np.linspace(-0.8, 0.8, 161)
    printed = {
        0.5: (0.8133, 0.3847),
        0.2: (2.0051, 0.4259),
        0.1: (4.0, 0.4337),
        0.05: (8.0, 0.4357),
    }
    for c, peaks in printed.items():
        rates = np.abs([planar_2r_rates(c, y, np.array([0.0, 0.4])) for y in heights])
        np.testing.assert_allclose(rates.max(axis=0), peaks, atol=PRINTED)
        assert abs(rates[80, 0] - 0.4 / c) < 1e-9  # at y = 0: |q̇1| = v/c
    robot = robolab.load_robot("planar2r")
    branch = robolab.inverse_kinematics_analytic(robot, [0.2, 0.3, 0.0])
    q = branch.solutions[branch.branches.index("elbow down")]
    D = (0.2**2 + 0.3**2 - 2.0) / 2.0
    assert abs(q[1] - math.atan2(math.sqrt(1 - D * D), D)) < 1e-9  # the branch used above


# --- the chapter's exercises given the usual slips ------------------------------------------------
#
# The exercises are built by running the chapter's own set-up cells; every expected value below
# comes from SymPy, SciPy's splines, Spong's closed forms of the 2R arm or closed forms written
# here, never from robolab.

import contextlib  # noqa: E402
import io  # noqa: E402

import pytest  # noqa: E402
import sympy as sp  # noqa: E402
from chapter_cells import notebook_cells, run_setup_cells  # noqa: E402
from exercise_tries import first_try  # noqa: E402

SEEDS = (1, 2, 3, 4, 5, 6, 7, 8)


@pytest.fixture(scope="module")
def chapter() -> dict:
    cells = notebook_cells("11-trajectory-generation.ipynb")
    with contextlib.redirect_stdout(io.StringIO()):
        namespace = run_setup_cells(cells, "%matplotlib widget", "# The exercises of this chapter")
    namespace["exercise_1"] = namespace["singularity_exercise"](seed=11)
    namespace["exercise_2"] = namespace["quintic_exercise"](seed=1)
    namespace["exercise_3"] = namespace["switching_exercise"](seed=2)
    namespace["exercise_4"] = namespace["spline_design_exercise"](seed=3)
    namespace["exercise_5"] = namespace["seam_exercise"](seed=4)
    return namespace


def test_robolab_is_imported_for_progress_summary():
    cells = notebook_cells("11-trajectory-generation.ipynb")
    assert "\nimport robolab  # noqa: F401" in cells[3].source


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_exercise_1_crossing_close_to_the_base(chapter, seed):
    exercise = chapter["exercise_1"].with_seed(seed)
    c = exercise.parameters["c"]
    expected = abs(planar_2r_rates(c, 0.0, np.array([0.0, 0.4]))[0])  # Spong's IK and Jacobian
    assert expected == pytest.approx(0.4 / c, rel=1e-12)
    assert exercise.check(expected)
    slips = {
        math.degrees(expected): "degrees per second",
        0.4 * c: "multiplied the hand's speed",
        c / 0.4: "a time",
        0.2: "full reach",
        0.4: "one link's length",
    }
    for wrong, words in slips.items():
        first_try(chapter["exercise_1"].with_seed(seed), wrong, expected, words)
    assert chapter["exercise_1"].kind == "predict"


def test_exercise_1_is_checked_before_the_sweep_and_not_printed_above():
    cells = notebook_cells("11-trajectory-generation.ipynb")
    sources = [c.source for c in cells]
    check = next(i for i, s in enumerate(sources) if "exercise_1.check(answer)" in s)
    sweep = next(
        i for i, s in enumerate(sources) if s.startswith('planar = load_robot("planar2r")')
    )
    assert check < sweep
    above = "".join(o.get("text", "") for c in cells[:check] for o in c.get("outputs", []))
    for c in (0.07, 0.12, 0.15, 0.3):
        assert f"{0.4 / c:.4f}" not in above and f"{0.4 / c:.3f}" not in above


def quintic_by_sympy(T, q0, qf, v0, vf, a0, af):
    t = sp.Symbol("t")
    a = sp.symbols("a0:6")
    q = sum(a[k] * t**k for k in range(6))
    conditions = [
        q.subs(t, 0) - q0, q.diff(t).subs(t, 0) - v0, q.diff(t, 2).subs(t, 0) - a0,
        q.subs(t, T) - qf, q.diff(t).subs(t, T) - vf, q.diff(t, 2).subs(t, T) - af,
    ]  # fmt: skip
    solution = sp.solve(conditions, a)
    return np.array([float(solution[k]) for k in a])


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_exercise_2_the_quintic(chapter, seed):
    exercise = chapter["exercise_2"].with_seed(seed)
    p = exercise.parameters
    expected = quintic_by_sympy(**p)
    assert exercise.check(expected)
    at_rest = quintic_by_sympy(**{**p, "v0": 0, "vf": 0, "a0": 0, "af": 0})
    # a_2 = q̈(0) instead of q̈(0)/2: the system with the row for q̈(0) written as a_2
    t = sp.Symbol("t")
    a = sp.symbols("a0:6")
    q = sum(a[k] * t**k for k in range(6))
    rows = [q.subs(t, 0) - p["q0"], q.diff(t).subs(t, 0) - p["v0"], a[2] - p["a0"]]
    rows += [q.subs(t, p["T"]) - p["qf"], q.diff(t).subs(t, p["T"]) - p["vf"]]
    rows += [q.diff(t, 2).subs(t, p["T"]) - p["af"]]
    forgot_half = sp.solve(rows, a)
    slips = {
        "reverse order": expected[::-1],
        "starts and ends at rest": at_rest,
        "Your a_2 equals q̈(0)": np.array([float(forgot_half[k]) for k in a]),
    }
    for words, wrong in slips.items():
        first_try(chapter["exercise_2"].with_seed(seed), wrong, expected, words)


def fastest_profile(D, V, A_up, A_down):
    """[t1, t2, T] by the areas: a trapezoid if V is reached, else a triangle."""
    if V * V / (2 * A_up) + V * V / (2 * A_down) <= D:
        cruise = (D - V * V / (2 * A_up) - V * V / (2 * A_down)) / V
        return np.array([V / A_up, V / A_up + cruise, V / A_up + cruise + V / A_down])
    # D = v²/(2 A_up) + v²/(2 A_down)
    v = math.sqrt(D / (1 / (2 * A_up) + 1 / (2 * A_down)))
    return np.array([v / A_up, v / A_up, v / A_up + v / A_down])


def profile_distance(times, A_up, A_down):
    """The area under the speed of the profile [t1, t2, T] (trapezoidal rule is exact here)."""
    t1, t2, T = times
    peak = A_up * t1
    assert peak == pytest.approx(A_down * (T - t2))
    return 0.5 * peak * t1 + peak * (t2 - t1) + 0.5 * peak * (T - t2)


def test_exercise_3_covers_both_branches(chapter):
    shapes = set()
    for seed in SEEDS:
        exercise = chapter["exercise_3"].with_seed(seed)
        p = exercise.parameters
        expected = fastest_profile(**p)
        assert profile_distance(expected, p["A_up"], p["A_down"]) == pytest.approx(p["D"])
        assert exercise.check(expected), seed
        shapes.add("triangle" if expected[0] == expected[1] else "trapezoid")
        t1, t2, T = expected
        slips = {
            "durations": np.array([t1, t2 - t1, T - t2]),
            "motor's acceleration for both": fastest_profile(p["D"], p["V"], p["A_up"], p["A_up"]),
            "brake's deceleration for both": fastest_profile(
                p["D"], p["V"], p["A_down"], p["A_down"]
            ),
            "ramps are swapped": fastest_profile(p["D"], p["V"], p["A_down"], p["A_up"]),
        }
        for words, wrong in slips.items():
            first_try(chapter["exercise_3"].with_seed(seed), wrong, expected, words)
    assert shapes == {"triangle", "trapezoid"}


def spline_duration(points_deg, craig=False, use=(True, True), power=0.5):
    """Shortest T of SciPy's clamped spline (or Craig's Hermite cubics) within Franka's limits."""
    times = np.array([0.0, 1.0, 2.0, 3.0])
    points = np.radians(points_deg)
    if craig:
        spline = CubicHermiteSpline(times, points, craig_velocities(points, times))
    else:
        spline = CubicSpline(times, points, bc_type="clamped")
    fine = np.linspace(0.0, 3.0, 300_001)
    speed = np.abs(spline(fine, 1)).max(axis=0)
    accel = np.abs(spline(fine, 2)).max(axis=0)
    by_speed = np.max(speed / PANDA_VELOCITY) if use[0] else 0.0
    by_accel = np.max(accel / PANDA_ACCELERATION) ** power if use[1] else 0.0
    return 3.0 * max(by_speed, by_accel)


def test_exercise_4_the_fastest_spline(chapter):
    binding = set()
    for seed in SEEDS[:5]:
        exercise = chapter["exercise_4"].with_seed(seed)
        points = exercise.parameters["waypoints_deg"]
        expected = spline_duration(points)
        assert exercise.check(expected), seed
        by_speed = spline_duration(points, use=(True, False))
        binding.add("speed" if by_speed == expected else "acceleration")
        slips = {
            "velocity limits only": by_speed,
            "acceleration limits only": spline_duration(points, use=(False, True)),
            "like the velocities": spline_duration(points, power=1.0),
            "continuous velocity only": spline_duration(points, craig=True),
        }
        named = [expected]  # a slip equal to the answer or to a slip named before is not named
        for words, wrong in slips.items():
            if all(abs(wrong / other - 1) > 2e-3 for other in named):
                first_try(chapter["exercise_4"].with_seed(seed), wrong, expected, words)
                named.append(wrong)
    assert binding == {"speed", "acceleration"}  # both limits bind, on different seeds


def test_exercise_5_the_seam(chapter):
    exercise = chapter["exercise_5"]
    p = exercise.parameters
    L, c, a = p["L"], p["c"], p["a"]
    expected = np.array([L + c * c / a, L / c + 2 * c / a])
    assert exercise.with_seed(exercise.seed).check(expected)
    slips = {
        "ramps are inside the seam": np.array([L, L / c + c / a]),
        "twice too long": np.array([L + 2 * c * c / a, L / c + 2 * c / a]),
        "leaves out the ramps": np.array([L + c * c / a, L / c]),
    }
    for words, wrong in slips.items():
        first_try(exercise.with_seed(exercise.seed), wrong, expected, words)
    assert exercise.kind == "model"


def test_every_exercise_has_staged_hints(chapter):
    for n in range(1, 6):
        exercise = chapter[f"exercise_{n}"]
        assert len(exercise.hints) >= 2, n
        assert "Hint" not in exercise.check(None).message
    kinds = [chapter[f"exercise_{n}"].kind for n in range(1, 6)]
    assert "model" in kinds and "predict" in kinds
