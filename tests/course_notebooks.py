"""Re-execute the course notebooks cleanly, and check that committed notebooks are clean.

The course notebooks are committed *with* their outputs, so that they read well
on GitHub, in nbviewer, in an HTML export and in Binder before anything runs,
and nbval compares those outputs with a fresh run under ``make test``
(see ``notebooks/README.md``). After editing a notebook, refresh it with::

    .venv/bin/python tests/course_notebooks.py refresh notebooks/01-rotations-and-transforms.ipynb
    .venv/bin/python tests/course_notebooks.py refresh          # every notebook
    .venv/bin/python tests/course_notebooks.py check            # hygiene only, no kernel

``refresh`` runs the notebook top to bottom in a fresh kernel of this Python
environment (the one nbval uses), refuses to save it when a cell raises or
writes to stderr (a warning), strips what must not be committed (widget state,
execution timings) and writes it back in place, in the form JupyterLab itself
saves: nbformat 4.5 with cell ids, and the kernel's ``language_info`` including
the Python version (JupyterLab fills that in as soon as the kernel starts, so a
notebook saved without it opens marked unsaved). A ``# NBVAL_IGNORE_OUTPUT``
comment left in a cell becomes the ``nbval-ignore-output`` cell tag. ``tidy``
does only those file-format steps, without running anything::

    .venv/bin/python tests/course_notebooks.py tidy notebooks/05-velocity-kinematics-*.ipynb

``tests/deploy/test_notebooks.py`` runs the same hygiene checks in the test suite.
"""

from __future__ import annotations

import argparse
import ast
import os
import platform
import re
import sys
from pathlib import Path

import nbformat

REPOSITORY = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = REPOSITORY / "notebooks"
INDEX = NOTEBOOK_DIR / "index.ipynb"

#: Chapter notebooks are named ``NN-words-with-dashes.ipynb``; NN is the chapter number.
CHAPTER_NAME = re.compile(r"^(?P<number>\d{2})-[a-z0-9]+(-[a-z0-9]+)*\.ipynb$")
#: Seconds a single cell may run before the refresh (and nbval) gives up.
CELL_TIMEOUT = 60
#: A committed notebook larger than this carries too many or too large images.
MAX_NOTEBOOK_BYTES = 1_500_000
#: The kernel every course notebook declares (nbval runs it from the current environment).
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
#: Headings every chapter must have, so that all chapters read alike.
CHAPTER_HEADINGS = ("Learning goals", "Exercises", "Summary")
#: The cell tag that tells nbval not to compare a cell's output (a live widget's, say).
IGNORE_OUTPUT_TAG = "nbval-ignore-output"
#: nbval's comment markers; students see a comment, so the course uses cell tags instead.
NBVAL_COMMENT = re.compile(r"^# *(NBVAL_[A-Z_]+)\b[^\n]*\n?", re.MULTILINE)
#: The comment marker a cell tag replaces (``tidy`` and ``refresh`` turn one into the other).
NBVAL_COMMENT_TAGS = {
    "NBVAL_IGNORE_OUTPUT": IGNORE_OUTPUT_TAG,
    "NBVAL_CHECK_OUTPUT": "nbval-check-output",
    "NBVAL_RAISES_EXCEPTION": "nbval-raises-exception",
    "NBVAL_SKIP": "nbval-skip",
}
#: A Markdown link to a local file: [text](target) where target is not a URL or an anchor.
LOCAL_LINK = re.compile(r"\]\((?!https?://|mailto:|#)([^)\s]+)\)")
#: A visible cell that draws may have this many source lines (blank lines count: the reader
#: scrolls past them too); a longer one is collapsed (notebooks/README.md, "Standards").
MAX_DRAWING_LINES = 25
#: The tag that hides a collapsed cell's source in an HTML export too (JupyterLab reads
#: ``"jupyter": {"source_hidden": true}`` in the cell metadata).
HIDE_INPUT_TAG = "hide-input"
#: The tag of a worked solution's cell (notebooks/README.md, "Exercises").
SOLUTION_TAG = "solution"
#: Modules whose every call draws: ``plt.subplots(...)``, ``plt.ioff()``, ``pyplot.figure()``.
DRAWING_MODULES = frozenset({"plt", "pyplot"})
#: Methods of matplotlib's Axes, Axes3D, Figure and artists that draw or lay out a figure;
#: ``anything.plot(...)`` counts, whatever the object's name (``margin_ax.plot``). Not ``fill``
#: nor ``step``: an array's ``fill`` and a simulation's ``step`` draw nothing.
DRAWING_METHODS = frozenset(
    {
        *("plot", "scatter", "quiver", "contour", "contourf", "imshow", "pcolormesh", "bar"),
        *("barh", "fill_between", "hist", "stem", "errorbar", "semilogy"),
        *("loglog", "plot_surface", "plot_wireframe", "plot_trisurf", "text", "text2D"),
        *("annotate", "arrow", "axhline", "axvline", "axhspan", "axvspan", "add_subplot"),
        *("add_axes", "subplots", "suptitle", "supxlabel", "supylabel", "set_xlabel"),
        *("set_ylabel", "set_zlabel", "set_title", "set_xlim", "set_ylim", "set_zlim"),
        *("legend", "grid", "view_init", "set_box_aspect", "set_aspect", "set_axis_off"),
        *("set_data", "set_3d_properties", "set_window_title", "colorbar", "tight_layout"),
    }
)
#: robolab's functions that draw a figure or show a live view (robolab.views).
DRAWING_FUNCTIONS = frozenset(
    {
        *("plot_robot", "frame_axes", "draw_frame", "live_figure", "place_labels", "animate"),
        *("teach", "trajectory_view", "twist_view", "manipulability_map", "joint_tuner"),
        *("controller_comparison", "drop_the_arm", "explore_inverse_kinematics"),
        "rnea_stepper",
    }
)
#: A worked solution's check, as robolab.lessons.exercises.worked_solutions shows it: the text (its
#: ``text/plain``) starts so, the HTML is a box of this class. Nothing else may be printed.
WORKED_SOLUTION_TEXT = "Worked solution — checked:"
WORKED_SOLUTION_HTML = 'class="robolab-worked-solution"'


def course_notebooks() -> list[Path]:
    """Return the index and every chapter notebook, in course order."""
    chapters = sorted(p for p in NOTEBOOK_DIR.glob("*.ipynb") if CHAPTER_NAME.match(p.name))
    return [INDEX, *chapters] if INDEX.exists() else chapters


def drawing_calls(source: str) -> list[str]:
    """Return the calls in a cell's source that draw a figure, sorted (empty: it draws nothing).

    A call draws when it is ``plt.<anything>(...)`` (or ``pyplot.``), a method in
    :data:`DRAWING_METHODS` on any object (``ax.plot``, ``fig.suptitle``, ``line.set_data``),
    or one of robolab's views in :data:`DRAWING_FUNCTIONS` (``plot_robot(...)``,
    ``robolab.live_figure(...)``). Imports, magics (``%matplotlib widget``), comments and
    strings never count. A source that is not Python draws nothing.

    >>> drawing_calls("%matplotlib widget\\nimport matplotlib.pyplot as plt\\nx = 1")
    []
    >>> drawing_calls("fig, ax = plt.subplots()\\nax.plot([0, 1])\\nplot_robot(arm, q)")
    ['ax.plot', 'plot_robot', 'plt.subplots']
    """
    from IPython.core.inputtransformer2 import TransformerManager

    try:
        tree = ast.parse(TransformerManager().transform_cell(source))
    except SyntaxError:
        return []
    found = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        function = node.func
        if isinstance(function, ast.Name) and function.id in DRAWING_FUNCTIONS:
            found.add(function.id)
        elif isinstance(function, ast.Attribute):
            owner = function.value
            owner_name = owner.id if isinstance(owner, ast.Name) else None
            if (
                owner_name in DRAWING_MODULES
                or function.attr in DRAWING_METHODS
                or function.attr in DRAWING_FUNCTIONS
            ):
                found.add(ast.unparse(function))
    return sorted(found)


def long_drawing_cell_problem(cell: nbformat.NotebookNode, where: str) -> str | None:
    """What is wrong with a code cell that draws and is too long to stand in the text, if any.

    A cell with more than :data:`MAX_DRAWING_LINES` source lines that draws
    (:func:`drawing_calls`) must be collapsed: ``"jupyter": {"source_hidden": true}``, the
    tag ``hide-input``, and a first line that is a comment saying what it draws. Solution
    cells have their own form (collapsed, tagged ``solution``) and are not judged here.
    """
    tags = cell.metadata.get("tags", [])
    lines = len(cell.source.splitlines())
    if cell.cell_type != "code" or SOLUTION_TAG in tags or lines <= MAX_DRAWING_LINES:
        return None
    calls = drawing_calls(cell.source)
    if not calls:
        return None
    missing = []
    hidden = cell.metadata.get("jupyter", {}).get("source_hidden", False)
    if not hidden:
        missing.append('"jupyter": {"source_hidden": true}')
    if HIDE_INPUT_TAG not in tags:
        missing.append(f"the tag {HIDE_INPUT_TAG!r}")
    if not cell.source.lstrip().startswith("#"):
        missing.append("a first comment line saying what it draws")
    if not missing:
        return None
    shown = ", ".join(calls[:4]) + (", …" if len(calls) > 4 else "")
    return (
        f"{where}: a {'half-collapsed' if hidden else 'visible'} drawing cell ({shown}) of "
        f"{lines} lines (more than {MAX_DRAWING_LINES}) stands between the text and its "
        "figure. Fix: collapse it "
        f"(missing: {'; '.join(missing)}), or move its code into robolab.views"
    )


def _output_summary(output: nbformat.NotebookNode) -> str:
    """An output as a problem message names it: its kind and the start of its text."""
    if output.output_type == "stream":
        text = output.text
    else:
        text = output.get("data", {}).get("text/plain", output.get("ename", ""))
    first = text.strip().splitlines()[0] if text.strip() else ""
    return f"{output.output_type} {first[:60]!r}"


def solution_output_problem(cell: nbformat.NotebookNode, where: str) -> str | None:
    """What a solution cell (tag ``solution``) shows besides its worked-solution check, if any.

    After *Run All* JupyterLab shows a collapsed cell's output under the student's empty
    answer, so a worked solution shows exactly one output, the check's grey-blue box
    ("Worked solution — checked: ..."), and nothing else: no printed answer values.
    """
    if cell.cell_type != "code" or SOLUTION_TAG not in cell.metadata.get("tags", []):
        return None

    def is_check(output: nbformat.NotebookNode) -> bool:
        data = output.get("data", {})
        return (
            output.output_type in ("execute_result", "display_data")
            and data.get("text/plain", "").startswith(WORKED_SOLUTION_TEXT)
            and WORKED_SOLUTION_HTML in data.get("text/html", "")
        )

    checks = [output for output in cell.outputs if is_check(output)]
    others = [_output_summary(output) for output in cell.outputs if not is_check(output)]
    if len(checks) == 1 and not others:
        return None
    found = f"{len(checks)} worked-solution check(s)" + (
        f" and {len(others)} other output(s): {'; '.join(others)}" if others else ""
    )
    return (
        f"{where}: a solution cell shows {found}; it must show only its check's "
        f"'{WORKED_SOLUTION_TEXT} ...' box (students read it under their own answer). Fix: "
        "print no answer values or other lines; end the cell with the exercise's check"
    )


def hygiene_problems(path: Path) -> list[str]:
    """Return what is wrong with a committed notebook (an empty list when it is clean).

    Checks: valid nbformat, no saved widget state, the standard kernel and the
    kernel's ``language_info`` with its Python version (as JupyterLab saves it),
    every code cell non-empty and executed in order 1, 2, 3, ... (no stale or
    out-of-order execution counts), no nbval comment markers (students would see
    them: use cell tags), no error or stderr outputs, a sane size; no long drawing cell
    left open between the text and its figure (:func:`long_drawing_cell_problem`), and a
    solution cell that shows its worked-solution check and nothing else
    (:func:`solution_output_problem`).
    """
    problems: list[str] = []
    name = path.name
    if path.stat().st_size > MAX_NOTEBOOK_BYTES:
        problems.append(
            f"{name}: {path.stat().st_size} bytes, more than {MAX_NOTEBOOK_BYTES}; "
            "use smaller figures (figsize, dpi)"
        )
    nb = nbformat.read(path, as_version=4)
    try:
        nbformat.validate(nb)
    except nbformat.ValidationError as error:
        problems.append(f"{name}: not a valid notebook: {error.message}")
    if "widgets" in nb.metadata:
        problems.append(
            f"{name}: carries saved widget state (metadata.widgets); "
            "refresh it with tests/course_notebooks.py"
        )
    kernelspec = nb.metadata.get("kernelspec", {})
    if kernelspec.get("name") != KERNELSPEC["name"]:
        problems.append(
            f"{name}: kernelspec name should be {KERNELSPEC['name']!r}, "
            f"got {kernelspec.get('name')!r}"
        )
    version = nb.metadata.get("language_info", {}).get("version")
    if not version:
        problems.append(
            f"{name}: metadata.language_info has no Python version; JupyterLab adds it when the "
            "kernel starts and shows the notebook as unsaved: refresh or tidy the notebook"
        )
    expected_count = 0
    for index, cell in enumerate(nb.cells):
        where = f"{name}: cell {index}"
        if "widgets" in cell.metadata or "execution" in cell.metadata:
            problems.append(f"{where}: cell metadata carries widget state or execution timings")
        if cell.cell_type != "code":
            continue
        marker = NBVAL_COMMENT.search(cell.source)
        if marker:
            problems.append(
                f"{where}: {marker.group().strip()!r} comment; students see it: "
                f"use the cell tag {IGNORE_OUTPUT_TAG!r} (tests/course_notebooks.py tidy)"
            )
        if not cell.source.strip():
            problems.append(f"{where}: empty code cell")
            continue
        for problem in (
            long_drawing_cell_problem(cell, where),
            solution_output_problem(cell, where),
        ):
            if problem:
                problems.append(problem)
        expected_count += 1
        if cell.execution_count != expected_count:
            problems.append(
                f"{where}: execution count {cell.execution_count}, expected {expected_count} "
                "(unexecuted, stale or run out of order); refresh the notebook"
            )
        for output in cell.outputs:
            if output.output_type == "error":
                problems.append(f"{where}: committed with an error ({output.ename})")
            elif output.output_type == "stream" and output.name == "stderr":
                first_line = output.text.strip().splitlines()[0] if output.text.strip() else ""
                problems.append(f"{where}: committed with stderr output (a warning?): {first_line}")
            elif output.output_type == "execute_result" and output.get("execution_count") not in (
                None,
                cell.execution_count,
            ):
                problems.append(f"{where}: output's execution count differs from the cell's")
    return problems


def markdown_links(path: Path) -> list[str]:
    """Return the local link targets of every Markdown cell of a notebook, in order."""
    nb = nbformat.read(path, as_version=4)
    return [
        target
        for cell in nb.cells
        if cell.cell_type == "markdown"
        for target in LOCAL_LINK.findall(cell.source)
    ]


def markdown_headings(path: Path) -> list[str]:
    """Return the text of every Markdown heading (``#`` to ``######``) of a notebook."""
    nb = nbformat.read(path, as_version=4)
    return [
        line.lstrip("#").strip()
        for cell in nb.cells
        if cell.cell_type == "markdown"
        for line in cell.source.splitlines()
        if re.match(r"^#{1,6} ", line)
    ]


def tags_for_comments(cell: nbformat.NotebookNode) -> None:
    """Turn a code cell's ``# NBVAL_...`` comment lines into the equivalent cell tags, in place."""
    if cell.cell_type != "code":
        return
    for marker in list(NBVAL_COMMENT.finditer(cell.source)):
        tag = NBVAL_COMMENT_TAGS.get(marker.group(1))
        if tag is None:
            continue  # an nbval marker without a tag twin stays, and hygiene_problems names it
        tags = cell.metadata.setdefault("tags", [])
        if tag not in tags:
            tags.append(tag)
        cell.source = cell.source.replace(marker.group(), "", 1)


def coalesced_streams(outputs: list) -> list:
    """``outputs`` with each run of consecutive same-stream outputs joined into one.

    How a kernel cuts a cell's printing into stream messages depends on timing, so two runs
    of the same cell can store ``stdout`` in one piece or in three; nbval compares the
    joined text, and joining them here keeps a refresh from rewriting unchanged outputs.
    """
    joined: list = []
    for output in outputs:
        previous = joined[-1] if joined else None
        if (
            output.output_type == "stream"
            and previous is not None
            and previous.output_type == "stream"
            and previous.name == output.name
        ):
            previous.text += output.text
        else:
            joined.append(output)
    return joined


def strip_for_commit(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Bring ``nb`` into the committed form, in place; return ``nb``.

    Removes widget state and execution timings, sets the standard kernelspec,
    records the Python version in ``language_info`` as JupyterLab does, joins
    consecutive outputs of one stream, and turns ``# NBVAL_IGNORE_OUTPUT``
    comments into ``nbval-ignore-output`` tags.
    """
    nb.metadata.pop("widgets", None)
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    language_info = nb.metadata.setdefault("language_info", {"name": "python"})
    language_info.setdefault("version", platform.python_version())
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        cell.metadata.pop("widgets", None)
        if cell.cell_type == "code":
            cell.outputs = coalesced_streams(cell.outputs)
        tags_for_comments(cell)
    return nb


def tidy(path: Path) -> list[str]:
    """Rewrite ``path`` in the committed form without running it; return its problems."""
    nb = nbformat.read(path, as_version=4)
    nbformat.write(strip_for_commit(nb), path)
    return hygiene_problems(path)


def refresh(path: Path) -> list[str]:
    """Execute ``path`` in a fresh kernel and save it cleaned.

    Returns the problems found; when a cell raises or warns, nothing is saved.
    """
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    # The kernel sees what it sees under `make test` (tests/conftest.py sets MPLBACKEND);
    # every notebook chooses its backend explicitly with %matplotlib.
    os.environ.setdefault("MPLBACKEND", "Agg")
    client = NotebookClient(
        nb,
        timeout=CELL_TIMEOUT,
        kernel_name=KERNELSPEC["name"],
        resources={"metadata": {"path": str(path.parent)}},
        store_widget_state=False,
        record_timing=False,
    )
    try:
        client.execute()
    except CellExecutionError as error:
        return [f"{path.name}: a cell raised; nothing saved.\n{error}"]
    problems = [
        f"{path.name}: cell {index} wrote to stderr; fix the warning, nothing saved:\n{output.text}"
        for index, cell in enumerate(nb.cells)
        if cell.cell_type == "code"
        for output in cell.outputs
        if output.output_type == "stream" and output.name == "stderr"
    ]
    if problems:
        return problems
    nbformat.write(strip_for_commit(nb), path)
    return hygiene_problems(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("refresh", "tidy", "check"))
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: every course notebook")
    args = parser.parse_args(argv)
    paths = [p.resolve() for p in args.notebooks] or course_notebooks()
    failed = False
    for path in paths:
        command = {"refresh": refresh, "tidy": tidy, "check": hygiene_problems}[args.command]
        problems = command(path)
        status = "ok" if not problems else "FAILED"
        print(f"{args.command} {path.relative_to(REPOSITORY)}: {status}")
        for problem in problems:
            print(f"  {problem}")
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
