"""Numbers, vectors and matrices: tolerances, the worst entry named, the classic slips."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import assume, given
from hypothesis import strategies as st

from robolab.exercises import (
    check,
    check_numeric,
)
from robolab.spatial.transforms import rotz
from robolab.symbols import q1, t


def test_within_tolerance_is_right():
    assert check(1.0 + 5e-7, 1.0)
    assert not check(1.0 + 5e-6, 1.0)
    assert check(1.0 + 5e-6, 1.0, rtol=1e-5)
    assert check(1e-10, 0.0)  # atol covers zero
    assert check(np.float32(0.5), 0.5)
    assert check([[1, 2], [3, 4]], np.array([[1.0, 2.0], [3.0, 4.0]]))


def test_the_worst_entry_is_named():
    expected = rotz(0.3)
    answer = expected.copy()
    answer[1, 0] += 0.01
    answer[0, 0] += 0.001
    result = check(answer, expected, name="R")
    assert not result
    assert result.message.startswith(
        f"R[1, 0] is {answer[1, 0]:.4g}, expected {expected[1, 0]:.4g}"
    )
    assert "off by 0.01;" in result.message and "2 of 9 entries are off." in result.message


@pytest.mark.parametrize(
    ("answer", "expected", "words"),
    [
        (
            np.degrees([0.2, 0.4]),
            [0.2, 0.4],
            "Your answer looks like it is in degrees: each entry is the expected angle in degrees "
            "(answer[1] = 22.92° is 0.4 rad); robolab works in radians: convert with np.radians.",
        ),
        (
            np.radians(30.0),
            30.0,
            "answer is 0.5236, expected 30: your answer looks like it is in radians (0.5236 rad is "
            "30°); degrees are expected here: convert with np.degrees.",
        ),
        ([-1.0, 2.0, -0.5], [1.0, -2.0, 0.5], "answer has the opposite sign."),
        (-2.0, 2.0, "answer is -2, expected 2: it has the opposite sign."),
        ([[1.0, 0.0], [3.0, 1.0]], [[1.0, 3.0], [0.0, 1.0]], "looks transposed"),
        ([250.0, 0.0, 100.0], [0.25, 0.0, 0.1], "1000 times the expected value: millimetres"),
        ([0.5, 1.0], [0.25, 0.5], "is 2 times the expected value"),
        (0.3, 0.2, "answer is 0.3, expected 0.2: it is off by 0.1"),  # 1.5: no factor to name
    ],
)
def test_classic_slips_are_recognised(answer, expected, words):
    result = check(answer, expected)
    assert not result and words in result.message


def test_degrees_are_diagnosed_in_a_sentence_with_the_conversion():
    message = check(90.0, np.pi / 2).message
    assert message == (
        "answer is 90, expected 1.571: your answer looks like it is in degrees (90° is 1.571 rad); "
        "robolab works in radians: convert with np.radians."
    )
    named = check(np.degrees([[0.1, -0.7]]), [[0.1, -0.7]], name="q").message
    assert named.startswith("q looks like it is in degrees: each entry is the expected angle")
    assert "(q[0, 1] = -40.11° is -0.7 rad)" in named
    assert check(np.radians([30.0, 60.0]), [30.0, 60.0]).message.startswith(
        "Your answer looks like it is in radians:"
    )


def test_shapes():
    assert "has shape (3,), expected shape (4, 4)" in check(np.zeros(3), np.eye(4)).message
    message = check(np.zeros((2, 3)), np.zeros((3, 2))).message
    assert "transposed? .T swaps rows and columns" in message
    assert "same number of entries: .reshape(6,)?" in check(np.zeros((2, 3)), np.zeros(6)).message
    assert check([0.5], 0.5)  # a one-element array for a number is fine


def test_missing_and_malformed_answers():
    assert (
        check(None, 1.0).message == "No answer yet: answer is None (replace None with your result)."
    )
    assert "got the text 'pi/2'" in check("pi/2", np.pi / 2).message
    assert "still contains the symbols q₁, q̇₁;" in check(sp.cos(q1) * q1.diff(t), 0.5).message
    assert check([1.0, np.nan], [1.0, 2.0]).message == "answer[1] is nan, not a finite number."
    assert check(sp.Integer(2) / 4, 0.5)  # a SymPy number is a number
    assert "must be a number or an array of numbers, got a dict ({})" in check({}, 1.0).message


def test_hint_is_appended():
    result = check(2.0, 1.0, hint="Use the law of cosines.")
    assert result.message.endswith("Hint: Use the law of cosines.")
    assert not check_numeric(2.0, 1.0, hint="h").correct


def test_expected_value_must_be_numeric():
    with pytest.raises(ValueError, match="the expected value is not numeric"):
        check_numeric(1.0, "one")


# --- properties ---------------------------------------------------------------------------------

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@given(st.lists(finite, min_size=1, max_size=6))
def test_an_answer_equal_to_the_expected_one_is_right(values):
    assert check(np.array(values), np.array(values))


@given(st.lists(finite, min_size=1, max_size=6), st.integers(0, 5), finite)
def test_an_entry_off_by_more_than_the_tolerance_is_named(values, index, delta):
    expected = np.array(values)
    index %= len(values)
    tolerance = 1e-9 + 1e-6 * abs(expected[index])
    assume(abs(delta) > 2 * tolerance)
    answer = expected.copy()
    answer[index] += delta
    assume(answer[index] - expected[index] != 0.0)
    result = check(answer, expected)
    assert not result
    # The message names the entry, unless a classic slip explains the whole answer better.
    slips = ("degrees", "radians", "opposite sign", "times the expected value", "half the")
    assert f"answer[{index}]" in result.message or any(s in result.message for s in slips)
