"""Joint friction of a robot model: viscous and (smoothed) Coulomb friction per joint.

The friction torque of joint i opposes its motion,

    τ_f,i(θ̇_i) = b_i θ̇_i + f_c,i tanh(θ̇_i / ε),

with the **viscous** coefficient b_i (N·m·s/rad, or N·s/m for a prismatic joint) and the
**Coulomb** level f_c,i (N·m, or N). It is the friction term F_v θ̇ + F_s sgn(θ̇) of the
joint-space model of Siciliano, Sciavicco, Villani & Oriolo, *Robotics: Modelling,
Planning and Control* (2009), ch. 7, the "equations of motion" of its Lagrange
formulation,

    M(θ) θ̈ + C(θ, θ̇) θ̇ + F_v θ̇ + F_s sgn(θ̇) + g(θ) = τ,

with one change: the sign function is **smoothed**, sgn(θ̇) ≈ tanh(θ̇ / ε) with the
velocity scale ε (``smoothing``, rad/s or m/s; tanh(x/ε) → sgn(x) as ε → 0). A
discontinuous right-hand side would make the adaptive integrator crawl through every
reversal of a joint, and no joint holds still exactly: below ε the smoothed Coulomb
friction acts like a steep viscous friction f_c/ε, so an arm on a slope creeps slowly
instead of sticking (stiction is not modelled).

A :class:`JointFriction` is a field of :class:`robolab.ScrewRobot` (``friction=``,
default None: no friction, the rigid-body model of the book). The forward dynamics
(``forward_dynamics_crba``, ``_aba``, ``_rnea``) and the simulations
(:func:`robolab.simulate`, ``forward_dynamics_trajectory``, ``runge_kutta4_step``) of such a
robot subtract τ_f from the applied torques: M θ̈ = τ - τ_f(θ̇) - c - g
(``simulate_control`` does not model friction yet). Friction dissipates energy: the power it takes,
θ̇ᵀ τ_f = Σ b_i θ̇_i² + f_c,i θ̇_i tanh(θ̇_i/ε), is never negative. Inverse dynamics
(:func:`robolab.inverse_dynamics_rnea`) stays the rigid-body model. A model file may
carry it in an optional ``friction`` object (``robots/README.md``; ``save_robot`` writes
it, ``load_robot`` reads it back), but the bundled arms have none: they are published
rigid-body data without identified friction. Add it with
``robot.replace(friction=JointFriction(...))``.

Examples
--------
>>> import numpy as np
>>> friction = JointFriction(viscous=0.5, coulomb=[2.0, 1.0], smoothing=0.01)
>>> friction.torques([1.0, -1.0])  # 0.5·θ̇ + f_c·tanh(θ̇/0.01)
array([ 2.5, -1.5])
>>> friction.torques([0.0, 0.0])
array([0., 0.])
>>> JointFriction(viscous=-1.0)
Traceback (most recent call last):
...
ValueError: friction viscous coefficients b must be ≥ 0 (friction takes energy, never gives it),
got -1
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..conventions import DEFAULT_FRICTION_SMOOTHING
from ..support.arguments import as_float_array

__all__ = ["DEFAULT_FRICTION_SMOOTHING", "JointFriction", "as_joint_friction"]

#: The accepted smoothing ε (rad/s or m/s). Below 10⁻⁶ the smoothed Coulomb friction is a
#: viscous friction f_c/ε so steep that the motion is absurdly stiff (the adaptive
#: integrator would crawl in steps of about ε); above 10³ it is no Coulomb friction at all.
SMOOTHING_RANGE = (1e-6, 1e3)
#: The largest accepted coefficient b (N·m·s/rad) and level f_c (N·m): larger ones are typos
#: or other units (the strongest robot joints give 10⁴ to 10⁵ N·m in all).
MAX_FRICTION_COEFFICIENT = 1e6


def _coefficients(value: Any, name: str, symbol: str) -> np.ndarray:
    array = as_float_array(value, f"friction {name}")
    if array.ndim > 1:
        raise ValueError(
            f"friction {name} coefficients must be one number or one per joint, "
            f"got shape {array.shape}"
        )
    if (array < 0).any():
        bad = float(array[array < 0].flat[0])
        raise ValueError(
            f"friction {name} coefficients {symbol} must be ≥ 0 (friction takes energy, "
            f"never gives it), got {bad:g}"
        )
    if (array > MAX_FRICTION_COEFFICIENT).any():
        bad = float(array[array > MAX_FRICTION_COEFFICIENT].flat[0])
        raise ValueError(
            f"friction {name} coefficients {symbol} must be at most "
            f"{MAX_FRICTION_COEFFICIENT:g} (in SI units), got {bad:g}"
        )
    array.setflags(write=False)
    return array


class JointFriction:
    """Viscous and smoothed Coulomb friction of the joints: τ_f = b θ̇ + f_c tanh(θ̇/ε).

    Parameters
    ----------
    viscous : float or array_like, shape (n,)
        b ≥ 0, N·m·s/rad (N·s/m for a prismatic joint): one for all joints or one each.
    coulomb : float or array_like, shape (n,)
        f_c ≥ 0, N·m (N): one for all joints or one each.
    smoothing : float
        ε > 0 in rad/s (m/s), the velocity scale of tanh(θ̇/ε) that replaces sgn(θ̇).

    Attributes
    ----------
    viscous, coulomb : ndarray, shape () or (n,)
        Read-only.
    smoothing : float

    Examples
    --------
    >>> JointFriction(viscous=0.2)
    JointFriction(viscous=0.2, coulomb=0, smoothing=0.01)
    >>> JointFriction(coulomb=1.0).torques([0.01]).round(4)  # tanh(1) of the level
    array([0.7616])
    """

    __slots__ = ("coulomb", "smoothing", "viscous")
    viscous: np.ndarray
    coulomb: np.ndarray
    smoothing: float

    def __init__(
        self,
        viscous: ArrayLike = 0.0,
        coulomb: ArrayLike = 0.0,
        smoothing: float = DEFAULT_FRICTION_SMOOTHING,
    ) -> None:
        epsilon = float(as_float_array(smoothing, "friction smoothing", ()))
        if epsilon <= 0.0:
            raise ValueError(
                f"friction smoothing ε must be positive (the velocity scale of tanh(θ̇/ε)), "
                f"got {epsilon:g}"
            )
        low, high = SMOOTHING_RANGE
        if not low <= epsilon <= high:
            raise ValueError(
                f"friction smoothing ε must lie in [{low:g}, {high:g}] rad/s (m/s), got "
                f"{epsilon:g}: "
                + (
                    "below it the smoothed Coulomb friction is so steep a viscous friction "
                    "f_c/ε that the motion is absurdly stiff"
                    if epsilon < low
                    else "above it tanh(θ̇/ε) is no Coulomb friction at any joint speed"
                )
            )
        b = _coefficients(viscous, "viscous", "b")
        f_c = _coefficients(coulomb, "Coulomb", "f_c")
        if b.ndim == f_c.ndim == 1 and b.size != f_c.size:
            raise ValueError(
                f"friction viscous and Coulomb coefficients must be as many (one per joint), "
                f"got {b.size} and {f_c.size}"
            )
        object.__setattr__(self, "viscous", b)
        object.__setattr__(self, "coulomb", f_c)
        object.__setattr__(self, "smoothing", epsilon)

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("JointFriction is immutable; make a new one")

    def torques(self, joint_velocities: ArrayLike) -> np.ndarray:
        """τ_f(θ̇) = b θ̇ + f_c tanh(θ̇/ε) for joint velocities of shape (n,) or (..., n).

        The velocities are real numbers (finite); with one coefficient per joint their last
        axis has one entry per joint.

        Examples
        --------
        >>> JointFriction(viscous=[1.0, 2.0]).torques([[1.0, 1.0], [0.5, -0.5]])
        array([[ 1. ,  2. ],
               [ 0.5, -1. ]])
        >>> JointFriction(viscous=[1.0, 2.0]).torques([1.0, 2.0, 3.0])
        Traceback (most recent call last):
        ...
        ValueError: joint_velocities must have shape (2,) or (..., 2): one per joint of the
        friction coefficients, got shape (3,)
        """
        qd = as_float_array(joint_velocities, "joint_velocities")
        joints = max(array.size if array.ndim else 0 for array in (self.viscous, self.coulomb))
        if joints and (qd.ndim == 0 or qd.shape[-1] != joints):
            raise ValueError(
                f"joint_velocities must have shape ({joints},) or (..., {joints}): one per "
                f"joint of the friction coefficients, got shape {qd.shape}"
            )
        with np.errstate(over="ignore", invalid="ignore"):
            torques = self.viscous * qd + self.coulomb * np.tanh(qd / self.smoothing)
        if not np.isfinite(torques).all():
            index = tuple(int(i) for i in np.argwhere(~np.isfinite(torques))[0])
            raise ValueError(
                f"the friction torque overflows at joint_velocities{list(index)} = "
                f"{float(qd[index]):g}: expected joint speeds whose b θ̇ is a float"
            )
        return torques

    def is_zero(self) -> bool:
        """True if every coefficient is zero (the friction does nothing).

        Examples
        --------
        >>> JointFriction().is_zero(), JointFriction(coulomb=0.1).is_zero()
        (True, False)
        """
        return not (self.viscous.any() or self.coulomb.any())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, JointFriction):
            return NotImplemented
        return (
            np.array_equal(self.viscous, other.viscous)
            and np.array_equal(self.coulomb, other.coulomb)
            and self.smoothing == other.smoothing
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        def text(array: np.ndarray) -> str:
            if array.ndim == 0:
                return f"{float(array):g}"
            return "[" + ", ".join(f"{x:g}" for x in array) + "]"

        return (
            f"JointFriction(viscous={text(self.viscous)}, coulomb={text(self.coulomb)}, "
            f"smoothing={self.smoothing:g})"
        )


def as_joint_friction(value: object, n: int, joint_names: tuple[str, ...]) -> JointFriction | None:
    """The ``friction`` field of a robot with n joints: a :class:`JointFriction` or None.

    Accepts None (no friction), a :class:`JointFriction` whose coefficients are one
    number or n numbers, or a dict of its parameters (``{"viscous": 0.5}``).

    Examples
    --------
    >>> as_joint_friction({"viscous": 0.5}, 2, ("a", "b"))
    JointFriction(viscous=0.5, coulomb=0, smoothing=0.01)
    >>> as_joint_friction(JointFriction(coulomb=[1.0, 2.0, 3.0]), 2, ("a", "b"))
    Traceback (most recent call last):
    ...
    ValueError: friction Coulomb coefficients must be one number or one per joint (2: 'a', 'b'),
    got 3
    """
    if value is None:
        return None
    if isinstance(value, Mapping):
        value = JointFriction(**value)
    if not isinstance(value, JointFriction):
        raise TypeError(
            "friction must be a robolab.JointFriction (or a dict of its parameters, or None), "
            f"got {type(value).__name__}"
        )
    for name, array in (("viscous", value.viscous), ("Coulomb", value.coulomb)):
        if array.ndim == 1 and array.shape[0] != n:
            names = ", ".join(repr(joint) for joint in joint_names)
            raise ValueError(
                f"friction {name} coefficients must be one number or one per joint "
                f"({n}: {names}), got {array.shape[0]}"
            )
    return value
