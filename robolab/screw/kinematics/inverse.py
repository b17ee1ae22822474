"""Numerical inverse kinematics (Modern Robotics §6.2): Newton–Raphson, damped least squares.

Given a target end-effector pose T_sd, find joint positions θ with
T_sb(θ) = T_sd. From a guess θ⁰ the book iterates (the algorithm of MR §6.2.2):

1. the error twist that would carry the end-effector to the target in one
   unit of time, V_b = log(T_sb(θⁱ)⁻¹ T_sd) (body form) or
   V_s = [Ad_{T_sb}] V_b (space form);
2. stop if ‖ω‖ ≤ ε_ω and ‖v‖ ≤ ε_v;
3. θⁱ⁺¹ = θⁱ + J†(θⁱ) V with J† the pseudoinverse of J_b (or J_s).

The answer is ``(joint_positions, success)`` as in the book's library, and
``success`` is honest: it is true only if the pose reached by the returned
joint positions is within the tolerances. An unreachable target, or a guess
from which the iteration does not converge within ``max_iterations``, gives
``success == False`` (and the last iterate). The result also carries the
number of iterations, the remaining errors and the history of the iteration
(every iterate θⁱ and its error ‖ω‖, ‖v‖).

``method="damped_least_squares"`` replaces step 3 by the damped least-squares
(Levenberg–Marquardt) step θⁱ⁺¹ = θⁱ + Jᵀ(J Jᵀ + λ² 1)⁻¹ V (Wampler 1986; Nakamura &
Hanafusa 1986; Siciliano et al., *Robotics: Modelling, Planning and Control*, ch. 3,
the damped least-squares inverse; Corke's Robotics Toolbox ``ikine_LM``): near a
singularity J† has huge
entries and the Newton step flies off, while the damped step stays bounded, ‖Δθ‖ ≤
‖V‖ / (2λ), at the price of more, shorter steps.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...spatial.rigid_body_motions import (
    adjoint_representation_unchecked,
    log6_vector_unchecked,
    transform_inv_unchecked,
)
from ...support.arguments import as_float_array, as_transform, require_choice
from ..book_form import BookArrays, robot_or_arrays
from ..robot import ScrewRobot
from .forward import (
    ScrewChain,
    body_chain_of,
    forward_kinematics_body_kernel,
    forward_kinematics_kernel,
    home_pose,
    joint_array,
    space_chain,
)
from .jacobian import jacobian_body_kernel, jacobian_space_kernel

__all__ = [
    "InverseKinematicsResult",
    "inverse_kinematics_body",
    "inverse_kinematics_space",
]

#: The book's iteration limit (Newton–Raphson).
DEFAULT_MAX_ITERATIONS = 20
#: Damped least squares takes shorter steps: its default limit.
DEFAULT_DLS_MAX_ITERATIONS = 200
#: λ of the damped least-squares step (units of the error twist: rad and m).
DEFAULT_DAMPING = 0.05
#: The update rules.
METHODS = ("newton", "damped_least_squares")
#: Newton–Raphson tolerances when a robot is given without them (rad and m).
DEFAULT_ANGULAR_TOLERANCE = 1e-6
DEFAULT_LINEAR_TOLERANCE = 1e-6
#: The budget of an iteration: at most this many updates (``max_iterations``; also the
#: ``max_steps`` of resolved-rate motion). An update takes some 50 µs: 5 s at most.
MAX_ITERATIONS = 100_000
#: The smallest tolerance accepted (rad, m): the rounding of the forward kinematics is about
#: 10⁻¹⁶ of the arm's size, so a smaller one could never be met.
SMALLEST_TOLERANCE = 1e-15
#: The accepted damping λ of a damped least-squares step (rad and m): below 10⁻⁶, λ² is lost
#: in the rounding of J Jᵀ (no damping, and a singular system at a singularity); above 10⁶
#: the step is nothing.
DAMPING_RANGE = (1e-6, 1e6)


@dataclass(frozen=True)
class InverseKinematicsResult:
    """The answer of a numerical inverse kinematics (Newton–Raphson or damped least squares).

    Unpacks like the book's ``(joint_positions, success)``::

        joint_positions, success = inverse_kinematics_body(...)

    and keeps the details as attributes.

    Attributes
    ----------
    joint_positions : ndarray, shape (n,)
        The last iterate (the solution if ``success``).
    success : bool
        True if the pose at ``joint_positions`` is within both tolerances.
    iterations : int
        Newton–Raphson updates made.
    angular_error, linear_error : float
        ‖ω‖ and ‖v‖ of the remaining error twist (in the body frame for
        ``inverse_kinematics_body``, in the space frame for ``_space``).
    method : str
        ``"newton"`` or ``"damped_least_squares"``.
    joint_history : ndarray, shape (iterations + 1, n)
        θ⁰ (the initial guess), θ¹, ..., the last row being ``joint_positions``.
    error_history : ndarray, shape (iterations + 1, 2)
        ‖ω‖ and ‖v‖ of the error twist at each row of ``joint_history``.
    """

    joint_positions: np.ndarray
    success: bool
    iterations: int
    angular_error: float
    linear_error: float
    method: str = "newton"
    joint_history: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    error_history: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))

    def __iter__(self) -> Iterator[Any]:
        return iter((self.joint_positions, self.success))

    def __len__(self) -> int:
        return 2

    def __getitem__(self, index: int) -> Any:
        return (self.joint_positions, self.success)[index]


def checked_tolerance(value: Any, name: str, largest: float | None = None) -> float:
    """A tolerance (rad or m) from :data:`SMALLEST_TOLERANCE` up to ``largest``, as a float.

    Examples
    --------
    >>> checked_tolerance(1e-300, "angular_tolerance")
    Traceback (most recent call last):
    ...
    ValueError: angular_tolerance must be at least 1e-15 (the rounding of the forward kinematics:
    a smaller tolerance can never be met), got 1e-300
    """
    tolerance = float(as_float_array(value, name, ()))
    if tolerance <= 0.0:
        raise ValueError(f"{name} must be positive, got {tolerance:g}")
    if tolerance < SMALLEST_TOLERANCE:
        raise ValueError(
            f"{name} must be at least {SMALLEST_TOLERANCE:g} (the rounding of the forward "
            f"kinematics: a smaller tolerance can never be met), got {tolerance:g}"
        )
    if largest is not None and tolerance > largest:
        raise ValueError(
            f"{name} must be at most {largest:.6g} (a larger one accepts every "
            f"orientation), got {tolerance:g}"
        )
    return tolerance


def checked_damping(value: Any, name: str = "damping", *, zero: bool = False) -> float:
    """λ of a damped least-squares step in :data:`DAMPING_RANGE` (or 0 with ``zero=True``).

    Examples
    --------
    >>> checked_damping(0.05)
    0.05
    >>> checked_damping(1e-300)
    Traceback (most recent call last):
    ...
    ValueError: damping must lie in [1e-06, 1e+06] (rad and m), got 1e-300: below it λ² is lost
    in the rounding of J Jᵀ, above it the step is nothing
    """
    damping = float(as_float_array(value, name, ()))
    low, high = DAMPING_RANGE
    if zero and damping == 0.0:
        return damping
    if damping <= 0.0:
        raise ValueError(f"{name} must be {'zero or ' if zero else ''}positive, got {damping:g}")
    if not low <= damping <= high:
        either = "be 0 (none) or lie" if zero else "lie"
        raise ValueError(
            f"{name} must {either} in [{low:g}, {high:g}] (rad and m), got {damping:g}: below "
            "it λ² is lost in the rounding of J Jᵀ, above it the step is nothing"
        )
    return damping


def checked_iterations(value: Any, name: str, smallest: int = 0) -> int:
    """An iteration limit: an int from ``smallest`` to :data:`MAX_ITERATIONS` (the budget).

    Examples
    --------
    >>> checked_iterations(10**9, "max_iterations")
    Traceback (most recent call last):
    ...
    ValueError: max_iterations must be at most 100,000 (the iteration budget), got 1,000,000,000
    """
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(f"{name} must be an int ≥ {smallest}, got {value!r}")
    if value < smallest:
        raise ValueError(f"{name} must be ≥ {smallest}, got {value}")
    if value > MAX_ITERATIONS:
        raise ValueError(
            f"{name} must be at most {MAX_ITERATIONS:,} (the iteration budget), got {value:,}"
        )
    return int(value)


def _iterations(max_iterations: Any, method: str) -> int:
    if max_iterations is None:
        return DEFAULT_MAX_ITERATIONS if method == "newton" else DEFAULT_DLS_MAX_ITERATIONS
    return checked_iterations(max_iterations, "max_iterations")


def _error_twist_body(
    body_chain: ScrewChain, home: np.ndarray, target: np.ndarray, theta: np.ndarray
) -> np.ndarray:
    """V_b = log(T_sb(θ)⁻¹ T_sd), with ``body_chain`` built from the body screw axes B_i."""
    return log6_vector_unchecked(
        transform_inv_unchecked(forward_kinematics_body_kernel(body_chain, home, theta)) @ target
    )


def _error_twist_space(
    chain: ScrewChain, home: np.ndarray, target: np.ndarray, theta: np.ndarray
) -> np.ndarray:
    """V_s = [Ad_{T_sb}] log(T_sb(θ)⁻¹ T_sd), with ``chain`` built from the space screw axes S_i."""
    T_sb = forward_kinematics_kernel(chain, home, theta)
    return adjoint_representation_unchecked(T_sb) @ log6_vector_unchecked(
        transform_inv_unchecked(T_sb) @ target
    )


#: The error twist and the Jacobian of each form (body: V_b and J_b; space: V_s and J_s).
_FORMS = {
    "body": (_error_twist_body, jacobian_body_kernel),
    "space": (_error_twist_space, jacobian_space_kernel),
}


def _inverse_kinematics(
    form: str,
    chain: ScrewChain,
    home: np.ndarray,
    target_pose: Any,
    initial_guess: Any,
    angular_tolerance: Any,
    linear_tolerance: Any,
    max_iterations: Any,
    method: Any,
    damping: Any,
) -> InverseKinematicsResult:
    """Newton–Raphson or damped least squares in the ``"body"`` or ``"space"`` form.

    ``chain`` holds the B_i or the S_i. Checks the arguments the user gave (all but
    the screw axes and home pose).
    """
    target = as_transform(target_pose, "target_pose")
    theta = joint_array(initial_guess, chain.n, "initial_guess", batch=False).astype(float)
    angular_tolerance = checked_tolerance(angular_tolerance, "angular_tolerance", np.pi)
    linear_tolerance = checked_tolerance(linear_tolerance, "linear_tolerance")
    require_choice(method, "method", METHODS)
    max_iterations = _iterations(max_iterations, method)
    damping = checked_damping(damping)
    error_twist, jacobian = _FORMS[form]
    twist = error_twist(chain, home, target, theta)
    iterations = 0
    thetas, errors = [theta], []
    while True:
        angular, linear = float(np.linalg.norm(twist[:3])), float(np.linalg.norm(twist[3:]))
        errors.append((angular, linear))
        converged = angular <= angular_tolerance and linear <= linear_tolerance
        if converged or iterations >= max_iterations:
            break
        J = jacobian(chain, theta)
        if method == "newton":
            step = np.linalg.pinv(J) @ twist
        else:
            step = J.T @ np.linalg.solve(J @ J.T + damping**2 * np.eye(6), twist)
        theta = theta + step
        if not np.all(np.isfinite(theta)):  # pragma: no cover - pinv of finite J is finite
            raise ValueError("the inverse-kinematics iteration produced non-finite joint positions")
        thetas.append(theta)
        twist = error_twist(chain, home, target, theta)
        iterations += 1
    joint_history, error_history = np.array(thetas), np.array(errors)
    joint_history.setflags(write=False)
    error_history.setflags(write=False)
    return InverseKinematicsResult(
        theta, converged, iterations, angular, linear, method, joint_history, error_history
    )


def _inverse_kinematics_body_book(
    body_screw_axes,
    home_ee_pose,
    target_pose,
    initial_guess,
    angular_tolerance,
    linear_tolerance,
    *,
    max_iterations: int | None = None,
    method: str = "newton",
    damping: float = 0.05,
):
    """:func:`inverse_kinematics_body` with the book's arguments, in the book's order."""
    return inverse_kinematics_body(
        BookArrays(body_screw_axes=body_screw_axes, home_ee_pose=home_ee_pose),
        target_pose=target_pose,
        initial_guess=initial_guess,
        angular_tolerance=angular_tolerance,
        linear_tolerance=linear_tolerance,
        max_iterations=max_iterations,
        method=method,
        damping=damping,
    )


@robot_or_arrays(_inverse_kinematics_body_book)
def inverse_kinematics_body(
    robot: ScrewRobot | BookArrays,
    target_pose: Any,
    initial_guess: Any,
    angular_tolerance: float = DEFAULT_ANGULAR_TOLERANCE,
    linear_tolerance: float = DEFAULT_LINEAR_TOLERANCE,
    *,
    max_iterations: int | None = None,
    method: str = "newton",
    damping: float = DEFAULT_DAMPING,
) -> InverseKinematicsResult:
    """Joint positions reaching ``target_pose``, Newton–Raphson with J_b (book: ``IKinBody``).

    Call it with a robot, or with the book's arguments::

        inverse_kinematics_body(robot, target_pose, initial_guess)
        inverse_kinematics_body(body_screw_axes, home_ee_pose, target_pose,
                                initial_guess, angular_tolerance, linear_tolerance)

    Parameters
    ----------
    robot : ScrewRobot
        Gives the B_i and M; in the book's form pass them instead:
    body_screw_axes : array_like, shape (6, n)
        Screw axes B_i in the end-effector frame at home.
    home_ee_pose : array_like, shape (4, 4)
        M, the end-effector pose at θ = 0.
    target_pose : array_like, shape (4, 4)
        T_sd, the wanted end-effector pose.
    initial_guess : array_like, shape (n,)
        θ⁰; Newton–Raphson finds the solution near it (if any).
    angular_tolerance, linear_tolerance : float
        ε_ω (rad) and ε_v (m) on the error twist V_b; with a robot, 1e-6 unless
        given (the book's form has no defaults). At least 10⁻¹⁵, and ε_ω at most π.
    max_iterations : int, optional
        At most this many updates: by default 20 for Newton–Raphson (the book's
        limit), 200 for damped least squares; at most :data:`MAX_ITERATIONS` (10⁵).
    method : {"newton", "damped_least_squares"}
        The update: the book's Newton–Raphson step J†V, or the damped
        least-squares (Levenberg–Marquardt) step Jᵀ(J Jᵀ + λ² 1)⁻¹ V.
    damping : float
        λ of the damped step (default 0.05), in :data:`DAMPING_RANGE` ([10⁻⁶, 10⁶]);
        ignored by Newton–Raphson.

    Returns
    -------
    InverseKinematicsResult
        Unpacks as ``(joint_positions, success)``; ``success`` is true only if
        the returned joint positions reach ``target_pose`` within the tolerances.

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import forward_kinematics_space, inverse_kinematics_body
    >>> target = forward_kinematics_space(arm, [0.5, 1.0])
    >>> theta, success = inverse_kinematics_body(arm, target, [0.3, 0.8])
    >>> theta.round(9), success
    (array([0.5, 1. ]), True)
    >>> too_far = x @ x @ x                     # 3 m away: out of reach
    >>> inverse_kinematics_body(arm, too_far, [0.3, 0.8]).success
    False

    The history of the iteration, and the damped least-squares step:

    >>> result = inverse_kinematics_body(arm, target, [0.3, 0.8])
    >>> [f"{v:.1e}" for v in result.error_history[:3, 1]]  # ‖v‖ at θ⁰, θ¹, θ²
    ['5.5e-01', '8.1e-03', '2.2e-05']
    >>> result.joint_history.shape, bool(result.error_history[3, 1] < 1e-9)  # θ³: converged
    ((4, 2), True)
    >>> damped = inverse_kinematics_body(arm, target, [0.3, 0.8], method="damped_least_squares")
    >>> damped.success, damped.iterations, damped.joint_positions.round(4)
    (True, 3, array([0.5, 1. ]))

    The book's example of ``IKinBody``, with its arrays:

    >>> B = np.array([[0, 0, -1, 2, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, 1, 0, 0, 0.1]]).T
    >>> M = [[-1, 0, 0, 0], [0, 1, 0, 6], [0, 0, -1, 2], [0, 0, 0, 1]]
    >>> T = [[0, 1, 0, -5], [1, 0, 0, 4], [0, 0, -1, 1.6858], [0, 0, 0, 1]]
    >>> theta, success = inverse_kinematics_body(B, M, T, [1.5, 2.5, 3], 0.01, 0.001)
    >>> theta, success
    (array([1.57073819, 2.999667  , 3.14153913]), True)
    """
    chain, home = body_chain_of(robot), home_pose(robot)
    options = (angular_tolerance, linear_tolerance, max_iterations, method, damping)
    return _inverse_kinematics("body", chain, home, target_pose, initial_guess, *options)


def _inverse_kinematics_space_book(
    screw_axes,
    home_ee_pose,
    target_pose,
    initial_guess,
    angular_tolerance,
    linear_tolerance,
    *,
    max_iterations: int | None = None,
    method: str = "newton",
    damping: float = 0.05,
):
    """:func:`inverse_kinematics_space` with the book's arguments, in the book's order."""
    return inverse_kinematics_space(
        BookArrays(screw_axes=screw_axes, home_ee_pose=home_ee_pose),
        target_pose=target_pose,
        initial_guess=initial_guess,
        angular_tolerance=angular_tolerance,
        linear_tolerance=linear_tolerance,
        max_iterations=max_iterations,
        method=method,
        damping=damping,
    )


@robot_or_arrays(_inverse_kinematics_space_book)
def inverse_kinematics_space(
    robot: ScrewRobot | BookArrays,
    target_pose: Any,
    initial_guess: Any,
    angular_tolerance: float = DEFAULT_ANGULAR_TOLERANCE,
    linear_tolerance: float = DEFAULT_LINEAR_TOLERANCE,
    *,
    max_iterations: int | None = None,
    method: str = "newton",
    damping: float = DEFAULT_DAMPING,
) -> InverseKinematicsResult:
    """Joint positions reaching ``target_pose``, Newton–Raphson with J_s (book: ``IKinSpace``).

    The error twist is V_s = [Ad_{T_sb}] log(T_sb⁻¹ T_sd), the update
    θ += J_s†(θ) V_s. Parameters and returns as in
    :func:`inverse_kinematics_body`, with ``screw_axes`` S_i in the space frame.

    Call it with a robot, or with the book's arguments::

        inverse_kinematics_space(robot, target_pose, initial_guess)
        inverse_kinematics_space(screw_axes, home_ee_pose, target_pose, initial_guess,
                                 angular_tolerance, linear_tolerance)

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import forward_kinematics_space, inverse_kinematics_space
    >>> result = inverse_kinematics_space(arm, forward_kinematics_space(arm, [0.5, 1.0]),
    ...                                   [0.3, 0.8])
    >>> result.joint_positions.round(9), result.success, result.linear_error < 1e-6
    (array([0.5, 1. ]), True, True)

    The book's example of ``IKinSpace``, with its arrays:

    >>> S = np.array([[0, 0, 1, 4, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, -1, -6, 0, -0.1]]).T
    >>> M = [[-1, 0, 0, 0], [0, 1, 0, 6], [0, 0, -1, 2], [0, 0, 0, 1]]
    >>> T = [[0, 1, 0, -5], [1, 0, 0, 4], [0, 0, -1, 1.6858], [0, 0, 0, 1]]
    >>> result = inverse_kinematics_space(S, M, T, [1.5, 2.5, 3], 0.01, 0.001)
    >>> result.joint_positions, result.success, result.iterations
    (array([1.57073783, 2.99966384, 3.1415342 ]), True, 2)
    """
    chain, home = space_chain(robot), home_pose(robot)
    options = (angular_tolerance, linear_tolerance, max_iterations, method, damping)
    return _inverse_kinematics("space", chain, home, target_pose, initial_guess, *options)
