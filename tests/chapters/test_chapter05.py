"""Every number chapter 5 prints, recomputed without robolab and compared with the notebook.

The Puma 560 is rebuilt here from its standard DH table (the model file's rows, multiplied
out with NumPy), its geometric Jacobian from Spong's column formula (Spong, Hutchinson &
Vidyasagar, ch. 4: J_i = [z_{i-1} × (o_n - o_{i-1}); z_{i-1}]), its space and body
Jacobians from the Modern Robotics library (``mr.JacobianSpace`` with screw axes read off
the DH frames at home, ``mr.JacobianBody``, ``mr.Adjoint``), the roll–pitch–yaw angles from
SciPy and the rate matrix E from Siciliano et al. §3.6. The printed values are parsed from
the committed outputs (four decimals), so the test fails when the notebook prints a number
that the references do not give.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import modern_robotics as mr
import numpy as np
import pytest
import sympy as sp
from scipy.spatial.transform import Rotation

import robolab
from robolab.exercises import Exercise

NOTEBOOK = Path(__file__).parents[2] / "notebooks" / "05-velocity-kinematics-and-jacobians.ipynb"
CELLS = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
STDOUT = "\n".join(
    "".join(output["text"])
    for cell in CELLS
    if cell["cell_type"] == "code"
    for output in cell.get("outputs", [])
    if output.get("name") == "stdout"
)
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")
PRINTED = 1e-4  # the notebook prints four decimals

Q = np.radians([20, 30, -60, 0, 45, 0])
QDOT = np.array([0.5, 0.3, 0.0, 0.0, 0.2, 0.0])


def printed(label: str) -> np.ndarray:
    """The numbers printed after ``label``: the rest of its line, or the matrix below it."""
    lines = STDOUT.splitlines()
    for k, line in enumerate(lines):
        if line.startswith(label):
            rest = line[len(label) :]
            if rest.strip():
                return np.array([float(x) for x in NUMBER.findall(rest)])
            rows = []
            for row in lines[k + 1 :]:
                if not row.lstrip().startswith("["):
                    break
                rows.append([float(x) for x in NUMBER.findall(row)])
                if row.rstrip().endswith("]]"):
                    break
            return np.array(rows)
    raise AssertionError(f"the notebook prints no line starting with {label!r}")


def dh(a: float, alpha: float, d: float, theta: float) -> np.ndarray:
    """Rz(θ) Tz(d) Tx(a) Rx(α), written out."""
    ct, st, ca, sa = np.cos(theta), np.sin(theta), np.cos(alpha), np.sin(alpha)
    return np.array(
        [
            [ct, -st * ca, st * sa, a * ct],
            [st, ct * ca, -ct * sa, a * st],
            [0, sa, ca, d],
            [0, 0, 0, 1],
        ]
    )


ROWS = robolab.read_robot_model("puma560").dh["standard"].rows


def frames(q: np.ndarray) -> list[np.ndarray]:
    """T_00, T_01, ..., T_06 of the Puma's DH table."""
    out = [np.eye(4)]
    for (a, alpha, d, theta, _kind), q_i in zip(ROWS, q, strict=True):
        out.append(out[-1] @ dh(a, alpha, d, theta + q_i))
    return out


def spong_jacobian(q: np.ndarray) -> np.ndarray:
    """The geometric Jacobian [v; ω] in {0} by Spong's column formula (all joints revolute)."""
    T = frames(q)
    o_n = T[-1][:3, 3]
    columns = [np.r_[np.cross(F[:3, 2], o_n - F[:3, 3]), F[:3, 2]] for F in T[:-1]]
    return np.column_stack(columns)


HOME = frames(np.zeros(6))
SLIST = np.column_stack([np.r_[F[:3, 2], -np.cross(F[:3, 2], F[:3, 3])] for F in HOME[:-1]])
M = HOME[-1]
BLIST = mr.Adjoint(mr.TransInv(M)) @ SLIST


def rpy(R: np.ndarray) -> np.ndarray:
    yaw, pitch, roll = Rotation.from_matrix(R).as_euler("ZYX")
    return np.array([roll, pitch, yaw])


def rate_matrix(angles: np.ndarray) -> np.ndarray:
    _, p, y = angles
    return np.array(
        [
            [np.cos(y) * np.cos(p), -np.sin(y), 0],
            [np.sin(y) * np.cos(p), np.cos(y), 0],
            [-np.sin(p), 0, 1],
        ]
    )


T = mr.FKinSpace(M, SLIST, Q)
J_S = mr.JacobianSpace(SLIST, Q)
J_B = mr.JacobianBody(BLIST, Q)
J_DH = spong_jacobian(Q)


def close(label: str, expected: np.ndarray) -> None:
    np.testing.assert_allclose(printed(label), np.asarray(expected), atol=PRINTED, err_msg=label)


def test_the_references_agree_with_each_other():
    np.testing.assert_allclose(T, frames(Q)[-1], atol=1e-12)  # mr's PoE = the DH product
    # the section 2 check: column i of J_s is [z_{i-1}; -z_{i-1} × o_{i-1}] of the DH frames
    screws = np.column_stack(
        [np.r_[F[:3, 2], -np.cross(F[:3, 2], F[:3, 3])] for F in frames(Q)[:-1]]
    )
    np.testing.assert_allclose(screws, J_S, atol=1e-12)
    omega, v_s = J_S[:3], J_S[3:]
    np.testing.assert_allclose(
        J_DH, np.vstack([v_s + np.cross(omega.T, T[:3, 3]).T, omega]), atol=1e-12
    )


def test_section_1_twists():
    close("V_s = [ω_s; v_s] from Ṫ T⁻¹:", J_S @ QDOT)
    close("V_b = [ω_b; v_b] from T⁻¹ Ṫ:", J_B @ QDOT)
    p_dot = J_DH[:3] @ QDOT
    for label in ("ṗ, the hand's velocity in {s} (m/s):", "R v_b:", "v_s + ω_s × p:"):
        close(label, p_dot)
    assert "V_s = [Ad_T] V_b: True" in STDOUT


def test_section_2_jacobians():
    close("J_s, rows [ω; v], space frame {s}:", J_S)
    close("J_b, rows [ω; v], end-effector frame {b}:", J_B)
    close("J (DHRobot.J), rows [v; ω], base frame {0}:", J_DH)
    assert len(re.findall(r":\s+True", STDOUT)) == 9 and "False" not in STDOUT


def test_section_2_planar_3r_is_the_closed_form():
    from robolab.symbols import l1, l2, l3, q1, q2, q3

    a1, a12, a123 = q1, q1 + q2, q1 + q2 + q3
    x = [-l1 * sp.sin(a1) - l2 * sp.sin(a12) - l3 * sp.sin(a123)]
    expected = sp.Matrix(
        [
            [x[0], -l2 * sp.sin(a12) - l3 * sp.sin(a123), -l3 * sp.sin(a123)],
            [
                l1 * sp.cos(a1) + l2 * sp.cos(a12) + l3 * sp.cos(a123),
                l2 * sp.cos(a12) + l3 * sp.cos(a123),
                l3 * sp.cos(a123),
            ],
            [0, 0, 0],
            [0, 0, 0],
            [0, 0, 0],
            [1, 1, 1],
        ]
    )
    shown = next(
        "".join(output["data"]["text/plain"])
        for cell in CELLS
        if cell["cell_type"] == "code" and "planar3.J" in "".join(cell["source"])
        for output in cell["outputs"]
        if "data" in output
    )
    namespace = {"Matrix": sp.Matrix, "sin": sp.sin, "cos": sp.cos}
    namespace.update({str(s): s for s in (l1, l2, l3)})
    namespace.update(
        {"q_1": sp.Function("q_1"), "q_2": sp.Function("q_2"), "q_3": sp.Function("q_3")}
    )
    namespace["t"] = sp.Symbol("t")
    read_back = eval(shown, namespace)  # the printed matrix, back as SymPy
    difference = (read_back - expected).subs(
        {q1: 0.3, q2: -1.2, q3: 0.7, l1: 0.9, l2: 0.6, l3: 0.4}
    )
    assert all(abs(float(entry)) < 1e-12 for entry in difference)


def test_section_2_one_column_by_hand():
    # Column 2 of J_s: MR's JacobianSpace; column 2 of J: Spong's formula from own DH frames.
    close("column 2 of J_s by hand, R_z S_2:", J_S[:, 1])
    close("column 2 of J by hand, [z_1 × (o_6 - o_1); z_1]:", J_DH[:, 1])
    close("S_2 at home:", SLIST[:, 1])


def test_section_3_the_views_read_out():
    view_qdot = np.array([0.5, -0.4, 0.3, 0.0, 0.5, 0.0])  # the view's starting sliders
    close("joint velocities q̇ (rad/s):", view_qdot)
    close("(ṗ, ω) in {0}:", J_DH @ view_qdot)


def test_section_4_analytical_jacobian():
    angles = rpy(T[:3, :3])
    close("roll, pitch, yaw at q (degrees):", np.degrees(angles))
    J_A = np.vstack([J_DH[:3], np.linalg.solve(rate_matrix(angles), J_DH[3:])])
    close("J_A, rows [ẋ, ẏ, ż, roll̇, pitcḣ, yaẇ]:", J_A)


@pytest.mark.parametrize("q5_deg", [-60, -80, -89, -89.9])
def test_section_4_the_walk_to_pitch_90(q5_deg):
    q = np.radians([0, 0, 0, 0, q5_deg, 0])
    angles = rpy(mr.FKinSpace(M, SLIST, q)[:3, :3])
    J = spong_jacobian(q)
    J_A = np.vstack([J[:3], np.linalg.solve(rate_matrix(angles), J[3:])])
    sigma = np.linalg.svd(mr.JacobianSpace(SLIST, q), compute_uv=False)[-1]
    line = next(line for line in STDOUT.splitlines() if line.startswith(f"q5 = {q5_deg:6.1f}°"))
    values = [float(x) for x in NUMBER.findall(line.split(":", 1)[1])]
    np.testing.assert_allclose(values[0], np.degrees(angles[1]), atol=0.05)
    np.testing.assert_allclose(values[1], np.abs(J_A).max(), atol=0.05)
    np.testing.assert_allclose(values[2], sigma, atol=PRINTED)


def test_section_4_pitch_90_is_the_hand_x_axis_vertical():
    # At q5 = -90° (own DH product): the hand's x axis points down, the tool z axis along x0,
    # and SciPy's Z-Y-X angles give pitch 90°; at home the tool points up with pitch 0.
    R = frames(np.radians([0, 0, 0, 0, -90, 0]))[-1][:3, :3]
    np.testing.assert_allclose(R[:, 0], [0, 0, -1], atol=1e-12)
    np.testing.assert_allclose(R[:, 2], [1, 0, 0], atol=1e-12)
    home = frames(np.zeros(6))[-1][:3, :3]
    np.testing.assert_allclose(home[:, 2], [0, 0, 1], atol=1e-12)
    assert abs(rpy(home)[1]) < 1e-12
    line = next(x for x in STDOUT.splitlines() if x.startswith("at q5 = -90°: the hand's x axis"))
    x_axis, z_axis = line.split("x axis =")[1].split(", its tool (z) axis =")
    np.testing.assert_allclose([float(v) for v in NUMBER.findall(x_axis)], R[:, 0], atol=1e-12)
    np.testing.assert_allclose([float(v) for v in NUMBER.findall(z_axis)], R[:, 2], atol=1e-12)
    text = "".join("".join(c["source"]) for c in CELLS if c["cell_type"] == "markdown")
    assert "tool pointing straight up" not in text and "three different linear parts" not in text


def test_section_5_statics():
    f = np.array([0.0, 0.0, 2.0 * 9.81])
    F_s = np.r_[np.cross(T[:3, 3], f), f]
    F_b = mr.Adjoint(T).T @ F_s
    close("F_s = [m; f] in {s}:", F_s)
    close("F_b = [Ad_T_sb]ᵀ F_s:", F_b)
    close("τ = J_sᵀ F_s (N·m):", J_S.T @ F_s)
    close("τ = J_bᵀ F_b (N·m):", J_B.T @ F_b)
    close("τ = Jᵀ (f, m_p):", J_DH.T @ np.r_[f, 0, 0, 0])
    # the wrist holds nothing: the force acts at the wrist centre (Spong ch. 4)
    np.testing.assert_allclose((J_S.T @ F_s)[3:], 0.0, atol=1e-12)


def exercises() -> dict:
    """The notebook's exercise set-up cell, run as it is."""
    source = next(
        "".join(cell["source"])
        for cell in CELLS
        if cell["cell_type"] == "code" and "".join(cell["source"]).startswith("# The exercises")
    )
    from robolab.symbols import l1, l2, l3, q1, q2, q3

    namespace = {"np": np, "sp": sp, "robolab": robolab, "Exercise": Exercise}
    namespace.update({"l1": l1, "l2": l2, "l3": l3, "q1": q1, "q2": q2, "q3": q3})
    exec(source, namespace)
    return namespace


def test_exercise_references():
    ns = exercises()
    from robolab.symbols import a1, a2, l1, l2, q1, q2, q4

    # 1 and 2: Spong's closed forms, at a point
    point = {q1: 0.4, q2: -0.9, l1: 0.7, l2: 0.5, a1: 0.325, a2: 0.275, q4: 1.3}
    s1, c1, s12, c12 = np.sin(0.4), np.cos(0.4), np.sin(-0.5), np.cos(-0.5)

    def two_r(first, second):
        return np.array(
            [[-first * s1 - second * s12, -second * s12], [first * c1 + second * c12, second * c12]]
        )

    planar = np.array(ns["exercise_1"].expected.subs(point), dtype=float)
    np.testing.assert_allclose(planar[:2], two_r(0.7, 0.5), atol=1e-12)
    np.testing.assert_allclose(planar[2:], [[0, 0], [0, 0], [0, 0], [1, 1]])
    scara = np.array(ns["exercise_2"].expected.subs(point), dtype=float)
    np.testing.assert_allclose(scara[:2, :2], two_r(0.325, 0.275), atol=1e-12)
    np.testing.assert_allclose(scara[:2, 2:], 0.0)
    np.testing.assert_allclose(
        scara[2:, :], [[0, 0, -1, 0], [0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 0, -1]]
    )
    # 3: the finite-difference reference is the closed form of the planar 3R (unit links)
    reference = ns["exercise_3"].expected
    for q in ns["exercise_3"].inputs:
        partial = np.cumsum(q)
        closed = np.array(
            [
                [-np.sin(partial[i:]).sum() for i in range(3)],
                [np.cos(partial[i:]).sum() for i in range(3)],
                [1.0, 1.0, 1.0],
            ]
        )
        np.testing.assert_allclose(reference(q), closed, atol=1e-6)
    # 4: τ = J_sᵀ [p × f; f] with MR's library and the DH-built Puma
    p4 = ns["exercise_4"].parameters
    q = np.array([p4[f"q{i}"] for i in range(1, 7)])
    T_q = mr.FKinSpace(M, SLIST, q)
    f = np.array([0.0, 0.0, p4["mass"] * 9.81])
    tau = mr.JacobianSpace(SLIST, q).T @ np.r_[np.cross(T_q[:3, 3], f), f]
    np.testing.assert_allclose(ns["exercise_4"].expected, tau, atol=1e-9)
    # 5: F_b = [Ad_T_cb]ᵀ F_c (MR eq. 3.98), τ = J_bᵀ F_b, with MR's library
    p5 = ns["exercise_5"].parameters
    q = np.array([p5[f"q{i}"] for i in range(1, 7)])
    F_c = np.array([p5[name] for name in ("m_x", "m_y", "m_z", "f_x", "f_y", "f_z")])
    T_cb = mr.RpToTrans(np.eye(3), [0.0, 0.0, -0.1])
    tau = mr.JacobianBody(BLIST, q).T @ (mr.Adjoint(T_cb).T @ F_c)
    np.testing.assert_allclose(ns["exercise_5"].expected, tau, atol=1e-9)


def test_joint_torques_are_not_called_a_twist_in_the_wrong_order():
    """Exercises 4 and 5 ask for six joint torques (rows=None): halves swapped get the neutral
    message, not the [v; ω] / [ω; v] wording of a twist."""
    from chapter_cells import notebook_cells, run_setup_cells

    cells = notebook_cells("05-velocity-kinematics-and-jacobians.ipynb")
    names = run_setup_cells(cells, "%matplotlib widget", "puma = ", "# The exercises of")
    for exercise in (names["exercise_4"], names["exercise_5"]):
        tau = np.asarray(exercise.expected, dtype=float)
        message = str(exercise.check(np.r_[tau[3:], tau[:3]]))
        assert "swapped" in message, message
        assert "[v; ω]" not in message and "[ω; v]" not in message, message
