"""The energies of an open chain's links (Modern Robotics, section 8.1).

The kinetic energy K = ½ Σ_i V_iᵀ G_i V_i of the links is ½ θ̇ᵀ M(θ) θ̇
(:mod:`robolab.screw.dynamics.mass_matrix`); the potential energy P = -Σ_i m_i gᵀ r_ci in
a uniform gravity field has the gravity torques g(θ) = ∂P/∂θ
(:func:`~robolab.gravity_forces`) as its gradient. Their sum is constant along a motion
without torques or friction, which the simulations of chapter 10 report as their energy
drift.

Arguments as in :mod:`robolab.screw.dynamics.rnea`: the book's ``link_frames``,
``spatial_inertias`` and ``screw_axes``, or a :class:`~robolab.ScrewRobot` in their place.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._fast import space_frame
from ..book_form import BookArrays, robot_or_arrays
from ..kinematics.forward import joint_array, joint_arrays, poses_space
from ..robot import ScrewRobot
from .model import gravity_of, model_of

__all__ = ["kinetic_energy", "potential_energy"]


def _kinetic_energy_book(
    joint_positions, joint_velocities, link_frames, spatial_inertias, screw_axes
):
    """:func:`kinetic_energy` with the book's arguments, in the book's order."""
    return kinetic_energy(
        BookArrays(
            link_frames=link_frames, spatial_inertias=spatial_inertias, screw_axes=screw_axes
        ),
        joint_positions=joint_positions,
        joint_velocities=joint_velocities,
    )


@robot_or_arrays(_kinetic_energy_book)
def kinetic_energy(
    robot: ScrewRobot | BookArrays, joint_positions: ArrayLike, joint_velocities: ArrayLike
) -> np.ndarray | float:
    """Kinetic energy K = ½ θ̇ᵀ M(θ) θ̇ = ½ Σ_i V_iᵀ G_i V_i of the links.

    Parameters as in :func:`~robolab.velocity_quadratic_forces`; returns a float, or an
    ndarray of shape (...) for a batch.

    Call it with a robot, or with the book's arguments::

        kinetic_energy(robot, joint_positions, joint_velocities)
        kinetic_energy(joint_positions, joint_velocities, link_frames, spatial_inertias,
                       screw_axes)

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import kinetic_energy
    >>> kinetic_energy(arm, [0.0, 0.0], [1.0, 0.0])  # ½ (1·1² + 1·2²)
    2.5
    >>> import numpy as np
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> S = [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]]
    >>> G = [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2
    >>> kinetic_energy([0.0, 0.0], [1.0, 0.0], [x, x, np.eye(4)], G, S)  # the book's way
    2.5
    """
    model = model_of(robot)
    q, qd = joint_arrays(model.n, joint_positions, joint_velocities=joint_velocities)
    state = space_frame.kinematics(model, q)  # KinematicState.at(model, q), fast for one state
    velocities = state.link_twists(qd)  # V'_k of link k in its frame {k'}
    momenta = (model.inertia_shape(state.batch_ndim) @ velocities[..., None])[..., 0]
    energy = 0.5 * np.einsum("k...a,k...a->...", velocities, momenta)  # ½ Σ_k V'_kᵀ G'_k V'_k
    return float(energy) if energy.ndim == 0 else energy


def _potential_energy_book(joint_positions, gravity, link_frames, spatial_inertias, screw_axes):
    """:func:`potential_energy` with the book's arguments, in the book's order."""
    return potential_energy(
        BookArrays(
            gravity=gravity,
            link_frames=link_frames,
            spatial_inertias=spatial_inertias,
            screw_axes=screw_axes,
        ),
        joint_positions=joint_positions,
    )


@robot_or_arrays(_potential_energy_book)
def potential_energy(
    robot: ScrewRobot | BookArrays, joint_positions: ArrayLike, gravity: ArrayLike | None = None
) -> np.ndarray | float:
    """Potential energy P = -Σ_i m_i gᵀ r_ci of the links in the gravity field.

    r_ci is the position of link i's centre of mass in {s}; the zero of P is
    at the origin of {s} (see ``docs/conventions.md``).
    Parameters as in :func:`~robolab.gravity_forces`; returns a float, or an ndarray of
    shape (...) for a batch.

    Call it with a robot, or with the book's arguments::

        potential_energy(robot, joint_positions)
        potential_energy(joint_positions, gravity, link_frames, spatial_inertias,
                         screw_axes)

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import potential_energy
    >>> round(potential_energy(arm, [np.pi / 2, 0.0]), 12)  # standing straight up
    29.43
    >>> import numpy as np
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> S = [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]]
    >>> G = [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2
    >>> round(potential_energy([np.pi / 2, 0.0], [0, -9.81, 0], [x, x, np.eye(4)], G, S), 12)
    29.43
    """
    model = model_of(robot)
    q = joint_array(joint_positions, model.n, "joint_positions")
    gravity = gravity_of(robot, gravity)
    P = poses_space(model.chain, q)  # (n, ..., 4, 4): e^{[S_1]θ_1} ⋯ e^{[S_i]θ_i}
    centres = np.einsum("i...ab,ib->i...a", P[..., :3, :3], model.home_centres) + P[..., :3, 3]
    heights = centres @ gravity  # g · r_ci
    energy = -np.einsum("i,i...->...", model.masses, heights)
    return float(energy) if energy.ndim == 0 else energy
