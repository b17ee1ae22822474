"""Hygiene of the committed course notebooks (nbval runs them; these tests check the files).

A committed notebook must be executed top to bottom in one fresh kernel (execution counts
1, 2, 3, ...), carry no widget state, no errors and no warnings, link only to files that exist,
and every chapter must read like the others (learning goals, exercises, summary). The checks
live in ``tests/course_notebooks.py``, which also refreshes a notebook in one command.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from course_notebooks import (
    CHAPTER_HEADINGS,
    CHAPTER_NAME,
    IGNORE_OUTPUT_TAG,
    INDEX,
    KERNELSPEC,
    MAX_DRAWING_LINES,
    NOTEBOOK_DIR,
    REPOSITORY,
    course_notebooks,
    drawing_calls,
    hygiene_problems,
    markdown_headings,
    markdown_links,
    strip_for_commit,
    tags_for_comments,
)
from nbval.plugin import get_sanitize_patterns

NOTEBOOKS = course_notebooks()
CHAPTERS = [path for path in NOTEBOOKS if path != INDEX]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def ids(paths: list[Path]) -> list[str]:
    return [path.name for path in paths]


def test_the_course_has_an_index_and_chapters():
    assert INDEX.exists(), "notebooks/index.ipynb is the course's front page"
    assert CHAPTERS, "no chapter notebooks found"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids(NOTEBOOKS))
def test_committed_notebook_is_clean(path):
    assert hygiene_problems(path) == []


#: The module paths a chapter may import robolab by (docs/architecture.md): the face and the
#: notebooks' two modules. Anything deeper is robolab's inside, free to move.
PUBLIC_PATHS = {"robolab", "robolab.exercises", "robolab.symbols"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids(NOTEBOOKS))
def test_chapters_import_robolab_by_its_public_paths_only(path):
    paths = set()
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "code":
            source = "\n".join(
                line for line in cell.source.splitlines() if not line.lstrip().startswith("%")
            )
            paths |= set(re.findall(r"^\s*(?:from|import)\s+(robolab[\w.]*)", source, flags=re.M))
    assert paths <= PUBLIC_PATHS, sorted(paths - PUBLIC_PATHS)


def test_every_notebook_is_the_index_or_a_numbered_chapter():
    names = sorted(p.name for p in NOTEBOOK_DIR.glob("*.ipynb"))
    strays = [n for n in names if n != INDEX.name and not CHAPTER_NAME.match(n)]
    assert strays == [], "name chapters NN-words-with-dashes.ipynb (NN = chapter number)"
    numbers = [CHAPTER_NAME.match(n)["number"] for n in names if CHAPTER_NAME.match(n)]
    assert len(numbers) == len(set(numbers)), f"two notebooks share a chapter number: {numbers}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids(NOTEBOOKS))
def test_local_links_resolve(path):
    missing = [
        target
        for target in markdown_links(path)
        if not (path.parent / target.split("#")[0]).resolve().exists()
    ]
    assert missing == [], f"{path.name} links to files that do not exist"


def test_index_links_every_chapter():
    linked = {Path(target.split("#")[0]).name for target in markdown_links(INDEX)}
    unlinked = [path.name for path in CHAPTERS if path.name not in linked]
    assert unlinked == [], "add a link to each chapter in notebooks/index.ipynb"


@pytest.mark.parametrize("path", CHAPTERS, ids=ids(CHAPTERS))
def test_chapter_reads_like_the_others(path):
    nb = nbformat.read(path, as_version=4)
    number = int(CHAPTER_NAME.match(path.name)["number"])
    title = nb.cells[0].source.splitlines()[0]
    assert nb.cells[0].cell_type == "markdown"
    assert re.match(rf"^# Chapter {number} · \S", title), f"first line is {title!r}"
    headings = markdown_headings(path)
    for heading in CHAPTER_HEADINGS:
        assert any(h.startswith(heading) for h in headings), f"no '## {heading}' section"
    assert INDEX.name in markdown_links(path), "link back to the course index"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids(NOTEBOOKS))
def test_widget_outputs_are_not_compared(path):
    """A cell showing a widget (other than a matplotlib canvas) is tagged nbval-ignore-output.

    The tag, not nbval's ``# NBVAL_IGNORE_OUTPUT`` comment: a student sees the comment
    (``hygiene_problems`` rejects it).
    """
    nb = nbformat.read(path, as_version=4)
    unmarked = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        ignored = IGNORE_OUTPUT_TAG in cell.metadata.get("tags", [])
        for output in cell.outputs:
            data = output.get("data", {})
            is_canvas = data.get("text/plain", "").startswith("Canvas(")
            if WIDGET_VIEW in data and not is_canvas and not ignored:
                unmarked.append(index)
    assert unmarked == [], f"cells {unmarked} show a widget: tag them {IGNORE_OUTPUT_TAG!r}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids(NOTEBOOKS))
def test_saved_widgets_have_a_static_fallback(path):
    """Without a kernel (GitHub, nbviewer, HTML export) a widget output still shows something."""
    nb = nbformat.read(path, as_version=4)
    bare = [
        index
        for index, cell in enumerate(nb.cells)
        if cell.cell_type == "code"
        for output in cell.outputs
        if WIDGET_VIEW in output.get("data", {})
        and not {"text/html", "image/png", "text/markdown", "text/latex"} & set(output.data)
    ]
    assert bare == [], f"cells {bare} show a widget with only a text/plain fallback"


#: ipympl's still picture of a canvas (its text/html part) starts with the figure's label.
FIGURE_LABEL = re.compile(r'widget-label" style="text-align: center;">\s*([^<\s][^<]*?)\s*</div>')


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids(NOTEBOOKS))
def test_still_figures_carry_no_window_title_caption(path):
    """An HTML export shows the ipympl label ("Figure") above the picture: set it to ""."""
    nb = nbformat.read(path, as_version=4)
    labelled = [
        (index, label)
        for index, cell in enumerate(nb.cells)
        if cell.cell_type == "code"
        for output in cell.outputs
        for label in FIGURE_LABEL.findall(output.get("data", {}).get("text/html", ""))
    ]
    assert labelled == [], 'add fig.canvas.manager.set_window_title("") to these cells'


# ------------------------------------------------------------------ the checks themselves


def executed_notebook(**metadata) -> nbformat.NotebookNode:
    language_info = {"name": "python", "version": "3.11.7"}
    nb = nbformat.v4.new_notebook(
        metadata={"kernelspec": dict(KERNELSPEC), "language_info": language_info, **metadata}
    )
    first = nbformat.v4.new_code_cell("x = 1", execution_count=1)
    second = nbformat.v4.new_code_cell("x", execution_count=2)
    second.outputs = [
        nbformat.v4.new_output("execute_result", {"text/plain": "1"}, execution_count=2)
    ]
    nb.cells = [nbformat.v4.new_markdown_cell("# Title"), first, second]
    return nb


def problems_of(nb: nbformat.NotebookNode, tmp_path: Path) -> list[str]:
    path = tmp_path / "notebook.ipynb"
    nbformat.write(nb, path)
    return hygiene_problems(path)


def test_hygiene_accepts_a_clean_notebook(tmp_path):
    assert problems_of(executed_notebook(), tmp_path) == []


def test_hygiene_rejects_widget_state(tmp_path):
    state = {"state": {}, "version_major": 2, "version_minor": 0}
    nb = executed_notebook(widgets={"application/vnd.jupyter.widget-state+json": state})
    assert any("widget state" in p for p in problems_of(nb, tmp_path))


@pytest.mark.parametrize(
    ("counts", "bad_cell"),
    [((None, None), 1), ((1, None), 2), ((2, 1), 1), ((1, 3), 2), ((5, 6), 1)],
    ids=["unexecuted", "half-executed", "out-of-order", "gap", "stale"],
)
def test_hygiene_rejects_stale_or_out_of_order_counts(tmp_path, counts, bad_cell):
    nb = executed_notebook()
    nb.cells[1].execution_count, nb.cells[2].execution_count = counts
    nb.cells[2].outputs = []
    problems = problems_of(nb, tmp_path)
    assert any(p.startswith(f"notebook.ipynb: cell {bad_cell}: execution count") for p in problems)


def test_hygiene_rejects_committed_warnings_and_errors(tmp_path):
    nb = executed_notebook()
    nb.cells[1].outputs = [
        nbformat.v4.new_output("stream", name="stderr", text="UserWarning: careful\n"),
        nbformat.v4.new_output("error", ename="ValueError", evalue="bad", traceback=[]),
    ]
    problems = problems_of(nb, tmp_path)
    assert any("stderr output (a warning?): UserWarning: careful" in p for p in problems)
    assert any("committed with an error (ValueError)" in p for p in problems)


def test_hygiene_rejects_a_foreign_kernel(tmp_path):
    nb = executed_notebook()
    nb.metadata.kernelspec = {"name": "julia-1.10", "display_name": "Julia"}
    assert any("kernelspec name should be 'python3'" in p for p in problems_of(nb, tmp_path))


def test_hygiene_rejects_nbval_comments(tmp_path):
    nb = executed_notebook()
    nb.cells[1].source = "# NBVAL_IGNORE_OUTPUT\nx = 1"
    assert any("'# NBVAL_IGNORE_OUTPUT' comment" in p for p in problems_of(nb, tmp_path))


def test_hygiene_rejects_a_notebook_jupyterlab_would_mark_unsaved(tmp_path):
    """JupyterLab writes the kernel's Python version into language_info when the kernel starts."""
    nb = executed_notebook()
    del nb.metadata.language_info["version"]
    assert any("no Python version" in p for p in problems_of(nb, tmp_path))


#: A drawing cell as chapters write one: a figure, a few lines per curve (here 30 lines).
LONG_DRAWING = "\n".join(
    [
        "with plt.ioff():",
        "    fig, ax = plt.subplots(figsize=(6.0, 3.0), dpi=80)",
        "fig.canvas.header_visible = False",
        *(f"ax.plot([0, 1], [0, {k}], label='k = {k}')" for k in range(26)),
        "fig.canvas",
    ]
)


def with_cell(source: str, **metadata) -> nbformat.NotebookNode:
    """The clean notebook with its first code cell's source and metadata replaced."""
    nb = executed_notebook()
    nb.cells[1].source = source
    nb.cells[1].metadata.update(metadata)
    return nb


def drawing_problems(nb: nbformat.NotebookNode, tmp_path: Path) -> list[str]:
    return [p for p in problems_of(nb, tmp_path) if "drawing cell" in p]


@pytest.mark.parametrize(
    ("source", "calls"),
    [
        ("fig, ax = plt.subplots()\nax.plot([0, 1])", ["ax.plot", "plt.subplots"]),
        ("with plt.ioff():\n    view = plot_robot(arm, q)", ["plot_robot", "plt.ioff"]),
        ("margin_line.set_data(t, m)\nrobolab.live_figure(f, fig, {})", None),
        ("puma_map.ax.contour(x, y, z, [0])", ["puma_map.ax.contour"]),
        ("%matplotlib widget\nimport matplotlib.pyplot as plt\nfrom robolab import teach", []),
        ("# ax.plot(x, y) in a comment\ntext = 'plt.show()'\nx = np.cos(1.0)", []),
        ("not python (", []),
    ],
    ids=["axes", "robolab-view", "artist-and-view", "owner-chain", "imports", "text", "syntax"],
)
def test_drawing_calls(source, calls):
    expected = ["margin_line.set_data", "robolab.live_figure"] if calls is None else calls
    assert drawing_calls(source) == expected


def test_hygiene_rejects_a_long_visible_drawing_cell(tmp_path):
    nb = with_cell(LONG_DRAWING)
    (problem,) = drawing_problems(nb, tmp_path)
    assert problem.startswith("notebook.ipynb: cell 1: a visible drawing cell (")
    assert f"of 30 lines (more than {MAX_DRAWING_LINES})" in problem
    for fix in ('"jupyter": {"source_hidden": true}', "'hide-input'", "first comment line"):
        assert fix in problem
    assert "robolab.views" in problem


def test_hygiene_accepts_a_collapsed_or_short_drawing_cell(tmp_path):
    collapsed = with_cell(
        "# The figure: one line per k (collapsed: plotting code only).\n" + LONG_DRAWING,
        jupyter={"source_hidden": True},
        tags=["hide-input"],
    )
    assert drawing_problems(collapsed, tmp_path) == []
    short = "\n".join(LONG_DRAWING.splitlines()[:MAX_DRAWING_LINES])
    assert drawing_problems(with_cell(short), tmp_path) == []
    computing = "\n".join(f"x{k} = np.cos({k})" for k in range(40))  # long, but draws nothing
    assert drawing_problems(with_cell(computing), tmp_path) == []


@pytest.mark.parametrize(
    ("metadata", "comment", "missing"),
    [
        ({"jupyter": {"source_hidden": True}}, True, ["'hide-input'"]),
        ({"tags": ["hide-input"]}, True, ['"source_hidden": true']),
        ({"jupyter": {"source_hidden": True}, "tags": ["hide-input"]}, False, ["first comment"]),
    ],
    ids=["no-tag", "not-hidden", "no-comment"],
)
def test_hygiene_names_what_a_half_collapsed_drawing_cell_lacks(
    tmp_path, metadata, comment, missing
):
    source = ("# The figure.\n" if comment else "") + LONG_DRAWING
    (problem,) = drawing_problems(with_cell(source, **metadata), tmp_path)
    listed = problem.split("(missing: ")[1]
    assert all(part in listed for part in missing)
    assert listed.count(";") == len(missing) - 1  # only what is missing is listed


#: What a worked solution's check shows (robolab.lessons.exercises.worked_solutions, copied here so
#: that a change of the library's box is a change this test sees).
CHECKED_TEXT = (
    "Worked solution — checked: it matches the expected answer. (This checks the hidden "
    "worked solution, not your answer.)"
)
CHECKED_HTML = (
    '<div class="robolab-worked-solution" style="color:#1F3347;background:#EEF2F6;'
    'border-left:4px solid #6A8CAF;padding:4px 8px;border-radius:4px"><b>Worked solution</b>'
    " — checked: it matches the expected answer.</div>"
)


def solution_notebook(*outputs: nbformat.NotebookNode) -> nbformat.NotebookNode:
    source = "# Solution: transpose the rotation.\nexercise_1.check(R.T)"
    nb = with_cell(source, tags=["solution"], jupyter={"source_hidden": True})
    nb.cells[1].outputs = list(outputs)
    return nb


def worked_check(text: str = CHECKED_TEXT, html: str = CHECKED_HTML) -> nbformat.NotebookNode:
    data = {"text/plain": text, "text/html": html}
    return nbformat.v4.new_output("execute_result", data, execution_count=1)


def solution_problems(nb: nbformat.NotebookNode, tmp_path: Path) -> list[str]:
    return [p for p in problems_of(nb, tmp_path) if "a solution cell" in p]


def test_hygiene_accepts_a_solution_cell_that_shows_only_its_check(tmp_path):
    assert solution_problems(solution_notebook(worked_check()), tmp_path) == []


ANSWER_PRINTED = nbformat.v4.new_output("stream", name="stdout", text="R.T = [[0 1] [1 0]]\n")


@pytest.mark.parametrize(
    ("outputs", "named"),
    [
        ([ANSWER_PRINTED, worked_check()], "1 other output(s): stream 'R.T = [[0 1] [1 0]]'"),
        ([], "shows 0 worked-solution check(s)"),
        ([worked_check(), worked_check()], "shows 2 worked-solution check(s)"),
        ([worked_check("✓ Correct", "<div>✓ Correct</div>")], "execute_result '✓ Correct'"),
        ([worked_check(html="<b>Worked solution</b>")], "execute_result 'Worked solution"),
        ([worked_check("Worked solution — its check FAILED: off")], "its check FAILED"),
    ],
    ids=["answer-printed", "nothing", "twice", "student-tick", "not-the-box", "failed"],
)
def test_hygiene_rejects_a_solution_cell_that_shows_more(tmp_path, outputs, named):
    (problem,) = solution_problems(solution_notebook(*outputs), tmp_path)
    assert problem.startswith("notebook.ipynb: cell 1: a solution cell shows ")
    assert named in problem
    assert "only its check's 'Worked solution — checked: ...' box" in problem
    assert "print no answer values" in problem


def test_hygiene_judges_only_cells_tagged_solution(tmp_path):
    nb = executed_notebook()
    nb.cells[2].source = "# Solution-like comment in a student's cell\nx"
    assert solution_problems(nb, tmp_path) == []


def test_strip_for_commit_removes_state_and_keeps_what_jupyterlab_writes():
    nb = executed_notebook(widgets={"state": {}})
    nb.cells[1].metadata["execution"] = {"iopub.execute_input": "2026-01-01T00:00:00Z"}
    strip_for_commit(nb)
    assert "widgets" not in nb.metadata
    assert nb.metadata.language_info == {"name": "python", "version": "3.11.7"}
    assert nb.metadata.kernelspec["name"] == "python3"
    assert "execution" not in nb.cells[1].metadata


@pytest.mark.parametrize(
    ("source", "expected_source", "expected_tags"),
    [
        ("# NBVAL_IGNORE_OUTPUT\nteach(arm)", "teach(arm)", ["keep", "nbval-ignore-output"]),
        ("x = 1\n# NBVAL_SKIP\ny = 2", "x = 1\ny = 2", ["keep", "nbval-skip"]),
        ("x = 1  # NBVAL_IGNORE_OUTPUT", "x = 1  # NBVAL_IGNORE_OUTPUT", ["keep"]),
        ("# NBVAL_SOMETHING_NEW\nx", "# NBVAL_SOMETHING_NEW\nx", ["keep"]),
    ],
    ids=["ignore-output", "skip", "not-a-marker-line", "no-tag-twin"],
)
def test_tags_for_comments(source, expected_source, expected_tags):
    cell = nbformat.v4.new_code_cell(source, metadata={"tags": ["keep"]})
    tags_for_comments(cell)
    assert (cell.source, cell.metadata.tags) == (expected_source, expected_tags)


@pytest.mark.parametrize(
    ("text", "sanitized"),
    [
        ("<Figure at 0x7f3a2c1d9e50>", "<Figure at 0xADDRESS>"),
        ("<img src='data:image/png;base64,iVBORw0KGgo+/=' width=352/>", "base64,IMAGE'"),
        ("[[-0.   1.   0. ]", "[[0. 1. 0. ]"),
        ("[-0.0001 -1.  ]", "[-0.0001 -1. ]"),
        # a negative zero anywhere in an array widens every column by one (seen on an Intel
        # Xeon for chapters 5 and 7, and under OpenBLAS's Prescott kernel): the same text once
        # the sign column and the runs of spaces are gone
        ("[ 0.7524  0.     -0.5318  0.      0.2671]", "[0.7524 0. -0.5318 0. 0.2671]"),
        ("[ 0.7524 0.     -0.5318 0.     0.2671]", "[0.7524 0. -0.5318 0. 0.2671]"),
        ("b (N·m): [-0.     11.9178  4.5809  0.    ]", "b (N·m): [0. 11.9178 4.5809 0. ]"),
        ("b (N·m): [ 0.     11.9178  4.5809  0.    ]", "b (N·m): [0. 11.9178 4.5809 0. ]"),
        ("[-0.  1.]", "[0. 1.]"),
        ("[0. 1.]", "[0. 1.]"),
    ],
)
def test_sanitize_patterns(text, sanitized):
    config = (REPOSITORY / "tests" / "nbval_sanitize.cfg").read_text()
    for pattern, replacement in get_sanitize_patterns(config):
        text = re.sub(pattern, replacement, text)
    assert sanitized in text
