"""Chapter 2's new printed numbers, recomputed without robolab.

The revised chapter assigns the frames of the Stanford arm by hand (Spong, Hutchinson &
Vidyasagar §3.3: the Stanford manipulator's table, with the lengths of Corke's
``mdl_stanford``: d1 = 0.412 m, d2 = 0.154 m, d6 = 0.263 m), prints its frame origins, shows
that Corke's table differs only by θ3 = −90° (so q4 moves by 90°), and asks for the frames of a
SCARA drawn with seeded lengths (SHV §3.3's SCARA table). The references here are a DH product
written out with NumPy (``tests/reference/singular_arms.py``: Rz Tz Tx Rx, SHV eq. 3.10) and
the published tables.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from chapter_cells import notebook_cells, run_setup_cells
from chapter_cells import output_of as cell_output
from exercise_tries import first_try
from reference.singular_arms import dh_standard  # Rz Tz Tx Rx written out (SHV eq. 3.10)

import robolab
from robolab.symbols import q1, q2, q3, q4

NOTEBOOK = "02-dh-conventions.ipynb"
PI = np.pi

#: SHV §3.3's Stanford table (a, alpha, d, theta offset; joint 3 prismatic), Corke's lengths.
SPONG_STANFORD = [
    (0, -PI / 2, 0.412, 0),
    (0, PI / 2, 0.154, 0),
    (0, 0, 0, 0),
    (0, -PI / 2, 0, 0),
    (0, PI / 2, 0, 0),
    (0, 0, 0.263, 0),
]
#: Corke's mdl_stanford: the same, with the constant theta_3 = -pi/2.
CORKE_STANFORD = [row if i != 2 else (0, 0, 0, -PI / 2) for i, row in enumerate(SPONG_STANFORD)]
STANFORD_JOINTS = "rrprrr"


def frames(table, joints: str, q) -> list[np.ndarray]:
    """T_00, T_01, ..., T_0n of a standard table; revolute q adds to theta, prismatic to d."""
    poses = [np.eye(4)]
    for (a, alpha, d, theta), kind, qi in zip(table, joints, q, strict=True):
        A = (
            dh_standard(a, alpha, d + qi, theta)
            if kind == "p"
            else dh_standard(a, alpha, d, theta + qi)
        )
        poses.append(poses[-1] @ A)
    return poses


def output_of(snippet: str) -> str:
    return cell_output(notebook_cells(NOTEBOOK), snippet)


def test_stanford_frame_origins_by_hand():
    text = output_of("stanford = DHRobot(")
    q = [0, PI / 2, 0.5, 0, PI / 2, 0]
    printed = {
        int(m[1]): np.array([float(v) for v in m[2].split(",")])
        for m in re.finditer(r"o_(\d) = \(([^)]*)\)", text)
    }
    assert sorted(printed) == list(range(7))
    for i, T in enumerate(frames(SPONG_STANFORD, STANFORD_JOINTS, q)):
        np.testing.assert_allclose(printed[i], T[:3, 3], atol=5e-4)


def test_corkes_stanford_is_the_hand_table_with_q4_moved_by_90_degrees():
    text = output_of("T_bundled(q) = T_by_hand")
    printed = float(re.search(r"largest difference (\S+)", text)[1])
    assert printed < 1e-12
    bundled = robolab.load_robot("stanford", form="dh")
    rng = np.random.default_rng(1)
    for _ in range(50):
        q = rng.uniform(-1.5, 1.5, 6)
        q[2] = rng.uniform(0.3, 1.2)
        corke = frames(CORKE_STANFORD, STANFORD_JOINTS, q)[-1]
        np.testing.assert_allclose(bundled.numeric().forward_kinematics(q), corke, atol=1e-12)
        shifted = q - np.array([0, 0, 0, PI / 2, 0, 0])
        spong = frames(SPONG_STANFORD, STANFORD_JOINTS, shifted)[-1]
        np.testing.assert_allclose(corke, spong, atol=1e-12)


def scara_numbers(seed: int) -> dict[str, float]:
    """The exercise's seeded lengths, drawn as the notebook's hidden cell draws them."""
    rng = np.random.default_rng(seed)
    a1, a2 = np.round(rng.uniform(0.25, 0.45), 2), np.round(rng.uniform(0.2, 0.35), 2)
    h, d4 = np.round(rng.uniform(0.3, 0.5), 2), np.round(rng.uniform(0.05, 0.15), 2)
    return {"a1": float(a1), "a2": float(a2), "h": float(h), "d4": float(d4)}


def test_scara_exercise_numbers_and_drawn_hand_frame():
    n = scara_numbers(3)
    cells = notebook_cells(NOTEBOOK)
    [prompt] = [
        o.data["text/markdown"]
        for c in cells
        if c.cell_type == "code" and c.source.startswith("exercise_3 = scara_exercise(seed=3)")
        for o in c.outputs
        if "data" in o
    ]
    for name in ("a1", "a2", "d4"):
        assert f"{name[0]}_{name[1]} = {n[name]}$ m" in prompt
    assert f"$h = {n['h']}$ m" in prompt
    # SHV §3.3's SCARA with {0} on the floor: at q = 0 the hand is at (a1 + a2, 0, h - d4),
    # x4 = x0, z4 pointing down
    table = [(n["a1"], 0, n["h"], 0), (n["a2"], PI, 0, 0), (0, 0, 0, 0), (0, 0, n["d4"], 0)]
    T = frames(table, "rrpr", [0, 0, 0, 0])[-1]
    np.testing.assert_allclose(T[:3, 3], [n["a1"] + n["a2"], 0, n["h"] - n["d4"]], atol=1e-12)
    np.testing.assert_allclose(T[:3, :3], np.diag([1.0, -1.0, -1.0]), atol=1e-12)


@pytest.mark.parametrize("seed", [3, 11])
def test_another_correct_scara_table_gives_the_same_hand(seed):
    """Frames are not unique: the common normal of parallel axes 1, 2 at the floor (d1 = 0,
    d2 = h) is as correct as SHV's (d1 = h); a table with z2 up (alpha2 = 0) is not."""
    n = scara_numbers(seed)
    shv = [(n["a1"], 0, n["h"], 0), (n["a2"], PI, 0, 0), (0, 0, 0, 0), (0, 0, n["d4"], 0)]
    other = [(n["a1"], 0, 0, 0), (n["a2"], PI, n["h"], 0), (0, 0, 0, 0), (0, 0, n["d4"], 0)]
    wrong = [(n["a1"], 0, n["h"], 0), (n["a2"], 0, 0, 0), (0, 0, 0, 0), (0, 0, n["d4"], 0)]
    rng = np.random.default_rng(seed)
    worst_wrong = 0.0
    for _ in range(20):
        q = np.append(rng.uniform(-1, 1, 2), [rng.uniform(0, 0.2), rng.uniform(-1, 1)])
        reference = frames(shv, "rrpr", q)[-1]
        np.testing.assert_allclose(frames(other, "rrpr", q)[-1], reference, atol=1e-12)
        worst_wrong = max(worst_wrong, np.abs(frames(wrong, "rrpr", q)[-1] - reference).max())
    assert worst_wrong > 0.1


def test_the_scara_check_accepts_any_correct_table_and_only_those():
    ns = run_setup_cells(
        notebook_cells(NOTEBOOK), "%matplotlib widget", "# Helpers for this chapter"
    )
    exercise = ns["scara_exercise"](3)
    n = exercise.parameters
    assert n == scara_numbers(3)
    pi = np.pi
    shv = robolab.DHRobot(
        (n["a1"], 0, n["h"], q1), (n["a2"], pi, 0, q2), (0, 0, q3, 0, "p"), (0, 0, n["d4"], q4)
    )
    floor_normal = robolab.DHRobot(
        (n["a1"], 0, 0, q1), (n["a2"], pi, n["h"], q2), (0, 0, q3, 0, "p"), (0, 0, n["d4"], q4)
    )
    z2_up = robolab.DHRobot(
        (n["a1"], 0, n["h"], q1), (n["a2"], 0, 0, q2), (0, 0, q3, 0, "p"), (0, 0, n["d4"], q4)
    )
    assert exercise.check(shv).correct
    assert exercise.check(floor_normal).correct
    assert not exercise.check(z2_up).correct
    assert not exercise.check(robolab.DHRobot((n["a1"], 0, 0, q1))).correct
    # the drawn arm is SHV's table: compare with the NumPy DH product at seeded configurations
    table = [(n["a1"], 0, n["h"], 0), (n["a2"], PI, 0, 0), (0, 0, 0, 0), (0, 0, n["d4"], 0)]
    rng = np.random.default_rng(5)
    for _ in range(10):
        q = np.append(rng.uniform(-1, 1, 2), [rng.uniform(0, 0.2), rng.uniform(-1, 1)])
        np.testing.assert_allclose(
            exercise.expected.numeric().forward_kinematics(q),
            frames(table, "rrpr", q)[-1],
            atol=1e-12,
        )


# --- the exercises' feedback on the chapter's usual slips ----------------------------------------


@pytest.fixture(scope="module")
def chapter() -> dict:
    """The chapter's namespace after its import cell and its (hidden) helpers cell."""
    return run_setup_cells(
        notebook_cells(NOTEBOOK), "%matplotlib widget", "# Helpers for this chapter"
    )


def craig(a: float, alpha: float, d: float, theta: float) -> np.ndarray:
    """Rx(alpha) Tx(a) Rz(theta) Tz(d) written out (Craig eq. 3.6)."""
    ca, sa, ct, st = np.cos(alpha), np.sin(alpha), np.cos(theta), np.sin(theta)
    return np.array(
        [
            [ct, -st, 0, a],
            [st * ca, ct * ca, -sa, -sa * d],
            [st * sa, ct * sa, ca, ca * d],
            [0, 0, 0, 1.0],
        ]
    )


def rot_x(angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[1.0, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1]])


def rot_z(angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1.0, 0], [0, 0, 0, 1]])


def shift(x: float, y: float, z: float) -> np.ndarray:
    T = np.eye(4)
    T[:3, 3] = x, y, z
    return T


def row_exercise(chapter: dict, maker: str):
    """A maker of untried copies of exercise 1 or 2 (seed 1), and its row's a, α, d, θ."""

    def untried():
        return chapter[maker](1)

    n = untried().parameters
    return untried, (n["a"], n["alpha"], n["d"], n["theta"])


def test_exercise_1_standard_row_slips_are_named(chapter):
    untried, (a, alpha, d, theta) = row_exercise(chapter, "standard_row_exercise")
    expected = dh_standard(a, alpha, d, theta)
    assert untried().check(expected).correct
    first_try(
        untried(),
        dh_standard(a, alpha, d, np.degrees(theta)),
        expected,
        "with theta in degrees",
        "np.radians",
    )
    both = dh_standard(a, np.degrees(alpha), d, np.degrees(theta))
    first_try(untried(), both, expected, "with theta, alpha in degrees")
    first_try(untried(), craig(a, alpha, d, theta), expected, "modified-DH (Craig) transform")
    # the standard factors multiplied right to left are the modified transform (Tz, Rz commute)
    reversed_factors = rot_x(alpha) @ shift(a, 0, 0) @ shift(0, 0, d) @ rot_z(theta)
    np.testing.assert_allclose(reversed_factors, craig(a, alpha, d, theta), atol=1e-12)
    first_try(untried(), reversed_factors, expected, "modified-DH")
    first_try(untried(), dh_standard(d, alpha, a, theta), expected, "a and d swapped")
    first_try(untried(), expected.T, expected, "transposed")


def test_exercise_1_hints_come_in_stages(chapter):
    exercise = chapter["standard_row_exercise"](1)
    first, second, *_ = exercise.hints
    message = str(exercise.check(np.eye(4)))
    assert first in message and second not in message
    assert second in str(exercise.check(np.eye(4)))


def test_exercise_2_modified_row_slips_are_named(chapter):
    untried, (a, alpha, d, theta) = row_exercise(chapter, "modified_row_exercise")
    expected = craig(a, alpha, d, theta)
    assert untried().check(expected).correct
    first_try(untried(), dh_standard(a, alpha, d, theta), expected, "standard-DH transform")
    first_try(untried(), craig(a, alpha, d, np.degrees(theta)), expected, "with theta in degrees")


def test_exercise_4_tool_with_d3_is_named(chapter):
    def untried():
        return chapter["tool_exercise"](4)

    (a3, alpha3, d3, _) = untried().parameters["rows"][2]
    expected = shift(a3, 0, 0) @ rot_x(alpha3)
    assert untried().check(expected).correct
    first_try(untried(), shift(0, 0, d3) @ expected, expected, "moves by d_3 along z")


def test_exercise_cells_create_and_show_only_and_data_follows():
    """An exercise's cell creates and shows it and nothing else; exercise 4's table is in
    the cell below, read from the exercise, so running that cell after New numbers (not the
    creating one, which would undo them) shows the new arm."""
    cells = notebook_cells(NOTEBOOK)
    code = [c.source for c in cells if c.cell_type == "code"]
    makers = {1: "standard_row", 2: "modified_row", 3: "scara", 4: "tool"}
    seeds = {1: 1, 2: 1, 3: 3, 4: 4}
    for n, maker in makers.items():
        creating = [source for source in code if f"exercise_{n} = " in source]
        assert creating == [f"exercise_{n} = {maker}_exercise(seed={seeds[n]})\nexercise_{n}"]
    data_cell = code[code.index("exercise_4 = tool_exercise(seed=4)\nexercise_4") + 1]
    assert data_cell.startswith("# the arm of exercise 4")
    ns = run_setup_cells(cells, "%matplotlib widget", "# Helpers for this chapter")
    exec("exercise_4 = tool_exercise(seed=4)", ns)
    ns["exercise_4"].new_numbers(seed=12345)
    exec(data_cell, ns)
    rows = ns["exercise_4"].parameters["rows"]
    table = ns["exercise_4_arm"]
    assert rows != ns["tool_exercise"](4).parameters["rows"]
    for (a, alpha, d, _), (a_i, alpha_i, d_i, _) in zip(rows, table.dh_parameters, strict=True):
        assert (float(a_i), float(alpha_i), float(d_i)) == pytest.approx((a, alpha, d))


def test_solution_cells_print_only_their_check():
    solutions = [c for c in notebook_cells(NOTEBOOK) if "solution" in c.metadata.get("tags", [])]
    assert len(solutions) == 4
    for cell in solutions:
        texts = [o.get("text", "") or o.get("data", {}).get("text/plain", "") for o in cell.outputs]
        assert len(texts) == 1 and texts[0].startswith("Worked solution — checked"), texts


def test_exercises_intro_says_where_progress_is_kept():
    cells = notebook_cells(NOTEBOOK)
    intro = next(c.source for c in cells if c.source.startswith("## Exercises"))
    assert "robolab.progress_summary()" in intro
    assert "robolab.save_progress()" in intro and "~/.robolab/progress.json" in intro


def test_panda_flange_and_tcp_are_the_model_files_tool() -> None:
    # Section 7's worked example: T_7,tcp = Tz(0.107) Rz(−π/4) Tz(0.1034), against the tool of
    # robots/panda.json's Craig table (Franka's flange 0.107 m, hand −45°, TCP 0.1034 m).
    c, s = np.cos(-np.pi / 4), np.sin(-np.pi / 4)
    turn = np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])
    lift = np.eye(4)
    lift[2, 3] = 0.107 + 0.1034  # both offsets lie along the same z axis, which the turn keeps
    expected = lift @ turn
    robots = Path(__file__).resolve().parents[2] / "robots"
    tool = np.array(json.loads((robots / "panda.json").read_text())["dh"]["modified"]["tool"])
    np.testing.assert_allclose(tool, expected, atol=1e-9)
    text = cell_output(notebook_cells(NOTEBOOK), "T_flange_tcp = trotz(-np.pi / 4)")
    assert "the Panda model's tool transform: True" in text
    assert re.search(r"flange to TCP at .*: 0\.1034 m", text)
