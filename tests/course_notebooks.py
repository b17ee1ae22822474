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
execution timings, the Python patch version) and writes it back in place.

``tests/test_notebooks.py`` runs the same hygiene checks in the test suite.
"""

from __future__ import annotations

import argparse
import os
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
#: A Markdown link to a local file: [text](target) where target is not a URL or an anchor.
LOCAL_LINK = re.compile(r"\]\((?!https?://|mailto:|#)([^)\s]+)\)")


def course_notebooks() -> list[Path]:
    """Return the index and every chapter notebook, in course order."""
    chapters = sorted(p for p in NOTEBOOK_DIR.glob("*.ipynb") if CHAPTER_NAME.match(p.name))
    return [INDEX, *chapters] if INDEX.exists() else chapters


def hygiene_problems(path: Path) -> list[str]:
    """Return what is wrong with a committed notebook (an empty list when it is clean).

    Checks: valid nbformat, no saved widget state, the standard kernel, every
    code cell non-empty and executed in order 1, 2, 3, ... (no stale or
    out-of-order execution counts), no error or stderr outputs, a sane size.
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
    expected_count = 0
    for index, cell in enumerate(nb.cells):
        where = f"{name}: cell {index}"
        if "widgets" in cell.metadata or "execution" in cell.metadata:
            problems.append(f"{where}: cell metadata carries widget state or execution timings")
        if cell.cell_type != "code":
            continue
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


def strip_for_commit(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Remove widget state, execution timings and volatile metadata, in place; return ``nb``."""
    nb.metadata.pop("widgets", None)
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata.get("language_info", {}).pop("version", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        cell.metadata.pop("widgets", None)
    return nb


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
    parser.add_argument("command", choices=("refresh", "check"))
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: every course notebook")
    args = parser.parse_args(argv)
    paths = [p.resolve() for p in args.notebooks] or course_notebooks()
    failed = False
    for path in paths:
        problems = refresh(path) if args.command == "refresh" else hygiene_problems(path)
        status = "ok" if not problems else "FAILED"
        print(f"{args.command} {path.relative_to(REPOSITORY)}: {status}")
        for problem in problems:
            print(f"  {problem}")
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
