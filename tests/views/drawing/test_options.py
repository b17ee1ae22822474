"""The view options: one checked dataclass, taken as options= or as keywords over a widget's
default, and passed along to every view of a widget."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure

import robolab
from robolab.views.drawing.options import ENDS_ONLY, ViewOptions
from robolab.views.drawing.robot_view import RobotView, plot_robot


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def puma():
    return robolab.load_robot("puma560", form="dh")


def test_view_options_are_one_dataclass_passed_along(puma):

    options = ViewOptions(frames="ends", elev=40, zoom=1.2, limits=(-1, 1, -1, 1, 0, 1.5))
    view = RobotView(puma, ax=Figure().add_subplot(projection="3d"), options=options)
    assert view.options is options and view.frames_shown == "ends"
    assert view.axes.get_xlim() == (-1, 1) and view.axes.elev == 40
    # the public functions keep their keywords and build the same options
    assert plot_robot(puma, frames="ends", elev=40, zoom=1.2, limits=options.limits).options == (
        options
    )
    pendant = robolab.teach(puma, frames="ends", elev=40, zoom=1.2, limits=options.limits)
    assert pendant.view.options == options
    anim = robolab.animate(puma, np.zeros((2, 6)), elev=40)
    assert anim.view.options is anim.options and anim.options == ViewOptions(frames="ends", elev=40)
    # keywords replace those of options= (the classes take both)
    closer = RobotView(puma, ax=Figure().add_subplot(projection="3d"), options=options, zoom=2)
    assert closer.options == ViewOptions(
        frames="ends", elev=40, zoom=2, limits=(-1, 1, -1, 1, 0, 1.5)
    )
    with pytest.raises(TypeError, match=r"unexpected view option 'colour'; the view options are"):
        RobotView(puma, ax=Figure().add_subplot(projection="3d"), colour="red")
    with pytest.raises(ValueError, match=r"limits must be .* with min < max"):
        ViewOptions(limits=(1, -1, -1, 1, 0, 1))


def test_a_widget_starts_from_its_own_default_and_options_given_win():
    assert ViewOptions.from_keywords(None, {}, default=ENDS_ONLY) is ENDS_ONLY
    given = ViewOptions(frames="none")
    assert ViewOptions.from_keywords(given, {}, default=ENDS_ONLY) is given
    assert ViewOptions.from_keywords(given, {"zoom": 2}, default=ENDS_ONLY) == ViewOptions(
        frames="none", zoom=2
    )
    assert ViewOptions.from_keywords(None, {"zoom": 2}, default=ENDS_ONLY) == ViewOptions(
        frames="ends", zoom=2
    )
    assert ViewOptions.from_keywords(None, {}) == ViewOptions()
    with pytest.raises(TypeError, match=r"options must be a robolab\.views\.ViewOptions, got dict"):
        ViewOptions.from_keywords({"frames": "all"}, {})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"default must be a robolab\.views\.ViewOptions, got str"):
        ViewOptions.from_keywords(None, {}, default="ends")  # type: ignore[arg-type]


def test_the_chapter_widgets_show_the_base_and_end_effector_frames_by_default():
    arm = robolab.load_robot("planar2r")
    assert robolab.twist_view(arm, [0.0, 0.5]).view.options == ENDS_ONLY
    assert robolab.TwistView(arm, [0.0, 0.5]).view.options == ENDS_ONLY
    assert robolab.twist_view(arm, [0.0, 0.5], frames="all").view.options.frames == "all"
    run = robolab.inverse_dynamics_rnea_steps(arm, [0.0, 0.0], [1.0, 0.0], [0.0, 0.0])
    assert robolab.rnea_stepper(arm, run, elev=40).view.options == ViewOptions(
        frames="ends", elev=40
    )
