"""Chapter 3's new numbers checked against sources outside robolab.

The revised chapter prints: the space and body twists of a frame on the turntable's rim
(from Ṫ T⁻¹ and T⁻¹ Ṫ), the SCARA's screw axes, a prismatic exponential and a SCARA pose,
and a gravity wrench on the UR5's hand in {b} and in {s}; exercise 3 asks for the screw
axes of an RRPR arm drawn at home. The references are the Modern Robotics library
(``modern_robotics``), the SCARA's DH table (Corke's ``mdl_cobra600``) multiplied out by
hand, elementary transforms chained by hand, and closed forms.
"""

from __future__ import annotations

import contextlib
import io
import re

import modern_robotics as mr
import numpy as np
from chapter_cells import notebook_cells, output_of, run_setup_cells
from reference.screw_arms import UR5_LINK_FRAMES, UR5_SCREW_AXES


def rot_z(angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])


def rot_y(angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, 0, s, 0], [0, 1, 0, 0], [-s, 0, c, 0], [0, 0, 0, 1]])


def rot_x(angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[1, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1]])


def shift(x: float = 0.0, y: float = 0.0, z: float = 0.0) -> np.ndarray:
    T = np.eye(4)
    T[:3, 3] = x, y, z
    return T


def test_rim_frame_space_and_body_twists() -> None:
    # Turntable twist V = (0, 0, 2, 0, -2, 0); a frame at (1.5, 0, 0) at t = 0, seen at t = 0.4 s.
    V = np.array([0.0, 0.0, 2.0, 0.0, -2.0, 0.0])
    T = mr.MatrixExp6(mr.VecTose3(V) * 0.4) @ shift(1.5)
    T_rate = mr.VecTose3(V) @ T  # d/dt e^{[V]t} T0 = [V] e^{[V]t} T0
    V_s = mr.se3ToVec(T_rate @ mr.TransInv(T))
    V_b = mr.se3ToVec(mr.TransInv(T) @ T_rate)
    np.testing.assert_allclose(V_s, V, atol=1e-12)
    # Closed form: the origin is 0.5 m from the axis, so it moves at 1 m/s along its own y.
    np.testing.assert_allclose(V_b, [0, 0, 2, 0, 1, 0], atol=1e-12)
    np.testing.assert_allclose(mr.Adjoint(T) @ V_b, V_s, atol=1e-12)


SCARA_S = np.array(
    [[0, 0, 1, 0, 0, 0], [0, 0, 1, 0, -0.325, 0], [0, 0, 0, 0, 0, -1], [0, 0, -1, 0, 0.6, 0]],
    dtype=float,
).T
SCARA_M = np.array([[1, 0, 0, 0.6], [0, -1, 0, 0], [0, 0, -1, 0.387], [0, 0, 0, 1]], dtype=float)


def scara_dh(q: np.ndarray) -> np.ndarray:
    """Corke's mdl_cobra600 standard DH table, multiplied out: Rz(θ) Tz(d) Tx(a) Rx(α) per row."""
    rows = [
        (q[0], 0.387, 0.325, 0.0),
        (q[1], 0.0, 0.275, np.pi),
        (0.0, q[2], 0.0, 0.0),
        (q[3], 0.0, 0.0, 0.0),
    ]
    T = np.eye(4)
    for theta, d, a, alpha in rows:
        T = T @ rot_z(theta) @ shift(z=d) @ shift(x=a) @ rot_x(alpha)
    return T


def test_scara_screw_axes_reproduce_the_dh_table() -> None:
    rng = np.random.default_rng(12)
    for _ in range(20):
        q = np.concatenate([rng.uniform(-2, 2, 2), rng.uniform(0, 0.2, 1), rng.uniform(-2, 2, 1)])
        np.testing.assert_allclose(mr.FKinSpace(SCARA_M, SCARA_S, q), scara_dh(q), atol=1e-12)


def test_scara_printed_pose_and_prismatic_exponential() -> None:
    np.testing.assert_allclose(
        mr.MatrixExp6(mr.VecTose3(SCARA_S[:, 2]) * 0.1), shift(z=-0.1), atol=1e-12
    )
    T = mr.FKinSpace(SCARA_M, SCARA_S, [np.radians(20), np.radians(50), 0.1, 0.0])
    c, s = np.cos(np.radians(70)), np.sin(np.radians(70))
    expected = np.array([[c, s, 0, 0.3995], [s, -c, 0, 0.3696], [0, 0, -1, 0.287], [0, 0, 0, 1]])
    np.testing.assert_allclose(T, expected, atol=5e-5)  # the printed 4 decimals
    np.testing.assert_allclose(
        T[:3, :3].round(4)[:2, :2], [[0.342, 0.9397], [0.9397, -0.342]], atol=1e-12
    )


def test_ur5_gravity_wrench_in_both_frames() -> None:
    # MR's course-software UR5 at (0, -π/2, 0, 0, π/2, 0), 2 kg at {b}'s origin.
    S, M = UR5_SCREW_AXES, np.linalg.multi_dot(list(UR5_LINK_FRAMES))  # MR's Slist, M01…M67
    T = mr.FKinSpace(M, S, [0, -np.pi / 2, 0, 0, np.pi / 2, 0])
    f_s = np.array([0, 0, -19.62])
    F_b = np.concatenate([np.zeros(3), T[:3, :3].T @ f_s])
    F_s = mr.Adjoint(mr.TransInv(T)).T @ F_b
    np.testing.assert_allclose(F_b, [0, 0, 0, 0, 0, -19.62], atol=1e-12)
    np.testing.assert_allclose(F_s, [-2.1415, 1.857, 0, 0, 0, -19.62], atol=5e-5)
    np.testing.assert_allclose(F_s[:3], np.cross(T[:3, 3], f_s), atol=1e-12)  # m = p × f
    # Power is frame-independent: V_b·F_b = V_s·F_s for any joint rates.
    rates = np.array([0.3, -0.2, 0.5, 0.1, -0.4, 0.6])
    theta = [0, -np.pi / 2, 0, 0, np.pi / 2, 0]
    V_s = mr.JacobianSpace(S, theta) @ rates
    V_b = mr.JacobianBody(mr.Adjoint(mr.TransInv(M)) @ S, theta) @ rates
    assert abs(V_s @ F_s - V_b @ F_b) < 1e-12


def test_exercise_3_screw_axes_reproduce_the_drawn_arm() -> None:
    # The notebook's reference S for the RRPR arm (seed 3: H, L, D, W below), against the arm
    # built from elementary motions: turn about z, up H, turn about y, slide along x, move (L, D),
    # turn about -z, down W, tool with z down.
    H, L, D, W = 0.33, 0.49, 0.17, 0.14
    S = np.array(
        [[0, 0, 1, 0, 0, 0], [0, 1, 0, -H, 0, 0], [0, 0, 0, 1, 0, 0], [0, 0, -1, -D, L, 0]],
        dtype=float,
    ).T
    M = np.array([[1, 0, 0, L], [0, -1, 0, D], [0, 0, -1, H - W], [0, 0, 0, 1]], dtype=float)
    rng = np.random.default_rng(3)
    for _ in range(20):
        q = rng.uniform(-1.5, 1.5, 4)
        chain = rot_z(q[0]) @ shift(z=H) @ rot_y(q[1]) @ shift(x=q[2]) @ shift(L, D) @ rot_z(-q[3])
        chain = chain @ shift(z=-W) @ rot_x(np.pi)
        np.testing.assert_allclose(mr.FKinSpace(M, S, q), chain, atol=1e-12)


def test_exercise_5_origin_velocity_by_finite_differences() -> None:
    # Seed 5's instance: the origin of {b} at p moves with ṗ = ω_s × p + v_s, not with v_s.
    V_s = np.array([0.0, 0.0, 0.6, 0.0, -0.36, 0.048])
    p = np.array([-0.18, -0.91, -0.9])
    T0 = np.eye(4)
    T0[:3, 3] = p

    def origin(t: float) -> np.ndarray:
        return (mr.MatrixExp6(mr.VecTose3(V_s) * t) @ T0)[:3, 3]

    step = 1e-3  # MR's MatrixExp6 treats |ω t| < 1e-6 as a pure translation: no tinier steps
    p_dot = (origin(step) - origin(-step)) / (2 * step)
    np.testing.assert_allclose(p_dot, V_s[3:] + np.cross(V_s[:3], p), atol=1e-6)
    assert np.linalg.norm(p_dot - V_s[3:]) > 0.1  # v_s alone is the wrong answer


# --- The chapter's own exercises, given the usual slips ------------------------------------------
#
# The exercises are the notebook's: its import and helper cells and the cell that creates each
# exercise run as in the chapter. Each slip must be named for what it is, and a first wrong try
# must not show the expected entries (those come only with show_expected=True).

CELLS = notebook_cells("03-screw-theory-and-poe.ipynb")
SETUP = ("%matplotlib widget", "# Helpers for this chapter")


def chapter_exercise(number: int):
    """A fresh exercise_<number> of the chapter, made by the chapter's own cell."""
    namespace = run_setup_cells(CELLS, *SETUP, f"exercise_{number} = ")
    return namespace[f"exercise_{number}"]


def first_try(exercise, answer) -> str:
    """The message of a first wrong try; it must not show any expected entry."""
    result = exercise.check(answer)
    assert not result.correct, result.message
    assert exercise.wrong_tries == 1
    shown = set(re.findall(r"-?\d+\.\d+", result.message))
    expected = np.atleast_1d(np.asarray(exercise.expected, dtype=float)).ravel()
    for value in expected[np.abs(expected - np.round(expected)) > 1e-9]:  # not 0, ±1: text has them
        assert not shown & {f"{value:.4g}", f"{value:.3g}", f"{value:.2f}", f"{value:.4f}"}, (
            result.message
        )
    assert not re.search(r"expected -?\d", result.message), result.message
    return result.message


def test_exercise_4_frame_mix_ups_are_named() -> None:
    exercise = chapter_exercise(4)
    M, S = exercise.parameters["M"], exercise.parameters["S"]
    B = mr.Adjoint(mr.TransInv(M)) @ S
    assert exercise.with_seed(4).check(B).correct
    # S itself where B is asked: the axis left in the space frame.
    assert "expressed in the other frame" in first_try(exercise.with_seed(4), S)
    # [Ad_M] S where [Ad_{M^-1}] S belongs: the slip the exercise's hint warns of.
    message = first_try(exercise.with_seed(4), mr.Adjoint(M) @ S)
    assert "[Ad_M] S: the adjoint of M where the adjoint of M⁻¹ belongs" in message
    # M^-1 written (R^T, -p): the position of the inverse is -R^T p.
    R, p = M[:3, :3], M[:3, 3]
    wrong_inverse = mr.RpToTrans(R.T, -p)
    message = first_try(exercise.with_seed(4), mr.Adjoint(wrong_inverse) @ S)
    assert "M⁻¹ = (Rᵀ, −p)" in message
    assert not np.allclose(mr.Adjoint(wrong_inverse) @ S, B)  # a real slip for this instance


def test_exercise_1_order_and_sign_slips_are_named() -> None:
    exercise = chapter_exercise(1)
    q = np.array(exercise.parameters["point"])
    direction = exercise.parameters["direction"]  # "x", "-x", "y", ...
    omega = (-1.0 if direction.startswith("-") else 1.0) * np.eye(3)["xyz".index(direction[-1])]
    v = -np.cross(omega, q)  # the velocity of the body point at the origin (Lynch & Park 3.71)
    assert exercise.with_seed(1).check(np.concatenate([omega, v])).correct
    message = first_try(exercise.with_seed(1), np.concatenate([v, omega]))
    assert "[v; ω] instead of robolab's [ω; v]" in message
    message = first_try(exercise.with_seed(1), np.concatenate([omega, -v]))
    assert message.startswith("Your v is ω × q, the opposite of the right sign")


def test_exercise_2_length_of_v_is_not_the_pitch() -> None:
    exercise = chapter_exercise(2)
    S = exercise.parameters["S"]
    assert exercise.with_seed(2).check(float(S[:3] @ S[3:])).correct  # h = ωᵀv
    message = first_try(exercise.with_seed(2), float(np.linalg.norm(S[3:])))
    assert message.startswith("Your answer is the length of v")


def test_exercise_3_revolute_signs_are_named() -> None:
    exercise = chapter_exercise(3)
    H, L, D = (exercise.parameters[k] for k in "HLD")
    right = np.array(
        [[0, 0, 1, 0, 0, 0], [0, 1, 0, -H, 0, 0], [0, 0, 0, 1, 0, 0], [0, 0, -1, -D, L, 0]],
        dtype=float,
    ).T  # as in test_exercise_3_screw_axes_reproduce_the_drawn_arm
    assert exercise.with_seed(3).check(right).correct
    flipped = right.copy()
    flipped[3:, [1, 3]] *= -1  # v = ω × q on the revolute joints that have a v
    assert "Your revolute columns have v = ω × q" in first_try(exercise.with_seed(3), flipped)
    swapped = np.vstack([right[3:], right[:3]])
    assert "top and bottom three rows are swapped" in first_try(exercise.with_seed(3), swapped)


def test_exercise_5_v_s_alone_and_the_cross_product_order_are_named() -> None:
    exercise = chapter_exercise(5)
    V_s, p = exercise.parameters["V_s"], exercise.parameters["p"]
    p_dot = V_s[3:] + np.cross(V_s[:3], p)  # the last column of [V_s] T
    assert exercise.with_seed(5).check(p_dot).correct
    assert first_try(exercise.with_seed(5), V_s[3:]).startswith("Your answer is v_s alone")
    message = first_try(exercise.with_seed(5), V_s[3:] + np.cross(p, V_s[:3]))
    assert message.startswith("Your answer has p × ω_s where ω_s × p belongs")


def assert_staged_hints(exercise) -> None:
    """At least two hints, the first told on a first wrong try and the second only after it."""
    assert len(exercise.hints) >= 2, exercise.title
    wrong = np.full(np.shape(exercise.expected), 0.123)  # no slip: a plain wrong answer
    once = exercise.check(wrong).message
    assert exercise.hints[0] in once and exercise.hints[1] not in once
    assert exercise.hints[1] in exercise.check(wrong).message


def test_every_exercise_has_staged_hints() -> None:
    for number in range(1, 6):
        assert_staged_hints(chapter_exercise(number))


def test_new_numbers_reach_the_printed_data() -> None:
    # Exercises 2, 4, 5: the cell that shows the exercise only creates it; the cell below prints
    # its numbers from the exercise, so after New numbers re-running it prints the new ones.
    code = [c for c in CELLS if c.cell_type == "code"]
    for number in (2, 4, 5):
        index = next(i for i, c in enumerate(code) if c.source.startswith(f"exercise_{number} = "))
        assert "print" not in code[index].source
        printing = code[index + 1].source
        assert f"exercise_{number}.parameters" in printing and "_exercise(" not in printing
        namespace = run_setup_cells(CELLS, *SETUP, f"exercise_{number} = ")
        exercise = namespace[f"exercise_{number}"].new_numbers(seed=1234)
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            exec(printing, namespace)
        for name, value in exercise.parameters.items():
            assert str(np.asarray(value)).split("\n")[0] in output.getvalue(), name


def test_pendant_keeps_the_compact_view() -> None:
    # A figsize of 4.5 in (450 px) beside the ~420 px controls is wider than JupyterLab's 844 px
    # output area at 1024×768, so the controls would wrap under the figure.
    pendants = [c.source for c in CELLS if c.cell_type == "code" and "teach(" in c.source]
    assert len(pendants) == 1
    assert "figsize" not in pendants[0]


def test_matrix_log_by_hand_and_the_two_screws_of_a_half_turn() -> None:
    # Section 3's log: the helical screw through (1, 0, 0) along z with pitch 0.05 m/rad, by MR.
    text = output_of(CELLS, "def log6_by_hand(T):")
    vectors = [
        np.array([float(x) for x in v.split()]) for v in re.findall(r"S'? +=\s*\[([^\]]*)\]", text)
    ]
    quarter, half, flipped = vectors
    S = mr.ScrewToAxis(np.array([1.0, 0, 0]), np.array([0, 0, 1.0]), 0.05)
    T = mr.MatrixExp6(mr.VecTose3(S * np.pi / 2))
    np.testing.assert_allclose(quarter * np.pi / 2, mr.se3ToVec(mr.MatrixLog6(T)), atol=1e-4)
    assert "theta = 1.570796" in text and "same as matrix_log6: True" in text
    T_half = mr.MatrixExp6(mr.VecTose3(S * np.pi))
    for screw in (half, flipped):  # both axes ±ω give the half turn
        np.testing.assert_allclose(mr.MatrixExp6(mr.VecTose3(screw * np.pi)), T_half, atol=1e-3)
    np.testing.assert_allclose(flipped[:3], -half[:3])
    assert "both give the same pose: True" in text
