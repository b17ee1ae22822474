"""Elementary rotations and DH link transforms, numeric and symbolic."""

import math

import moro
import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

import robolab as rl
from robolab.spatial.transforms import is_symbolic

angle = st.floats(-math.pi, math.pi)
length = st.floats(-2.0, 2.0)


def test_symbolic_and_numeric_forms_agree():
    a, alpha, d, theta = sp.symbols("a alpha d theta", real=True)
    values = {a: 0.3, alpha: -1.1, d: 0.7, theta: 2.4}
    for function in (rl.dh_standard, rl.dh_modified):
        symbolic = function(a, alpha, d, theta)
        assert isinstance(symbolic, sp.MatrixBase)
        numeric = function(*values.values())
        np.testing.assert_allclose(
            np.array(symbolic.subs(values), dtype=float), numeric, atol=1e-15
        )
    for function in (rl.rotx, rl.roty, rl.rotz, rl.trotx, rl.troty, rl.trotz):
        np.testing.assert_allclose(
            np.array(function(theta).subs(values), dtype=float), function(2.4), atol=1e-15
        )


@given(length, angle, length, angle)
def test_standard_dh_is_rz_tz_tx_rx(a, alpha, d, theta):
    expected = rl.trotz(theta) @ rl.transl(0, 0, d) @ rl.transl(a, 0, 0) @ rl.trotx(alpha)
    np.testing.assert_allclose(rl.dh_standard(a, alpha, d, theta), expected, atol=1e-12)


@given(length, angle, length, angle)
def test_modified_dh_is_rx_tx_rz_tz(a, alpha, d, theta):
    expected = rl.trotx(alpha) @ rl.transl(a, 0, 0) @ rl.trotz(theta) @ rl.transl(0, 0, d)
    np.testing.assert_allclose(rl.dh_modified(a, alpha, d, theta), expected, atol=1e-12)


def test_standard_dh_matches_moro():
    a, alpha, d, theta = sp.symbols("a alpha d theta", real=True)
    assert sp.simplify(
        rl.dh_standard(a, alpha, d, theta) - moro.dh(a, alpha, d, theta)
    ) == sp.zeros(4, 4)
    assert rl.dh_standard(100, sp.pi / 2, 50, sp.pi / 2) == moro.dh(100, sp.pi / 2, 50, sp.pi / 2)


def test_user_floats_stay_floats_and_exact_numbers_stay_exact():
    q = sp.Symbol("q")
    A = rl.dh_standard(0.5, 0, 0, q)
    assert A[0, 3] == 0.5 * sp.cos(q)
    assert A[2, 2] == 1  # exact: alpha was the integer 0
    assert rl.dh_standard(1, sp.pi / 2, 0, q)[2, 1] == 1


@given(angle, st.floats(-1.5, 1.5), angle)
def test_rpy_round_trip(roll, pitch, yaw):
    R = rl.rpy_to_rotation(roll, pitch, yaw)
    assert rl.is_so3(R)
    np.testing.assert_allclose(rl.rpy_to_rotation(*rl.rotation_to_rpy(R)), R, atol=1e-9)


def test_rpy_at_gimbal_lock_still_reproduces_the_rotation():
    R = rl.rpy_to_rotation(0.4, math.pi / 2, -0.3)
    roll, pitch, yaw = rl.rotation_to_rpy(R)
    assert roll == 0.0 and pitch == pytest.approx(math.pi / 2)
    np.testing.assert_allclose(rl.rpy_to_rotation(roll, pitch, yaw), R, atol=1e-12)


def test_is_symbolic():
    assert is_symbolic(sp.pi) and not is_symbolic(np.pi)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: rl.rotx("ninety"), r"angle must be numeric, got the text 'ninety'"),
        (lambda: rl.dh_standard(1, 0, float("nan"), 0), r"d contains a non-finite value \(nan\)"),
        (lambda: rl.transl(1, [2, 3], 0), r"y must have shape \(\), got shape \(2,\)"),
        (lambda: rl.rotation_to_rpy(np.diag([1, -1, 1])), r"R must be a rotation matrix"),
    ],
)
def test_bad_input_is_named(call, message):
    error = TypeError if "must be numeric" in message else ValueError  # text is not a number
    with pytest.raises(error, match=message):
        call()
