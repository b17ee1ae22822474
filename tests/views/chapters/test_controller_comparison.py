"""The controller-comparison view, kernel-side: it shows the runs it is given.

References: hand-made runs with known error curves (the view must draw their arrays in
degrees, not compute them); the 2R's gravity torque 2g = 19.62 N·m held still as the
peak PD + gravity compensation commands (closed form); the 1024 × 768 screen.
"""

from __future__ import annotations

from types import SimpleNamespace

import matplotlib.pyplot as plt
import numpy as np
import pytest

import robolab

pytestmark = pytest.mark.usefixtures("ipympl_imported_once")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def made_up(model_error, payload, limits=None):
    t = np.linspace(0.0, 1.0, 101)

    def run(gain):
        e = np.stack([gain * (model_error - 0.9) * t, -gain * payload * t], axis=1)
        return SimpleNamespace(
            times=t,
            errors=e,
            rms_error=float(np.sqrt((e**2).sum(1).mean())),
            max_error=float(np.abs(e).max()),
            peak_torques=np.array([gain, 1.0]),
            exceeds_limits=gain > 2,
            torque_limits=limits,
        )

    return {"pd": run(3.0), "pd_gravity": run(2.0), "computed_torque": run(1.0)}


def test_panels_draw_the_given_errors_in_degrees_on_one_scale():
    panel = robolab.controller_comparison(made_up)
    panel.controls["payload"].value = 0.5
    x, y = panel.lines["pd"][1].get_data()
    np.testing.assert_allclose(y, np.degrees(-3.0 * 0.5 * x), atol=1e-12)
    limits = {ax.get_ylim() for ax in panel.axes}
    assert len(limits) == 1  # shared scale
    assert limits.pop()[1] >= np.degrees(1.5)


def test_moving_the_model_error_simulates_again_and_keeps_old_runs():
    panel = robolab.controller_comparison(made_up)
    assert panel.simulations == 1
    before = panel.lines["computed_torque"][0].get_data()[1].copy()
    panel.controls["model_error"].value = 1.2
    after = panel.lines["computed_torque"][0].get_data()[1]
    assert np.abs(after - before).max() > 1.0
    panel.controls["model_error"].value = 1.0
    assert panel.simulations == 2
    assert "model masses × 1.00" in panel.readout_text()


def test_readout_lists_each_controller_and_the_limits():
    panel = robolab.controller_comparison(lambda m, p: made_up(m, p, limits=np.ones(2)))
    text = panel.readout_text()
    for label in ("PD", "PD + gravity", "computed torque", "exceeded", "within"):
        assert label in text


def test_real_runs_of_simulate_tracking():
    arm = robolab.load_robot("planar2r")
    hold = np.zeros((301, 2))

    def simulate(model_error, payload):
        true = robolab.with_payload(arm, payload)
        model = robolab.scaled_inertias(arm, model_error)
        return robolab.simulate_tracking(true, model, hold, hold, hold, 0.001, 100.0, 20.0)

    panel = robolab.controller_comparison(simulate)
    assert "19.6 N·m" in panel.readout_text()  # PD + g's and computed torque's g(0)[0] = 2 g


def test_a_failed_run_is_shown_not_raised():
    def failing(model_error, payload):
        if model_error > 1.1:
            raise robolab.SimulationDiverged("the pd controller's closed loop diverged")
        return made_up(model_error, payload)

    panel = robolab.controller_comparison(failing)
    panel.controls["model_error"].value = 1.15
    assert "diverged" in panel.readout_text()
    assert panel.runs is None


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"simulate": 3}, TypeError, "simulate must be a function"),
        ({"controllers": ("pd", "lqr")}, ValueError, "controllers"),
        ({"controllers": ()}, ValueError, "at least one"),
        ({"model_error": 1.03}, ValueError, "one of the slider.s positions"),
    ],
)
def test_bad_arguments(arguments, error, message):
    arguments = {"simulate": made_up, **arguments}
    with pytest.raises(error, match=message):
        robolab.controller_comparison(**arguments)


def test_fits_a_1024_by_768_screen():
    panel = robolab.controller_comparison(made_up)
    width, height = panel.figures[0].get_size_inches() * panel.figures[0].dpi
    assert width <= 1000 and height <= 420


def test_a_slider_step_sends_the_pixels_of_a_full_draw():
    """The partial redraw (curves and y-axes over a kept background) looks like a full draw."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from widget_support import pixels

    from robolab.support import widgets as _widgets

    _widgets.set_test_mode(False)
    try:
        panel = robolab.controller_comparison(made_up, canvas="image")
    finally:
        _widgets.set_test_mode(None)
    figure = panel.figures[0]
    for name, value in (("model_error", 1.2), ("payload", 0.5), ("model_error", 0.8)):
        panel.controls[name].value = value
        sent = pixels(panel.figure_widgets[0].value)
        canvas = FigureCanvasAgg(figure)
        canvas.draw()
        full = np.asarray(canvas.buffer_rgba())[..., :3]
        difference = np.abs(sent.astype(int) - full.astype(int)).max(axis=2)
        # the y-grid line at zero is drawn over the zero line, not under it: up to ten grey
        # levels along that one pixel row; elsewhere at most two (the legend's blend)
        assert difference.max() <= 12, name
        assert len(np.flatnonzero((difference > 2).any(axis=1))) <= 1, name
    assert panel._partial is not None and panel._partial.backgrounds_drawn == 1
