"""Benchmark of the interactive layer: one slider step, in Python and in a real browser.

Python (this process): one slider step on the Puma 560 with every frame
drawn, i.e. moving the artists to a new configuration and an Agg draw of a
500×500 figure, for robolab's view and for two plain-matplotlib anchors that
a careful user would write (an in-place update on default 3D axes, and a full
re-plot); then a whole teach-pendant step kernel-side (update, draw, read-out,
pixels to the widget) for both canvases.

Browser (when ``/usr/bin/chromium`` exists): JupyterLab in headless Chromium
through ``tests/browser/jupyterlab_harness.py``; the time from a key press
on a slider to new pixels on the figure, for robolab's pendant under
``%matplotlib widget`` and under the inline backend, and for two anchors:
a plain ipympl figure updated in place with ``draw_idle``, and ``interact``
re-plotting an inline figure.

Run with ``python benchmarks/run_all.py view`` (writes docs/benchmarks.md).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import robolab

HERE = Path(__file__).resolve().parent
STEPS = 80
KEY_PRESSES = 30
TARGET_PYTHON_MS = 15.0
TARGET_PENDANT_MS = 6.0  # issue 16, item 5: one pendant step kernel side
TARGET_BROWSER_MS = 60.0  # issue 16, item 5: key press to new pixels on the pendant
TARGET_TUNER_MS = 30.0  # issue 14: one gain-slider step of chapter 12's tuner, kernel side
TARGET_TUNER_BROWSER_MS = 100.0  # issue 14: key press to new pixels on chapter 12's tuner


def _configurations(count: int) -> np.ndarray:
    # Small steps like a slider's, around a bent pose.
    base = np.radians([20, 30, -60, 10, 45, 0])
    steps = np.radians(1.0) * np.arange(count)[:, None] * np.array([1, 0.5, -0.5, 1, 0.3, 1])
    return base + steps


def _median_ms(step, configurations) -> tuple[float, float, float]:
    """Median and best wall-clock milliseconds per step, and the median CPU milliseconds.

    On a shared machine the wall clock also counts the time other processes run;
    ``time.process_time`` counts this process's threads only (spinning BLAS threads
    included), so the CPU column moves less with the machine's load.
    """
    for q in configurations[:5]:
        step(q)
    times, cpu = [], []
    for q in configurations:
        start, start_cpu = time.perf_counter(), time.process_time()
        step(q)
        times.append(1e3 * (time.perf_counter() - start))
        cpu.append(1e3 * (time.process_time() - start_cpu))
    return statistics.median(times), min(times), statistics.median(cpu)


def _agg_axes() -> tuple[Figure, object]:
    figure = Figure(figsize=(5, 5), dpi=100)
    FigureCanvasAgg(figure)
    return figure, figure.add_subplot(projection="3d")


def _anchor_in_place(frames_of):
    """Plain matplotlib, careful: artists made once, moved with set_data_3d / set_segments."""
    from mpl_toolkits.mplot3d.art3d import Line3DCollection

    figure, ax = _agg_axes()
    frames = frames_of(np.zeros(6))
    origins = frames[:, :3, 3]
    (links,) = ax.plot(*origins.T, "o-", color="k", lw=3)
    triads = [Line3DCollection(np.zeros((7, 2, 3)), colors=c) for c in ("r", "g", "b")]
    for triad in triads:
        ax.add_collection3d(triad, autolim=False)
    labels = [ax.text(0, 0, 0, letter) for _ in frames for letter in "xyz"]
    ax.set_xlim(-1, 1), ax.set_ylim(-1, 1), ax.set_zlim(0, 1.8)

    def step(q):
        frames = frames_of(q)
        origins = frames[:, :3, 3]
        links.set_data_3d(*origins.T)
        for k, triad in enumerate(triads):
            tips = origins + 0.1 * frames[:, :3, k]
            triad.set_segments(np.stack([origins, tips], axis=1))
            for i, tip in enumerate(tips):
                labels[3 * i + k].set_position_3d(tip)
        figure.canvas.draw()

    return step


def _anchor_replot(frames_of):
    """Plain matplotlib, naive: clear the axes and plot everything again."""
    figure, ax = _agg_axes()

    def step(q):
        ax.cla()
        frames = frames_of(q)
        origins = frames[:, :3, 3]
        ax.plot(*origins.T, "o-", color="k", lw=3)
        for k, colour in enumerate("rgb"):
            ax.quiver(*origins.T, *frames[:, :3, k].T, length=0.1, color=colour)
            for origin, axis in zip(origins, frames[:, :3, k], strict=True):
                ax.text(*(origin + 0.1 * axis), "xyz"[k])
        ax.set_xlim(-1, 1), ax.set_ylim(-1, 1), ax.set_zlim(0, 1.8)
        figure.canvas.draw()

    return step


def python_rows(puma) -> list[tuple[str, float, float]]:
    frames_of = puma.numeric().frames
    configurations = _configurations(STEPS)
    rows = []

    def view_step(**options):
        figure = Figure(figsize=(5, 5), dpi=100)
        FigureCanvasAgg(figure)
        ax = figure.add_subplot(projection="3d", computed_zorder=False)
        figure.subplots_adjust(0, 0, 1, 1)
        view = robolab.RobotView(puma, ax=ax, **options)

        def step(q):
            view.update(q, draw=False)
            figure.canvas.draw()

        return step

    cases = [
        ("robolab `RobotView.update` + Agg draw (lean default)", view_step()),
        ("robolab, velocity ellipsoid shown", view_step(ellipsoid="velocity")),
        ('robolab, `decorations="full"` (3D ticks, panes)', view_step(decorations="full")),
        ("anchor: plain matplotlib, in place, default 3D axes", _anchor_in_place(frames_of)),
        ("anchor: plain matplotlib, full re-plot", _anchor_replot(frames_of)),
    ]
    for name, step in cases:
        median, best, cpu = _median_ms(step, configurations)
        rows.append((name, median, best, cpu))
        print(f"  {name}: median {median:.1f} ms (best {best:.1f})", flush=True)

    robolab.set_test_mode(False)
    try:
        values = iter(range(10_000))
        for compact, size in ((True, "400×400, the default"), (False, "500×500")):
            pendant = robolab.teach(puma, configurations[0], canvas="image", compact=compact)

            def pendant_step(_q, pendant=pendant):
                pendant.sliders[0].value = 20 + next(values) % 100

            median, best, cpu = _median_ms(pendant_step, configurations)
            name = f"robolab teach pendant step, kernel side, PNG image canvas ({size})"
            rows.append((name, median, best, cpu))
            print(f"  {name}: median {median:.1f} ms (CPU {cpu:.1f})", flush=True)
        _import_ipympl()
        for compact, size in ((True, "400×400, the default"), (False, "500×500")):
            with _live_backend():
                live = robolab.teach(puma, configurations[0], canvas="ipympl", compact=compact)
            live.figure_widget.syncing_data_url = False  # as once a browser has attached

            def live_step(_q, live=live):
                live.sliders[0].value = 20 + next(values) % 100

            median, best, cpu = _median_ms(live_step, configurations)
            name = f"robolab teach pendant step, kernel side, ipympl canvas ({size})"
            rows.append((name, median, best, cpu))
            print(f"  {name}: median {median:.1f} ms (CPU {cpu:.1f})", flush=True)
        name = "anchor: plain ipympl figure (500×500), in place, `canvas.draw()` (its diff PNG)"
        median, best, cpu = _median_ms(_anchor_ipympl(frames_of), configurations)
        rows.append((name, median, best, cpu))
        print(f"  {name}: median {median:.1f} ms (CPU {cpu:.1f})", flush=True)
        for canvas, label in (
            ("draw", "update + Agg draw only"),
            ("image", "PNG image canvas"),
            ("ipympl", "ipympl canvas"),
        ):
            median, best, cpu = _median_ms(_live_figure_step(canvas), configurations)
            rows.append(
                (
                    f"robolab `live_figure` step (chapter 1's roll–pitch–yaw frame), {label}",
                    median,
                    best,
                    cpu,
                )
            )
            print(f"  live figure ({label}): median {median:.1f} ms", flush=True)
    finally:
        robolab.set_test_mode(None)
    return rows


def _import_ipympl() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import ipympl.backend_nbagg  # noqa: F401  (switches pyplot's backend on first import)
    matplotlib.use("Agg")


@contextlib.contextmanager
def _live_backend():
    """robolab sees ``%matplotlib widget`` (it only asks ``matplotlib.get_backend``)."""
    original = matplotlib.get_backend
    matplotlib.get_backend = lambda: "module://ipympl.backend_nbagg"
    try:
        yield
    finally:
        matplotlib.get_backend = original


def _anchor_ipympl(frames_of):
    """The browser anchor, kernel side: a plain ipympl figure moved in place and drawn."""
    from ipympl.backend_nbagg import Canvas, FigureManager

    figure = Figure(figsize=(5, 5), dpi=100)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        canvas = Canvas(figure)
        FigureManager(canvas, 0)
    canvas.syncing_data_url = False  # as once a browser has attached
    ax = figure.add_subplot(projection="3d")
    (links,) = ax.plot(*frames_of(np.zeros(6))[:, :3, 3].T, "o-", color="k", lw=3)
    ax.set_xlim(-1, 1), ax.set_ylim(-1, 1), ax.set_zlim(0, 1.8)

    def step(q):
        links.set_data_3d(*frames_of(q)[:, :3, 3].T)
        canvas.draw()

    return step


# --- chapter 12's joint tuner ------------------------------------------------------------------

JM, BM, GEAR, LIMIT = 200e-6, 0.817e-3, 107.815, 2.5  # chapter 12's joint: Corke's Puma shoulder


def _tuner(canvas: str):
    """Chapter 12's joint tuner as the chapter builds it (and as bench_control.py times it)."""
    puma = robolab.load_robot("puma560")
    q = np.zeros(6)
    link = float(robolab.mass_matrix_crba(puma, q)[1, 1])
    gravity = float(robolab.gravity_forces(puma, q)[1])

    def run(kp, kd, ki, ratio, payload):
        actuator = robolab.JointActuator(JM, BM, ratio, LIMIT)
        return robolab.simulate_joint(
            actuator,
            link_inertia=link + payload * 0.2025,
            Kp=kp,
            Kd=kd,
            Ki=ki,
            target=0.05,
            duration=2.0,
            gravity_torque=gravity + payload * 9.81 * 0.45,
            anti_windup=True,
        )

    with _live_backend() if canvas == "ipympl" else contextlib.nullcontext():
        tuner = robolab.joint_tuner(
            run,
            Kp=(0.35, 0.05, 1.5, 0.05),
            Kd=(0.015, 0.0, 0.04, 0.001),
            Ki=(1.0, 0.0, 5.0, 0.1),
            gear_ratio=(110, 10, 200, 10),
            payload=(0.0, 0.0, 10.0, 0.5),
            duration=2.0,
            canvas=canvas,
        )
    if canvas == "ipympl":
        tuner.figures[0].canvas.syncing_data_url = False  # as once a browser has attached
    return tuner


def tuner_rows() -> list[tuple[str, float, float]]:
    """One gain-slider step of chapter 12's tuner, kernel side, and the full-draw anchor."""
    import io

    from PIL import Image

    rows = []
    kps = np.round(0.05 * (1 + np.arange(STEPS) % 29), 2)
    robolab.set_test_mode(False)
    try:
        _import_ipympl()
        for canvas in ("image", "ipympl"):
            tuner = _tuner(canvas)
            values = itertools.cycle(kps)

            def step(_q, tuner=tuner, values=values):
                tuner._cache.clear()  # every step simulates (the view keeps runs seen before)
                tuner.controls["kp"].value = float(next(values))

            median, best, cpu = _median_ms(step, kps)
            name = f"robolab `joint_tuner` K_p step, {canvas} canvas (simulate, plots, pixels)"
            rows.append((name, median, best, cpu))
            print(f"  {name}: median {median:.1f} ms (CPU {cpu:.1f})", flush=True)
        tuner = _tuner("image")
        values = itertools.cycle(kps)
        figure = tuner.figures[0]

        def simulate_only(_q):
            tuner._cache.simulate(float(next(values)), 0.015, 1.0, 110.0, 0.0)

        median, best, cpu = _median_ms(simulate_only, kps)
        name = "of which `simulate_joint` alone (2 s at 1 kHz, this process's BLAS threads)"
        rows.append((name, median, best, cpu))
        print(f"  {name}: median {median:.1f} ms (CPU {cpu:.1f})", flush=True)

        def full_step(_q):
            tuner._cache.clear()
            run, _ = tuner._cache.run(float(next(values)), 0.015, 1.0, 110.0, 0.0)
            tuner._show(run)  # the same lines and limits, set in place
            FigureCanvasAgg.draw(figure.canvas)
            rgb = np.asarray(figure.canvas.buffer_rgba())[..., :3]
            Image.fromarray(rgb).save(io.BytesIO(), format="png")  # Pillow, as matplotlib does

        median, best, cpu = _median_ms(full_step, kps)
        name = "anchor: the same simulation and plots, full Agg draw + Pillow PNG"
        rows.append((name, median, best, cpu))
        print(f"  {name}: median {median:.1f} ms (CPU {cpu:.1f})", flush=True)
    finally:
        robolab.set_test_mode(None)
    return rows


def _live_figure_step(canvas: str):
    """One slider step of a frame picture: chapter 1's roll, pitch and yaw panel, kernel side.

    The update moves a triad in place and returns a matrix read-out; the panel
    redraws the 400×360 frame picture (``frame_axes`` with lean ticks) and
    sends its pixels (PNG bytes to the image widget, or ipympl's diff image).
    ``canvas="draw"``: the update function and an Agg draw, no pixels sent.
    """
    import matplotlib.pyplot as plt

    if canvas == "ipympl":
        plt.switch_backend(
            "module://ipympl.backend_nbagg"
        )  # a live canvas, as under %matplotlib widget
    try:
        ax = robolab.frame_axes(
            (-1, 1), title="Roll, pitch and yaw: frame {b} in the fixed frame {s}"
        )
        robolab.draw_frame(ax, np.eye(4), "s", length=0.9, style="--")
        frame = robolab.draw_frame(ax, np.eye(4), "b", length=0.9)

        def show_rpy(roll, pitch, yaw):
            rotation = robolab.rpy_to_rotation(roll, pitch, yaw)
            frame.set_pose(rotation)
            recovered = np.degrees(robolab.rotation_to_rpy(rotation))
            return (
                f"<div>R = Rz(yaw) Ry(pitch) Rx(roll) =</div>{robolab.matrix_html(rotation)}"
                f"<div>rotation_to_rpy(R) = {np.array2string(recovered, precision=1)}</div>"
            )

        panel = robolab.live_figure(
            show_rpy,
            ax,
            {
                "roll": robolab.angle_slider(30, step=5),
                "pitch": robolab.angle_slider(20, -90, 90, step=5),
                "yaw": robolab.angle_slider(60, step=5),
            },
            canvas="image" if canvas == "draw" else canvas,
        )
        if canvas == "ipympl":
            panel.figures[0].canvas.syncing_data_url = False  # as once a browser has attached
    finally:
        if canvas == "ipympl":
            plt.switch_backend("Agg")
    values = iter(range(10_000))
    if canvas == "draw":
        figure = panel.figures[0]

        def step(_q):
            show_rpy(np.radians(-180 + 5 * (next(values) % 72)), 0.3, 1.0)
            FigureCanvasAgg.draw(figure.canvas)

        return step

    def step(_q):
        panel.controls["roll"].value = -180 + 5 * (next(values) % 72)

    return step


# --- browser ---------------------------------------------------------------------------------

_SETUP = (
    "import numpy as np\n"
    "import robolab\n"
    ""
    "puma = robolab.load_robot('puma560', form='dh')\n"
    "q0 = np.radians([20, 30, -60, 0, 45, 0])"
)
_PENDANT = "robolab.teach(puma, q0)"
_ANCHOR_IPYMPL = """import ipywidgets as widgets
import matplotlib.pyplot as plt
frames_of = puma.numeric().frames
fig = plt.figure(figsize=(5, 5), dpi=100)
ax = fig.add_subplot(projection="3d")
origins = frames_of(q0)[:, :3, 3]
(links,) = ax.plot(*origins.T, "o-", color="k", lw=3)
ax.set_xlim(-1, 1), ax.set_ylim(-1, 1), ax.set_zlim(0, 1.8)
slider = widgets.IntSlider(value=20, min=-160, max=160)
slider.add_class("anchor-slider")
def move(change):
    q = q0.copy(); q[0] = np.radians(change["new"])
    links.set_data_3d(*frames_of(q)[:, :3, 3].T)
    fig.canvas.draw_idle()
slider.observe(move, names="value")
fig.canvas.add_class("anchor-figure")
display(slider)"""
_ANCHOR_INTERACT = """import ipywidgets as widgets
import matplotlib.pyplot as plt
frames_of = puma.numeric().frames
def show(q1=20):
    q = q0.copy(); q[0] = np.radians(q1)
    origins = frames_of(q)[:, :3, 3]
    fig = plt.figure(figsize=(5, 5), dpi=100)
    ax = fig.add_subplot(projection="3d")
    ax.plot(*origins.T, "o-", color="k", lw=3)
    ax.set_xlim(-1, 1), ax.set_ylim(-1, 1), ax.set_zlim(0, 1.8)
    plt.show()
widgets.interact(show, q1=widgets.IntSlider(value=20, min=-160, max=160))"""

_TUNER = f"""import numpy as np
import robolab
puma = robolab.load_robot("puma560")
link = float(robolab.mass_matrix_crba(puma, np.zeros(6))[1, 1])
gravity = float(robolab.gravity_forces(puma, np.zeros(6))[1])
def run(kp, kd, ki, ratio, payload):
    actuator = robolab.JointActuator({JM!r}, {BM!r}, ratio, {LIMIT!r})
    return robolab.simulate_joint(actuator, link_inertia=link + payload * 0.2025, Kp=kp, Kd=kd,
                                  Ki=ki, target=0.05, duration=2.0,
                                  gravity_torque=gravity + payload * 9.81 * 0.45, anti_windup=True)
robolab.joint_tuner(run, Kp=(0.35, 0.05, 1.5, 0.05), Kd=(0.015, 0.0, 0.04, 0.001),
                    Ki=(1.0, 0.0, 5.0, 0.1), gear_ratio=(110, 10, 200, 10),
                    payload=(0.0, 0.0, 10.0, 0.5), duration=2.0)"""

_PRECOMPUTED = """import io
import ipywidgets as widgets
from PIL import Image
def png(level):
    buffer = io.BytesIO()
    Image.fromarray(np.full((400, 400, 3), level, np.uint8)).save(buffer, "png")
    return buffer.getvalue()
images = [png(level) for level in range(256)]
image = widgets.Image(value=images[0], format="png")
image.add_class("baseline-image")
slider = widgets.IntSlider(value=20, min=0, max=255)
slider.add_class("baseline-slider")
slider.observe(lambda change: setattr(image, "value", images[change["new"]]), names="value")
widgets.VBox([slider, image])"""
#: jupyter_server's own kernel websocket (Nagle's algorithm on), for the rows that say so.
DEFAULT_SOCKET = ["--ServerApp.jpserver_extensions=robolab.jupyter_server_extension=False"]
ROBOLAB_HANDLE = ".robolab-teach .robolab-joint-slider >> nth=0 >> .noUi-handle"
TUNER_HANDLE = ".robolab-live-figure .robolab-slider >> nth=0 >> .noUi-handle"
TUNER_PRESSES = 20  # K_p from 0.35 to 1.35 N·m/rad (its slider ends at 1.5)
BROWSER_CASES = [
    # name, cells, slider handle, pixels selector, key presses[, server options]
    (
        "baseline: a slider showing one of 256 precomputed PNGs (no drawing at all)",
        ["%matplotlib inline", _SETUP, _PRECOMPUTED],
        ".baseline-slider .noUi-handle",
        ".baseline-image",
        KEY_PRESSES,
    ),
    (
        "baseline, on jupyter_server's default kernel websocket (Nagle's algorithm on)",
        ["%matplotlib inline", _SETUP, _PRECOMPUTED],
        ".baseline-slider .noUi-handle",
        ".baseline-image",
        KEY_PRESSES,
        DEFAULT_SOCKET,
    ),
    (
        "robolab teach pendant, `%matplotlib widget` (ipympl canvas)",
        ["%matplotlib widget", _SETUP, _PENDANT],
        ROBOLAB_HANDLE,
        ".robolab-teach .robolab-figure canvas",
        KEY_PRESSES,
    ),
    (
        "robolab teach pendant, inline backend (PNG image widget)",
        ["%matplotlib inline", _SETUP, _PENDANT],
        ROBOLAB_HANDLE,
        ".robolab-teach .robolab-figure",
        KEY_PRESSES,
    ),
    (
        "robolab teach pendant, inline backend, on jupyter_server's default kernel websocket",
        ["%matplotlib inline", _SETUP, _PENDANT],
        ROBOLAB_HANDLE,
        ".robolab-teach .robolab-figure",
        KEY_PRESSES,
        DEFAULT_SOCKET,
    ),
    (
        "anchor: plain ipympl figure, in place, `draw_idle`, default 3D axes",
        ["%matplotlib widget", _SETUP, _ANCHOR_IPYMPL],
        ".anchor-slider .noUi-handle",
        ".anchor-figure canvas",
        KEY_PRESSES,
    ),
    (
        "anchor: `interact` re-plotting an inline figure",
        ["%matplotlib inline", _SETUP, _ANCHOR_INTERACT],
        ".widget-interact .noUi-handle",
        ".widget-interact .jp-OutputArea-output img",
        KEY_PRESSES,
    ),
    (
        "chapter 12's `joint_tuner`, K_p slider, `%matplotlib widget` (ipympl canvas)",
        ["%matplotlib widget", _TUNER],
        TUNER_HANDLE,
        ".robolab-live-figure .robolab-figure canvas",
        TUNER_PRESSES,
    ),
    (
        "chapter 12's `joint_tuner`, K_p slider, inline backend (PNG image widget)",
        ["%matplotlib inline", _TUNER],
        TUNER_HANDLE,
        ".robolab-live-figure .robolab-figure",
        TUNER_PRESSES,
    ),
]


def browser_rows() -> list[tuple[str, float, float, float]] | str:
    sys.path.insert(0, str(HERE.parent / "tests" / "browser"))
    from jupyterlab_harness import JupyterLabServer, chromium_available, open_lab

    if not chromium_available():
        return "Chromium is not installed at /usr/bin/chromium: browser latencies not measured."
    import nbformat

    rows = []
    for name, cells, handle, pixels, presses, *server_options in BROWSER_CASES:
        with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
            notebook = nbformat.v4.new_notebook()
            notebook.metadata["kernelspec"] = {
                "display_name": "Python 3 (ipykernel)",
                "language": "python",
                "name": "python3",
            }
            notebook.cells = [nbformat.v4.new_code_cell(source) for source in cells]
            path = Path(folder) / "latency.ipynb"
            nbformat.write(notebook, path)
            server = None
            if server_options:  # a server of its own with these options
                (Path(folder) / "root").mkdir()
                server = stack.enter_context(
                    JupyterLabServer(Path(folder) / "root", Path(folder), *server_options)
                )
            with open_lab(path, Path(folder) / "lab", server=server) as lab:
                lab.run_all_cells()
                lab.page.wait_for_selector(handle, timeout=60_000)
                lab.page.wait_for_function(
                    "([selector, source]) => "
                    "eval(source)(document.querySelector(selector)) !== null",
                    arg=[pixels, _hash_source()],
                    timeout=60_000,
                )
                lab.page.wait_for_timeout(1000)
                latencies = [
                    lab.key_to_pixels(handle, pixels, "ArrowRight", timeout_ms=10_000)
                    for _ in range(presses)
                ]
        median = statistics.median(latencies)
        p90 = float(np.percentile(latencies, 90))
        rows.append((name, median, p90, min(latencies)))
        print(f"  {name}: median {median:.0f} ms, p90 {p90:.0f} ms", flush=True)
    return rows


def _hash_source() -> str:
    from jupyterlab_harness import _PIXELS_HASH_JS

    return _PIXELS_HASH_JS


def _load() -> str:
    """The 1-minute load average (other processes on a shared machine), or "unknown"."""
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except (AttributeError, OSError):  # not on this platform
        return "unknown"


def main() -> str:
    load_before = _load()
    puma = robolab.load_robot("puma560", form="dh")
    print("Python: one slider step on the Puma 560, all 7 frames drawn, 500×500 Agg", flush=True)
    rows = python_rows(puma)
    reference = rows[0][1]
    lines = [
        "## Views and the teach pendant (`bench_view.py`)",
        "",
        f"One slider step on the Puma 560 with all 7 frames drawn: move the artists to a new "
        f"configuration and draw a 500×500 figure with Agg (median of {STEPS} small steps). "
        f"Target: under {TARGET_PYTHON_MS:.0f} ms for robolab's default view. The anchors are "
        "what a careful user writes with plain matplotlib; 3D axis decorations are most of "
        "their cost. On a shared machine absolute times drift between runs (by a third within "
        "an hour on the 2-core machine of these tables); the anchors, measured in the same "
        "minute, show how fast the machine was.",
        "",
        "| one step | median (ms) | best (ms) | CPU median (ms) | × robolab |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, median, best, cpu in rows:
        lines.append(
            f"| {name} | {median:.1f} | {best:.1f} | {cpu:.1f} | {median / reference:.1f} |"
        )
    lines += [
        "",
        f"Target for a pendant step: under {TARGET_PENDANT_MS:.0f} ms kernel side. "
        "The pendant rows include everything the kernel does for one slider event: the view, "
        "the pose read-out and singularity check, and the pixels (PNG bytes for the image "
        "widget; ipympl's diff image for its canvas). The `live_figure` rows are the same for "
        "a picture of frames (chapter 1's roll–pitch–yaw panel: one triad moved in place, a "
        "3×3 matrix read-out, a 400×360 `frame_axes` figure with lean ticks redrawn).",
        "",
    ]
    print("Python: chapter 12's joint tuner, one gain-slider step", flush=True)
    tuner = tuner_rows()
    anchor = tuner[-1][1]
    lines += [
        "### Chapter 12's joint tuner",
        "",
        "One step of the K_p slider of chapter 12's `joint_tuner` kernel side: simulate 2 s of "
        "the Puma's shoulder at 1 kHz (`simulate_joint`, PID, gravity, torque limit), update "
        "both plots in place, draw the 760×320 figure and send its pixels. The tuner redraws "
        "only the lines and the y-axes over a saved background (`views/_fast/partial_redraw.py`); "
        f"the anchor draws the whole figure, as `fig.canvas.draw()` does. Target: under "
        f"{TARGET_TUNER_MS:.0f} ms (median of {STEPS}). The `simulate_joint` row is the "
        "simulation alone, with the BLAS threads of this process (none set: a Jupyter "
        "kernel's default); on a loaded machine OpenBLAS threads waiting for a core can make "
        "it most of the step (compare its wall and CPU columns, and the same run with "
        "`OPENBLAS_NUM_THREADS=1`).",
        "",
        "| one step | median (ms) | best (ms) | CPU median (ms) | × anchor |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, median, best, cpu in tuner:
        lines.append(f"| {name} | {median:.1f} | {best:.1f} | {cpu:.1f} | {median / anchor:.2f} |")
    lines.append("")
    print(
        "Browser: key press on a slider to new pixels (JupyterLab, headless Chromium)", flush=True
    )
    browser = browser_rows()
    if isinstance(browser, str):
        lines.append(browser)
    else:
        lines += [
            f"Key press on a slider to new pixels on the figure, in JupyterLab "
            f"{_lab_version()} and headless Chromium on this machine ({KEY_PRESSES} presses of "
            f"the right arrow, {TUNER_PRESSES} on the tuner's K_p; the clock runs in the page "
            "from `keydown` to the first animation frame showing new pixels). Targets: median "
            f"under {TARGET_BROWSER_MS:.0f} ms for the pendant, {TARGET_TUNER_BROWSER_MS:.0f} ms "
            "for the tuner. Every server runs robolab's Jupyter server extension "
            "(`robolab/jupyter_server_extension.py`, enabled wherever robolab is installed), which "
            "turns Nagle's algorithm off on the kernel websocket, except in the rows that say "
            "\"jupyter_server's default kernel websocket\": there every message of the kernel's "
            "reply after the first (busy, the slider's echo, the new pixels, idle) waits for "
            "the browser's delayed acknowledgement, 40 ms on Linux. The baseline rows show "
            "precomputed PNGs, so they measure the round trip alone.",
            "",
            "| figure | median (ms) | 90th percentile (ms) | best (ms) |",
            "|---|---:|---:|---:|",
        ]
        for name, median, p90, best in browser:
            lines.append(f"| {name} | {median:.0f} | {p90:.0f} | {best:.0f} |")
    lines += [
        "",
        f"1-minute load average of the machine: {load_before} at the start of this section, "
        f"{_load()} at its end (on 2 cores; above 2 the wall clock also counts other processes).",
    ]
    return "\n".join(lines)


def _lab_version() -> str:
    import jupyterlab

    return jupyterlab.__version__


if __name__ == "__main__":
    print(main())
