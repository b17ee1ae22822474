"""robolab.dh.symbols (robolab.symbols): joint variables of time and the placeholder helpers."""

from __future__ import annotations

import pytest
import sympy as sp

from robolab import symbols
from robolab.symbols import q1, q2, t


def test_joint_variables_are_functions_of_time():
    assert q1 == sp.Function("q_1")(t)
    assert symbols.qd1 == q1.diff(t)
    assert symbols.qdd2 == q2.diff(t, 2)
    # the same functions as sympy.physics.mechanics.dynamicsymbols (and moro.abc)
    from sympy.physics.mechanics import dynamicsymbols

    assert q1 == dynamicsymbols("q_1")


def test_symbol_helpers():
    assert symbols.mass(3) == symbols.m3 and symbols.m3.is_positive
    assert symbols.inertia_tensor(2, diagonal=False)[0, 1] == symbols.Ixy2
    assert symbols.centre_of_mass(1)[2] == symbols.zc1
    assert symbols.joint_variable(4) == symbols.q4
    with pytest.raises(IndexError, match="must be an integer >= 1, got 0"):
        symbols.mass(0)
