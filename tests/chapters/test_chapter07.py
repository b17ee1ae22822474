"""Every number chapter 7 prints, recomputed from sources outside robolab.

The references: Spong's and Modern Robotics' closed form of the planar 2R arm; the Modern
Robotics library (``modern_robotics``: forward kinematics, Jacobians, matrix logarithm,
IKinBody) for the Puma 560 and the Panda, with the book's Newton–Raphson loop and a damped
least-squares loop written out here from those functions; and numpy's SVD. Each test
recomputes a value and finds the printed text in the committed notebook, so the notebook
and its references cannot drift apart.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import modern_robotics as mr
import numpy as np
import pytest
from chapter_cells import notebook_cells, run_setup_cells
from exercise_tries import declared_slips_are_named, first_try

NOTEBOOK = Path(__file__).parents[2] / "notebooks" / "07-inverse-kinematics.ipynb"
ROBOTS = Path(__file__).parents[2] / "robots"


def printed() -> str:
    """All text the committed notebook printed."""
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    return "\n".join(
        "".join(output.get("text", ""))
        for cell in cells
        if cell["cell_type"] == "code"
        for output in cell.get("outputs", [])
    )


TEXT = printed()


def model(name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(M, S (6×n), joint limits (n×2)) read straight from the bundled model file."""
    data = json.loads((ROBOTS / f"{name}.json").read_text(encoding="utf-8"))
    M = np.array(data["home_ee_pose"], dtype=float)
    S = np.array(data["screw_axes_space"], dtype=float).T  # the file: one axis per row
    return M, S, np.array(data["joint_limits"], dtype=float)


def fmt(values, decimals=4) -> str:
    """numpy's print of a vector at the notebook's precision (4 decimals, suppress)."""
    with np.printoptions(precision=decimals, suppress=True):
        return str(np.round(np.asarray(values, dtype=float), decimals) + 0.0)


def wrapped(q):
    return np.remainder(np.asarray(q) + np.pi, 2 * np.pi) - np.pi


# --- section 1: the planar 2R arm ----------------------------------------------------------


def test_planar_2r_closed_form():
    x, y = 1.2, 0.8
    D = (x * x + y * y - 2.0) / 2.0
    assert f"D = cos q2 = {D:.4f}" in TEXT
    # Modern Robotics §6.1: β = acos((L1² + L2² − r²)/(2 L1 L2)),
    # α = acos((r² + L1² − L2²)/(2 L1 r)), γ = atan2(y, x); θ = (γ − α, π − β), (γ + α, β − π).
    r = math.hypot(x, y)
    beta = math.acos((2.0 - r * r) / 2.0)
    alpha = math.acos(r / 2.0)
    gamma = math.atan2(y, x)
    down = np.degrees([gamma - alpha, math.pi - beta])
    up = np.degrees([gamma + alpha, beta - math.pi])
    M, S, _ = model("planar2r")
    for name, q in (("elbow up  ", up), ("elbow down", down)):
        hand = mr.FKinSpace(M, S, np.radians(q))[:2, 3]
        assert f"{name}: q = {fmt(q.round(2), 2)} degrees, hand at {fmt(hand)}" in TEXT
    assert f"  elbow up     {up[0]:6.1f}  {up[1]:6.1f}" in TEXT
    assert f"  elbow down   {down[0]:6.1f}  {down[1]:6.1f}" in TEXT
    far = math.hypot(2.3, 0.4)
    assert f"out of reach of the planar 2R arm by {far - 2.0:.4g} m" in TEXT
    assert f"its distance from joint 1 is {far:.4g} m" in TEXT


# --- section 2: the Puma -----------------------------------------------------------------------

M_PUMA, S_PUMA, LIMITS_PUMA = model("puma560")
Q_TRUE = np.radians([20, 30, -60, 40, 45, 30])
T_TARGET = mr.FKinSpace(M_PUMA, S_PUMA, Q_TRUE)
SHOULDER = np.array([0.0, 0.0, 0.67183])  # d_1 of the Puma's DH table (Corke, model file)


def test_puma_wrist_centre():
    # The end-effector frame of the bundled Puma is at the wrist centre: axes 4, 5, 6 meet there.
    for i in (3, 4, 5):
        w, v = S_PUMA[:3, i], S_PUMA[3:, i]
        assert np.linalg.norm(np.cross(w, M_PUMA[:3, 3] - np.cross(w, v))) < 1e-4
    wrist = T_TARGET[:3, 3]
    assert f"wrist centre target p_w (m):        {fmt(wrist)}" in TEXT
    assert f"its distance from the shoulder (m): {np.linalg.norm(wrist - SHOULDER):.4g}" in TEXT


def printed_puma_rows() -> list[tuple[np.ndarray, bool]]:
    block = TEXT.split("8 solutions (6R spherical wrist (Puma type)), joint angles in degrees:\n")[
        1
    ]
    rows = []
    for line in block.splitlines()[:8]:
        numbers = line.split("flipped")[1].replace("(outside the joint limits)", "")
        rows.append((np.radians([float(v) for v in numbers.split()]), "outside" not in line))
    return rows


def test_step_3_waist_angles_are_the_rows():
    # The exact relation of step 3: q1 = φ + δ or φ + 180° − δ with δ = asin(d3/ρ), against
    # the waist angles of the printed rows (themselves checked by MR's forward kinematics).
    wrist = T_TARGET[:3, 3]
    rho, phi = math.hypot(wrist[0], wrist[1]), math.atan2(wrist[1], wrist[0])
    delta = math.asin(0.15005 / rho)
    a, b = math.degrees(phi + delta), math.degrees(phi + math.pi - delta)
    assert (
        f"step 3: φ = {math.degrees(phi):.2f}°, δ = {math.degrees(delta):.2f}°; waist angles "
        f"φ + δ = {a:.2f}° and φ + 180° - δ = {b:.2f}°" in TEXT
    )
    waists = sorted({round(math.degrees(q[0]), 2) for q, _ in printed_puma_rows()})
    assert waists == pytest.approx(sorted([a, b]), abs=0.06)
    assert abs(b - a - 180.0) > 20.0  # "not by 180°"


def test_puma_eight_solutions_reach_the_target_and_limits_are_right():
    rows = printed_puma_rows()
    assert len(rows) == 8
    for q, inside in rows:
        # 0.05° of rounding moves the wrist centre by well under a millimetre.
        np.testing.assert_allclose(mr.FKinSpace(M_PUMA, S_PUMA, q), T_TARGET, atol=3e-3)
        within = bool(np.all((q >= LIMITS_PUMA[:, 0] - 1e-3) & (q <= LIMITS_PUMA[:, 1] + 1e-3)))
        assert within == inside
    assert sum(inside for _, inside in rows) == 2
    # The printed claim about robolab's unrounded solutions, checked with mr's FK.
    import robolab

    solutions = robolab.inverse_kinematics_analytic(robolab.load_robot("puma560"), T_TARGET)
    errors = [np.abs(mr.FKinSpace(M_PUMA, S_PUMA, q) - T_TARGET).max() for q in solutions.solutions]
    assert max(errors) < 1e-12
    assert "largest pose error of the eight: below 1e-12: True" in TEXT
    assert any(np.abs(wrapped(q - Q_TRUE)).max() < 1e-3 for q, _ in rows)
    # Every solution modern_robotics' Newton-Raphson finds from seeded starts is printed.
    rng = np.random.default_rng(7)
    for start in rng.uniform(-np.pi, np.pi, (60, 6)):
        theta, ok = mr.IKinSpace(S_PUMA, M_PUMA, T_TARGET, start, 1e-10, 1e-10)
        if ok:
            assert any(np.abs(wrapped(theta - q)).max() < 2e-3 for q, _ in rows)


def test_families_printed():
    # Geometry from the model files: the UR5's axes 4 and 6 are parallel and about 0.09 m
    # apart (no common wrist point), but its axes 2, 3, 4 are parallel; the Panda has seven
    # joints, SCARA and Stanford have a prismatic joint.
    _, S, _ = model("ur5")
    (w4, v4), (w6, v6) = (S[:3, 3], S[3:, 3]), (S[:3, 5], S[3:, 5])
    assert np.linalg.norm(np.cross(w4, w6)) < 1e-12
    assert np.linalg.norm(np.cross(w4, np.cross(w6, v6) - np.cross(w4, v4))) > 0.05
    assert all(np.linalg.norm(np.cross(S[:3, 1], S[:3, i])) < 1e-12 for i in (2, 3))
    assert model("panda")[1].shape[1] == 7 and model("planar3r")[1].shape[1] == 3
    for name in ("scara", "stanford"):
        kinds = json.loads((ROBOTS / f"{name}.json").read_text(encoding="utf-8"))["joint_types"]
        assert "prismatic" in kinds
    for name, family in (
        ("puma560", "6R spherical wrist (Puma type)"),
        ("planar2r", "planar 2R"),
        ("ur5", "6R three parallel axes (UR type)"),
    ):
        assert f"{name:9} {family}" in TEXT
    for name in ("panda", "planar3r", "scara", "stanford"):
        assert f"{name:9} no closed form in robolab" in TEXT


# --- section 4: the numerical solvers --------------------------------------------------------

B_PUMA = mr.Adjoint(mr.TransInv(M_PUMA)) @ S_PUMA
START = np.radians([0, 45, -90, 0, 30, 0])


def error_twist(T, theta):
    return mr.se3ToVec(mr.MatrixLog6(mr.TransInv(mr.FKinBody(M_PUMA, B_PUMA, theta)) @ T))


def iterate(T, theta, iterations, damping=None, tolerance=1e-6):
    """The book's loop (damping None: J†V) or the damped step Jᵀ(JJᵀ + λ²1)⁻¹V."""
    history = [np.array(theta, dtype=float)]
    for _ in range(iterations):
        V = error_twist(T, history[-1])
        if np.linalg.norm(V[:3]) <= tolerance and np.linalg.norm(V[3:]) <= tolerance:
            break
        J = mr.JacobianBody(B_PUMA, history[-1])
        if damping is None:
            step = np.linalg.pinv(J) @ V
        else:
            step = J.T @ np.linalg.solve(J @ J.T + damping**2 * np.eye(6), V)
        history.append(history[-1] + step)
    return history


def test_newton_and_damped_histories():
    for method, damping, count in (("newton", None, 10), ("damped_least_squares", 0.05, 11)):
        history = iterate(T_TARGET, START, 200, damping)
        assert len(history) - 1 == count
        assert f"{method}: success True after {count} iterations" in TEXT
        errors = np.array([np.linalg.norm(error_twist(T_TARGET, q)) for q in history[:8]])
        with np.printoptions(suppress=True):
            shown = np.array2string(errors, precision=4)
        assert f"‖V_b‖ per iteration: {shown} ..." in TEXT
    newton_end = iterate(T_TARGET, START, 200)[-1]
    damped_end = iterate(T_TARGET, START, 200, 0.05)[-1]
    assert np.abs(wrapped(damped_end - Q_TRUE)).max() < 1e-5  # the configuration of the target
    rows = printed_puma_rows()
    assert np.abs(wrapped(newton_end - rows[0][0])).max() < 1e-3  # the first row: elbow up
    assert "ends on: shoulder right, elbow up, wrist not flipped" in TEXT
    assert "ends on: shoulder right, elbow down, wrist not flipped" in TEXT
    # Elbow up, read off the geometry: the elbow (on axis 3) above the shoulder–wrist line.
    for q, up in ((newton_end, True), (damped_end, False)):
        w3, v3 = S_PUMA[:3, 2], S_PUMA[3:, 2]
        elbow_home = np.append(np.cross(w3, v3) + w3 * (w3 @ (SHOULDER - np.cross(w3, v3))), 1)
        elbow = (mr.MatrixExp6(mr.VecTose3(S_PUMA[:, 0] * q[0]))
                 @ mr.MatrixExp6(mr.VecTose3(S_PUMA[:, 1] * q[1])) @ elbow_home)[:3]  # fmt: skip
        wrist = T_TARGET[:3, 3]
        line = wrist - SHOULDER
        t = (elbow - SHOULDER) @ line / (line @ line)
        assert ((elbow - (SHOULDER + t * line))[2] > 0) == up


def test_the_newton_step_that_overshoots():
    # The sentence printed from robolab's history, recomputed with the book's loop.
    history = iterate(T_TARGET, START, 200)
    errors = [np.linalg.norm(error_twist(T_TARGET, q)) for q in history]
    k = next(i for i in range(1, len(errors)) if errors[i] > errors[i - 1])
    assert k == 2  # the markdown's "the steps before it lower the error; then one overshoots"
    before, after = np.degrees(history[k - 1]), np.degrees(history[k])
    assert "Newton: step 1 lowers the error; step 2 overshoots:\n" in TEXT
    assert (
        f"  ‖V_b‖ {errors[k - 1]:.2f} → {errors[k]:.2f}, q2 {before[1]:.0f}° → {after[1]:.0f}°, "
        f"q3 {before[2]:.0f}° → {after[2]:.0f}°" in TEXT
    )
    assert abs(after[1] - before[1]) > 20 and abs(after[2] - before[2]) > 20  # "tens of degrees"


def test_near_the_straight_wrist():
    near = np.array([0.2, 0.5, -0.9, 0.3, 1e-4, 0.2])
    U, sigma, _ = np.linalg.svd(mr.JacobianBody(B_PUMA, near))
    assert f"singular values of J_b: {fmt(sigma)}" in TEXT
    turned = mr.FKinBody(M_PUMA, B_PUMA, near) @ mr.MatrixExp6(mr.VecTose3(0.05 * U[:, -1]))
    newton = np.linalg.norm(iterate(turned, near, 1)[-1] - near)
    damped = np.linalg.norm(iterate(turned, near, 1, 0.05)[-1] - near)
    assert f"newton                first step ‖Δθ‖ = {newton:.1e} rad" in TEXT
    assert f"damped_least_squares  first step ‖Δθ‖ = {damped:.1e} rad" in TEXT


def test_out_of_reach():
    far = T_TARGET.copy()
    far[:3, 3] = SHOULDER + 1.25 * (T_TARGET[:3, 3] - SHOULDER)

    def distance_at(t):  # of the wrist centre from the shoulder, at θ3 = t
        return np.linalg.norm(mr.FKinSpace(M_PUMA, S_PUMA, [0, 0, t, 0, 0, 0])[:3, 3] - SHOULDER)

    coarse = np.linspace(-np.pi, np.pi, 721)  # 0.5° apart, then 1e-5 rad apart near the best
    best = coarse[np.argmax([distance_at(t) for t in coarse])]
    reach = max(distance_at(t) for t in np.linspace(best - 0.01, best + 0.01, 2001))
    distance = np.linalg.norm(far[:3, 3] - SHOULDER)
    assert f"out of reach by {distance - reach:.4f} m (it is {distance:.4g} m" in TEXT
    # Newton's iterates wander without a solution (where they end depends on rounding): only
    # its failure is printed.
    _, ok = mr.IKinBody(B_PUMA, M_PUMA, far, START, 1e-6, 1e-6)  # 20 iterations
    assert not ok
    assert "newton                success False after 20 iterations\n" in TEXT
    damped = iterate(far, START, 200, 0.2)
    assert len(damped) == 201 and np.linalg.norm(damped[-1] - damped[-2]) < 1e-9
    off = np.linalg.norm(mr.FKinBody(M_PUMA, B_PUMA, damped[-1])[:3, 3] - far[:3, 3])
    assert (
        f"damped_least_squares  success False after 200 iterations; hand {off:.4f} m from the "
        "target, last step below 1e-9 rad: True" in TEXT
    )
    assert off == pytest.approx(distance - reach, abs=1e-6)  # it rests at the nearest point


# --- section 5: the Panda's null space -----------------------------------------------------------


def test_panda_null_space_motion():
    M, S, _ = model("panda")
    q = np.array([0.0, -0.5, 0.0, -2.0, 0.0, 1.6, 0.8])
    T_hand = mr.FKinSpace(M, S, q)
    null = np.linalg.svd(mr.JacobianSpace(S, q))[2][-1]
    null *= np.sign(null[0])
    assert f"null-space direction q̇_N: {fmt(null)}" in TEXT
    assert np.linalg.norm(mr.JacobianSpace(S, q) @ null) < 1e-12
    motion = [q]
    for _ in range(24):
        direction = np.linalg.svd(mr.JacobianSpace(S, motion[-1]))[2][-1]
        direction *= np.sign(direction @ null)
        null = direction
        theta, ok = mr.IKinSpace(S, M, T_hand, motion[-1] + 0.05 * direction, 1e-10, 1e-10)
        assert ok  # (mr's MatrixLog3 drops rotations under ~1e-8 rad: its residual is ~1e-9)
        motion.append(theta)
        assert np.abs(mr.FKinSpace(M, S, theta) - T_hand).max() < 1e-7
    w, v = S[:3, 3], S[3:, 3]
    elbow_home = np.append(np.cross(w, v), 1.0)

    def elbow(q):
        T = np.eye(4)
        for i in range(3):
            T = T @ mr.MatrixExp6(mr.VecTose3(S[:, i] * q[i]))
        return (T @ elbow_home)[:3]

    start, end = elbow(motion[0]), elbow(motion[-1])
    assert f"elbow (m) at the start and at the end: {fmt(start)} {fmt(end)}" in TEXT
    assert f"elbow moved {np.linalg.norm(end - start):.3f} m" in TEXT
    # "roughly about the shoulder-wrist line": the elbow keeps its distance from the shoulder
    # (axes 1 and 2 cross at the height 0.333 m of Franka's table), the wrist point does not stay.
    shoulder = np.array([0.0, 0.0, 0.333])
    reach = [np.linalg.norm(elbow(q) - shoulder) for q in motion]
    assert f"elbow's distance from the shoulder: {min(reach):.4f} to {max(reach):.4f} m" in TEXT
    assert max(reach) - min(reach) < 1e-6
    # Axes 5 and 6 cross where Franka's modified DH puts frames 5 and 6: d5 = 0.384 m above the
    # elbow's frame, i.e. at the home height 0.333 + 0.316 + 0.384 = 1.033 m on z0.
    wrist_home = np.array([0.0, 0.0, 1.033, 1.0])

    def wrist(q):
        T = np.eye(4)
        for i in range(4):
            T = T @ mr.MatrixExp6(mr.VecTose3(S[:, i] * q[i]))
        return (T @ wrist_home)[:3]

    for i in (4, 5):  # the point is on both axes at home
        w, v = S[:3, i], S[3:, i]
        assert np.linalg.norm(np.cross(w, wrist_home[:3] - np.cross(w, v))) < 1e-12
    moved = np.linalg.norm(wrist(motion[-1]) - wrist(motion[0]))
    assert f"wrist point moved {moved:.3f} m" in TEXT
    assert moved > 0.01


def test_panda_hand_stays_in_robolabs_motion():
    # The printed claim about the notebook's own motion (robolab's Newton steps), checked with
    # modern_robotics' forward kinematics.
    import robolab

    M, S, _ = model("panda")
    panda = robolab.load_robot("panda")
    q = np.array([0.0, -0.5, 0.0, -2.0, 0.0, 1.6, 0.8])
    T_hand = mr.FKinSpace(M, S, q)
    null = np.linalg.svd(mr.JacobianSpace(S, q))[2][-1]
    current = q
    for _ in range(24):
        direction = np.linalg.svd(mr.JacobianSpace(S, current))[2][-1]
        direction *= np.sign(direction @ null)
        null = direction
        guess = current + 0.05 * direction
        current = robolab.inverse_kinematics_space(panda, T_hand, guess, 1e-10, 1e-10)[0]
        assert np.abs(mr.FKinSpace(M, S, current) - T_hand).max() < 1e-9
    assert "hand pose changed by less than 1e-9: True" in TEXT


# --- the exercises: references from outside robolab, and the slips they name --------------------


@pytest.fixture(scope="module")
def chapter() -> dict:
    """The chapter's namespace after its import cell and its (hidden) exercises cell."""
    cells = notebook_cells("07-inverse-kinematics.ipynb")
    with np.printoptions(**np.get_printoptions()):
        return run_setup_cells(cells, "%matplotlib widget", "# The exercises of this chapter")


def untried(chapter: dict, n: int):
    exercise = chapter[f"exercise_{n}"]
    return exercise.with_seed(exercise.seed)


def rrp_closed_form(d1):
    """Both solutions of the RRP arm: q1 = atan2(y, x), the side view's right triangle, and the
    waist turned by π with the boom over the top (q2 → π − q2)."""

    def ik(x, y, z):
        rho, rise = math.hypot(x, y), z - d1
        q2, d3 = math.atan2(rise, rho), math.hypot(rho, rise)
        q1 = math.atan2(y, x)
        return np.array([[q1, q2, d3], [q1 - math.pi, math.pi - q2, d3]])

    return ik


def test_exercise_1_rrp_closed_form(chapter):
    exercise = untried(chapter, 1)
    assert chapter["exercise_1"].kind == "model"  # (with_seed keeps no kind)
    d1, targets = exercise.parameters["d1"], exercise.parameters["targets"]
    assert {np.sign(x) for x, _, _ in targets} == {-1.0, 1.0}  # atan slips cannot pass
    assert {np.sign(z - d1) for _, _, z in targets} == {-1.0, 1.0}
    assert exercise.check(rrp_closed_form(d1)).correct
    declared_slips_are_named(exercise)
    # the slips written here, not taken from the notebook
    tried = untried(chapter, 1)

    def atan(x, y, z):  # q1 = arctan(y / x): a half turn off for x < 0
        rows = rrp_closed_form(d1)(x, y, z)
        rows[:, 0] = [math.atan(y / x), math.atan(y / x) + math.pi]
        return rows

    assert "arctan2" in str(tried.check(atan))
    tried = untried(chapter, 1)

    def same(x, y, z):
        return rrp_closed_form(d1)(x, y, z)[[0, 0]]

    assert "same solution" in str(tried.check(same))


def test_exercise_2_out_of_reach(chapter):
    exercise = untried(chapter, 2)
    p = exercise.parameters
    l1, l2 = p["l1"], p["l2"]

    def ik(x, y):  # Modern Robotics §6.1, with the reach test written out
        r = math.hypot(x, y)
        if not abs(l1 - l2) <= r <= l1 + l2:
            raise ValueError("out of reach")
        beta = math.acos((l1**2 + l2**2 - r**2) / (2 * l1 * l2))
        alpha = math.acos((r**2 + l1**2 - l2**2) / (2 * l1 * r))
        gamma = math.atan2(y, x)
        return np.array([[gamma - alpha, math.pi - beta], [gamma + alpha, beta - math.pi]])

    assert exercise.check(ik).correct
    assert any(math.hypot(*t) < l1 - l2 for t in p["unreachable"])  # too close, not only too far
    declared_slips_are_named(exercise)


def puma_body_jacobian(q):
    M, S, _ = model("puma560")
    return mr.JacobianBody(mr.Adjoint(mr.TransInv(M)) @ S, q)


def test_exercise_3_predicted_steps_are_the_book_loops_steps(chapter):
    exercise = untried(chapter, 3)
    assert chapter["exercise_3"].kind == "predict"  # (with_seed keeps no kind)
    p = exercise.parameters
    U, sigma, _ = np.linalg.svd(puma_body_jacobian(p["q"]))
    np.testing.assert_allclose(sigma, p["sigma"], rtol=1e-9, atol=1e-12)
    # one step of the book's Newton loop and of the damped loop, to the turned target
    M, S, _ = model("puma560")
    B = mr.Adjoint(mr.TransInv(M)) @ S
    T = mr.FKinBody(M, B, p["q"]) @ mr.MatrixExp6(mr.VecTose3(p["e"] * U[:, -1]))
    V = mr.se3ToVec(mr.MatrixLog6(mr.TransInv(mr.FKinBody(M, B, p["q"])) @ T))
    J = puma_body_jacobian(p["q"])
    newton = np.linalg.norm(np.linalg.pinv(J) @ V)
    damped = np.linalg.norm(J.T @ np.linalg.solve(J @ J.T + p["lam"] ** 2 * np.eye(6), V))
    assert exercise.check([newton, damped]).correct
    declared_slips_are_named(exercise, [newton, damped])
    first_try(untried(chapter, 3), [damped, newton], [newton, damped], "other order")
    # predicted before it is shown: no output above the reveal cell prints it
    cells = notebook_cells("07-inverse-kinematics.ipynb")
    reveal = next(i for i, c in enumerate(cells) if c.source.startswith("# After your prediction"))
    above = "".join(
        str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", ""))
        for c in cells[:reveal] if c.cell_type == "code" for o in c.outputs
    )  # fmt: skip
    assert f"{newton:.4g}" not in above and f"{damped:.4g}" not in above
    below = "".join(o.get("text", "") for o in cells[reveal].outputs)
    assert f"newton                first step ‖Δθ‖ = {newton:.4g} rad" in below


def test_exercise_4_gripper(chapter):
    exercise = untried(chapter, 4)
    p = exercise.parameters
    M, S, limits = model("puma560")
    T_bt = np.eye(4)
    T_bt[2, 3] = p["length"]

    def gripper_ik(T):  # MR's Newton from seeded starts, on {b}'s pose, kept within the limits
        flange = T @ mr.TransInv(T_bt)
        for start in np.random.default_rng(4).uniform(limits[:, 0], limits[:, 1], (200, 6)):
            theta, ok = mr.IKinSpace(S, M, flange, start, 1e-10, 1e-10)
            theta = wrapped(theta)
            if ok and np.all((theta >= limits[:, 0]) & (theta <= limits[:, 1])):
                return theta
        raise AssertionError("no solution within the limits")

    assert exercise.check(gripper_ik).correct
    declared_slips_are_named(exercise)
    # an out-of-reach target is one clear line, not a traceback
    tried = untried(chapter, 4)

    def raises(T):
        raise chapter["robolab"].OutOfReachError("the wrist centre of the target is out of reach")

    message = str(tried.check(raises))
    assert "OutOfReachError" in message and "Traceback" not in message and "\n" not in message


def test_exercise_5_planar_null_space(chapter):
    from scipy.linalg import null_space

    exercise = untried(chapter, 5)
    assert chapter["exercise_5"].kind == "model"  # (with_seed keeps no kind)
    p = exercise.parameters
    lengths, q = np.array([p["l1"], p["l2"], p["l3"]]), np.array(p["q"])
    assert np.abs(q).max() > np.pi  # angles beyond π

    def hand(angles):
        headings = np.cumsum(angles)
        return np.array([lengths @ np.cos(headings), lengths @ np.sin(headings)])

    step = 1e-6  # the hand's Jacobian by central differences, not by robolab
    J = np.column_stack([(hand(q + step * e) - hand(q - step * e)) / (2 * step) for e in np.eye(3)])
    null = null_space(J)[:, 0]
    null *= np.sign(null[0])
    assert exercise.check(null).correct
    declared_slips_are_named(exercise, null)
    first_try(
        untried(chapter, 5),
        np.cross(J[0], J[1]) * np.sign(null[0] * np.cross(J[0], J[1])[0]),
        null,
        "length 1",
    )
    first_try(untried(chapter, 5), [1.0, 0.0, 0.0], null, "origin of {s}")
