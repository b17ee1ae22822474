"""Animations, kernel-side: precomputed frames, the scrubber, the play link, strip and GIF."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
from PIL import Image
from widget_support import WIDGET_VIEW

import robolab
from robolab import animate
from robolab.symbols import q1, q2
from robolab.views.widgets.controls import OWN_KEYS_CLASS


@pytest.fixture(scope="module")
def arm():
    return robolab.DHRobot((1.0, 0, 0, q1), (0.5, 0, 0, q2), name="2R arm")


@pytest.fixture(scope="module")
def motion():
    times = np.linspace(0.0, 2.0, 11)
    return times, np.column_stack([np.sin(times), 0.5 * times])


def test_frames_are_resampled_at_the_frame_rate(arm, motion):
    times, q = motion
    anim = animate(arm, q, times, fps=20)
    np.testing.assert_allclose(anim.times, np.arange(41) / 20, atol=1e-12)
    # Every sample time is a frame time, and there the frame is the sample itself.
    for t, row in zip(times, q, strict=True):
        np.testing.assert_allclose(
            anim.configurations[np.argmin(abs(anim.times - t))], row, atol=1e-12
        )
    # Between samples, joints move on straight lines.
    middle = np.argmin(abs(anim.times - 0.1))
    np.testing.assert_allclose(anim.configurations[middle], (q[0] + q[1]) / 2)


def test_without_times_each_row_is_a_frame(arm, motion):
    _, q = motion
    anim = animate(arm, q, fps=5)
    assert anim.frame_count == len(q)
    np.testing.assert_allclose(anim.times, np.arange(len(q)) / 5, atol=1e-12)
    np.testing.assert_allclose(anim.configurations, q, atol=1e-12)


def test_scrubbing_moves_the_view_in_place(arm, motion):
    times, q = motion
    anim = animate(arm, q, times, fps=10)
    links = anim.view.links
    figure = anim.view.figure
    anim.slider.value = anim.frame_count - 1  # the scrubber, kernel-side
    assert anim.view.links is links and anim.view.figure is figure
    np.testing.assert_allclose(anim.view.q, q[-1])
    tip = np.column_stack(links.get_data_3d())[-1]
    expected = arm.numeric().forward_kinematics(q[-1])[:3, 3]
    np.testing.assert_allclose(tip, expected, atol=1e-12)
    assert "t = 2.000 s" in anim.time_label.value


def test_the_play_button_runs_in_the_browser(arm, motion):
    times, q = motion
    anim = animate(arm, q, times, fps=25, speed=2.0)
    assert anim.play.max == anim.frame_count - 1
    assert anim.play.interval == 20  # 1000 ms / (25 frames/s × 2)
    # The Play widget drives the scrubber through a JavaScript link: the kernel never loops.
    links = [w for w in anim.widget.children[1].children if w is anim.play]
    assert links and anim.play.value == 0


def test_the_scrubber_keeps_its_arrow_keys_from_the_notebook(arm, motion):
    # Notebook 7 (issue 17): arrow keys on a slider went to the notebook's command-mode
    # shortcuts. The slider carries the class the key guard's script looks for, and the
    # animation's box holds the guard (as a LiveFigure's panel does).
    times, q = motion
    anim = animate(arm, q, times)
    assert OWN_KEYS_CLASS in anim.slider._dom_classes
    guards = [w for w in anim.widget.children if "robolab-key-guard" in w._dom_classes]
    assert len(guards) == 1
    script = guards[0].outputs[0]["data"]["application/javascript"]
    assert "data-lm-suppress-shortcuts" in script and OWN_KEYS_CLASS in script
    assert guards[0].layout.display == "none"  # invisible: figure and controls only


def test_on_frame_change_is_a_plain_method(arm, motion):
    times, q = motion
    anim = animate(arm, q, times)
    anim.on_frame_change({"new": 7})
    assert anim.index == 7
    with pytest.raises(IndexError, match=r"index must be a frame 0..50, got 51"):
        anim.show_frame(51)


def test_image_canvas_frames_differ(arm, motion):
    times, q = motion
    anim = animate(arm, q, times, fps=5)
    first = anim.figure_widget.value
    anim.slider.value = 5
    assert anim.figure_widget.value != first


def test_strip_for_handouts(arm, motion):
    times, q = motion
    open_before = plt.get_fignums()  # other tests may leave pyplot figures open
    anim = animate(arm, q, times, fps=10)
    figure = anim.strip(4)
    titles = [ax.get_title() for ax in figure.axes]
    assert titles == ["t = 0.00 s", "t = 0.70 s", "t = 1.30 s", "t = 2.00 s"]  # frames 0, 7, 13, 20
    assert figure.get_suptitle() == "2R arm · standard DH, base frame {0} · metres"
    assert plt.get_fignums() == open_before  # pyplot does not manage it
    with pytest.raises(ValueError, match="count must be a positive whole number, got 0"):
        anim.strip(0)


def test_view_options_reach_the_view_and_the_strip(arm, motion):
    times, q = motion
    anim = animate(arm, q, times, fps=10, elev=50, azim=0, zoom=1.2)
    assert (anim.view.axes.elev, anim.view.axes.azim, anim.view.zoom) == (50, 0, 1.2)
    assert all((ax.elev, ax.azim) == (50, 0) for ax in anim.strip(3).axes)
    boxed = animate(arm, q, times, fps=10, limits=(-2, 2, -2, 2, -1, 1))
    assert boxed.view.axes.get_xlim() == (-2, 2)


def test_gif_export(arm, motion, tmp_path):
    times, q = motion
    anim = animate(arm, q, times, fps=10)
    anim.slider.value = 3
    path = anim.save_gif(tmp_path / "motion.gif", every=2)
    with Image.open(path) as gif:
        assert gif.n_frames == 11  # frames 0, 2, ..., 20
        assert gif.info["duration"] == 200
        assert gif.size == (400, 400)  # 5 inches at 80 dpi
    assert anim.index == 3 and anim.view.figure.dpi == 100  # left as it was
    with pytest.raises(ValueError, match=r"path must end in \.gif"):
        anim.save_gif(tmp_path / "motion.mp4")


def test_static_rendering(arm, motion, kernel_bundle):
    times, q = motion
    anim = animate(arm, q, times, fps=10)
    bundle = anim._repr_mimebundle_()
    assert WIDGET_VIEW not in bundle
    assert bundle["text/plain"] == (
        "Animation of 2R arm: 21 frames from t = 0.000 s to 2.000 s at 10 frames/s "
        "(standard DH, base frame {0}, metres)"
    )
    assert bundle["text/html"].startswith('<img src="data:image/png;base64,')
    assert WIDGET_VIEW in kernel_bundle(anim)


def test_a_six_joint_arm():
    puma = robolab.load_robot("puma560", form="dh")
    q = np.linspace([0, 0, 0, 0, 0.5, 0], [1, 0.5, -0.5, 0.5, 1.0, 1.0], 30)
    anim = animate(puma, q, np.linspace(0, 1.5, 30), fps=20)
    anim.slider.value = anim.frame_count - 1
    np.testing.assert_allclose(anim.view.q, q[-1])


def test_bad_input_is_named(arm, motion):
    times, q = motion
    with pytest.raises(
        ValueError, match=r"trajectory must have shape \(n, 2\), got shape \(11, 3\)"
    ):
        animate(arm, np.zeros((11, 3)))
    with pytest.raises(ValueError, match="trajectory must hold at least one configuration"):
        animate(arm, np.zeros((0, 2)))
    with pytest.raises(ValueError, match=r"times must have shape \(11,\), got shape \(10,\)"):
        animate(arm, q, times[:-1])
    bad = times.copy()
    bad[4] = bad[3]
    with pytest.raises(ValueError, match=r"times must increase strictly; times\[4\] = 0.6"):
        animate(arm, q, bad)
    with pytest.raises(ValueError, match="fps must be a positive number, got 0"):
        animate(arm, q, fps=0)
    with pytest.raises(ValueError, match="speed must be a positive number"):
        animate(arm, q, speed=-1.0)
