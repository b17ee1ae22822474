"""The argument checks every public function uses (robolab.support.arguments): a real number
or an array of them, or a TypeError naming the argument and what it got; wrong shapes and
non-finite numbers are a ValueError.

Every door that takes numbers is tested in tests/contracts/test_bad_numbers.py.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from robolab.support.arguments import (
    MAX_NAME_LENGTH,
    as_figure_size,
    as_float_array,
    as_name,
    as_real_number,
    as_transform,
    hidden_character_problem,
    name_problem,
    repeated_name,
    require_bool,
    require_choice,
    require_finite,
    require_int,
    require_real_entries,
    require_rotation,
    require_str,
    require_transform,
    scalar_problem,
)
from robolab.symbols import l1, q1

# ------------------------------------------------------------------ as_float_array


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("12", r"x must be numeric, got the text '12'"),
        (["12", "3"], r"got the text '12' at index \(0,\)"),
        ([b"1"], r"got the bytes b'1' at index \(0,\)"),
        (np.array(["1.5"]), r"got an array of text \(dtype <U3\)"),
        (True, r"got the boolean True"),
        ([0.5, True], r"got the boolean True at index \(1,\)"),
        ([[1.0, 2.0], [np.True_, 1.0]], r"got the boolean True at index \(1, 0\)"),
        (np.array([True, False]), r"got a boolean array \(dtype bool\)"),
        (1 + 2j, r"got the complex number \(1\+2j\)"),
        (np.complex128(1.0), r"got the complex number"),
        (np.array([1.0], dtype=complex), r"got a complex array"),
        (None, r"got None"),
        ([1.0, None], r"got None at index \(1,\)"),
        ({1.0: 2.0}, r"got a dict \{1.0: 2.0\}"),
        ({1.0, 2.0}, r"got a set"),
        ([object()], r"got object <object object at"),
        (np.array([1.0, "a"], dtype=object), r"got the text 'a' at index \(1,\)"),
        (
            [sp.Symbol("x")],
            r"got the SymPy expression x with free symbols x.*a number was expected",
        ),
        (sp.pi * l1, r"got the SymPy expression pi\*l_1 with free symbols l_1"),
        ([q1], r"got the SymPy expression q_1\(t\) with free symbols t"),
        ([sp.I], r"got the complex SymPy number I"),
        (sp.true, r"got the SymPy object True"),
    ],
)
def test_what_is_not_a_real_number_is_a_type_error(value, message):
    with pytest.raises(
        TypeError, match=r"x must be numeric, " + message.removeprefix("x must be numeric, ")
    ):
        as_float_array(value, "x")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (3, [3.0]),
        ([np.float32(0.5), np.int64(2)], [0.5, 2.0]),
        ([Fraction(1, 4), Decimal("0.5")], [0.25, 0.5]),
        ([sp.pi / 2, sp.Float(0.25), sp.Integer(3), sp.Rational(1, 2)], [np.pi / 2, 0.25, 3, 0.5]),
        (sp.Matrix([1, 2]), [[1.0], [2.0]]),
        (range(3), [0.0, 1.0, 2.0]),
        (np.array([1, 2], dtype=np.uint8), [1.0, 2.0]),
        (np.array([1.5, 2], dtype=object), [1.5, 2.0]),
    ],
)
def test_real_numbers_of_every_kind_are_accepted(value, expected):
    np.testing.assert_array_equal(np.atleast_1d(as_float_array(value, "x")).tolist(), expected)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ([1.0, 2.0], r"x must have shape \(3,\), got shape \(2,\)"),
        ([[1.0, 2.0], [3.0]], r"x must be a number or a rectangular array of numbers"),
        ([1.0, np.nan, 0.0], r"x contains a non-finite value \(nan\) at index \(1,\)"),
        ([1.0, sp.oo, 0.0], r"x contains a non-finite value \(inf\)"),
        ([10**400, 0.0, 0.0], r"x holds a number too large for a float"),
    ],
)
def test_wrong_shapes_and_non_finite_numbers_stay_value_errors(value, message):
    with pytest.raises(ValueError, match=message):
        as_float_array(value, "x", (3,))


def test_scalar_helpers_refuse_booleans_and_floats_where_they_do_not_belong():
    with pytest.raises(TypeError, match=r"zoom must be a real number, got the boolean True"):
        as_real_number(True, "zoom")
    with pytest.raises(TypeError, match=r"zoom must be a real number, got the text '2'"):
        as_real_number("2", "zoom")
    with pytest.raises(ValueError, match=r"zoom must be a positive number, got -1"):
        as_real_number(-1, "zoom", positive=True)
    assert as_real_number(sp.pi, "angle") == pytest.approx(np.pi)
    with pytest.raises(TypeError, match=r"index must be an int, got the boolean False"):
        require_int(False, "index")
    with pytest.raises(TypeError, match=r"index must be an int, got float 2.0"):
        require_int(2.0, "index")
    assert require_int(np.int64(2), "index") == 2


def test_shapes_with_any_size_and_batches():
    assert as_float_array(np.zeros((2, 5)), "x", (2, None)).shape == (2, 5)
    assert as_float_array(np.zeros((3, 7, 4, 4)), "T", (4, 4), batch=True).shape == (3, 7, 4, 4)
    with pytest.raises(ValueError, match=r"^T must have shape \(\.\.\., 4, 4\), got shape \(4,\)$"):
        as_float_array(np.zeros(4), "T", (4, 4), batch=True)
    with pytest.raises(ValueError, match=r"^x must have shape \(2, n\), got shape \(3, 5\)$"):
        as_float_array(np.zeros((3, 5)), "x", (2, None))


def test_non_finite_numbers_pass_when_the_caller_checks_them():
    values = as_float_array([np.nan, np.inf], "x", finite=False)
    assert np.isnan(values[0]) and values[1] == np.inf


def test_entries_are_checked_before_numpy_converts_them():
    require_real_entries([0.5, [1, 2], (3, Fraction(1, 2))], "q")  # nothing raised
    with pytest.raises(TypeError, match=r"got the text '2' at index \(1, 1\)"):
        require_real_entries([[0, 1], [1, "2"]], "q")


def test_scalar_problem_says_what_the_value_is():
    assert scalar_problem(np.float32(0.5)) is None
    assert scalar_problem(Decimal("0.1")) is None
    assert scalar_problem(np.array(2.0)) is None  # a 0-d array holds one number
    assert scalar_problem(np.array([1.0, 2.0]))[0] == "an array of shape (2,)"
    assert scalar_problem(None) == ("None", "")
    assert scalar_problem(2j)[0] == "the complex number 2j"


# ------------------------------------------------------------------ one value


def test_require_bool_and_require_str():
    assert require_bool(np.True_, "shadow") is True
    with pytest.raises(TypeError, match=r"^shadow must be True or False, got str 'yes'$"):
        require_bool("yes", "shadow")
    assert require_str("FK", "title") == "FK"
    with pytest.raises(TypeError, match=r"^title must be a str, got NoneType None$"):
        require_str(None, "title")


def test_figure_sizes_are_two_positive_numbers():
    assert as_figure_size(np.array([4, 3])) == (4.0, 3.0)
    assert as_figure_size([Fraction(9, 2), 2], "size") == (4.5, 2.0)
    with pytest.raises(ValueError, match=r"^figsize must be a pair .* in inches, got 3 values$"):
        as_figure_size((1, 2, 3))
    with pytest.raises(TypeError, match=r"^figsize must be a pair .*, got dict \{'w': 4\}$"):
        as_figure_size({"w": 4})
    with pytest.raises(ValueError, match=r"^size\[0\] \(width\) must be a positive number, got 0$"):
        as_figure_size((0, 2), "size")


def test_require_choice_among_texts_or_other_values():
    require_choice(None, "ellipsoid", (None, "velocity", "force"))  # nothing raised
    with pytest.raises(TypeError, match=r"\['velocity'\] \(a str\), got int 1$"):
        require_choice(1, "ellipsoid", ("velocity",))
    with pytest.raises(ValueError, match=r"^order must be one of \[1, 2\], got 3$"):
        require_choice(3, "order", (1, 2))


# ------------------------------------------------------------------ arrays


def test_require_finite_names_the_first_bad_entry():
    require_finite(np.eye(2), "M")  # nothing raised
    with pytest.raises(
        ValueError, match=r"^M contains a non-finite value \(-inf\) at index \(1, 0\)"
    ):
        require_finite(np.array([[0.0, 1.0], [-np.inf, np.nan]]), "M")


def test_require_rotation_says_why_a_matrix_is_not_one():
    c, s = np.cos(0.4), np.sin(0.4)
    require_rotation(np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]]), "R")  # nothing raised
    with pytest.raises(ValueError, match=r"but max \|RᵀR - I\| = 3, det = 8$"):
        require_rotation(2 * np.eye(3), "R")
    stack = np.stack([np.eye(3), np.eye(3), np.diag([1.0, 1.0, -1.0])])
    with pytest.raises(ValueError, match=r"but det\(R\) = -1 at batch index \(2,\)$"):
        require_rotation(stack, "R")


def test_require_transform_checks_the_bottom_row_and_the_rotation():
    T = np.eye(4)
    T[:3, 3] = [1.0, 2.0, 3.0]
    require_transform(T, "T")  # nothing raised
    stack = np.stack([T, T])
    stack[1, 3, 0] = 2.0
    with pytest.raises(ValueError, match=r"bottom row \[0, 0, 0, 1\], got \[2, 0, 0, 1\]$"):
        require_transform(stack, "T")
    T[0, 0] = -1.0
    with pytest.raises(ValueError, match=r"^the rotation part of T must be a rotation matrix"):
        require_transform(T, "T")


def test_as_transform_takes_one_or_a_batch():
    assert as_transform(np.eye(4), "T").shape == (4, 4)
    assert as_transform(np.tile(np.eye(4), (5, 1, 1)), "T", batch=True).shape == (5, 4, 4)
    with pytest.raises(ValueError, match=r"^T must have shape \(4, 4\), got shape \(2, 4, 4\)$"):
        as_transform(np.tile(np.eye(4), (2, 1, 1)), "T")


# ------------------------------------------------------------------ names


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("a\x00", r"U\+0000 \(a control character\) at index 1"),  # NUL
        ("\x1b[31mred", r"U\+001B \(a control character\) at index 0"),  # ANSI escape
        ("a\nb", r"U\+000A \(a control character\) at index 1"),
        ("a\tb", r"U\+0009 \(a control character\) at index 1"),
        ("a\x85", r"U\+0085 \(a control character\) at index 1"),  # NEL
        ("ab\u200b", r"U\+200B ZERO WIDTH SPACE \(an invisible format character\) at index 2"),
        ("a\u200db", r"U\+200D ZERO WIDTH JOINER \(an invisible format character\)"),
        ("a\u202eb", r"U\+202E RIGHT-TO-LEFT OVERRIDE \(an invisible format character\)"),
        ("a\u2066b", r"U\+2066 LEFT-TO-RIGHT ISOLATE \(an invisible format character\)"),
        ("\ufeffa", r"U\+FEFF ZERO WIDTH NO-BREAK SPACE \(an invisible format character\)"),
        ("so\u00adft", r"U\+00AD SOFT HYPHEN \(an invisible format character\)"),
        ("a\U000e0041", r"U\+E0041 TAG LATIN CAPITAL LETTER A \(an invisible format character\)"),
        ("a\u2028b", r"U\+2028 LINE SEPARATOR \(a line separator\) at index 1"),
        ("a\u2029b", r"U\+2029 PARAGRAPH SEPARATOR \(a paragraph separator\) at index 1"),
        ("a\ud800", r"U\+D800 \(a lone surrogate, half of a character\) at index 1"),
    ],
)
def test_a_name_with_a_control_or_invisible_character_is_refused_naming_it(text, shown):
    with pytest.raises(
        ValueError,
        match=r"^joint_names\[0\] must be a name of at most 1000 characters without control or "
        r"invisible characters \(Unicode categories Cc, Cf, Cs, Zl, Zp\), got the text '.*', "
        rf"which holds {shown}",
    ):
        as_name(text, "joint_names[0]")
    assert hidden_character_problem(text) == name_problem(text)


@pytest.mark.parametrize(
    "text", ["elbow", "Gelenk 2", "épaule", "肩", "ŝultro", "a\u00a0b", "\U0001f916", ""]
)
def test_names_in_any_script_with_visible_characters_are_kept(text):
    assert as_name(text, "name") == text  # already in NFC
    assert name_problem(text) is None


def test_a_name_comes_back_in_nfc_so_that_two_spellings_are_one_name():
    precomposed, decomposed = "c\u00f4te", "co\u0302te"  # côte
    assert precomposed != decomposed
    assert as_name(decomposed, "name") == precomposed
    assert as_name("\u212b", "name") == "\u00c5"  # ANGSTROM SIGN is canonically Å


def test_a_name_longer_than_the_limit_is_refused_and_the_message_stays_short():
    assert MAX_NAME_LENGTH == 1000
    assert as_name("x" * 1000, "name") == "x" * 1000
    with pytest.raises(
        ValueError, match=r"got the text 'x{57}'\.\.\. of 1001 characters$"
    ) as caught:
        as_name("x" * 1001, "name")
    assert len(str(caught.value)) < 300
    assert hidden_character_problem("x" * 5000) is None  # free text may be long


@pytest.mark.parametrize("value", [None, 3, b"elbow", ["elbow"]])
def test_a_name_that_is_not_text_is_a_type_error(value):
    with pytest.raises(TypeError, match=r"^name must be a str, got "):
        as_name(value, "name")


def test_repeated_name_finds_the_first_name_used_twice():
    assert repeated_name(["a", "b", "c", "b", "a"]) == (1, 3)
    assert repeated_name([]) is None
    assert repeated_name([f"joint{i}" for i in range(10_000)]) is None


# --- slips shown in one line by IPython --------------------------------------------------------


@pytest.fixture
def shell():
    """An IPython shell that keeps the lines it would show for an error."""
    from IPython.core.interactiveshell import InteractiveShell

    instance = InteractiveShell.instance()
    shown: list[list[str]] = []
    original = instance._showtraceback
    instance._showtraceback = lambda etype, value, stb: shown.append(list(stb))
    yield instance, shown
    instance._showtraceback = original
    InteractiveShell.clear_instance()


@pytest.mark.parametrize(
    "cell, message",
    [
        (  # chapter 5, exercise 2: the SCARA's prismatic row without its 'p'
            "from robolab import DHRobot\nfrom robolab.symbols import q1, q2, q3\n"
            "robot = DHRobot([[0.4, 0, 0, q1], [0.3, 0, 0, q2], [0, 0, q3, 0]])",
            "for a prismatic joint add 'p' to the row",
        ),
        (  # chapter 7, exercise 4: a target out of reach
            "import numpy as np, robolab\nur5 = robolab.load_robot('ur5')\n"
            "target = np.eye(4); target[0, 3] = 5.0\n"
            "robolab.inverse_kinematics_analytic(ur5, target)",
            "out of reach",
        ),
        (  # a joint vector of the wrong length
            "import robolab\nrobolab.forward_kinematics_space(robolab.load_robot('ur5'), [0, 1])",
            "joint_positions must have shape (6,)",
        ),
        ("from robolab import trotz\ntrotz('30')", "angle must be numeric, got the text"),
    ],
)
def test_a_slip_is_shown_in_one_line_naming_the_students_line(shell, cell, message):
    """The walkthrough's 68-line traceback: now the message and the student's line only."""
    instance, shown = shell
    result = instance.run_cell(cell)
    assert result.error_in_exec is not None and len(shown) == 1
    lines = shown[0]
    assert len(lines) == 2 and message in lines[0], lines
    assert lines[1].startswith("(from Cell In[") and "line" in lines[1]
    assert "robolab/" not in "\n".join(lines)  # no frame of robolab's


def test_short_tracebacks_keep_the_exception_type_and_pickle():
    """The type stays (doctests, ``except ValueError``); the hook is only for IPython."""
    import pickle

    from robolab.screw.kinematics.inverse_analytic import OutOfReachError
    from robolab.support.arguments import short_traceback

    error = short_traceback(ValueError("q must have 6 entries, got 5"))
    assert type(error) is ValueError and "got 5" in error._render_traceback_()[0]
    assert str(pickle.loads(pickle.dumps(error))) == str(error)
    far = OutOfReachError("the target is out of reach by 4.09 m", 4.09)
    assert "out of reach by 4.09 m" in far._render_traceback_()[0]
    with pytest.raises(TypeError) as raised:
        as_float_array("12", "q", shape=(1,))
    assert hasattr(raised.value, "_render_traceback_")
