"""Elementary rotations and transforms that work on numbers and on SymPy symbols.

The same function gives a NumPy array for numbers and an exact SymPy matrix
as soon as one argument is symbolic, so the symbolic DH model and the numeric
code share one definition of every elementary motion:

>>> import sympy as sp
>>> rotz(sp.Symbol("theta"))
Matrix([
[cos(theta), -sin(theta), 0],
[sin(theta),  cos(theta), 0],
[         0,            0, 1]])
>>> rotz(0.0)
array([[ 1., -0.,  0.],
       [ 0.,  1.,  0.],
       [ 0.,  0.,  1.]])

The two Denavit–Hartenberg link transforms (see ``docs/conventions.md``):

* standard (Spong, Corke, Moro): ``A_i = Rz(θ_i) Tz(d_i) Tx(a_i) Rx(α_i)``;
* modified (Craig): ``T_{i-1,i} = Rx(α_{i-1}) Tx(a_{i-1}) Rz(θ_i) Tz(d_i)``.

Roll–pitch–yaw angles are the ZYX convention ``R = Rz(yaw) Ry(pitch) Rx(roll)``.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, SupportsFloat, TypeAlias

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..support.arguments import as_float_array, require_rotation

if TYPE_CHECKING:  # SymPy loads with the first symbolic argument, not at import
    import sympy as sp

__all__ = [
    "dh_modified",
    "dh_standard",
    "is_symbolic",
    "rotation_to_rpy",
    "rotx",
    "roty",
    "rotz",
    "rpy_to_rotation",
    "transl",
    "trotx",
    "troty",
    "trotz",
]

#: An argument of the functions here: a number (int, float, NumPy scalar) or a SymPy expression.
Scalar: TypeAlias = "SupportsFloat | sp.Expr"


def is_symbolic(*values: Scalar) -> bool:
    """Return True if any value is a SymPy object (then results are SymPy matrices).

    Examples
    --------
    >>> import sympy as sp
    >>> is_symbolic(1.0, sp.Symbol("d"))
    True
    >>> is_symbolic(1.0, 2)
    False
    """
    # No value can be a SymPy object before SymPy was imported: numeric code never loads it.
    sympy = sys.modules.get("sympy")
    return sympy is not None and any(isinstance(v, sympy.Basic) for v in values)


def _number(value: Scalar, name: str) -> float:
    return float(as_float_array(value, name, ()))


def _trig(
    angle: Scalar, name: str, symbolic: bool | None = None
) -> tuple[float | sp.Expr, float | sp.Expr, bool]:
    """cos and sin of ``angle``: exact SymPy values when ``symbolic`` (default: if ``angle`` is)."""
    if symbolic is None:
        symbolic = is_symbolic(angle)
    if symbolic:
        import sympy as sp

        angle = sp.sympify(angle)
        return sp.cos(angle), sp.sin(angle), True
    theta = _number(angle, name)
    return np.cos(theta), np.sin(theta), False


def _matrix(rows: list[list[Scalar]], symbolic: bool) -> sp.Matrix | NDArray[np.float64]:
    if symbolic:
        import sympy as sp

        return sp.Matrix(rows)
    return np.array(rows, dtype=float)


def rotx(angle: Scalar) -> sp.Matrix | NDArray[np.float64]:
    """Return the 3×3 rotation about x by ``angle`` (radians).

    Examples
    --------
    >>> import sympy as sp
    >>> rotx(sp.pi / 2)
    Matrix([
    [1, 0,  0],
    [0, 0, -1],
    [0, 1,  0]])
    """
    c, s, symbolic = _trig(angle, "angle")
    return _matrix([[1, 0, 0], [0, c, -s], [0, s, c]], symbolic)


def roty(angle: Scalar) -> sp.Matrix | NDArray[np.float64]:
    """Return the 3×3 rotation about y by ``angle`` (radians).

    Examples
    --------
    >>> roty(np.pi / 2).round(12)
    array([[ 0.,  0.,  1.],
           [ 0.,  1.,  0.],
           [-1.,  0.,  0.]])
    """
    c, s, symbolic = _trig(angle, "angle")
    return _matrix([[c, 0, s], [0, 1, 0], [-s, 0, c]], symbolic)


def rotz(angle: Scalar) -> sp.Matrix | NDArray[np.float64]:
    """Return the 3×3 rotation about z by ``angle`` (radians).

    Examples
    --------
    >>> import sympy as sp
    >>> rotz(sp.pi)
    Matrix([
    [-1,  0, 0],
    [ 0, -1, 0],
    [ 0,  0, 1]])
    """
    c, s, symbolic = _trig(angle, "angle")
    return _matrix([[c, -s, 0], [s, c, 0], [0, 0, 1]], symbolic)


def _homogeneous(R: sp.Matrix | NDArray[np.float64]) -> sp.Matrix | NDArray[np.float64]:
    if not isinstance(R, np.ndarray):
        import sympy as sp

        return sp.diag(R, sp.Integer(1))
    T = np.eye(4)
    T[:3, :3] = R
    return T


def trotx(angle: Scalar) -> sp.Matrix | NDArray[np.float64]:
    """Return the 4×4 homogeneous rotation about x by ``angle``.

    Examples
    --------
    >>> import sympy as sp
    >>> trotx(sp.Symbol("alpha"))[1:3, 1:3]
    Matrix([
    [cos(alpha), -sin(alpha)],
    [sin(alpha),  cos(alpha)]])
    """
    return _homogeneous(rotx(angle))


def troty(angle: Scalar) -> sp.Matrix | NDArray[np.float64]:
    """Return the 4×4 homogeneous rotation about y by ``angle``.

    Examples
    --------
    >>> troty(0.0)
    array([[ 1.,  0.,  0.,  0.],
           [ 0.,  1.,  0.,  0.],
           [-0.,  0.,  1.,  0.],
           [ 0.,  0.,  0.,  1.]])
    """
    return _homogeneous(roty(angle))


def trotz(angle: Scalar) -> sp.Matrix | NDArray[np.float64]:
    """Return the 4×4 homogeneous rotation about z by ``angle``.

    Examples
    --------
    >>> import sympy as sp
    >>> trotz(sp.Symbol("q1"))[0, :]
    Matrix([[cos(q1), -sin(q1), 0, 0]])
    """
    return _homogeneous(rotz(angle))


def transl(x: Scalar, y: Scalar, z: Scalar) -> sp.Matrix | NDArray[np.float64]:
    """Return the 4×4 pure translation by (x, y, z).

    Examples
    --------
    >>> import sympy as sp
    >>> transl(1, 2, sp.Symbol("d"))[:3, 3]
    Matrix([
    [1],
    [2],
    [d]])
    """
    if is_symbolic(x, y, z):
        import sympy as sp

        return sp.Matrix([[1, 0, 0, x], [0, 1, 0, y], [0, 0, 1, z], [0, 0, 0, 1]])
    T = np.eye(4)
    T[:3, 3] = [_number(x, "x"), _number(y, "y"), _number(z, "z")]
    return T


def _dh_terms(a: Scalar, alpha: Scalar, d: Scalar, theta: Scalar) -> tuple[Any, ...]:
    """(symbolic, a, d, cos θ, sin θ, cos α, sin α) of a DH row, numbers checked."""
    symbolic = is_symbolic(a, alpha, d, theta)
    ct, st, _ = _trig(theta, "theta", symbolic)
    ca, sa, _ = _trig(alpha, "alpha", symbolic)
    if not symbolic:
        a, d = _number(a, "a"), _number(d, "d")
    return symbolic, a, d, ct, st, ca, sa


def dh_standard(
    a: Scalar, alpha: Scalar, d: Scalar, theta: Scalar
) -> sp.Matrix | NDArray[np.float64]:
    """Return the standard DH link transform ``A = Rz(θ) Tz(d) Tx(a) Rx(α)``.

    This is T_{i-1,i}, the pose of frame {i} in frame {i-1}, for the row
    (a_i, α_i, d_i, θ_i) of a standard (distal) DH table.

    Examples
    --------
    >>> import sympy as sp
    >>> a, q = sp.symbols("a q")
    >>> dh_standard(a, 0, 0, q)
    Matrix([
    [cos(q), -sin(q), 0, a*cos(q)],
    [sin(q),  cos(q), 0, a*sin(q)],
    [     0,       0, 1,        0],
    [     0,       0, 0,        1]])
    """
    symbolic, a, d, ct, st, ca, sa = _dh_terms(a, alpha, d, theta)
    return _matrix(
        [
            [ct, -st * ca, st * sa, a * ct],
            [st, ct * ca, -ct * sa, a * st],
            [0, sa, ca, d],
            [0, 0, 0, 1],
        ],
        symbolic,
    )


def dh_modified(
    a: Scalar, alpha: Scalar, d: Scalar, theta: Scalar
) -> sp.Matrix | NDArray[np.float64]:
    """Return the modified (Craig) DH link transform ``Rx(α_{i-1}) Tx(a_{i-1}) Rz(θ_i) Tz(d_i)``.

    This is T_{i-1,i} for the row (a_{i-1}, α_{i-1}, d_i, θ_i) of a modified
    (proximal) DH table.

    Examples
    --------
    >>> import sympy as sp
    >>> a, q = sp.symbols("a q")
    >>> dh_modified(a, 0, 0, q)
    Matrix([
    [cos(q), -sin(q), 0, a],
    [sin(q),  cos(q), 0, 0],
    [     0,       0, 1, 0],
    [     0,       0, 0, 1]])
    """
    symbolic, a, d, ct, st, ca, sa = _dh_terms(a, alpha, d, theta)
    return _matrix(
        [
            [ct, -st, 0, a],
            [st * ca, ct * ca, -sa, -sa * d],
            [st * sa, ct * sa, ca, ca * d],
            [0, 0, 0, 1],
        ],
        symbolic,
    )


def rpy_to_rotation(roll: float, pitch: float, yaw: float) -> NDArray[np.float64]:
    """Return ``R = Rz(yaw) Ry(pitch) Rx(roll)`` (ZYX roll–pitch–yaw, radians).

    Examples
    --------
    >>> np.allclose(rpy_to_rotation(0.1, 0.2, 0.3), rotz(0.3) @ roty(0.2) @ rotx(0.1))
    True
    """
    return rotz(yaw) @ roty(pitch) @ rotx(roll)


def rotation_to_rpy(R: ArrayLike) -> NDArray[np.float64]:
    """Return (roll, pitch, yaw) in radians with ``R = Rz(yaw) Ry(pitch) Rx(roll)``.

    At the gimbal-lock singularity (pitch = ±π/2) the matrix fixes only
    yaw − roll (at pitch = +π/2) or yaw + roll (at pitch = −π/2): roll is set
    to 0 and that combination is reported as yaw.

    Examples
    --------
    >>> rotation_to_rpy(rpy_to_rotation(0.1, 0.2, 0.3)).round(12)
    array([0.1, 0.2, 0.3])
    >>> rotation_to_rpy(rpy_to_rotation(0.1, np.pi / 2, 0.3)).round(12)  # yaw − roll = 0.2
    array([0.        , 1.57079633, 0.2       ])
    """
    R = as_float_array(R, "R", (3, 3))
    require_rotation(R, "R")
    pitch = np.arctan2(-R[2, 0], np.hypot(R[0, 0], R[1, 0]))
    if np.hypot(R[0, 0], R[1, 0]) < 1e-9:
        return np.array([0.0, pitch, np.arctan2(-R[0, 1], R[1, 1])])
    return np.array([np.arctan2(R[2, 1], R[2, 2]), pitch, np.arctan2(R[1, 0], R[0, 0])])
