"""Exercise feedback that teaches: staged hints, the field's usual slips, new numbers.

Every expected value here comes from a closed form written out in the test or from
``modern_robotics`` (the reference of Lynch & Park), never from robolab's own results:

* a first wrong answer is told what is wrong but not the expected value; a second try more;
  the expected value only when asked (``show_expected=True``); ``None`` is not a try;
* each slip of the field is named: a twist in [v; ω] order, degrees inside ``cos`` or
  ``trotz`` (an answer equal to the formula with the angles in degrees), a transpose (R for
  Rᵀ, a transposed rotation block, the inverse transform), a sign (one entry, one column),
  a frame mix-up (space for body twist or Jacobian, through the adjoint of the pose), a
  plausible factor (2, ½, π, g) and no factor message for an implausible one;
* "new numbers": ``exercise.new_numbers()`` and the display's button.

What a worked solution's own check shows: test_worked_solutions.py.
"""

from __future__ import annotations

import math
import re

import modern_robotics as mr
import numpy as np
import pytest
import sympy as sp

from robolab.exercises import CheckResult, Exercise, check, check_function

G = 9.81


def _rot_z(angle: float) -> np.ndarray:
    """R_z(θ) written out (Lynch & Park eq. 3.8)."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def _numbers_in(text: str) -> set[str]:
    return set(re.findall(r"-?\d+\.\d+(?:e-?\d+)?", text))


def _rotation_exercise(**options) -> Exercise:
    """R_sb of a frame turned by θ about z, then θ/2 about the new x (moving axes)."""

    def solve(theta):
        c, s = math.cos(theta / 2), math.sin(theta / 2)
        rot_x = np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])
        return _rot_z(theta) @ rot_x

    return Exercise(
        "Two turns",
        "θ = {theta:.3f} rad about z, then θ/2 about the new x.",
        solve=solve,
        generate=lambda rng: {"theta": float(rng.uniform(0.4, 1.2))},
        seed=3,
        **options,
    )


# --- stages -------------------------------------------------------------------------------------


def test_a_first_wrong_answer_does_not_reveal_the_expected_value():
    exercise = _rotation_exercise(hint=["Moving axes multiply on the right.", "R = Rz Rx."])
    expected = exercise.expected
    shown = {f"{v:.4g}" for v in expected.ravel() if abs(v) not in (0.0, 1.0)}
    wrong = expected.copy()
    wrong[0, 1] += 0.2
    wrong[2, 2] -= 0.1
    first = exercise.check(wrong)
    assert not first
    assert "2 of 9 entries are off" in first.message
    assert first.message.endswith("Hint: Moving axes multiply on the right.")
    assert not shown & _numbers_in(first.message), first.message
    second = exercise.check(wrong)
    assert not shown & _numbers_in(second.message), second.message
    assert "answer[0, 1] is too large" in second.message
    assert "answer[2, 2] is too small" in second.message
    assert "R = Rz Rx." in second.message and "show_expected=True" in second.message
    asked = exercise.check(wrong, show_expected=True)
    assert f"expected {expected[0, 1]:.4g}" in asked.message


def test_an_unanswered_none_is_not_a_try():
    exercise = _rotation_exercise(hint=["First hint.", "Second hint."])
    for _ in range(3):
        none = exercise.check(None)
        assert none.message.startswith("No answer yet") and "hint" not in none.message.lower()
    assert exercise.wrong_tries == 0
    first = exercise.check(np.eye(3)).message
    assert "First hint." in first and "Second hint." not in first
    assert "Second hint." in exercise.check(np.eye(3)).message


def test_a_scalar_first_try_says_neither_the_value_nor_the_direction():
    exercise = Exercise("Reach", "l1 = 0.4 m, l2 = 0.3 m: the reach?", solve=lambda: 0.4 + 0.3)
    assert exercise.check(0.5).message == "answer is 0.5: not right yet."
    assert exercise.check(0.5).message.startswith("answer is 0.5: not right yet, it is too small.")
    assert "expected 0.7" in exercise.check(0.5, show_expected=True).message


# --- the usual slips ------------------------------------------------------------------------------


def test_a_twist_in_v_omega_order_is_named():
    # A revolute joint about z through q = (1, 2, 0): S = (ω, v) with v = -ω × q = (2, -1, 0).
    expected = np.array([0.0, 0.0, 1.0, 2.0, -1.0, 0.0])
    result = check([2.0, -1.0, 0.0, 0.0, 0.0, 1.0], expected)
    assert not result and "[v; ω] instead of robolab's [ω; v]" in result.message
    # The columns of a Jacobian (twists) in [v; ω] order too.
    jacobian = np.column_stack([expected, [0.0, 1.0, 0.0, 0.0, 0.0, 3.0]])
    swapped = np.vstack([jacobian[3:], jacobian[:3]])
    assert "top and bottom three rows are swapped" in check(swapped, jacobian).message


def test_degrees_inside_cos_are_named_when_the_exercise_knows_its_angles():
    def hand_x(l1, l2, q1, q2):  # x of a planar 2R arm (Spong, Hutchinson & Vidyasagar §3.2)
        return l1 * math.cos(q1) + l2 * math.cos(q1 + q2)

    exercise = Exercise(
        "Hand x",
        "l1 = {l1}, l2 = {l2}, q1 = {q1}, q2 = {q2} rad: the hand's x?",
        solve=hand_x,
        generate=lambda rng: {"l1": 1.0, "l2": 0.8, "q1": 0.5, "q2": 0.7},
        angles=("q1", "q2"),
    )
    in_degrees = 1.0 * math.cos(math.degrees(0.5)) + 0.8 * math.cos(math.degrees(0.5 + 0.7))
    result = exercise.check(in_degrees)
    assert not result and "q1, q2 in degrees" in result.message
    assert "convert with np.radians" in result.message
    one = 1.0 * math.cos(math.degrees(0.5)) + 0.8 * math.cos(math.degrees(0.5) + 0.7)
    assert "with q1 in degrees" in exercise.check(one).message


def test_degrees_passed_to_trotz_are_named_with_the_angle_that_was_in_degrees():
    def pose(theta, phi):  # Rot(z, θ) then Rot(x, φ), homogeneous (Lynch & Park eq. 3.8)
        c, s = math.cos(phi), math.sin(phi)
        T = np.eye(4)
        T[:3, :3] = _rot_z(theta) @ np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])
        return T

    exercise = Exercise(
        "Turn the table",
        "Give T for θ = {theta} rad about z, then φ = {phi} rad about the new x.",
        solve=pose,
        generate=lambda rng: {"theta": 0.6, "phi": 0.3},
        angles=("theta", "phi"),
    )
    # trotz(34.38) @ trotx(0.3) where trotz(0.6) @ trotx(0.3) belongs: only θ in degrees.
    result = exercise.check(pose(math.degrees(0.6), 0.3))
    assert not result
    assert result.message.startswith("Your answer is what the formula gives with theta in degrees:")
    assert "phi" not in result.message
    both = exercise.check(pose(math.degrees(0.6), math.degrees(0.3)))
    assert both.message.startswith("Your answer is what the formula gives with theta, phi in")
    only_phi = exercise.check(pose(0.6, math.degrees(0.3)))
    assert only_phi.message.startswith("Your answer is what the formula gives with phi in degrees")


def test_degrees_inside_a_students_function_are_named():
    def reference(q):
        return np.array([math.cos(q), math.sin(q)])

    def in_degrees(q):
        return np.array([math.cos(math.degrees(q)), math.sin(math.degrees(q))])

    result = check_function(in_degrees, reference, [0.3, 1.1])
    assert not result and "degrees where radians belong" in result.message


def test_a_transpose_is_named_r_for_r_transpose():
    R = _rot_z(0.4)
    result = check(R, R.T)  # R_ba asked, R_ab given
    assert not result and "looks transposed" in result.message
    assert "a rotation's transpose is its inverse" in result.message
    M = np.array([[1.0, 2.0], [0.5, 3.0]])  # a general matrix: M for Mᵀ
    assert "looks transposed" in check(M, M.T).message


def test_a_transposed_rotation_block_and_the_inverse_transform_are_named():
    R, p = _rot_z(0.7), np.array([0.3, -0.2, 0.5])
    T = np.eye(4)
    T[:3, :3], T[:3, 3] = R, p
    half = T.copy()
    half[:3, :3] = R.T
    assert "rotation block answer[:3, :3] looks transposed" in check(half, T).message
    inverse = np.eye(4)
    inverse[:3, :3], inverse[:3, 3] = R.T, -R.T @ p  # Lynch & Park eq. 3.64
    assert "is the inverse of the expected transform" in check(inverse, T).message


def test_a_sign_flip_in_one_component_is_named_without_saying_which_at_first():
    expected = np.array([0.0, 0.0, 1.0, 2.0, -1.0, 0.0])
    wrong = expected.copy()
    wrong[4] = 1.0  # v_y with the wrong sign
    exercise = Exercise("Screw axis", "S?", solve=lambda: expected)
    first = exercise.check(wrong)
    assert first.message.startswith("One entry of your answer has the wrong sign")
    assert "answer[4]" not in first.message
    assert exercise.check(wrong).message.startswith("answer[4] has the wrong sign")
    assert "-1" in exercise.check(wrong, show_expected=True).message
    assert check(-expected, expected).message == "answer has the opposite sign."


def test_a_column_with_the_wrong_sign_is_named():
    jacobian = np.array([[0.0, 1.0, 0.3], [0.0, 0.0, 0.2], [1.0, 0.0, 0.1]])
    wrong = jacobian.copy()
    wrong[:, 2] *= -1
    assert "column 2 of answer has the wrong sign" in check(wrong, jacobian).message


def test_a_space_twist_for_a_body_twist_is_a_frame_mix_up():
    # Lynch & Park Example 4.5 style: the home pose M and a space screw axis S; B = [Ad_M⁻¹] S.
    M = np.array([[1.0, 0.0, 0.0, 0.8], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.3], [0, 0, 0, 1]])
    S = np.array([0.0, 0.0, 1.0, 0.0, -0.2, 0.0])
    B = mr.Adjoint(mr.TransInv(M)) @ S
    exercise = Exercise(
        "Body axis",
        "B from S and M?",
        solve=lambda M, S: B,
        generate=lambda rng: {"M": M, "S": S},
        pose="M",
    )
    result = exercise.check(S)
    assert not result and "expressed in the other frame" in result.message
    # A space Jacobian for the body Jacobian: J_b = [Ad_T⁻¹] J_s (Lynch & Park eq. 5.22).
    J_s = np.column_stack([S, [0.0, 1.0, 0.0, -0.3, 0.0, 0.0]])
    J_b = mr.Adjoint(mr.TransInv(M)) @ J_s
    assert "expected Jacobian expressed in the other frame" in check(J_s, J_b, pose=M).message


@pytest.mark.parametrize(
    ("factor", "words"),
    [
        (2.0, "a factor ½ missing"),
        (0.5, "half the expected value"),
        (math.pi, "π times the expected value"),
        (G, "a weight m·g where a mass belongs"),
        (-2.0, "2 times the expected value with the opposite sign"),
    ],
)
def test_a_plausible_factor_is_named(factor, words):
    kinetic = 0.5 * 2.0 * 1.5**2  # ½ m v² of 2 kg at 1.5 m/s
    result = check(factor * kinetic, kinetic)
    assert not result and words in result.message


def test_an_implausible_factor_gets_a_neutral_message():
    for factor in (1.37, 3.3, 0.71):
        message = check(factor * np.array([0.4, 1.2]), np.array([0.4, 1.2])).message
        assert "times the expected value" not in message and "factor" not in message
        assert "2 of 2 entries are off" in message


def test_an_authors_own_slip_is_named():
    exercise = Exercise(
        "Tool point",
        "Where is the tool tip, 0.1 m beyond the flange at x = {x}?",
        solve=lambda x: x + 0.1,
        generate=lambda rng: {"x": 0.5},
        slips={"You gave the flange, not the tool tip: add the tool offset.": lambda x: x},
    )
    assert (
        exercise.check(0.5).message == "You gave the flange, not the tool tip: add the tool offset."
    )


# --- new numbers ----------------------------------------------------------------------------------


def test_new_numbers_draws_new_parameters_and_checks_against_them():
    exercise = _rotation_exercise(hint="h")
    old = exercise.parameters["theta"]
    exercise.check(np.eye(3))
    assert exercise.new_numbers(seed=11) is exercise
    theta = exercise.parameters["theta"]
    assert theta != old and f"{theta:.3f}" in exercise.prompt and exercise.seed == 11
    assert exercise.wrong_tries == 0
    c, s = math.cos(theta / 2), math.sin(theta / 2)
    assert exercise.check(_rot_z(theta) @ np.array([[1, 0, 0], [0, c, -s], [0, s, c]]))
    other = exercise.new_numbers().parameters["theta"]  # no seed: fresh numbers
    assert 0.4 <= other <= 1.2
    with pytest.raises(TypeError, match="seed must be a whole number or None"):
        exercise.new_numbers(seed=1.5)


def test_the_display_has_a_new_numbers_button_and_says_the_call_without_widgets():
    exercise = _rotation_exercise()
    bundle = exercise._repr_mimebundle_()  # test mode: the static fallbacks only
    assert "exercise.new_numbers()" in bundle["text/markdown"]
    assert "new_numbers()" in bundle["text/plain"]
    widget = exercise._display()
    statement, (button, note) = widget.children[0], widget.children[1].children
    before = statement.value
    button.click()
    assert statement.value != before and "θ = " in statement.value
    assert f"{exercise.parameters['theta']:.3f}" in statement.value
    assert "run the cells below again" in note.value


def test_the_button_shows_only_with_a_person_at_the_front_end(monkeypatch):
    from robolab.lessons.exercises import exercise as exercises
    from robolab.support import widgets

    exercise = _rotation_exercise()
    monkeypatch.setattr(widgets, "in_test_mode", lambda: False)
    monkeypatch.setattr(widgets, "in_kernel", lambda: True)
    monkeypatch.setattr(exercises, "front_end", lambda: "widget")  # JupyterLab, a person
    assert widgets.WIDGET_VIEW_MIMETYPE in exercise._repr_mimebundle_()
    monkeypatch.setattr(exercises, "front_end", lambda: "")  # nbval, nbclient: nobody there
    bundle = exercise._repr_mimebundle_()
    assert widgets.WIDGET_VIEW_MIMETYPE not in bundle and "new_numbers()" in bundle["text/plain"]


# --- symbolic answers: the same slips, found at the sample points ------------------------------

l1, l2, q1, q2 = sp.symbols("l1 l2 q1 q2", positive=True)
dq1, dq2, m1, m2, lc1, lc2, g = sp.symbols("dq1 dq2 m1 m2 lc1 lc2 g", positive=True)


def _planar_2r_jacobian() -> sp.Matrix:
    """The planar 2R arm's geometric Jacobian, rows [v; ω] (Spong, Hutchinson & Vidyasagar §4.6)."""
    s1, c1, s12, c12 = sp.sin(q1), sp.cos(q1), sp.sin(q1 + q2), sp.cos(q1 + q2)
    return sp.Matrix(
        [
            [-l1 * s1 - l2 * s12, -l2 * s12],
            [l1 * c1 + l2 * c12, l2 * c12],
            [0, 0],
            [0, 0],
            [0, 0],
            [1, 1],
        ]
    )


#: Pieces of the 2R Jacobian's entries that a message naming them would contain.
_JACOBIAN_TEXT = ("sin", "cos", "l₁", "l₂", "l1", "l2")


def test_a_spong_jacobian_answered_in_omega_v_rows_is_named_the_right_way_round():
    J = _planar_2r_jacobian()
    omega_v = sp.Matrix.vstack(J[3:, :], J[:3, :])  # robolab's twist order
    exercise = Exercise("The Jacobian of a planar 2R arm", "J, rows [v; ω]?", solve=lambda: J)
    first = exercise.check(omega_v)
    assert not first and "the top and bottom three rows are swapped" in first.message
    assert "asks for the rows in the order [v; ω]" in first.message
    assert "yours are in robolab's twist order [ω; v]" in first.message
    assert "instead of robolab's [ω; v]" not in first.message  # not the reverse wording
    assert not any(piece in first.message for piece in _JACOBIAN_TEXT), first.message
    assert not _numbers_in(first.message)
    second = exercise.check(omega_v)
    assert "<exercise>.check(answer, show_expected=True)" in second.message
    asked = exercise.check(omega_v, show_expected=True)
    assert "The expected value: [[-l₁⋅sin(q₁) - l₂⋅sin(q₁ + q₂)" in asked.message
    # Declared the other way, or as no twist at all, the wording follows the declaration.
    twists = Exercise("Twist order", "J?", solve=lambda: omega_v, rows="omega_v")
    assert "[v; ω] instead of robolab's [ω; v]" in twists.check(J).message
    neutral = Exercise("Six rows", "?", solve=lambda: J, rows=None).check(omega_v).message
    assert neutral.endswith("the top and bottom three rows are swapped.")
    assert "ω" not in neutral


def test_symbolic_transpose_negation_and_one_sign_are_named():
    # A planar 2R arm with point masses: C(q, q̇) and G(q) (Spong, Hutchinson & Vidyasagar §7.4.1).
    h = -m2 * l1 * lc2 * sp.sin(q2)
    C = sp.Matrix([[h * dq2, h * (dq1 + dq2)], [-h * dq1, 0]])
    G = sp.Matrix(
        [
            (m1 * lc1 + m2 * l1) * g * sp.cos(q1) + m2 * lc2 * g * sp.cos(q1 + q2),
            m2 * lc2 * g * sp.cos(q1 + q2),
        ]
    )
    assert "looks transposed: rows and columns are swapped" in check(C.T, C).message
    assert "has the opposite sign" in check(-G, G).message
    one = G.copy()
    one[1] = -one[1]
    assert "answer[1, 0] has the wrong sign" in check(one, G).message
    J = _planar_2r_jacobian()
    column = J.copy()
    column[:, 1] = -column[:, 1]
    assert "column 1 of answer has the wrong sign" in check(column, J).message
    row = J.copy()
    row[0, :] = -row[0, :]
    assert "row 0 of answer has the wrong sign" in check(row, J).message
    # Staged: the first try does not say which entry.
    exercise = Exercise("Gravity", "G(q)?", solve=lambda: G)
    first = exercise.check(one).message
    assert first.startswith("One entry of your answer has the wrong sign") and "[1, 0]" not in first
    assert exercise.check(one).message.startswith("answer[1, 0] has the wrong sign")
    # Not a slip: the generic message at a point, as before.
    other = C.copy()
    other[0, 1] = 2 * other[0, 1]
    assert "differs from the expected expression" in check(other, C).message


def test_c_transposed_or_negated_inside_hstack_m_c_g_is_named():
    # The planar 2R arm of the test above, point masses: M, C, G side by side (chapter 8's form).
    c2 = sp.cos(q2)
    M = sp.Matrix(
        [
            [
                m1 * lc1**2 + m2 * (l1**2 + lc2**2 + 2 * l1 * lc2 * c2),
                m2 * (lc2**2 + l1 * lc2 * c2),
            ],
            [m2 * (lc2**2 + l1 * lc2 * c2), m2 * lc2**2],
        ]
    )
    h = -m2 * l1 * lc2 * sp.sin(q2)
    C = sp.Matrix([[h * dq2, h * (dq1 + dq2)], [-h * dq1, 0]])
    G = sp.Matrix([m2 * lc2 * g * sp.cos(q1 + q2), (m1 + m2) * g * sp.cos(q1)])
    model = Exercise("Model", "hstack(M, C, G)?", solve=lambda: sp.Matrix.hstack(M, C, G))
    first = model.check(sp.Matrix.hstack(M, C.T, G)).message
    assert first.startswith("One square block of your answer") and "2:4" not in first
    second = model.check(sp.Matrix.hstack(M, C.T, G)).message
    assert second.startswith("The square block answer[:, 2:4] looks transposed")
    negated = check(sp.Matrix.hstack(M, -C, G), sp.Matrix.hstack(M, C, G)).message
    assert negated.startswith("the block of columns 2 to 3 of answer has the wrong sign")
    assert (
        "column 4 of answer has the wrong sign"
        in check(sp.Matrix.hstack(M, C, -G), sp.Matrix.hstack(M, C, G)).message
    )


def test_a_transposed_shape_of_a_symbolic_matrix_asks_for_t():
    wide = sp.Matrix(2, 5, lambda i, j: (i + 1) * q1 + j * q2)
    result = check(wide.T, wide)
    assert not result and "has shape (5, 2), expected shape (2, 5)" in result.message
    assert "transposed? .T" in result.message
    assert ".reshape(2, 5)?" in check(sp.Matrix(1, 10, list(wide)), wide).message


def test_the_twist_order_wording_follows_the_declared_rows_for_numbers():
    # A revolute joint about z through q = (0.37, 1.21, 0): S = (ω, v), v = -ω × q.
    S = np.array([0.0, 0.0, 1.0, 1.21, -0.37, 0.0])
    swapped = np.r_[S[3:], S[:3]]
    assert "[v; ω] instead of robolab's [ω; v]" in check(swapped, S).message  # the default
    spong = check(S, swapped, rows="v_omega").message
    assert "asks for the rows in the order [v; ω]" in spong
    torques = np.array([0.4, -1.2, 2.5, 0.1, 0.3, -0.2])  # six joint torques: no twist
    neutral = check(np.r_[torques[3:], torques[:3]], torques, rows=None).message
    assert neutral.endswith("the top and bottom three entries are swapped.")
    assert "ω" not in neutral and "twist" not in neutral
    with pytest.raises(ValueError, match="rows must be"):
        Exercise("Bad", "?", solve=lambda: S, rows="omega-v")
    with pytest.raises(ValueError, match="rows must be"):
        check(S, S, rows="vw")


# --- the pointer to the expected value, for every slip ---------------------------------------


def _tool_exercise() -> Exercise:
    return Exercise(
        "Tool point",
        "Where is the tool tip, 0.1 m beyond the flange at x = {x}?",
        solve=lambda x: x + 0.1,
        generate=lambda rng: {"x": 0.5},
        slips={"You gave the flange, not the tool tip: add the tool offset.": lambda x: x},
    )


def test_a_known_slip_points_to_the_expected_value_on_later_tries():
    exercise = _tool_exercise()
    first = exercise.check(0.5).message
    assert "show_expected" not in first and "0.6" not in first
    second = exercise.check(0.5).message
    assert second.startswith("You gave the flange, not the tool tip")
    assert second.endswith(
        "To see the expected value: <exercise>.check(answer, show_expected=True)."
    )
    asked = exercise.check(0.5, show_expected=True).message
    assert "The expected value: 0.6." in asked
    hand_x = Exercise(
        "Hand x",
        "q = {q} rad?",
        solve=lambda q: 0.8 * math.cos(q),
        generate=lambda rng: {"q": 0.7},
        angles=["q"],
    )
    in_degrees = 0.8 * math.cos(math.degrees(0.7))
    assert "show_expected" not in hand_x.check(in_degrees).message
    again = hand_x.check(in_degrees).message
    assert "with q in degrees" in again and "show_expected=True" in again


def test_the_pointer_names_the_exercise_by_its_notebook_name(shell):
    shell.user_ns["exercise_7"] = _tool_exercise()
    shell.run_cell("exercise_7.check(0.5)")
    shell.run_cell("second = exercise_7.check(0.5)")
    message = shell.user_ns["second"].message
    assert "To see the expected value: exercise_7.check(answer, show_expected=True)." in message


# --- a first try never shows the expected numbers, whatever the slip -------------------------


def _shown_entries(expected) -> set[str]:
    """The expected entries as a message would print them (4 significant digits), non-trivial."""
    return {f"{v:.4g}" for v in np.ravel(expected) if "." in f"{v:.4g}"}


_M = np.array([[0.0, -1.0, 0.0, 0.42], [1.0, 0.0, 0.0, 0.17], [0.0, 0.0, 1.0, 0.33], [0, 0, 0, 1]])
_S = np.array([0.0, 0.0, 1.0, 1.21, -0.37, 0.0])


@pytest.mark.parametrize(
    ("kind", "expected", "answer", "options", "words"),
    [
        ("degrees", 0.61, math.degrees(0.61), {}, "looks like it is in degrees"),
        ("millimetres", [0.35, 0.12], [350.0, 120.0], {}, "millimetres instead of metres"),
        ("factor", 1.35, 2.7, {}, "2 times the expected value"),
        ("frame", mr.Adjoint(mr.TransInv(_M)) @ _S, _S, {"pose": "M"}, "in the other frame"),
        ("twist order", _S, np.r_[_S[3:], _S[:3]], {}, "[v; ω] instead of robolab's [ω; v]"),
        ("transpose", _rot_z(0.4), _rot_z(0.4).T, {}, "looks transposed"),
        ("sign", _S, _S * [1, 1, 1, 1, -1, 1], {}, "has the wrong sign"),
        ("opposite", _S, -_S, {}, "opposite sign"),
    ],
)
def test_a_first_slip_message_names_the_slip_but_not_the_expected_numbers(
    kind, expected, answer, options, words
):
    exercise = Exercise(
        kind, "?", solve=lambda M: np.asarray(expected), generate=lambda rng: {"M": _M}, **options
    )
    shown = _shown_entries(expected) | _shown_entries(_M[:3, 3])
    first = exercise.check(answer).message
    assert words in first, first
    assert not {text for text in shown if text in first}, first
    second = exercise.check(answer).message
    assert not {text for text in shown if text in second}, second
    asked = exercise.check(answer, show_expected=True).message
    assert any(text in asked for text in _shown_entries(expected)), asked  # when asked, it is


def test_degrees_inside_the_formula_do_not_reveal_the_expected_value():
    exercise = Exercise(
        "Hand x",
        "l1 = {l1}, q = {q} rad?",
        solve=lambda l1, q: l1 * math.cos(q),
        generate=lambda rng: {"l1": 0.8, "q": 0.7},
        angles=["q"],
    )
    shown = _shown_entries(0.8 * math.cos(0.7))
    message = exercise.check(0.8 * math.cos(math.degrees(0.7))).message
    assert "with q in degrees" in message and not {t for t in shown if t in message}


# --- fixed exercises -----------------------------------------------------------------------------


def test_a_fixed_exercise_has_no_new_numbers_button_and_says_so(monkeypatch):
    from robolab.lessons.exercises import exercise as exercises
    from robolab.support import widgets

    fixed = Exercise("Half a turn", "How many radians?", solve=lambda: math.pi)
    bundle = fixed._repr_mimebundle_()
    assert "(fixed numbers: this exercise has one set)" in bundle["text/plain"]
    assert "new_numbers" not in bundle["text/plain"] + bundle["text/markdown"]
    monkeypatch.setattr(widgets, "in_test_mode", lambda: False)
    monkeypatch.setattr(widgets, "in_kernel", lambda: True)
    monkeypatch.setattr(exercises, "front_end", lambda: "widget")  # a person at JupyterLab
    assert widgets.WIDGET_VIEW_MIMETYPE not in fixed._repr_mimebundle_()
    import ipywidgets

    shown = fixed._display()
    assert not any(isinstance(child, ipywidgets.Button) for child in shown.children)
    assert "one set" in shown.children[1].value
    with pytest.raises(ValueError, match="has fixed numbers"):
        fixed.new_numbers()
    with pytest.raises(ValueError, match="has fixed numbers"):
        fixed.new_numbers(seed=3)
    assert not _rotation_exercise().fixed  # drawn numbers: the button stays
    assert widgets.WIDGET_VIEW_MIMETYPE in _rotation_exercise()._repr_mimebundle_()


def test_a_students_own_numbers_have_no_new_numbers_button(monkeypatch):
    """A graded assignment draws each student's numbers with with_seed(..., own=True): no
    button, and new_numbers() refuses (the grader uses those numbers)."""
    from robolab.lessons.exercises import exercise as exercises
    from robolab.support import widgets

    drawn = _rotation_exercise()
    own = drawn.with_seed(exercises.seed_for("ada", "01/exercise_1"), own=True)
    assert own.parameters == drawn.with_seed(exercises.seed_for("ada", "01/exercise_1")).parameters
    bundle = own._repr_mimebundle_()
    assert "your own numbers, drawn for you" in bundle["text/plain"]
    assert "new_numbers" not in bundle["text/plain"] + bundle["text/markdown"]
    monkeypatch.setattr(widgets, "in_test_mode", lambda: False)
    monkeypatch.setattr(widgets, "in_kernel", lambda: True)
    monkeypatch.setattr(exercises, "front_end", lambda: "widget")
    import ipywidgets

    shown = own._display()
    assert not any(isinstance(child, ipywidgets.Button) for child in shown.children)
    with pytest.raises(ValueError, match="your own numbers"):
        own.new_numbers()
    assert drawn.with_seed(5).new_numbers(seed=6).seed == 6  # not own: new numbers as before


def test_a_verdict_shown_above_goes_grey_after_new_numbers(monkeypatch):
    """A ✓ for the old numbers must not stay a ✓ once New numbers drew others."""
    from robolab.lessons.exercises import exercise as exercises
    from robolab.support import widgets

    exercise = _rotation_exercise()
    monkeypatch.setattr(widgets, "in_test_mode", lambda: False)
    monkeypatch.setattr(widgets, "in_kernel", lambda: True)
    monkeypatch.setattr(exercises, "front_end", lambda: "widget")
    right = exercise.check(exercise.expected)
    assert right.correct and right == CheckResult(True, right.message)  # still a CheckResult
    assert widgets.WIDGET_VIEW_MIMETYPE in right._repr_mimebundle_()
    shown = exercise._verdicts[-1]
    assert "✓" in shown.value and "earlier numbers" not in shown.value
    exercise._display().children[1].children[0].click()  # the New numbers button
    assert "earlier numbers" in shown.value and exercise._verdicts == []
    assert "earlier numbers" in exercise._verdict_widget(right).value  # shown again later
    fresh = exercise.check(None)
    assert "earlier numbers" not in exercise._verdict_widget(fresh).value
    monkeypatch.setattr(exercises, "front_end", lambda: "")  # nbval, a saved notebook
    assert right._repr_mimebundle_() == {} and str(right).startswith("✓")


def test_one_label_for_new_numbers():
    """The button, its tooltip and the texts all say "New numbers"."""
    button = _rotation_exercise()._display().children[1].children[0]
    assert button.description == "New numbers" and "Draw" not in button.tooltip
