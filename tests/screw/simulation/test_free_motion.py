"""An arm left to itself (robolab.screw.simulation.free_motion): simulate and total_energy.

References: Pinocchio's kinetic and potential energies; the energy K + P - τᵀθ conserved
under constant torques, by hand for a pendulum.
"""

import numpy as np
import pinocchio as pin
import pytest
from reference.pinocchio_screw import pinocchio_from_screw
from reference.screw_arms import ur5

import robolab as rl

from .test_integrators import G, pendulum


def test_total_energy_against_pinocchio_at_random_states():
    robot = ur5()
    rng = np.random.default_rng(10)
    q, qd = rng.uniform(-2, 2, (5, 6)), rng.uniform(-1, 1, (5, 6))
    model, _ = pinocchio_from_screw(robot)
    data = model.createData()
    expected = [
        pin.computeKineticEnergy(model, data, q[k], qd[k])
        + pin.computePotentialEnergy(model, data, q[k])
        for k in range(5)
    ]
    np.testing.assert_allclose(rl.total_energy(robot, q, qd), expected, atol=1e-10)


def test_constant_torques_enter_the_conserved_energy():
    """Under constant τ the conserved quantity is K + P - τᵀθ."""
    robot = pendulum()
    run = rl.simulate(robot, [0.0], duration=1.0, timestep=0.001, joint_torques=[3.0])
    by_hand = 0.5 * run.joint_velocities[:, 0] ** 2 + G * np.sin(run.joint_positions[:, 0])
    np.testing.assert_allclose(run.energy, by_hand - 3.0 * run.joint_positions[:, 0], atol=1e-12)
    assert run.energy_drift < 1e-9


@pytest.mark.parametrize(
    ("keywords", "words"),
    [
        ({"integrator": "rk2"}, "integrator must be 'euler', 'semi_implicit_euler', 'rk4' or"),
        ({"duration": 0.0105}, "duration must be a whole number of timesteps"),
        ({"timestep": -0.01}, "timestep must be positive"),
        ({"duration": 1e6}, "is more than 999999"),
        ({"joint_torques": [1.0, 2.0]}, r"joint_torques must have shape \(1,\)"),
        ({"integrator": "rk45", "rtol": 0.0}, "rtol and atol must be positive"),
    ],
)
def test_bad_arguments_are_refused(keywords, words):
    arguments = {"duration": 0.1, "timestep": 0.01, **keywords}
    with pytest.raises(ValueError, match=words):
        rl.simulate(pendulum(), [0.0], **arguments)


def test_simulate_wants_a_screw_robot():
    with pytest.raises(TypeError, match="robot must be a ScrewRobot"):
        rl.simulate("ur5", [0.0], duration=0.1, timestep=0.01)


def test_the_result_record_is_simulation_result_and_the_old_name_works():
    run = rl.simulate(pendulum(), [0.0], duration=0.01, timestep=0.001)
    assert type(run) is rl.SimulationResult
    assert repr(run).startswith("<SimulationResult rk4, Δt = 0.001 s, 11 rows")
    with pytest.warns(
        DeprecationWarning, match="robolab.Simulation is now robolab.SimulationResult"
    ):
        assert rl.Simulation is rl.SimulationResult


def test_a_run_that_runs_away_is_refused_not_returned():
    """Issue 29: the planar 2R dropped with Euler steps of 1 s returned an energy drift of
    1e28 J; the step at which a joint speed passes 10⁶ rad/s is named instead."""
    arm = rl.load_robot("planar2r")
    for name, duration in (("euler", 30.0), ("rk4", 10.0)):
        with pytest.raises(rl.SimulationDiverged, match=r"velocity reached \S+ .*the state ran"):
            rl.simulate(arm, [0.1, 0.2], duration=duration, timestep=10.0, integrator=name)
    with pytest.raises(ValueError, match=r"joint_velocities holds 1e\+300 at index \(0,\)"):
        rl.simulate(arm, [0.1, 0.2], [1e300, 0.0], duration=0.02, timestep=0.01)
    run = rl.simulate(arm, [0.1, 0.2], duration=0.5, timestep=0.001, integrator="rk4")
    assert run.relative_energy_drift < 1e-8  # an ordinary run is untouched
