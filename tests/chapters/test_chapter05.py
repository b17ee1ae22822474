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
    # The printed entries (one line each, q1 for q1(t)) against the closed form, at a point.
    l1, l2, l3, q1, q2, q3 = sp.symbols("l_1 l_2 l_3 q1 q2 q3")
    a1, a12, a123 = q1, q1 + q2, q1 + q2 + q3
    expected = {
        ("v_x", 1): -l1 * sp.sin(a1) - l2 * sp.sin(a12) - l3 * sp.sin(a123),
        ("v_x", 2): -l2 * sp.sin(a12) - l3 * sp.sin(a123),
        ("v_x", 3): -l3 * sp.sin(a123),
        ("v_y", 1): l1 * sp.cos(a1) + l2 * sp.cos(a12) + l3 * sp.cos(a123),
        ("v_y", 2): l2 * sp.cos(a12) + l3 * sp.cos(a123),
        ("v_y", 3): l3 * sp.cos(a123),
        ("ω_z", 1): 1,
        ("ω_z", 2): 1,
        ("ω_z", 3): 1,
    }
    source = next(
        cell
        for cell in CELLS
        if cell["cell_type"] == "code" and "J_planar" in "".join(cell["source"])
    )
    lines = "".join("".join(o.get("text", "")) for o in source["outputs"]).splitlines()
    point = {q1: 0.3, q2: -1.2, q3: 0.7, l1: 0.9, l2: 0.6, l3: 0.4}
    names = {str(x): x for x in (l1, l2, l3, q1, q2, q3)}
    found = {}
    for line in lines:
        label, entry = line.split(": ", 1)
        row, column = label.split(", column ")
        found[(row, int(column))] = sp.sympify(entry, locals=names)
    assert set(found) == set(expected)  # the zero rows ω_x, ω_y, v_z print nothing
    for key, value in expected.items():
        assert abs(float((found[key] - value).subs(point))) < 1e-12, key
    assert max(len(line) for line in lines) <= 90  # fits 1024 px (the matrix was 1192 px wide)


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


# --- the exercises: each one's slips are named, and a reference answer computed without
# robolab (Modern Robotics' library, closed forms) passes ------------------------------------


@pytest.fixture(scope="module")
def chapter():
    """The notebook's set-up cells, run as they are (no widgets): the exercises' namespace."""
    from chapter_cells import notebook_cells, run_setup_cells

    cells = notebook_cells("05-velocity-kinematics-and-jacobians.ipynb")
    return run_setup_cells(
        cells, "%matplotlib widget", "puma = ", "# Exercise 1, a prediction", "# The exercises of"
    )


def fresh(chapter, number):
    """The chapter's exercise with its own seed, and no wrong tries yet."""
    exercise = chapter[f"exercise_{number}"]
    return exercise.with_seed(exercise.seed)


def test_exercise_1_prediction_letters(chapter):
    from exercise_tries import first_try

    exercise = fresh(chapter, 1)
    # τ = J_sᵀ [p × f; f] with MR's library: which torques vanish at random q (the answer's claim)
    for q in np.random.default_rng(5).uniform(-3, 3, size=(5, 6)):
        p = mr.FKinSpace(M, SLIST, q)[:3, 3]
        f = np.array([0.0, 0.0, 19.62])
        tau = mr.JacobianSpace(SLIST, q).T @ np.r_[np.cross(p, f), f]
        assert np.allclose(tau[[0, 3, 4, 5]], 0.0, atol=1e-12) and abs(tau[1]) > 1e-3
    for right in ("c", "C", " (c) ", "'c'"):
        assert exercise.check(right).correct
    assert "No answer yet" in str(exercise.check(None)) and "Hint" not in str(exercise.check(None))
    for wrong, words in (("a", "no moment"), ("B", "first three joints"), ("d", "wrist axes")):
        message = first_try(fresh(chapter, 1), wrong, [], words)
        assert "(c)" not in message and "τ1" not in message


def test_exercise_2_rail_arm_space_jacobian(chapter):
    from exercise_tries import first_try

    exercise = fresh(chapter, 2)
    p = exercise.parameters
    h, L1, L2, q = p["h"], p["L1"], p["L2"], np.array([p["q1"], p["q2"], p["q3"]])
    Slist = np.array([[0, 0, 0, 1, 0, 0], [0, 0, 1, 0, 0, 0], [0, 1, 0, -h, 0, L1]], float).T
    home = np.eye(4)
    home[:3, 3] = L1 + L2, 0, h
    J_s = mr.JacobianSpace(Slist, q)
    assert exercise.check(J_s).correct
    T_sb = mr.FKinSpace(home, Slist, q)
    J_b = mr.Adjoint(mr.TransInv(T_sb)) @ J_s
    first_try(fresh(chapter, 2), J_b, J_s, "expressed in the other frame")
    first_try(fresh(chapter, 2), np.vstack([J_s[3:], J_s[:3]]), J_s, "[v; ω]")
    first_try(fresh(chapter, 2), Slist, J_s, "screw axes at home")
    p_dot_rows = np.vstack([J_s[:3], J_s[3:] + np.cross(J_s[:3].T, T_sb[:3, 3]).T])
    first_try(fresh(chapter, 2), p_dot_rows, J_s, "hand's velocity ṗ")
    flipped = J_s.copy()
    flipped[3:, 1:] = 2 * J_s[3:, 1:] * 0 - J_s[3:, 1:]  # v = ω × q on the revolute columns
    first_try(fresh(chapter, 2), flipped, J_s, "v = ω × q")
    unslid = mr.JacobianSpace(Slist, np.r_[0.0, q[1:]])
    unslid[:, 0] = Slist[:, 0]
    first_try(fresh(chapter, 2), unslid, J_s, "ignore the slide")
    degrees = mr.JacobianSpace(Slist, np.r_[q[0], np.degrees(q[1:])])
    first_try(fresh(chapter, 2), degrees, J_s, "in degrees")
    # the numbers reach beyond ±π, so a turned axis is checked there too
    seeds = [fresh(chapter, 2).with_seed(s).parameters for s in range(40)]
    assert any(abs(x["q2"]) > np.pi for x in seeds) and any(abs(x["q3"]) > np.pi for x in seeds)


def scara_by_columns(a1, a2, q1, q2):
    """Spong's column formula for the SCARA described in exercise 3 (quill and tool about −z0)."""
    z, down = np.array([0, 0, 1.0]), np.array([0, 0, -1.0])
    elbow = a1 * np.array([np.cos(q1), np.sin(q1), 0])
    tip = elbow + a2 * np.array([np.cos(q1 + q2), np.sin(q1 + q2), 0])
    return np.column_stack(
        [
            np.r_[np.cross(z, tip), z],
            np.r_[np.cross(z, tip - elbow), z],
            np.r_[down, 0, 0, 0],
            np.r_[0, 0, 0, down],
        ]
    )


def test_exercise_3_scara_from_its_drawing(chapter):
    from robolab.symbols import a1, a2, d1, d4, q1, q2, q3, q4

    exercise = fresh(chapter, 3)
    point = {a1: 0.325, a2: 0.275, q1: 0.4, q2: -0.9, q3: 0.1, q4: 1.3}
    np.testing.assert_allclose(
        np.array(exercise.expected.subs(point), dtype=float),
        scara_by_columns(0.325, 0.275, 0.4, -0.9),
        atol=1e-12,
    )
    s1, c1 = sp.sin(q1), sp.cos(q1)
    s12, c12 = sp.sin(q1 + q2), sp.cos(q1 + q2)
    own = sp.Matrix(
        [
            [-a1 * s1 - a2 * s12, -a2 * s12, 0, 0],
            [a1 * c1 + a2 * c12, a2 * c12, 0, 0],
            [0, 0, -1, 0],
            [0, 0, 0, 0],
            [0, 0, 0, 0],
            [1, 1, 0, -1],
        ]
    )
    assert exercise.check(lambda: own).correct and fresh(chapter, 3).check(own).correct
    # forgetting 'p' on the quill's row: one line naming it, no traceback
    rows = [(a1, 0, d1, q1), (a2, sp.pi, 0, q2), (0, 0, q3, 0), (0, 0, d4, q4)]
    message = str(fresh(chapter, 3).check(lambda: robolab.DHRobot(*rows).J))
    assert "raised ValueError" in message and "add 'p' to the row" in message
    assert "Traceback" not in message and "\n" not in message
    up = own.copy()
    up[2, 2], up[5, 3] = 1, 1
    assert "quill slides up" in str(fresh(chapter, 3).check(lambda: up))
    tool = own.copy()
    tool[5, 3] = 1
    assert "tool turns the wrong way" in str(fresh(chapter, 3).check(lambda: tool))
    message = str(fresh(chapter, 3).check(lambda: sp.Matrix.vstack(own[3:, :], own[:3, :])))
    assert "swapped" in message
    assert "No answer yet" in str(fresh(chapter, 3).check(None))


def test_exercise_4_payload_torques(chapter):
    from exercise_tries import first_try

    exercise = fresh(chapter, 4)
    p = exercise.parameters
    q = np.array([p[f"q{i}"] for i in range(1, 7)])
    T_q = mr.FKinSpace(M, SLIST, q)
    f = np.array([0.0, 0.0, p["mass"] * 9.81])
    F_s = np.r_[np.cross(T_q[:3, 3], f), f]
    tau = mr.JacobianSpace(SLIST, q).T @ F_s
    assert exercise.check(tau).correct
    first_try(fresh(chapter, 4), -tau, tau, "push the payload down")
    first_try(fresh(chapter, 4), mr.JacobianSpace(SLIST, q).T @ np.r_[0, 0, 0, f], tau, "no moment")
    first_try(fresh(chapter, 4), tau / 9.81, tau, "not m g")
    first_try(fresh(chapter, 4), mr.JacobianBody(BLIST, q).T @ F_s, tau, "J_b with the wrench")
    # halves swapped: the neutral message, not the [v; ω] wording of a twist
    message = str(fresh(chapter, 4).check(np.r_[tau[3:], tau[:3]]))
    assert "swapped" in message and "[v; ω]" not in message


def test_exercise_5_wrench_at_the_tool_tip(chapter):
    from exercise_tries import first_try

    exercise = fresh(chapter, 5)
    p = exercise.parameters
    q = np.array([p[f"q{i}"] for i in range(1, 7)])
    F_c = np.array([p[name] for name in ("m_x", "m_y", "m_z", "f_x", "f_y", "f_z")])
    T_cb = mr.RpToTrans(np.eye(3), [0.0, 0.0, -0.1])
    tau = mr.JacobianBody(BLIST, q).T @ (mr.Adjoint(T_cb).T @ F_c)
    assert exercise.check(tau).correct
    first_try(fresh(chapter, 5), mr.JacobianBody(BLIST, q).T @ F_c, tau, "without its lever")
    T_bc = mr.TransInv(T_cb)
    first_try(
        fresh(chapter, 5), mr.JacobianBody(BLIST, q).T @ (mr.Adjoint(T_bc).T @ F_c), tau, "T_bc"
    )
    first_try(fresh(chapter, 5), mr.JacobianSpace(SLIST, q).T @ F_c, tau, "J_s with the wrench")
    message = str(fresh(chapter, 5).check(np.r_[tau[3:], tau[:3]]))
    assert "swapped" in message and "[v; ω]" not in message


def test_every_exercise_has_staged_hints_and_slips(chapter):
    kinds = []
    for number in range(1, 6):
        exercise = chapter[f"exercise_{number}"]
        assert len(exercise.hints) >= 2 and exercise._slips, exercise.title
        kinds.append(exercise.kind)
    assert "model" in kinds and "predict" in kinds


def test_the_prediction_comes_before_the_cell_that_shows_it():
    sources = ["".join(c["source"]) for c in CELLS]
    asked = next(i for i, s in enumerate(sources) if s.strip() == "exercise_1")
    shown = next(i for i, s in enumerate(sources) if s.startswith("f_up = np.array"))
    assert asked < shown
