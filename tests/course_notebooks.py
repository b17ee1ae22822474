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

``tests/test_notebooks.py`` runs the same hygiene checks in the test suite.
"""

from __future__ import annotations

import argparse
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


def course_notebooks() -> list[Path]:
    """Return the index and every chapter notebook, in course order."""
    chapters = sorted(p for p in NOTEBOOK_DIR.glob("*.ipynb") if CHAPTER_NAME.match(p.name))
    return [INDEX, *chapters] if INDEX.exists() else chapters


def hygiene_problems(path: Path) -> list[str]:
    """Return what is wrong with a committed notebook (an empty list when it is clean).

    Checks: valid nbformat, no saved widget state, the standard kernel and the
    kernel's ``language_info`` with its Python version (as JupyterLab saves it),
    every code cell non-empty and executed in order 1, 2, 3, ... (no stale or
    out-of-order execution counts), no nbval comment markers (students would see
    them: use cell tags), no error or stderr outputs, a sane size.
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
