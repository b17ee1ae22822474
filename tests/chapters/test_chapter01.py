"""Chapter 1's new printed numbers, recomputed without robolab.

The revised chapter prints roll–pitch–yaw angles read off a matrix by hand, the two gimbal
locks, ZYZ Euler angles, a half turn's logarithm, unit quaternions and the numbers of three
new exercises. Each is read from the committed notebook's saved output and compared with a
reference that robolab did not compute: SciPy's ``Rotation`` (``"zyx"``/``"ZYZ"`` Euler
angles, quaternions scalar last), the Modern Robotics library's ``MatrixLog3``, and closed
forms (SHV §2.5; Siciliano eq. 2.33).
"""

from __future__ import annotations

import re

import modern_robotics as mr
import nbformat
import numpy as np
import pytest
from chapter_cells import notebook_cells, output_of, run_setup_cells
from exercise_tries import first_try, shows_expected
from scipy.spatial.transform import Rotation

import robolab

NOTEBOOK = "01-rotations-and-transforms.ipynb"
NUMBER = re.compile(r"-?\d+\.?\d*(?:e[-+]?\d+)?")
PRINTED = 1e-4  # numbers print with four decimals


@pytest.fixture(scope="module")
def cells() -> list[nbformat.NotebookNode]:
    return notebook_cells(NOTEBOOK)


def numbers_after(text: str, label: str) -> np.ndarray:
    """The numbers on the line that starts with ``label``, after the label."""
    lines = [line for line in text.splitlines() if line.startswith(label)]
    assert len(lines) == 1, f"{len(lines)} lines start with {label!r} in {text!r}"
    return np.array([float(x) for x in NUMBER.findall(lines[0][len(label) :])])


def matrix_after(text: str, label: str, rows: int) -> np.ndarray:
    """A matrix printed by NumPy on the ``rows`` lines after the line ``label``."""
    lines = text.splitlines()
    start = lines.index(label) + 1
    return np.array(
        [[float(x) for x in NUMBER.findall(line)] for line in lines[start : start + rows]]
    )


def assert_printed(text: str, label: str, expected: object) -> None:
    """The numbers printed after ``label`` are ``expected`` to the printed digits."""
    np.testing.assert_allclose(numbers_after(text, label), expected, atol=PRINTED)


def shown_by(cells: list[nbformat.NotebookNode], source: str) -> str:
    """The text (``text/plain``) that the one code cell whose source is ``source`` shows."""
    hits = [c for c in cells if c.cell_type == "code" and c.source.strip() == source]
    assert len(hits) == 1, f"{len(hits)} cells are {source!r}"
    return "".join(o.get("data", {}).get("text/plain", "") for o in hits[0].outputs)


def rpy(roll: float, pitch: float, yaw: float) -> np.ndarray:
    """Rz(yaw) Ry(pitch) Rx(roll) from SciPy: extrinsic x, y, z = intrinsic Z, Y, X."""
    return Rotation.from_euler("ZYX", [yaw, pitch, roll]).as_matrix()


def wxyz(R: np.ndarray) -> np.ndarray:
    x, y, z, w = Rotation.from_matrix(R).as_quat()
    return np.sign(w) * np.array([w, x, y, z])


def test_roll_pitch_yaw_read_off_by_hand(cells):
    text = output_of(cells, "pitch_hand = np.arctan2")
    # SciPy's intrinsic ZYX angles of the slider's starting matrix, in degrees
    yaw, pitch, roll = Rotation.from_matrix(rpy(*np.radians([30, 20, 60]))).as_euler("ZYX")
    assert_printed(text, "by hand: (roll, pitch, yaw) =", np.degrees([roll, pitch, yaw]))
    # the second solution (phi + 180°, 180° - theta, psi + 180°) is the same matrix
    second = rpy(*np.radians([210, 160, 240]))
    assert np.allclose(second, rpy(*np.radians([30, 20, 60])), atol=1e-12)
    assert "(210°, 160°, 240°) gives the same R: True" in text


@pytest.mark.parametrize("pitch, gamma, rule", [(90, 30, "yaw - roll"), (-90, 90, "yaw + roll")])
def test_gimbal_lock_keeps_the_difference_or_the_sum(cells, pitch, gamma, rule):
    text = output_of(cells, "pitch_hand = np.arctan2")
    R = rpy(*np.radians([30, pitch, 60]))
    # the closed form of SHV §2.5.2 at cos(theta) = 0: R = Rz(gamma) Ry(±90°)
    gamma_ref = np.degrees(np.arctan2(-R[0, 1], R[1, 1]))
    assert abs(gamma_ref - gamma) < 1e-9
    expected = Rotation.from_euler("ZY", [np.radians(gamma), np.radians(pitch)]).as_matrix()
    np.testing.assert_allclose(R, expected, atol=1e-12)
    line = f"pitch {pitch:+d}°: gamma = {gamma}° = {rule}; R = Rz(gamma) Ry(pitch): True;"
    assert line in text
    printed = np.array([float(x) for x in NUMBER.findall(text.split(line)[1].splitlines()[0])])
    np.testing.assert_allclose(printed, [0, pitch, gamma], atol=PRINTED)


def test_the_live_figure_at_pitch_90_reports_yaw_minus_roll(cells):
    text = output_of(cells, 'rpy_view.controls["pitch"].value = 90')
    np.testing.assert_allclose(matrix_after(text, "R = Rz(yaw) Ry(pitch) Rx(roll) =", 3),
                               rpy(*np.radians([30, 90, 60])), atol=1e-3)  # fmt: skip
    assert "rotation_to_rpy(R) = [ 0. 90. 30.] degrees" in text


def test_zyz_angles_of_the_same_matrix(cells):
    text = output_of(cells, "zyz = rotation_to_zyz(R_rpy)")
    phi, theta, psi = Rotation.from_matrix(rpy(*np.radians([30, 20, 60]))).as_euler("ZYZ")
    assert_printed(
        text, "ZYZ angles (phi, theta, psi) of the same R:", np.degrees([phi, theta, psi])
    )
    # at theta = 0 only phi + psi = 40° - 30° is determined
    straight = Rotation.from_euler("ZYZ", np.radians([40, 0, -30])).as_matrix()
    np.testing.assert_allclose(straight, Rotation.from_euler("Z", np.radians(10)).as_matrix(),
                               atol=1e-12)  # fmt: skip
    assert_printed(text, "at theta = 0, (40°, 0°, -30°) comes back as", [0, 0, 10])


def test_half_turn_log(cells):
    text = output_of(cells, "R_half = rotx(np.pi)")
    R_half = np.diag([1.0, -1.0, -1.0])
    reference = mr.so3ToVec(mr.MatrixLog3(R_half))
    assert_printed(text, "matrix_log3 picks omega theta =", reference)
    assert_printed(
        text, "the axis from (R + I)/2 = w w^T, up to its sign:", np.abs(reference) / np.pi
    )


def test_quaternions(cells):
    text = output_of(cells, "q_120 = rotation_to_quaternion(R)")
    permutation = np.array([[0.0, 0, 1], [1, 0, 0], [0, 1, 0]])  # 120° about (1, 1, 1)
    assert_printed(text, "q of the 120° turn =", wxyz(permutation))
    by_hand = np.append(np.cos(np.pi / 3), np.sin(np.pi / 3) * np.ones(3) / np.sqrt(3))
    assert_printed(text, "by hand, (cos 60°, sin 60° (1, 1, 1)/sqrt 3) =", by_hand)
    half = np.sqrt(0.5)
    printed = numbers_after(text, "q_z =")
    np.testing.assert_allclose(printed[:4], [half, 0, 0, half], atol=PRINTED)
    np.testing.assert_allclose(printed[4:], [half, half, 0, 0], atol=PRINTED)
    # SciPy composes in the matrices' order: q of Rz(90°) Rx(90°) is the permutation's
    composed = Rotation.from_euler("z", 90, degrees=True) * Rotation.from_euler(
        "x", 90, degrees=True
    )
    np.testing.assert_allclose(composed.as_matrix(), permutation, atol=1e-12)
    np.testing.assert_allclose(numbers_after(text, "q_z ⊗ q_x =")[:4], wxyz(composed.as_matrix()),
                               atol=PRINTED)  # fmt: skip


def test_exercise_numbers(cells):
    # exercise 5: the printed R is Rz(yaw) Ry(pitch) Rx(roll) of the seeded draws
    rng = np.random.default_rng(5)
    roll, yaw = rng.uniform(-3.0, 3.0, size=2)
    pitch = rng.uniform(-1.3, 1.3)
    printed = matrix_after(output_of(cells, 'R_5 = exercise_5.parameters["R"]'), "R =", 3)
    np.testing.assert_allclose(printed, rpy(roll, pitch, yaw), atol=PRINTED)
    # exercise 6: the numbers of the prompt
    rng = np.random.default_rng(6)
    roll, yaw = np.round(rng.uniform(-1.5, 1.5, size=2), 2)
    pitch = rng.choice([-1, 1]) * np.pi / 2
    text = shown_by(cells, "exercise_6")
    assert f"roll = {roll} rad, pitch = {pitch:.4f} rad, yaw = {yaw} rad" in text


def test_exercise_6_answer_is_what_rotation_to_rpy_reports():
    rng = np.random.default_rng(6)
    roll, yaw = np.round(rng.uniform(-1.5, 1.5, size=2), 2)
    pitch = rng.choice([-1, 1]) * np.pi / 2
    R = rpy(roll, pitch, yaw)
    expected = [0.0, pitch, yaw - np.sign(pitch) * roll]  # SHV §2.5.2 at cos(theta) = 0
    np.testing.assert_allclose(robolab.rotation_to_rpy(R), expected, atol=1e-9)


def camera_from_geometry(px, py, h, c, pan, tilt, camera_axes=True) -> np.ndarray:
    """T_sc of exercise 7 built vector by vector: the optical axis z_c from pan and tilt, x_c
    minus the tilt axis; ``camera_axes=False`` gives the head's frame (x along z_c, y the tilt
    axis) at the camera's origin instead."""
    z_c = np.array([np.cos(pan) * np.cos(tilt), np.sin(pan) * np.cos(tilt), -np.sin(tilt)])
    x_c = np.array([np.sin(pan), -np.cos(pan), 0.0])  # minus the tilt axis
    T = np.eye(4)
    if camera_axes:
        T[:3, :3] = np.column_stack([x_c, np.cross(z_c, x_c), z_c])
    else:
        T[:3, :3] = np.column_stack([z_c, -x_c, np.cross(z_c, -x_c)])
    T[:3, 3] = np.array([px, py, h]) + c * z_c
    return T


def test_exercise_7_camera_pose_from_the_geometry():
    """The pan–tilt pose built from the description, vector by vector, without a chain."""
    rng = np.random.default_rng(7)
    px, py = np.round(rng.uniform(-0.5, 0.5, size=2), 2)
    pan = round(float(rng.uniform(-1.0, 1.0)), 2)
    tilt = round(float(rng.uniform(0.1, 0.8)), 2)
    h, c = round(float(rng.uniform(0.3, 0.8)), 2), round(float(rng.uniform(0.05, 0.15)), 2)
    T = camera_from_geometry(px, py, h, c, pan, tilt)
    looking_along_x = np.array([[0, 0, 1, 0], [-1, 0, 0, 0], [0, -1, 0, 0], [0, 0, 0, 1.0]])
    chain = (
        robolab.transl(px, py, h)
        @ robolab.trotz(pan)
        @ robolab.troty(tilt)
        @ robolab.transl(c, 0, 0)
        @ looking_along_x
    )  # the notebook's pan_tilt_pose
    np.testing.assert_allclose(chain, T, atol=1e-12)


def test_exercise_references_against_scipy(cells):
    ns = run_setup_cells(cells, "%matplotlib widget", "# The exercises of this chapter")
    # exercise 5: the expected angles are SciPy's intrinsic ZYX angles of R (yaw, pitch, roll)
    R = ns["exercise_5"].parameters["R"]
    yaw, pitch, roll = Rotation.from_matrix(R).as_euler("ZYX")
    np.testing.assert_allclose(ns["exercise_5"].expected, [roll, pitch, yaw], atol=1e-9)
    # exercise 7: the pose built vector by vector in test_exercise_7_camera_pose_from_the_geometry
    head = ns["exercise_7"].parameters
    z_c = np.array(
        [
            np.cos(head["pan"]) * np.cos(head["tilt"]),
            np.sin(head["pan"]) * np.cos(head["tilt"]),
            -np.sin(head["tilt"]),
        ]
    )
    np.testing.assert_allclose(ns["exercise_7"].expected[:3, 2], z_c, atol=1e-12)
    # exercise 8: SciPy composes the two turns (the second about a moving axis: a right factor)
    turns = ns["exercise_8"].parameters
    u, v = (np.asarray(ns["NICE_AXES"][turns[k]], dtype=float) for k in ("u", "v"))
    assert np.isclose(np.linalg.norm(u), 1) and np.isclose(np.linalg.norm(v), 1)
    composed = Rotation.from_rotvec(turns["a"] * u) * Rotation.from_rotvec(turns["b"] * v)
    q = wxyz(composed.as_matrix())
    expected = ns["exercise_8"].expected
    assert min(np.abs(expected - q).max(), np.abs(expected + q).max()) < 1e-9
    assert ns["exercise_8"].check(q).correct and ns["exercise_8"].check(-q).correct
    assert not ns["exercise_8"].check(q[[0, 2, 1, 3]]).correct
    text = shown_by(cells, "exercise_8")
    assert f"a = {turns['a']} rad about the axis u = {turns['u']}" in text


# --- the exercises' feedback on the chapter's usual slips ----------------------------------------


@pytest.fixture(scope="module")
def chapter(cells) -> dict:
    """The chapter's namespace after its import cell and its (hidden) exercises cell."""
    return run_setup_cells(cells, "%matplotlib widget", "# The exercises of this chapter")


def untried(chapter: dict, n: int) -> robolab.exercises.Exercise:
    """Chapter 1's real exercise ``n`` with its seed, before any try."""
    exercise = chapter[f"exercise_{n}"]
    return exercise.with_seed(exercise.seed)


def zyx(a: float, b: float, c: float) -> np.ndarray:
    """Rz(a) Ry(b) Rx(c) from SciPy (intrinsic Z, Y, X: turns about moving axes)."""
    return Rotation.from_euler("ZYX", [a, b, c]).as_matrix()


def test_exercise_1_degrees_fixed_axes_and_transpose_are_named(chapter):
    a, b, c = (chapter["exercise_1"].parameters[k] for k in "abc")
    expected = zyx(a, b, c)
    assert untried(chapter, 1).check(expected).correct
    # rotz(a°) with the degrees as radians: the same product of the numbers a, b, c in degrees
    first_try(untried(chapter, 1), zyx(*np.degrees([a, b, c])), expected,
              "with a, b, c in degrees", "np.radians")  # fmt: skip
    # the fixed-axes order Rx(c) Ry(b) Rz(a) (intrinsic X, Y, Z)
    fixed = Rotation.from_euler("XYZ", [c, b, a]).as_matrix()
    assert not np.allclose(fixed, expected, atol=1e-3)
    first_try(untried(chapter, 1), fixed, expected, "fixed-axes order")
    first_try(untried(chapter, 1), expected.T, expected, "transposed")


def test_exercise_1_second_try_names_entries_and_the_next_hint(chapter):
    exercise = untried(chapter, 1)
    hints = exercise.hints
    assert len(hints) >= 2
    a, b, c = (exercise.parameters[k] for k in "abc")
    message = str(exercise.check(np.eye(3)))
    assert hints[0] in message and hints[1] not in message
    assert not shows_expected(message, zyx(a, b, c))
    assert hints[1] in str(exercise.check(np.eye(3)))


def test_exercises_2_to_5_name_their_slips(chapter):
    T_sg = chapter["exercise_2"].parameters["T_sg"]
    R, p = T_sg[:3, :3], T_sg[:3, 3]
    T_gs = np.eye(4)
    T_gs[:3, :3], T_gs[:3, 3] = R.T, -R.T @ p  # the inverse of a rigid transform, by hand
    assert untried(chapter, 2).check(T_gs).correct
    minus_p = T_gs.copy()
    minus_p[:3, 3] = -p
    first_try(untried(chapter, 2), minus_p, T_gs, "position column is −p")
    first_try(untried(chapter, 2), T_sg, T_gs, "inverse")

    R_3 = chapter["exercise_3"].parameters["R"]
    rotvec = Rotation.from_matrix(R_3).as_rotvec()  # SciPy's ω̂θ
    assert untried(chapter, 3).check(rotvec).correct
    first_try(untried(chapter, 3), rotvec / np.linalg.norm(rotvec), rotvec, "unit axis")
    first_try(untried(chapter, 3), np.degrees(rotvec), rotvec, "in degrees")

    T_sc, p_c = (chapter["exercise_4"].parameters[k] for k in ("T_sc", "p_c"))
    p_s = T_sc[:3, :3] @ p_c + T_sc[:3, 3]
    first_try(untried(chapter, 4), T_sc[:3, :3] @ p_c, p_s, "without the camera's position")

    R_5 = chapter["exercise_5"].parameters["R"]
    yaw, pitch, roll = Rotation.from_matrix(R_5).as_euler("ZYX")
    first_try(untried(chapter, 5), np.degrees([roll, pitch, yaw]), [roll, pitch, yaw],
              "in degrees")  # fmt: skip
    first_try(untried(chapter, 5), [yaw, pitch, roll], [roll, pitch, yaw],
              "order (yaw, pitch, roll)")  # fmt: skip


def test_exercise_6_degrees_and_the_sent_angles_are_named(chapter):
    n = chapter["exercise_6"].parameters
    roll, pitch, yaw = n["roll"], n["pitch"], n["yaw"]
    expected = [0.0, pitch, yaw - np.sign(pitch) * roll]  # SHV §2.5.2 at cos(theta) = 0
    degrees = np.degrees(expected)
    first_try(untried(chapter, 6), degrees, expected, "with roll, pitch, yaw in degrees")
    first_try(untried(chapter, 6), [roll, pitch, yaw], expected, "sent to")


def test_exercise_7_degrees_and_missing_camera_turn_are_named(chapter):
    n = chapter["exercise_7"].parameters
    expected = camera_from_geometry(n["px"], n["py"], n["h"], n["c"], n["pan"], n["tilt"])
    assert untried(chapter, 7).check(expected).correct
    pan, tilt = np.degrees([n["pan"], n["tilt"]])  # trotz(pan°): degrees read as radians
    in_degrees = camera_from_geometry(n["px"], n["py"], n["h"], n["c"], pan, tilt)
    first_try(untried(chapter, 7), in_degrees, expected, "with pan, tilt in degrees")
    head = camera_from_geometry(n["px"], n["py"], n["h"], n["c"], n["pan"], n["tilt"], False)
    first_try(untried(chapter, 7), head, expected, "leaves out the constant turn")


def test_exercise_8_order_and_degrees_are_named(chapter):
    n = chapter["exercise_8"].parameters
    u, v = (np.asarray(chapter["NICE_AXES"][n[k]], dtype=float) for k in ("u", "v"))
    right = wxyz((Rotation.from_rotvec(n["a"] * u) * Rotation.from_rotvec(n["b"] * v)).as_matrix())
    other_order = Rotation.from_rotvec(n["b"] * v) * Rotation.from_rotvec(n["a"] * u)
    first_try(untried(chapter, 8), wxyz(other_order.as_matrix()), right, "other order")
    a, b = np.degrees([n["a"], n["b"]])
    degrees = Rotation.from_rotvec(a * u) * Rotation.from_rotvec(b * v)
    first_try(untried(chapter, 8), wxyz(degrees.as_matrix()), right, "in degrees")


@pytest.mark.parametrize("n", range(1, 9))
def test_every_exercise_is_shown_with_its_new_numbers_button(cells, n):
    """Chapter 1 displays each exercise (the button's static text is saved); the exercises
    whose data are not in the statement print them in a cell below, read from the exercise."""
    text = shown_by(cells, f"exercise_{n}")
    assert f"(New numbers: exercise_{n}.new_numbers())" in text
    code = [c.source for c in cells if c.cell_type == "code"]
    shown = code.index(f"exercise_{n}")
    later = code[shown + 1 :]
    assert not any(f"exercise_{n} = " in source for source in later)
    if n <= 5:
        assert f"exercise_{n}.parameters" in code[shown + 1]


def test_exercises_rerun_below_after_new_numbers(chapter, cells):
    """After New numbers the data cell below the display prints the new numbers."""
    exercise = chapter["exercise_2"]
    data_cell = next(c.source for c in cells if c.source.startswith("T_sg = exercise_2"))
    old = exercise.parameters["T_sg"]
    try:
        exercise.new_numbers(seed=12345)
        exec(data_cell.replace("print(", "str("), chapter)
        assert chapter["T_sg"] is exercise.parameters["T_sg"]
        assert not np.allclose(chapter["T_sg"], old)
    finally:
        exercise.new_numbers(seed=2)


def test_solution_cells_print_only_their_check(cells):
    solutions = [c for c in cells if "solution" in c.metadata.get("tags", [])]
    assert len(solutions) == 8
    for cell in solutions:
        texts = [o.get("text", "") or o.get("data", {}).get("text/plain", "") for o in cell.outputs]
        assert len(texts) == 1 and texts[0].startswith("Worked solution — checked"), texts


def test_exercises_intro_says_where_progress_is_kept(cells):
    intro = next(c.source for c in cells if c.source.startswith("## Exercises"))
    assert "robolab.progress_summary()" in intro
    assert "robolab.save_progress()" in intro and "~/.robolab/progress.json" in intro


def test_the_roll_pitch_yaw_drawing_cell_is_collapsed(cells):
    cell = next(c for c in cells if 'title="Roll, pitch and yaw' in c.source)
    assert cell.metadata["jupyter"]["source_hidden"] is True
    assert "hide-input" in cell.metadata["tags"]
    assert cell.source.startswith("# Draws")


def test_angular_velocity_of_the_worked_example(cells):
    # R(t) = Rz(t) Ry(2t) at t = 0.3 s: ω_s = ż + 2 Rz(t) ŷ, ω_b = Rᵀ ω_s, from SciPy's rotations.
    text = output_of(cells, "def R_of(t):")
    t = 0.3
    R = Rotation.from_euler("ZY", [t, 2 * t]).as_matrix()  # intrinsic z, then the new y
    omega_s = np.array([-2 * np.sin(t), 2 * np.cos(t), 1.0])
    printed_s = [float(x) for x in re.search(r"ω_s = \[([^\]]*)\]", text).group(1).split()]
    printed_b = [float(x) for x in re.search(r"ω_b = \[([^\]]*)\]", text).group(1).split()]
    np.testing.assert_allclose(printed_s, omega_s, atol=1e-4)  # printed to 4 decimals
    np.testing.assert_allclose(printed_b, R.T @ omega_s, atol=1e-4)
    assert "skew-symmetric: True" in text and "R ω_b = ω_s: True" in text
