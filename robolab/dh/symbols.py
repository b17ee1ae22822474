"""Predefined SymPy symbols for DH models, like ``moro.abc``.

Joint variables are functions of time, ``q_i(t)``, so that time derivatives
(velocities, kinetic energy, Coriolis terms) are never silently zero::

    from robolab.symbols import q1, q2, l1, l2, m1, m2, g, t

Every placeholder that :class:`robolab.DHRobot` generates for a parameter you
did not give (masses, inertia tensors, centres of mass) is made by the
functions of this module, with the same name *and the same assumptions* as
the predefined symbol, so ``expr.subs(m1, 2.0)`` always finds ``m_1``
(SymPy treats ``Symbol("m_1")`` and ``Symbol("m_1", positive=True)`` as two
different symbols).

=====================  ======================================  ==============
names                  meaning                                 assumptions
=====================  ======================================  ==============
``t``                  time                                    none (as
                                                               ``dynamicsymbols``)
``q1`` … ``q7``        joint variables ``q_i(t)``              functions of t
``qd1`` …, ``qdd1`` …  their first and second time derivatives
``theta1`` …           constant angles ``θ_i``                 real
``alpha1`` …           link twists ``α_i``                     real
``a1`` …, ``d1`` …     DH lengths ``a_i``, ``d_i``             real
``l1`` …, ``lc1`` …    link lengths ``l_i``, CoM distances     real
                       ``l_ci``
``m1`` …               link masses ``m_i``                     positive
``g``                  magnitude of gravity                    positive
``tau1`` …             joint torques ``τ_i``                   real
``Ixx1`` … ``Iyz7``    inertia tensor entries ``I_xx1`` …      real
``xc1``, ``yc1``, …    centre-of-mass coordinates ``x_c1`` …   real
=====================  ======================================  ==============

Examples
--------
>>> from robolab.symbols import q1, qd1, m1, t
>>> q1
q_1(t)
>>> qd1 == q1.diff(t)
True
>>> m1 == mass(1)
True
>>> inertia_tensor(2)
Matrix([
[I_xx2,     0,     0],
[    0, I_yy2,     0],
[    0,     0, I_zz2]])
"""

from __future__ import annotations

import sympy as sp

MAX_JOINTS = 7


def _check_index(i: int) -> int:
    if isinstance(i, bool) or not isinstance(i, int) or i < 1:
        raise IndexError(f"link/joint number must be an integer >= 1, got {i!r}")
    return i


def joint_variable(i: int, time: sp.Symbol | None = None) -> sp.Expr:
    """Return the joint variable ``q_i(t)``, a function of time.

    Examples
    --------
    >>> joint_variable(3)
    q_3(t)
    """
    return sp.Function(f"q_{_check_index(i)}")(t if time is None else time)


def mass(i: int) -> sp.Symbol:
    """Return the mass placeholder ``m_i`` (positive), as in ``robolab.symbols.m1``.

    Examples
    --------
    >>> mass(2).is_positive
    True
    """
    return sp.Symbol(f"m_{_check_index(i)}", positive=True)


def inertia_tensor(i: int, diagonal: bool = True) -> sp.Matrix:
    """Return the symbolic inertia tensor of link ``i`` about its centre of mass.

    Parameters
    ----------
    i : int
        Link number, 1..n.
    diagonal : bool
        If True (the default assumption of :class:`robolab.DHRobot`), the
        products of inertia are zero: ``diag(I_xx_i, I_yy_i, I_zz_i)``.
        Otherwise a general symmetric tensor with ``I_xy_i, I_xz_i, I_yz_i``.

    Examples
    --------
    >>> inertia_tensor(1, diagonal=False)[0, :]
    Matrix([[I_xx1, I_xy1, I_xz1]])
    """
    i = _check_index(i)
    s = {
        name: sp.Symbol(f"I_{name}{i}", real=True) for name in ("xx", "yy", "zz", "xy", "xz", "yz")
    }
    if diagonal:
        return sp.diag(s["xx"], s["yy"], s["zz"])
    return sp.Matrix(
        [
            [s["xx"], s["xy"], s["xz"]],
            [s["xy"], s["yy"], s["yz"]],
            [s["xz"], s["yz"], s["zz"]],
        ]
    )


def centre_of_mass(i: int) -> sp.Matrix:
    """Return the symbolic centre of mass ``(x_ci, y_ci, z_ci)`` of link ``i`` in frame {i}.

    Examples
    --------
    >>> centre_of_mass(1).T
    Matrix([[x_c1, y_c1, z_c1]])
    """
    i = _check_index(i)
    return sp.Matrix([sp.Symbol(f"{axis}_c{i}", real=True) for axis in "xyz"])


def _numbered(prefix: str, **assumptions: bool) -> tuple[sp.Symbol, ...]:
    return tuple(sp.Symbol(f"{prefix}_{i}", **assumptions) for i in range(1, MAX_JOINTS + 1))


#: Time.
t = sp.Symbol("t")
#: Magnitude of the gravitational acceleration.
g = sp.Symbol("g", positive=True)

q1, q2, q3, q4, q5, q6, q7 = (joint_variable(i) for i in range(1, MAX_JOINTS + 1))
qd1, qd2, qd3, qd4, qd5, qd6, qd7 = (q.diff(t) for q in (q1, q2, q3, q4, q5, q6, q7))
qdd1, qdd2, qdd3, qdd4, qdd5, qdd6, qdd7 = (q.diff(t, 2) for q in (q1, q2, q3, q4, q5, q6, q7))

theta1, theta2, theta3, theta4, theta5, theta6, theta7 = _numbered("theta", real=True)
alpha1, alpha2, alpha3, alpha4, alpha5, alpha6, alpha7 = _numbered("alpha", real=True)
a1, a2, a3, a4, a5, a6, a7 = _numbered("a", real=True)
d1, d2, d3, d4, d5, d6, d7 = _numbered("d", real=True)
l1, l2, l3, l4, l5, l6, l7 = _numbered("l", real=True)
lc1, lc2, lc3, lc4, lc5, lc6, lc7 = (
    sp.Symbol(f"l_c{i}", real=True) for i in range(1, MAX_JOINTS + 1)
)
m1, m2, m3, m4, m5, m6, m7 = (mass(i) for i in range(1, MAX_JOINTS + 1))
tau1, tau2, tau3, tau4, tau5, tau6, tau7 = _numbered("tau", real=True)

_tensors = [inertia_tensor(i, diagonal=False) for i in range(1, MAX_JOINTS + 1)]
Ixx1, Ixx2, Ixx3, Ixx4, Ixx5, Ixx6, Ixx7 = (T[0, 0] for T in _tensors)
Iyy1, Iyy2, Iyy3, Iyy4, Iyy5, Iyy6, Iyy7 = (T[1, 1] for T in _tensors)
Izz1, Izz2, Izz3, Izz4, Izz5, Izz6, Izz7 = (T[2, 2] for T in _tensors)
Ixy1, Ixy2, Ixy3, Ixy4, Ixy5, Ixy6, Ixy7 = (T[0, 1] for T in _tensors)
Ixz1, Ixz2, Ixz3, Ixz4, Ixz5, Ixz6, Ixz7 = (T[0, 2] for T in _tensors)
Iyz1, Iyz2, Iyz3, Iyz4, Iyz5, Iyz6, Iyz7 = (T[1, 2] for T in _tensors)
del _tensors

_coms = [centre_of_mass(i) for i in range(1, MAX_JOINTS + 1)]
xc1, xc2, xc3, xc4, xc5, xc6, xc7 = (c[0] for c in _coms)
yc1, yc2, yc3, yc4, yc5, yc6, yc7 = (c[1] for c in _coms)
zc1, zc2, zc3, zc4, zc5, zc6, zc7 = (c[2] for c in _coms)
del _coms
