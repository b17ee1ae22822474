"""Code that exists only for speed, each piece called only by the readable function it
reproduces (Pinocchio's ``parallel/``, pytransform3d's ``batch_rotations/``).

:data:`REPRODUCES` names, for every engine here, the readable function (below ``robolab``)
whose numbers it must give; ``tests/screw/_fast/`` holds a test of each pair.
"""

from ..._api import exports

__all__, __getattr__, __dir__ = exports(__name__)

#: Engine (module.name, below ``robolab.screw._fast``) → the readable function it reproduces.
REPRODUCES: dict[str, str] = {
    "batched.rnea": "screw.dynamics.rnea.inverse_dynamics_rnea_textbook",
    "batched.crba": "screw.dynamics.rnea.mass_matrix_rnea",
    "compiled.CompiledDynamics": "screw.dynamics.rnea.inverse_dynamics_rnea_textbook",
    "loops.track_generated": "screw.control.tracking.simulate_tracking",
    "loops.torque_rows": "screw.simulation.dynamics_trajectory.forward_dynamics_trajectory",
}
