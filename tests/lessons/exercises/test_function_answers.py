"""A student's function: called with the reference on the same inputs, the first difference."""

from __future__ import annotations

import numpy as np
import pytest

from robolab.exercises import (
    check,
    check_function,
)


def _forward_kinematics(q, lengths=(1.0, 0.5)):
    a, b = lengths
    return np.array(
        [a * np.cos(q[0]) + b * np.cos(q[0] + q[1]), a * np.sin(q[0]) + b * np.sin(q[0] + q[1])]
    )


def test_function_answers():
    inputs = [np.array([0.1, 0.2]), np.array([1.0, -0.5])]

    def right(q):
        return _forward_kinematics(q)

    def swapped(q):
        return _forward_kinematics(q)[::-1]

    def broken(q):
        raise ZeroDivisionError("oops")

    assert check(right, _forward_kinematics, inputs=inputs)
    result = check(swapped, _forward_kinematics, inputs=inputs)
    assert not result and result.message.startswith("for swapped(array([0.1, 0.2])): the result[0]")
    assert (
        check_function(broken, _forward_kinematics, inputs).message
        == "broken(array([0.1, 0.2])) raised ZeroDivisionError: oops."
    )
    assert (
        "must be a function, got float" in check_function(1.0, _forward_kinematics, inputs).message
    )
    keyword = check_function(
        lambda q, lengths: _forward_kinematics(q, lengths),
        _forward_kinematics,
        [{"q": np.zeros(2), "lengths": (2.0, 1.0)}, (np.ones(2), (1.0, 1.0))],
    )
    assert keyword and "on 2 inputs" in keyword.message
    with pytest.raises(ValueError, match="inputs must be given to check a function"):
        check(right, _forward_kinematics)
    with pytest.raises(ValueError, match="inputs must hold at least one input"):
        check_function(right, _forward_kinematics, [])


# --- hostile functions (issue 29) ----------------------------------------------------------------


def _spins(q):
    while True:
        pass


def test_a_function_that_never_returns_is_stopped():
    result = check_function(_spins, _forward_kinematics, [np.zeros(2)], time_limit=0.2)
    assert not result
    assert result.message == (
        "_spins(array([0., 0.])) did not finish within 0.2 s, so it was stopped: does a loop in "
        "it never end?"
    )


def test_a_function_that_swallows_exceptions_is_stopped_too():
    def stubborn(q):
        while True:
            try:  # noqa: SIM105 - as a student writes it
                _spins(q)
            except Exception:
                pass

    result = check_function(stubborn, _forward_kinematics, [np.zeros(2)], time_limit=0.2)
    assert not result and "did not finish within 0.2 s" in result.message


def test_a_result_that_never_turns_into_numbers_is_stopped(monkeypatch):
    from robolab.lessons.exercises import function_answers

    class Endless:
        def __float__(self):
            while True:
                pass

    monkeypatch.setattr(function_answers, "ANSWER_SECONDS", 0.3)
    result = check_function(lambda q: Endless(), lambda q: 1.0, [0.5])
    assert not result
    assert result.message.startswith("reading the result of <lambda>(0.5) took more than 0.3 s")


def test_exit_and_recursion_in_a_students_function_are_reported():
    def leaves(q):
        raise SystemExit(3)

    def recurses(q):
        return recurses(q)

    assert check_function(leaves, _forward_kinematics, [np.zeros(2)]).message == (
        "leaves(array([0., 0.])) raised SystemExit: 3."
    )
    message = check_function(recurses, _forward_kinematics, [np.zeros(2)]).message
    assert message.startswith("recurses(array([0., 0.])) raised RecursionError: maximum recursion")


def test_a_function_that_changes_its_input_cannot_change_the_reference():
    def identity(q):
        return q

    def zeroes_it(q):
        q[:] = 0.0
        return q

    assert not check_function(zeroes_it, identity, [np.array([0.5, 1.0])])
    assert check_function(identity, identity, [np.array([0.5, 1.0])])


def test_a_callable_whose_attributes_raise_is_still_named():
    class Odd:
        def __getattr__(self, name):
            raise RuntimeError(name)

        def __call__(self, q):
            return _forward_kinematics(q)

    assert check_function(Odd(), _forward_kinematics, [np.zeros(2)]).message == (
        "Correct: your function agrees with the reference on 1 inputs."
    )


@pytest.mark.parametrize(
    ("limit", "error"),
    [(0, ValueError), (-1.0, ValueError), (float("inf"), ValueError), ("1", TypeError)],
)
def test_a_bad_time_limit_is_the_authors_mistake(limit, error):
    with pytest.raises(error, match="time_limit must be a"):
        check_function(_forward_kinematics, _forward_kinematics, [np.zeros(2)], time_limit=limit)
