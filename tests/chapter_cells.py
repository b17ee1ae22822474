"""Reading a committed chapter notebook in a test: its cells, a cell's printed output, its
set-up cells run in a fresh namespace (as ``tests/chapters/test_chapter01.py`` and
``tests/chapters/test_chapter02.py`` do to check what a chapter prints and asks), and all its
code as one script for a process without a kernel (``tests/deploy/test_wheel.py``)."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def notebook_cells(name: str) -> list[nbformat.NotebookNode]:
    """The cells of ``notebooks/<name>``."""
    return nbformat.read(NOTEBOOKS / name, as_version=4).cells


def output_of(cells: list[nbformat.NotebookNode], snippet: str) -> str:
    """The printed text of the one code cell whose source contains ``snippet``."""
    hits = [c for c in cells if c.cell_type == "code" and snippet in c.source]
    assert len(hits) == 1, f"{len(hits)} cells contain {snippet!r}"
    return "".join(o.get("text", "") for o in hits[0].outputs)


def run_setup_cells(cells: list[nbformat.NotebookNode], *starts: str) -> dict:
    """Run, in order, the code cells whose source starts with each of ``starts``; return the
    namespace. The ``%matplotlib widget`` line of the import cell is left out."""
    namespace: dict = {}
    for start in starts:
        source = next(c.source for c in cells if c.source.startswith(start))
        exec(source.replace("%matplotlib widget", ""), namespace)
    return namespace


def chapter_script(name: str) -> str:
    """The code cells of ``notebooks/<name>`` as one Python script, in order, for a process
    without a kernel: IPython's ``%`` and ``!`` lines (``%matplotlib widget``) are left out."""
    sources = [c.source for c in notebook_cells(name) if c.cell_type == "code"]
    return "\n\n".join(re.sub(r"(?m)^[ \t]*[%!].*$", "", source) for source in sources) + "\n"
