"""Code that exists only for speed, each piece called only by the readable function it
reproduces (Pinocchio's ``parallel/``, pytransform3d's ``batch_rotations/``).

* ``space_frame``: the Newton–Euler and composite-rigid-body recursions as running sums in
  {s} (all links at once), their one-state variants, and the choice of engine by batch size;
* ``compiled``: straight-line Python generated for one robot, one state, written with the
  scalar tracing of ``tracing`` (which also writes out a Cholesky solve);
* ``batched``: structure-of-arrays kernels for large batches, in joint-aligned frames;
* ``loops``: the time loops of the simulations and of ``simulate_tracking``, generated.

:data:`REPRODUCES` names, for every engine here, the readable function (below ``robolab``)
whose numbers it must give; ``tests/screw/_fast/test_reproduces.py`` holds a test of each
pair.
"""

from ..._api import exports

__all__, __getattr__, __dir__ = exports(__name__)

#: Engine (module.name, below ``robolab.screw._fast``) → the readable function it reproduces.
REPRODUCES: dict[str, str] = {
    "space_frame.one_state_floats": "screw.kinematics.forward.joint_arrays",
    "space_frame.one_state_kinematics": "screw.dynamics.model.KinematicState",
    "space_frame.rnea": "screw.dynamics.rnea.inverse_dynamics_rnea_textbook",
    "space_frame.rnea_one_state": "screw.dynamics.rnea.inverse_dynamics_rnea_textbook",
    "space_frame.crba": "screw.dynamics.mass_matrix.composite_rigid_body_algorithm",
    "space_frame.inverse_dynamics": "screw.dynamics.rnea.inverse_dynamics_rnea_textbook",
    "space_frame.one_state_inverse_dynamics": "screw.dynamics.rnea.inverse_dynamics_rnea_textbook",
    "space_frame.mass_matrix": "screw.dynamics.mass_matrix.composite_rigid_body_algorithm",
    "space_frame.one_state_mass_matrix": (
        "screw.dynamics.mass_matrix.composite_rigid_body_algorithm"
    ),
    "space_frame.mass_matrix_and_inverse_dynamics": (
        "screw.dynamics.mass_matrix.composite_rigid_body_algorithm"
    ),
    "space_frame.forward_dynamics_aba": "screw.dynamics.forward.articulated_body_algorithm",
    "space_frame.solve_mass_matrix": "screw.dynamics.forward.solve_mass_matrix",
    "compiled.CompiledDynamics.inverse_dynamics": (
        "screw.dynamics.rnea.inverse_dynamics_rnea_textbook"
    ),
    "compiled.CompiledDynamics.mass_matrix": (
        "screw.dynamics.mass_matrix.composite_rigid_body_algorithm"
    ),
    "compiled.CompiledDynamics.mass_matrix_and_inverse_dynamics": (
        "screw.dynamics.mass_matrix.composite_rigid_body_algorithm"
    ),
    "compiled.CompiledDynamics.forward_dynamics": (
        "screw.dynamics.forward.articulated_body_algorithm"
    ),
    "compiled.CompiledDynamics.call": "screw.dynamics.rnea.inverse_dynamics_rnea_textbook",
    "batched.rnea": "screw.dynamics.rnea.inverse_dynamics_rnea_textbook",
    "batched.crba": "screw.dynamics.mass_matrix.composite_rigid_body_algorithm",
    "batched.aba": "screw.dynamics.forward.articulated_body_algorithm",
    "batched.cholesky_solve": "screw.dynamics.forward.solve_mass_matrix",
    "tracing.cholesky_solve": "screw.dynamics.forward.solve_mass_matrix",
    "loops.track_generated": "screw.control.tracking.simulate_tracking",
    "loops.torque_rows": "screw.simulation.dynamics_trajectory.forward_dynamics_trajectory",
}
