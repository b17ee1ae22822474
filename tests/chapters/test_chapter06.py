"""Chapter 6's printed numbers, recomputed without robolab.

Each number the chapter prints is read from the committed notebook's saved output and compared
with a reference that robolab did not compute: the closed forms of the planar 2R arm (SHV
1st ed. §4.9, §4.12), the Puma factors derived by hand and a plain-NumPy geometric Jacobian of
Corke's Puma table (``reference/singular_arms.py``), NumPy's SVD of those Jacobians, and the
Modern Robotics library's forward kinematics. The exercises' references (computed by robolab
in the notebook) are compared with the same closed forms.
"""

from __future__ import annotations

import re
from pathlib import Path

import modern_robotics as mr
import nbformat
import numpy as np
import pytest
import sympy as sp
from reference.singular_arms import (
    PUMA_A2,
    PUMA_A3,
    PUMA_D3,
    PUMA_D4,
    PUMA_ROWS,
    frames,
    geometric_jacobian,
    planar_2r_jacobian,
    puma_factors,
)

NOTEBOOK = (
    Path(__file__).resolve().parents[2] / "notebooks" / "06-singularities-and-manipulability.ipynb"
)
NUMBER = re.compile(r"-?\d+\.?\d*(?:e[-+]?\d+)?|inf")
PRINTED = 1e-4  # four decimals
PUMA_Q = np.radians([20, 30, -60, 0, 45, 0])  # the pendant's starting configuration
STRETCHED = np.arctan2(-PUMA_D4, PUMA_A3)


@pytest.fixture(scope="module")
def cells() -> list[nbformat.NotebookNode]:
    return nbformat.read(NOTEBOOK, as_version=4).cells


def cell_with(cells, snippet: str) -> nbformat.NotebookNode:
    hits = [c for c in cells if c.cell_type == "code" and snippet in c.source]
    assert len(hits) == 1, f"{len(hits)} cells contain {snippet!r}"
    return hits[0]


def output_of(cells, snippet: str) -> str:
    """The printed text (or the plain-text result) of the code cell containing ``snippet``."""
    text = []
    for output in cell_with(cells, snippet).outputs:
        text.append(output.get("text", "") or output.get("data", {}).get("text/plain", ""))
    return "".join(text)


def numbers_after(text: str, label: str) -> np.ndarray:
    lines = [line for line in text.splitlines() if line.startswith(label)]
    assert len(lines) == 1, f"{len(lines)} lines start with {label!r} in {text!r}"
    return np.array([float(x) for x in NUMBER.findall(lines[0][len(label) :])])


def assert_printed(text: str, label: str, expected, atol: float = PRINTED) -> None:
    np.testing.assert_allclose(numbers_after(text, label), expected, atol=atol)


def shoulder_configuration() -> np.ndarray:
    # a2 c2 + a3 c23 - d4 s23 = 0 solved for q2 at q3 = -30°:
    # tan q2 = (a2 + a3 c3 - d4 s3) / (a3 s3 + d4 c3)
    q3 = np.radians(-30.0)
    q2 = np.arctan2(
        PUMA_A2 + PUMA_A3 * np.cos(q3) - PUMA_D4 * np.sin(q3),
        PUMA_A3 * np.sin(q3) + PUMA_D4 * np.cos(q3),
    )
    return np.array([np.radians(20), q2, q3, 0, np.radians(45), 0])


def test_2r_determinant(cells):
    text = output_of(cells, 'print("det J =", sp.simplify(J_2r.det()))')
    l1, l2, t1, t2 = sp.symbols("l_1 l_2 t_1 t_2")
    J = sp.Matrix(
        [
            [-l1 * sp.sin(t1) - l2 * sp.sin(t1 + t2), -l2 * sp.sin(t1 + t2)],
            [l1 * sp.cos(t1) + l2 * sp.cos(t1 + t2), l2 * sp.cos(t1 + t2)],
        ]
    )
    printed = sp.sympify(re.sub(r"q_(\d)\(t\)", r"t_\1", text.split("det J =")[1].strip()))
    assert sp.simplify(printed - J.det()) == 0
    assert sp.simplify(printed - l1 * l2 * sp.sin(t2)) == 0  # SHV 1st ed. §4.9


def test_2r_svd_at_the_stretched_arm(cells):
    text = output_of(cells, "hand direction lost")
    U, sigma, _Vt = np.linalg.svd(planar_2r_jacobian(np.radians(30), 0.0))
    assert_printed(text, "q = (30°, 0°): singular values σ =", sigma)
    np.testing.assert_allclose(sigma, [np.sqrt(5), 0], atol=1e-12)  # J = (-s1, c1)ᵀ (2, 1)
    assert_printed(text, "hand direction lost, u_2 =", U[:, 1] * np.sign(U[0, 1]))
    assert_printed(text, "along the arm, (cos 30°, sin 30°) =", [np.cos(np.pi / 6), 0.5])
    assert_printed(
        text, "joint velocity that does not move the hand, v_2 =", [1 / np.sqrt(5), -2 / np.sqrt(5)]
    )


def test_2r_joint_speeds_near_the_singularity(cells):
    text = output_of(cells, "for degrees in (30.0, 10.0, 1.0, 0.1):")
    for degrees in (30.0, 10.0, 1.0, 0.1):
        q1, q2 = np.radians(30.0), np.radians(degrees)
        qd = np.linalg.solve(planar_2r_jacobian(q1, q2), -0.1 * np.array([np.cos(q1), np.sin(q1)]))
        assert_printed(text, f"q2 = {degrees:4.1f}°: joint speeds", np.degrees(qd), atol=0.05)


def test_puma_factors_printed_are_the_closed_forms(cells):
    text = output_of(cells, "factors = robolab.singularity_factors(puma)\nprint(factors)")
    lines = {line.split()[0]: line.split(None, 1)[1] for line in text.splitlines()[1:]}
    assert float(lines["constant"]) == pytest.approx(PUMA_A2, abs=1e-15)
    t = sp.symbols("t1:7")
    rng = np.random.default_rng(66)
    for name in ("shoulder", "elbow", "wrist"):
        expression = sp.sympify(re.sub(r"q_(\d)\(t\)", r"t\1", lines[name]))
        f = sp.lambdify([t], expression)
        for q in rng.uniform(-np.pi, np.pi, (10, 6)):
            assert f(q) == pytest.approx(puma_factors(q)[name], abs=1e-12)


def test_elbow_zeros_and_limits(cells):
    text = output_of(cells, "stretched, folded = np.degrees")
    stretched, folded = np.degrees(STRETCHED), np.degrees(np.arctan2(PUMA_D4, -PUMA_A3))
    numbers = numbers_after(text, "elbow factor zero at q3 =")
    np.testing.assert_allclose(numbers, [stretched, folded], atol=0.005)
    # the limits of Wang & Chen 1991 as in the model file: -225° and 45°
    np.testing.assert_allclose(
        numbers_after(text, "joint 3 limits:"), [-225, 45, folded - 360], atol=0.005
    )


def test_the_four_example_configurations(cells):
    text = output_of(cells, 'print("configuration  shoulder   elbow   wrist    det J   rank J")')
    examples = {
        "generic": PUMA_Q,
        "stretched": np.array([PUMA_Q[0], PUMA_Q[1], STRETCHED, 0, PUMA_Q[4], 0]),
        "wrist": np.radians([20, 30, -60, 30, 0, 0]),
        "shoulder": shoulder_configuration(),
    }
    for name, q in examples.items():
        f = puma_factors(q)
        J = geometric_jacobian(PUMA_ROWS, q)
        rank = np.linalg.matrix_rank(J, tol=1e-9)
        expected = [f["shoulder"], f["elbow"], f["wrist"], np.linalg.det(J), rank]
        assert_printed(text, f"{name:12}", expected)
    centre = frames(PUMA_ROWS, shoulder_configuration())[4][:3, 3]
    assert np.hypot(centre[0], centre[1]) == pytest.approx(PUMA_D3, abs=1e-12)
    assert_printed(
        text,
        "shoulder case: wrist centre at",
        [np.hypot(*centre[:2]), 0, 3, PUMA_D3],  # z0, d3: 0, 3, atol=5e-6
    )


def test_2r_measures_table(cells):
    text = output_of(cells, 'print("    q2  yoshikawa  condition  inverse  smallest σ")')
    for degrees in (0, 30, 60, 90, 120, 150, 180):
        s = np.linalg.svd(planar_2r_jacobian(0.0, np.radians(degrees)), compute_uv=False)
        singular = s[1] < 1e-12
        condition = np.inf if singular else s[0] / s[1]
        expected = [abs(np.sin(np.radians(degrees))), condition, s[1] / s[0], s[1]]
        assert_printed(text, f"{degrees:5d}°", expected)


def test_puma_measures(cells):
    text = output_of(cells, 'for block, rows in (("linear rows", J[:3]), ("all of J", J)):')
    J = geometric_jacobian(PUMA_ROWS, PUMA_Q)
    for label, rows in (("linear rows:", J[:3]), ("all of J   :", J)):
        s = np.linalg.svd(rows, compute_uv=False)
        assert_printed(text, label, [np.prod(s), s[0] / s[-1], s[-1] / s[0], s[-1]])
    f = puma_factors(PUMA_Q)
    linear = np.prod(np.linalg.svd(J[:3], compute_uv=False))
    assert linear == pytest.approx(abs(f["constant"] * f["shoulder"] * f["elbow"]), abs=1e-12)


def test_pendant_readout(cells):
    text = output_of(cells, "pendant = robolab.teach(")
    q = PUMA_Q
    T = frames(PUMA_ROWS, q)[-1]
    assert_printed(text, "position =", [*T[:3, 3], 0], atol=5e-5)  # "{0}" gives a 0
    J = geometric_jacobian(PUMA_ROWS, q)
    radii = np.linalg.svd(J[:3], compute_uv=False)
    line = next(x for x in text.splitlines() if x.startswith("velocity ellipsoid"))
    np.testing.assert_allclose(
        [float(x) for x in re.findall(r"\d\.\d{3}", line)][:3], radii, atol=5e-4
    )
    # the same pose from the Modern Robotics library (screw axes of this table at q = 0)
    home = frames(PUMA_ROWS, np.zeros(6))
    S = []
    for i in range(6):
        z, o = home[i][:3, 2], home[i][:3, 3]
        S.append(np.concatenate([z, -np.cross(z, o)]))
    np.testing.assert_allclose(mr.FKinSpace(home[-1], np.array(S).T, q), T, atol=1e-12)


def test_live_map_readout(cells):
    text = output_of(cells, "def follow(q2, q3):")
    f = puma_factors(PUMA_Q)
    assert_printed(
        text, "√det(J Jᵀ), linear rows =", [abs(f["constant"] * f["shoulder"] * f["elbow"])]
    )
    assert_printed(text, "shoulder factor =", [f["shoulder"]])
    assert_printed(text, "elbow factor =", [f["elbow"]])


# --- the exercises' references ----------------------------------------------------------------


@pytest.fixture(scope="module")
def exercises(cells):
    """Run the cells the exercises need (no widgets) and return their namespace."""
    namespace: dict = {}
    for snippet in (
        "import robolab\n",
        "# Exercise 1, a prediction",
        "factors = robolab.singularity_factors(puma)",
        "a2, a3, d3, d4 = 0.4318",
        "puma_numbers = puma.numeric()",
        "# The exercises of this chapter",
    ):
        source = cell_with(cells, snippet).source
        exec("\n".join(x for x in source.splitlines() if not x.startswith("%")), namespace)
    return namespace


def fresh(exercises, number):
    """The chapter's exercise anew (its own seed, no wrong tries yet)."""
    exercise = exercises[f"exercise_{number}"]
    return exercise.with_seed(exercise.seed)


def test_exercise_1_prediction(exercises, cells):
    from exercise_tries import first_try

    # the claim: from q2 = 10° to 1° the joint speeds grow about 10 times (own 2R Jacobian)
    along = -np.array([np.cos(np.radians(30)), np.sin(np.radians(30))])
    speeds = [
        np.linalg.solve(planar_2r_jacobian(np.radians(30), np.radians(d)), 0.1 * along)
        for d in (10.0, 1.0)
    ]
    ratio = np.linalg.norm(speeds[1]) / np.linalg.norm(speeds[0])
    assert 8 < ratio < 12
    for right in ("b", " B", "(b)", "'b'"):
        assert fresh(exercises, 1).check(right).correct
    assert str(fresh(exercises, 1).check(None)) == "✗ No answer yet: the answer is None."
    for wrong, words in (("a", "They do change"), ("c", "1/sin² q2"), ("D", "Too much")):
        first_try(fresh(exercises, 1), wrong, [], words)
    # asked before the cell that prints the joint speeds
    asked = next(i for i, c in enumerate(cells) if c.source.strip() == "exercise_1")
    shown = next(i for i, c in enumerate(cells) if c.source.startswith("for degrees in (30.0"))
    assert asked < shown


UR_ROWS = [  # Universal Robots' standard DH table of the UR5 (a, alpha, d), theta = q
    (0.0, np.pi / 2, 0.089159),
    (-0.425, 0.0, 0.0),
    (-0.39225, 0.0, 0.0),
    (0.0, np.pi / 2, 0.10915),
    (0.0, -np.pi / 2, 0.09465),
    (0.0, 0.0, 0.0823),
]


def test_exercise_2_ur5_shoulder(exercises):
    from exercise_tries import first_try
    from reference.screw_arms import UR5_SCREW_AXES
    from scipy.optimize import brentq

    for seed in (61, 1, 2):
        exercise = fresh(exercises, 2).with_seed(seed)
        p = exercise.parameters

        def q_at(q2, p=p):
            return np.radians([p["q1"], q2, p["q3"], p["q4"], p["q5"], p["q6"]])

        def det(q2):
            return np.linalg.det(mr.JacobianSpace(UR5_SCREW_AXES, q_at(q2)))

        grid = np.linspace(-180, 180, 181)
        values = [det(x) for x in grid]
        roots = [
            brentq(det, grid[k], grid[k + 1], xtol=1e-12)
            for k in range(180)
            if np.sign(values[k]) != np.sign(values[k + 1])
        ]
        assert len(roots) == 2 and abs(abs(roots[1] - roots[0]) - 180) < 1e-6
        for root in roots:
            # the same zeros in UR's DH table (Spong's column formula, own code)
            sigma = np.linalg.svd(geometric_jacobian(UR_ROWS, q_at(root)), compute_uv=False)
            assert sigma[-1] < 1e-8
            assert exercise.check(root).correct
        assert exercise.check(roots[0] + 360).correct  # any turn of 360° away
        message = first_try(exercise.with_seed(seed), np.radians(roots[0]), roots, "radians")
        first_try(exercise.with_seed(seed), 0.0, roots, "elbow")
        first_try(exercise.with_seed(seed), roots[0] + 90, roots, "not singular")
        assert "Hint" in message


def test_exercise_3_reference(exercises):
    from exercise_tries import first_try

    exercise = fresh(exercises, 3)
    parts = exercise.parameters["configurations"].split(";")
    kinds = []
    for part in parts:
        q = np.radians([float(x) for x in part.split("(")[1].split(")")[0].split(",")])
        f = puma_factors(q)
        small = [k for k in ("shoulder", "elbow", "wrist") if abs(f[k]) < 1e-3]
        assert len(small) <= 1 and all(
            abs(f[k]) > 0.02 for k in ("shoulder", "elbow", "wrist") if k not in small
        )
        kinds.append(small[0] if small else "none")
        rank = np.linalg.matrix_rank(geometric_jacobian(PUMA_ROWS, q), tol=1e-3)
        assert rank == (6 if not small else 5)
    assert sorted(kinds) == ["elbow", "none", "shoulder", "wrist"]
    assert exercise.expected == kinds
    # capitals, spaces, a tuple and Python's None for 'none' are all right
    assert exercise.check(kinds).correct
    assert fresh(exercises, 3).check([f" {k.capitalize()} " for k in kinds]).correct
    assert fresh(exercises, 3).check(tuple(k.upper() for k in kinds)).correct
    assert fresh(exercises, 3).check([None if k == "none" else k for k in kinds]).correct
    swap = {"shoulder": "elbow", "elbow": "shoulder"}
    first_try(fresh(exercises, 3), [swap.get(k, k) for k in kinds], [], "swapped 'shoulder'")
    swap = {"wrist": "none", "none": "wrist"}
    first_try(fresh(exercises, 3), [swap.get(k, k) for k in kinds], [], "swapped 'wrist'")


def test_exercise_4_reference(exercises):
    from exercise_tries import first_try

    exercise = fresh(exercises, 4)
    p = exercise.parameters
    q = np.radians([p["q1"], p["q2"], 0.0, 0.0, 30.0, 0.0])
    q[2] = STRETCHED
    J = geometric_jacobian(PUMA_ROWS, q)[:3]
    normal = np.cross(J[:, 0], J[:, 1])  # the wrist centre's velocities span a plane
    normal /= np.linalg.norm(normal)
    assert abs(normal @ J[:, 2]) < 1e-12
    u = exercise.expected
    assert min(np.linalg.norm(u - normal), np.linalg.norm(u + normal)) < 1e-9
    assert exercise.check(-normal).correct and fresh(exercises, 4).check(normal).correct
    first_try(fresh(exercises, 4), 2 * normal, normal, "unit vector")
    U = np.linalg.svd(J)[0]
    first_try(fresh(exercises, 4), U[:, 0], normal, "most easily")
    hand = frames(PUMA_ROWS, q)[-1][:3, 3]
    first_try(fresh(exercises, 4), hand / np.linalg.norm(hand), normal, "base's origin")
    message = first_try(fresh(exercises, 4), J[:, 0] / np.linalg.norm(J[:, 0]), normal)
    assert "can move along your direction" in message


def test_exercise_5_reference(exercises):
    from exercise_tries import first_try

    exercise = fresh(exercises, 5)
    p = exercise.parameters
    rows = [
        (0, -np.pi / 2, 0),
        (0, np.pi / 2, p["d2"]),
        (0, 0, 0),
        (0, -np.pi / 2, 0),
        (0, np.pi / 2, 0),
        (0, 0, p["d6"]),
    ]
    for q in exercise.inputs:
        J = geometric_jacobian(rows, q, prismatic=(2,))
        assert exercise.expected(q) == pytest.approx(np.linalg.det(J), abs=1e-12)
        # Spong's Stanford arm: det J = d3² s2 s5, sign included (d2 and d6 do not matter)
        assert np.linalg.det(J) == pytest.approx(q[2] ** 2 * np.sin(q[1]) * np.sin(q[4]), abs=1e-12)
    signs = {
        bool(np.linalg.det(geometric_jacobian(rows, q, prismatic=(2,))) > 0)
        for q in exercise.inputs
    }
    assert signs == {True, False}  # both signs occur, so the sign is checked

    def own(q):
        return np.linalg.det(geometric_jacobian(rows, q, prismatic=(2,)))

    assert exercise.check(own).correct
    first_try(fresh(exercises, 5), lambda q: abs(own(q)), [], "never negative")
    first_try(fresh(exercises, 5), lambda q: -own(q), [], "opposite sign")

    def no_p(q):  # the prismatic row written without its 'p': one line, no traceback
        from robolab.symbols import q1, q2, q3, q4, q5, q6

        robot = exercises["robolab"].DHRobot(
            (0, -sp.pi / 2, 0, q1),
            (0, sp.pi / 2, p["d2"], q2),
            (0, 0, q3, 0),
            (0, -sp.pi / 2, 0, q4),
            (0, sp.pi / 2, 0, q5),
            (0, 0, p["d6"], q6),
        )
        return np.linalg.det(np.asarray(robot.numeric().jacobian(q), dtype=float))

    message = str(fresh(exercises, 5).check(no_p))
    assert "raised ValueError" in message and "'p'" in message and "\n" not in message


def test_every_exercise_has_staged_hints_and_slips(exercises):
    kinds = []
    for number in range(1, 6):
        exercise = exercises[f"exercise_{number}"]
        assert len(exercise.hints) >= 2 and exercise._slips, exercise.title
        kinds.append(exercise.kind)
    assert "model" in kinds and "predict" in kinds
