"""Forward kinematics (Modern Robotics, chapter 4): the product of exponentials.

The end-effector pose of an open chain at joint positions θ is, with the
screw axes S_i in the space frame or B_i in the end-effector (body) frame,

    T_sb(θ) = e^{[S_1]θ_1} e^{[S_2]θ_2} ⋯ e^{[S_n]θ_n} M     (space form, eq. 4.14)
            = M e^{[B_1]θ_1} e^{[B_2]θ_2} ⋯ e^{[B_n]θ_n}     (body form, eq. 4.16)

where M = T_sb(0) is the home pose. The functions here take the arrays of the
book's library (home pose, screw axes as the columns of a 6×n matrix, joint
positions) and accept a batch of configurations: ``joint_positions`` of shape
(..., n) gives poses of shape (..., 4, 4). Each function also takes a
:class:`~robolab.ScrewRobot` in place of its arrays,
``forward_kinematics_space(robot, q)`` beside the book's
``forward_kinematics_space(M, S, q)`` (see :mod:`robolab.screw.book_form`).

How it is fast
--------------
For a unit screw axis S = [ω; v] the exponential is a fixed linear
combination of 1, sin θ and cos θ (and θ for a prismatic or pitched joint):
with W = [ω],

    R(θ) = (I + W²) + sin θ W - cos θ W²,
    p(θ) = Wv - sin θ W²v - cos θ Wv + θ (v + W²v).

The 6×6 adjoint [Ad_{e^{[S]θ}}] = [[R, 0], [[p]R, R]] is then a fixed
combination of 1, sin θ, cos θ, sin 2θ, cos 2θ (and θ, θ sin θ, θ cos θ).
:class:`ScrewChain` precomputes these coefficient matrices once per set of
screw axes: one ``np.sin`` and one matrix product give every joint's
exponential or adjoint at once, for any number of configurations. The running
product along the chain is the only loop over the joints (for one
configuration it is done by doubling, in ⌈log₂ n⌉ NumPy calls).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ...spatial.rigid_body_motions import vec_to_so3_unchecked
from ...support.arguments import (
    as_float_array,
    as_transform,
    require_finite,
    with_short_tracebacks,
)
from ..book_form import BookArrays, robot_or_arrays
from ..robot import ScrewRobot, check_link_frames

__all__ = [
    "forward_kinematics_body",
    "forward_kinematics_space",
    "link_frames_space",
]

_FLOAT64 = np.dtype(np.float64)

#: Swaps the two 3-vectors of a twist: [ω; v] ↔ [v; ω]. Z Adᵀ Z = Ad⁻¹ for any adjoint.
SWAP = np.array([3, 4, 5, 0, 1, 2])
#: Flat indices that turn [Ad_T] (6×6, flattened) into [Ad_T]⁻¹ = [Ad_{T⁻¹}] = Z [Ad_T]ᵀ Z.
_INVERSE_ADJOINT_INDEX = (SWAP[None, :] * 6 + SWAP[:, None]).ravel()


# --------------------------------------------------------------------------- input checks


@with_short_tracebacks
def joint_array(value: Any, n: int, name: str, *, batch: bool = True) -> np.ndarray:
    """``value`` as a float array of shape (n,) (or (..., n) with ``batch``), all finite.

    Fast for a float64 ndarray of the right shape (the inner loop of a
    simulation); anything else goes through :func:`as_float_array`.
    """
    if type(value) is np.ndarray and value.dtype is _FLOAT64:
        array = value
        if array.shape == (n,):  # one state, already a float array: the fast path
            # x·x is NaN or inf for NaN or ±inf in x (and for |x| > 1e154, which passes below).
            if not math.isfinite(array.dot(array)):
                require_finite(array, name)
            return array
        if not np.isfinite(array).all():
            require_finite(array, name)
    else:
        array = as_float_array(value, name)
    shape = array.shape
    if not shape or shape[-1] != n or (array.ndim > 1 and not batch):
        expected = f"({n},) or (..., {n})" if batch else f"({n},)"
        raise ValueError(f"{name} must have shape {expected} for {n} joints, got shape {shape}")
    return array


@with_short_tracebacks
def joint_arrays(n: int, joint_positions: Any, **others: Any) -> tuple[np.ndarray, ...]:
    """θ and other joint arrays (θ̇, θ̈, τ, ...) checked by :func:`joint_array`, in that order.

    Each has shape (n,) or (..., n); the others (passed by their argument
    names, which the messages use) must have the shape of θ.
    """
    q = joint_array(joint_positions, n, "joint_positions")
    arrays = [q]
    for name, value in others.items():
        array = joint_array(value, n, name)
        if array.shape != q.shape:
            raise ValueError(
                f"{name} must have the shape of joint_positions {q.shape}, got {array.shape}"
            )
        arrays.append(array)
    return tuple(arrays)


def screw_axes_array(screw_axes: Any, name: str = "screw_axes") -> np.ndarray:
    """A finite (6, n) float array of screw axes (one per column), n ≥ 1.

    As in the book's library, any twist is accepted here (the book's
    dynamics examples use an axis with ‖ω‖ = √2); :class:`~robolab.ScrewRobot`
    insists on unit screw axes.
    """
    screws = as_float_array(screw_axes, name, (6, None))
    if screws.shape[1] == 0:
        raise ValueError(f"{name} must have at least one column (one joint), got none")
    return screws


# --------------------------------------------------------------------------- the kernel


class ScrewChain:
    """Constants for e^{[S_i]θ_i} and [Ad_{e^{[S_i]θ_i}}] of n screw axes.

    A screw axis S = [ω; v] with k = ‖ω‖ > 0 turns by φ = kθ about the unit
    axis [ω; v]/k; with ω = 0 it is the translation vθ. The exponential is a
    fixed combination of 1, sin φ, cos φ and θ, and its adjoint, whose block
    [p]R is a product of two such combinations, one of the trigonometric basis

        b = [1, sin φ, cos φ, sin 2φ, cos 2φ, θ, θ sin φ, θ cos φ]

    (s² = (1 - cos 2φ)/2, sc = sin 2φ/2, c² = (1 + cos 2φ)/2). The θ terms
    vanish for unit, pitch-free revolute axes and are then left out. One
    ``np.sin`` call gives the trigonometric part for every joint.

    Layout: joint axis first. For joint positions of shape (..., n) the
    methods return arrays of shape (n, ..., k, k), so that each joint's slice
    is contiguous for the running product along the chain.
    """

    def __init__(self, screw_axes: np.ndarray) -> None:
        screws = np.array(screw_axes, dtype=float)
        n = screws.shape[1]
        omega, v = screws[:3].T, screws[3:].T  # (n, 3)
        rates = np.linalg.norm(omega, axis=1)  # k = ‖ω‖: radians turned per unit of θ
        turning = rates > 0.0
        scale = np.where(turning, rates, 1.0)[:, None]
        omega_hat = omega / scale
        v_hat = np.where(turning[:, None], v / scale, 0.0)
        W = vec_to_so3_unchecked(omega_hat)
        W2 = W @ W
        Wv = np.einsum("nij,nj->ni", W, v_hat)
        W2v = np.einsum("nij,nj->ni", W2, v_hat)
        linear = np.where(turning[:, None], rates[:, None] * (v_hat + W2v), v)
        eye = np.broadcast_to(np.eye(3), (n, 3, 3))
        # e^{[S]θ} = [[R, p], [0, 1]] with R = Σ_a u_a R_a, p = Σ_a u_a p_a, u = (1, s, c, θ).
        rotations = np.stack([eye + W2, W, -W2, np.zeros((n, 3, 3))], axis=1)  # (n, 4, 3, 3)
        positions = np.stack([Wv, -W2v, -Wv, linear], axis=1)  # (n, 4, 3)
        self.n = n
        self.screw_axes = screws
        self.linear_in_theta = bool(np.abs(positions[:, 3]).max() > 0.0)
        size = 8 if self.linear_in_theta else 5
        self.basis_size = size

        # Coefficients on u (linear): the exponential.
        exponential = np.zeros((n, 4, 4, 4))
        exponential[:, :, :3, :3] = rotations
        exponential[:, :, :3, 3] = positions
        exponential[:, 0, 3, 3] = 1.0
        # Coefficients on u_a u_b (quadratic): the adjoint [[R, 0], [[p]R, R]].
        adjoint = np.zeros((n, 4, 4, 6, 6))
        adjoint[:, 0, :, :3, :3] = rotations
        adjoint[:, 0, :, 3:, 3:] = rotations
        adjoint[:, :, :, 3:, :3] = (
            vec_to_so3_unchecked(positions)[:, :, None] @ rotations[:, None, :]
        )
        # Rewrite both on the basis b (u_a u_b = Σ_c C[a, b, c] b_c).
        C = np.zeros((4, 4, 8))
        C[0, 0, 0] = 1.0
        C[0, 1, 1] = C[1, 0, 1] = 1.0
        C[0, 2, 2] = C[2, 0, 2] = 1.0
        C[1, 1, 0], C[1, 1, 4] = 0.5, -0.5  # s²
        C[1, 2, 3] = C[2, 1, 3] = 0.5  # sc
        C[2, 2, 0], C[2, 2, 4] = 0.5, 0.5  # c²
        C[0, 3, 5] = C[3, 0, 5] = 1.0  # θ (the θ² coefficient [p_θ] R_θ is zero)
        C[1, 3, 6] = C[3, 1, 6] = 1.0
        C[2, 3, 7] = C[3, 2, 7] = 1.0
        linear_map = C[0]  # u_b = Σ_c C[0, b, c] b_c since u_0 = 1
        self._exponential = np.einsum("bc,nbk->nck", linear_map, exponential.reshape(n, 4, 16))[
            :, :size
        ].copy()
        self._adjoint = np.einsum("abc,nabk->nck", C, adjoint.reshape(n, 4, 4, 36))[:, :size].copy()
        # The same adjoints with rows and columns in the order [v; ω] (Z [Ad] Z, Z swapping the
        # halves of a twist): for them the inverse is the transpose, [Ad_T]⁻¹ = (Z [Ad_T] Z)ᵀ.
        self.adjoint_swapped = np.ascontiguousarray(
            self._adjoint.reshape(n, size, 6, 6)[:, :, SWAP][:, :, :, SWAP].reshape(n, size, 36)
        )
        # sin(kθ·scale + offset) = [1, sin kθ, cos kθ, sin 2kθ, cos 2kθ]
        self.trig_scale = np.outer(rates, [0.0, 1.0, 1.0, 2.0, 2.0])  # (n, 5)
        self.trig_offset = np.array([math.pi / 2, 0.0, math.pi / 2, 0.0, math.pi / 2])

    def _basis(self, joint_positions: np.ndarray) -> np.ndarray:
        """The basis b of every joint, shape (n, B, size) (B the flattened batch) or (n, size)."""
        theta = joint_positions.T[..., None]  # (n, ..., 1)
        basis = np.sin(
            theta * self.trig_scale.reshape(self.n, *(1,) * (theta.ndim - 2), 5) + self.trig_offset
        )
        if self.linear_in_theta:
            basis = np.concatenate([basis, theta * basis[..., :3]], axis=-1)
        return basis

    def exponentials(self, joint_positions: np.ndarray) -> np.ndarray:
        """e^{[S_i]θ_i} for every joint, shape (n, ..., 4, 4)."""
        batch = joint_positions.shape[:-1]
        basis = self._basis(joint_positions.reshape(-1, self.n))  # (n, B, size)
        return (basis @ self._exponential).reshape((self.n, *batch, 4, 4))

    def adjoint_exponentials(self, joint_positions: np.ndarray) -> np.ndarray:
        """[Ad_{e^{[S_i]θ_i}}] for every joint, shape (n, ..., 6, 6)."""
        batch = joint_positions.shape[:-1]
        basis = self._basis(joint_positions.reshape(-1, self.n))  # (n, B, size)
        return (basis @ self._adjoint).reshape((self.n, *batch, 6, 6))


def running_products(factors: np.ndarray) -> np.ndarray:
    """X_1, X_1 X_2, ..., X_1 ⋯ X_n of factors of shape (n, ..., k, k)."""
    if factors.ndim == 3:
        return running_products_single(factors.copy())
    out = np.empty(factors.shape)
    out[0] = factors[0]
    for j in range(1, len(factors)):
        np.matmul(out[j - 1], factors[j], out=out[j])
    return out


def running_products_single(X: np.ndarray) -> np.ndarray:
    """The running products of X (n, k, k) in place, by doubling (⌈log₂ n⌉ NumPy calls).

    After the step with stride d, X[j] is the product of the factors j-2d+1..j.
    """
    stride = 1
    while stride < len(X):
        X[stride:] = X[:-stride] @ X[stride:]
        stride *= 2
    return X


def inverse_adjoints_of(adjoints: np.ndarray) -> np.ndarray:
    """[Ad_T]⁻¹ = [Ad_{T⁻¹}] of adjoints of shape (..., 6, 6), without a matrix inverse."""
    shape = adjoints.shape
    flat = adjoints.reshape(*shape[:-2], 36)
    return flat[..., _INVERSE_ADJOINT_INDEX].reshape(shape)


_CHAIN_CACHE: OrderedDict[tuple[tuple[int, ...], bytes], ScrewChain] = OrderedDict()
_CHAIN_CACHE_SIZE = 32


def _screw_chain(screw_axes: np.ndarray) -> ScrewChain:
    """The (cached) :class:`ScrewChain` of validated screw axes."""
    key = (screw_axes.shape, screw_axes.tobytes())
    chain = _CHAIN_CACHE.get(key)
    if chain is None:
        chain = _CHAIN_CACHE[key] = ScrewChain(screw_axes)
        if len(_CHAIN_CACHE) > _CHAIN_CACHE_SIZE:
            _CHAIN_CACHE.popitem(last=False)
    return chain


def poses_space(chain: ScrewChain, joint_positions: np.ndarray) -> np.ndarray:
    """P_i = e^{[S_1]θ_1} ⋯ e^{[S_i]θ_i} for i = 1..n, shape (n, ..., 4, 4)."""
    return running_products(chain.exponentials(joint_positions))


def _batch_last(array: np.ndarray) -> np.ndarray:
    """(n, ..., k, k) → (..., n, k, k)."""
    return np.moveaxis(array, 0, -3)


# --------------------------------------------------------------------------- robot or arrays


def space_chain(robot: ScrewRobot | BookArrays) -> ScrewChain:
    """The chain of the space screw axes: cached on a robot, checked (and cached) for arrays."""
    if type(robot) is BookArrays:
        return _screw_chain(screw_axes_array(robot.screw_axes))
    chain = robot._cache.get("space_chain")  # the common case, kept cheap
    if chain is None:
        chain = robot._derived("space_chain", lambda: ScrewChain(robot.screw_axes_space))
    return chain


def body_chain_of(robot: ScrewRobot | BookArrays) -> ScrewChain:
    """The chain of the body screw axes B_i, like :func:`space_chain`."""
    if type(robot) is BookArrays:
        return _screw_chain(screw_axes_array(robot.body_screw_axes, "body_screw_axes"))
    chain = robot._cache.get("body_chain")
    if chain is None:
        chain = robot._derived("body_chain", lambda: ScrewChain(robot.screw_axes_body))
    return chain


def home_pose(robot: ScrewRobot | BookArrays) -> np.ndarray:
    """M, the end-effector pose at home (checked if given as an array)."""
    if type(robot) is BookArrays:
        return as_transform(robot.home_ee_pose, "home_ee_pose")
    return robot.home_ee_pose


def _home_link_poses_of(robot: ScrewRobot | BookArrays, n: int) -> np.ndarray:
    """M_{0i} for i = 1..n+1 of a robot (cached) or of the book's ``link_frames`` (checked)."""
    if type(robot) is BookArrays:
        return home_link_poses(check_link_frames(robot.link_frames, n))
    return robot._derived("home_link_poses", lambda: home_link_poses(robot.link_frames))


# --------------------------------------------------------------------------- the book's functions


def _forward_kinematics_space_book(home_ee_pose, screw_axes, joint_positions):
    """:func:`forward_kinematics_space` with the book's arguments, in the book's order."""
    return forward_kinematics_space(
        BookArrays(home_ee_pose=home_ee_pose, screw_axes=screw_axes),
        joint_positions=joint_positions,
    )


@robot_or_arrays(_forward_kinematics_space_book)
def forward_kinematics_space(
    robot: ScrewRobot | BookArrays, joint_positions: ArrayLike
) -> np.ndarray:
    """End-effector pose T_sb(θ) = e^{[S_1]θ_1} ⋯ e^{[S_n]θ_n} M from space screw axes.

    The book's ``FKinSpace`` (eq. 4.14).

    Call it with a robot, or with the book's arguments::

        forward_kinematics_space(robot, joint_positions)
        forward_kinematics_space(home_ee_pose, screw_axes, joint_positions)

    Parameters
    ----------
    robot : ScrewRobot
        Gives M and the S_i; in the book's form pass them instead:
    home_ee_pose : array_like, shape (4, 4)
        M, the end-effector pose at θ = 0.
    screw_axes : array_like, shape (6, n)
        Screw axes S_i = [ω; v] in the space frame at home, as columns.
    joint_positions : array_like, shape (n,) or (..., n)
        θ; a batch of configurations gives a batch of poses.

    Returns
    -------
    T_sb : ndarray, shape (4, 4) or (..., 4, 4)

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import forward_kinematics_space
    >>> forward_kinematics_space(arm, [np.pi / 2, -np.pi / 2])[:3, 3].round(12) + 0.0
    array([1., 1., 0.])

    The book's example of its ``FKinSpace``, with its arrays:

    >>> M = [[-1, 0, 0, 0], [0, 1, 0, 6], [0, 0, -1, 2], [0, 0, 0, 1]]
    >>> S = np.array([[0, 0, 1, 4, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, -1, -6, 0, -0.1]]).T
    >>> forward_kinematics_space(M, S, [np.pi / 2, 3, np.pi]).round(5) + 0.0
    array([[ 0.     ,  1.     ,  0.     , -5.     ],
           [ 1.     ,  0.     ,  0.     ,  4.     ],
           [ 0.     ,  0.     , -1.     ,  1.68584],
           [ 0.     ,  0.     ,  0.     ,  1.     ]])
    """
    home = home_pose(robot)
    chain = space_chain(robot)
    return forward_kinematics_kernel(
        chain, home, joint_array(joint_positions, chain.n, "joint_positions")
    )


def forward_kinematics_kernel(chain: ScrewChain, M: np.ndarray, q: np.ndarray) -> np.ndarray:
    E = chain.exponentials(q)
    P = E[0]
    for j in range(1, chain.n):
        P = P @ E[j]
    return P @ M


def _forward_kinematics_body_book(home_ee_pose, body_screw_axes, joint_positions):
    """:func:`forward_kinematics_body` with the book's arguments, in the book's order."""
    return forward_kinematics_body(
        BookArrays(home_ee_pose=home_ee_pose, body_screw_axes=body_screw_axes),
        joint_positions=joint_positions,
    )


@robot_or_arrays(_forward_kinematics_body_book)
def forward_kinematics_body(
    robot: ScrewRobot | BookArrays, joint_positions: ArrayLike
) -> np.ndarray:
    """End-effector pose T_sb(θ) = M e^{[B_1]θ_1} ⋯ e^{[B_n]θ_n} from body screw axes.

    The book's ``FKinBody`` (eq. 4.16). Same result as
    :func:`forward_kinematics_space` with S_i = [Ad_M] B_i.

    Call it with a robot, or with the book's arguments::

        forward_kinematics_body(robot, joint_positions)
        forward_kinematics_body(home_ee_pose, body_screw_axes, joint_positions)

    Parameters
    ----------
    robot : ScrewRobot
        Gives M and the B_i; in the book's form pass them instead:
    home_ee_pose : array_like, shape (4, 4)
        M, the end-effector pose at θ = 0.
    body_screw_axes : array_like, shape (6, n)
        Screw axes B_i = [ω; v] in the end-effector frame at home.
    joint_positions : array_like, shape (n,) or (..., n)

    Returns
    -------
    T_sb : ndarray, shape (4, 4) or (..., 4, 4)

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import forward_kinematics_body
    >>> forward_kinematics_body(arm, [np.pi / 2, -np.pi / 2])[:3, 3].round(12) + 0.0
    array([1., 1., 0.])
    >>> M = [[-1, 0, 0, 0], [0, 1, 0, 6], [0, 0, -1, 2], [0, 0, 0, 1]]  # the book's arrays
    >>> B = np.array([[0, 0, -1, 2, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, 1, 0, 0, 0.1]]).T
    >>> forward_kinematics_body(M, B, [np.pi / 2, 3, np.pi]).round(5)[:3, 3]
    array([-5.     ,  4.     ,  1.68584])
    """
    home = home_pose(robot)
    chain = body_chain_of(robot)
    q = joint_array(joint_positions, chain.n, "joint_positions")
    return forward_kinematics_body_kernel(chain, home, q)


def forward_kinematics_body_kernel(chain: ScrewChain, M: np.ndarray, q: np.ndarray) -> np.ndarray:
    E = chain.exponentials(q)
    P = M
    for j in range(chain.n):
        P = P @ E[j]
    return P


def _link_frames_space_book(link_frames, screw_axes, joint_positions):
    """:func:`link_frames_space` with the book's arguments, in the book's order."""
    return link_frames_space(
        BookArrays(link_frames=link_frames, screw_axes=screw_axes),
        joint_positions=joint_positions,
    )


@robot_or_arrays(_link_frames_space_book)
def link_frames_space(robot: ScrewRobot | BookArrays, joint_positions: ArrayLike) -> np.ndarray:
    """Poses in the space frame of the base, every centre-of-mass frame and the end-effector.

    With the link frames M_{i-1,i} of the book's dynamics (pose of
    centre-of-mass frame {i} in {i-1} at home), frame {i} at θ is

        T_si(θ) = e^{[S_1]θ_1} ⋯ e^{[S_i]θ_i} M_{0i},   M_{0i} = M_01 M_12 ⋯ M_{i-1,i},

    and the end-effector frame is T_s,n+1 = e^{[S_1]θ_1} ⋯ e^{[S_n]θ_n} M_{0,n+1}.
    This is what a 3D view draws: one frame per link plus the base and the tool.

    Call it with a robot, or with the book's arguments::

        link_frames_space(robot, joint_positions)
        link_frames_space(link_frames, screw_axes, joint_positions)

    Parameters
    ----------
    robot : ScrewRobot
        Gives the link frames and the S_i; in the book's form pass them instead:
    link_frames : sequence of n+1 array_like, shape (4, 4)
        M_01, M_12, ..., M_{n,n+1}.
    screw_axes : array_like, shape (6, n)
        Screw axes S_i in the space frame at home.
    joint_positions : array_like, shape (n,) or (..., n)

    Returns
    -------
    poses : ndarray, shape (n+2, 4, 4) or (..., n+2, 4, 4)
        ``poses[0]`` is the identity (the base frame {0} = {s}), ``poses[i]``
        is T_si for link i = 1..n, ``poses[n+1]`` is the end-effector pose.

    Examples
    --------
    A 2R planar arm with unit links, its centres of mass at the link tips:

    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import link_frames_space
    >>> link_frames_space(arm, [np.pi / 2, 0.0])[:, :3, 3].round(12) + 0.0
    array([[0., 0., 0.],
           [0., 1., 0.],
           [0., 2., 0.],
           [0., 2., 0.]])
    >>> S = [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]]  # the same arm, the book's way
    >>> poses = link_frames_space([x, x, np.eye(4)], S, [np.pi / 2, -np.pi / 2])
    >>> poses[:, :3, 3].round(6) + 0.0
    array([[0., 0., 0.],
           [0., 1., 0.],
           [1., 1., 0.],
           [1., 1., 0.]])
    """
    chain = space_chain(robot)
    home_poses = _home_link_poses_of(robot, chain.n)
    q = joint_array(joint_positions, chain.n, "joint_positions")
    return link_frames_space_kernel(chain, home_poses, q)


def home_link_poses(link_frames: np.ndarray) -> np.ndarray:
    """M_{0i} = M_01 ⋯ M_{i-1,i} for i = 1..n+1, shape (n+1, 4, 4)."""
    return running_products(np.ascontiguousarray(link_frames, dtype=float))


def link_frames_space_kernel(
    chain: ScrewChain, home_poses: np.ndarray, q: np.ndarray
) -> np.ndarray:
    n = chain.n
    P = poses_space(chain, q)  # (n, ..., 4, 4)
    batch = q.shape[:-1]
    poses = np.empty((n + 2, *batch, 4, 4))
    poses[0] = np.eye(4)
    np.matmul(P, home_poses[:n].reshape((n,) + (1,) * len(batch) + (4, 4)), out=poses[1 : n + 1])
    np.matmul(P[n - 1], home_poses[n], out=poses[n + 1])
    return _batch_last(poses) if batch else poses
