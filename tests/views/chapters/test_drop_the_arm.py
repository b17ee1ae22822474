"""The "drop the arm" view, kernel-side: what it draws against independent numbers.

References: the energy of a hand-written pendulum run (½ θ̇² + g sin θ, by hand); the end
of the arm drawn at θ(t) against ``mr.FKinSpace``; the run's own arrays (the view must
show them, not compute them); the size limits of a 1024 × 768 screen.
"""

from __future__ import annotations

from types import SimpleNamespace

import matplotlib.pyplot as plt
import modern_robotics as mr
import numpy as np
import pytest
from widget_support import WIDGET_VIEW

import robolab

pytestmark = pytest.mark.usefixtures("ipympl_imported_once")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def spinning_run(integrator, timestep, friction):
    """The 2R arm's shoulder turning at 1 rad/s: not a simulation, a known motion."""
    t = np.arange(0.0, 2.0 + timestep / 2, timestep)
    q = np.stack([t, 0.5 * t], axis=1)
    energy = np.full(t.shape, 2.0) + (0.1 * t if integrator == "euler" else 0.0)
    return SimpleNamespace(
        times=t,
        joint_positions=q,
        energy=energy,
        kinetic_energy=energy - 1.0,
        potential_energy=np.ones_like(t),
    )


def test_the_time_slider_moves_the_arm_and_the_marker():
    arm = robolab.load_robot("planar2r")
    panel = robolab.drop_the_arm(arm, spinning_run, duration=2.0, timestep=0.01)
    panel.controls["t"].value = 1.5
    np.testing.assert_allclose(panel.view.q, [1.5, 0.75], atol=1e-12)
    home = np.eye(4)
    home[0, 3] = 2.0
    screws = np.array([[0, 0, 1, 0, 0, 0], [0, 0, 1, 0, -1, 0]], dtype=float).T
    expected = mr.FKinSpace(home, screws, [1.5, 0.75])
    np.testing.assert_allclose(panel.view.end_effector_pose, expected, atol=1e-9)
    x, y = panel.marker.get_data()
    assert (x[0], y[0]) == pytest.approx((1.5, 2.0), abs=1e-12)
    assert panel.cursor.get_xdata()[0] == pytest.approx(1.5, abs=1e-12)
    assert "t = 1.50 s: E = 2.0000 J" in panel.readout_text()


def test_a_new_choice_runs_again_and_an_old_one_is_kept():
    panel = robolab.drop_the_arm(robolab.load_robot("planar2r"), spinning_run, duration=2.0)
    assert panel.runs == 1
    panel.controls["integrator"].value = "euler"
    _, energy = panel.energy_line.get_data()
    assert energy[-1] == pytest.approx(2.2, abs=1e-12)
    assert "drift max|E − E(0)| = 0.2 J" in panel.readout_text()
    panel.controls["integrator"].value = "rk4"
    panel.controls["t"].value = 0.5
    assert panel.runs == 2
    panel.controls["friction"].value = 0.5
    assert panel.runs == 3 and "b = 0.5 N·m·s/rad" in panel.readout_text()


def test_a_diverged_run_is_reported_not_drawn():
    def failing(integrator, timestep, friction):
        raise robolab.SimulationDiverged("the simulation diverged at step 7")

    panel = robolab.drop_the_arm(robolab.load_robot("planar2r"), failing, duration=1.0)
    assert panel.simulation is None and "diverged at step 7" in panel.readout_text()
    assert len(panel.energy_line.get_data()[0]) == 0


def test_a_real_simulation_of_a_pendulum_is_shown_as_computed():
    arm = robolab.load_robot("planar2r")

    def run(integrator, timestep, friction):
        return robolab.simulate(
            arm, [0.0, 0.0], duration=1.0, timestep=timestep, integrator=integrator
        )

    panel = robolab.drop_the_arm(arm, run, duration=1.0, timestep=0.01)
    _, energy = panel.energy_line.get_data()
    # dropped from rest, stretched out along x: E(0) = P(0) = 0 (the centres lie on y = 0)
    assert energy[0] == pytest.approx(0.0, abs=1e-12)
    assert np.abs(energy).max() < 1e-5  # RK4 keeps it


def test_static_fallback_and_widget(kernel_bundle):
    panel = robolab.drop_the_arm(robolab.load_robot("planar2r"), spinning_run, duration=2.0)
    bundle = panel._repr_mimebundle_()
    assert WIDGET_VIEW not in bundle
    assert bundle["text/html"].count('<img src="data:image/png;base64,') == 1
    assert "drop the arm" in bundle["text/plain"]
    assert kernel_bundle(panel)[WIDGET_VIEW]["model_id"] == panel.widget.model_id


def test_fits_a_small_screen():
    panel = robolab.drop_the_arm(robolab.load_robot("ur5"), spinning_run_6, duration=2.0)
    width, height = panel.figures[0].get_size_inches() * panel.figures[0].dpi
    assert width <= 1000 and height <= 420  # the controls go below it, within 768 px


def spinning_run_6(integrator, timestep, friction):
    t = np.arange(0.0, 2.0 + timestep / 2, timestep)
    return SimpleNamespace(times=t, joint_positions=np.outer(t, np.ones(6)), energy=0 * t)


@pytest.mark.parametrize(
    ("keywords", "error", "words"),
    [
        ({"simulate": 3}, TypeError, "simulate must be a function"),
        ({"integrator": "verlet"}, ValueError, "integrator must be one of"),
        ({"timestep": 0.003}, ValueError, "timestep must be one of timesteps"),
        ({"duration": -1.0}, ValueError, "duration must be positive"),
        ({"timesteps": [0.0, 0.01]}, ValueError, "timesteps must be positive"),
    ],
)
def test_bad_arguments(keywords, error, words):
    arguments = {"simulate": spinning_run, "duration": 2.0, **keywords}
    with pytest.raises(error, match=words):
        robolab.drop_the_arm(robolab.load_robot("planar2r"), **arguments)


def test_the_time_sliders_step_is_slider_step_and_time_step_its_old_name():
    arm = robolab.load_robot("planar2r")
    panel = robolab.drop_the_arm(arm, spinning_run, duration=2.0, slider_step=0.1)
    times = [value for _, value in panel.controls["t"].options]
    assert len(times) == 21 and times[1] == 0.1 and times[-1] == 2.0
    with pytest.warns(DeprecationWarning, match=r"drop_the_arm\(time_step=\.\.\.\) is now"):
        old = robolab.drop_the_arm(arm, spinning_run, duration=2.0, time_step=0.1)
    assert old.controls["t"].options == panel.controls["t"].options
    with pytest.warns(DeprecationWarning, match=r"DropTheArm\(time_step=\.\.\.\) is now"):
        robolab.DropTheArm(arm, spinning_run, duration=2.0, time_step=0.1)
