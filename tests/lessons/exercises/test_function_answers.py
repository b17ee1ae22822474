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
