"""Print a chapter as a handout that shows its formulas without a network.

nbconvert's HTML loads MathJax from a CDN, so a handout opened offline (a lecture room
without Wi-Fi, a file sent by mail and read on a train) shows raw ``$$ \\begin{bmatrix}``.
This script writes the HTML with a MathJax of its own beside it::

    .venv/bin/python tools/handout.py notebooks/01-rotations-and-transforms.ipynb
    .venv/bin/python tools/handout.py notebooks/0[1-4]-*.ipynb --output-dir handout --no-input
    .venv/bin/python tools/handout.py notebooks/08-lagrangian-dynamics.ipynb --pdf

* ``handout/NN-name.html``: the chapter without its solution cells (tag ``solution``) and
  without the code of its set-up cells (tag ``hide-input``); ``--keep-solutions`` keeps the
  solution cells, ``--no-input`` leaves out every cell's code (outputs and text only).
* ``handout/mathjax/``: MathJax 2.7 (the version nbconvert's template is written for) from
  the ``jupyter-server-mathjax`` package, loaded by a relative link: copy or zip the whole
  folder, and the HTML works on any machine, in any browser, with no network.
* ``--pdf``: also ``handout/NN-name.pdf``, printed by Chromium (``/usr/bin/chromium``,
  through Playwright, both in the test set-up) once MathJax has typeset every formula.

What a handout hides and what it cannot: ``docs/teaching.md``, "What a handout without solutions
hides, and what it cannot".
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

#: The folder, beside the HTML files, that holds the handout's copy of MathJax.
MATHJAX_FOLDER = "mathjax"
#: MathJax 2's entry point with a configuration the package ships (TeX and MathML in, HTML out).
MATHJAX_URL = f"{MATHJAX_FOLDER}/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full,Safe"
#: jupyter-server-mathjax ships only the STIX-Web fonts: tell MathJax before it starts.
MATHJAX_FONTS = (
    "<script>window.MathJax = {"
    '"HTML-CSS": {availableFonts: [], preferredFont: null, webFont: "STIX-Web", '
    "imageFont: null}, "
    'SVG: {font: "STIX-Web"}, menuSettings: {zoom: "None"}};</script>\n'
)
#: Parts of the MathJax package a handout never loads (other languages, the SVG output,
#: the accessibility tools): left out of the copy.
MATHJAX_UNUSED = ("localization", "a11y", "SVG", "*.mp3", "*.ogg")
#: Cell tags: removed cells, and cells whose code is removed but whose output stays.
SOLUTION_TAG = "solution"
HIDE_INPUT_TAG = "hide-input"
#: Seconds to wait for MathJax to typeset a chapter before printing it.
TYPESET_TIMEOUT = 120


def mathjax_source() -> Path:
    """The folder of MathJax 2 shipped by ``jupyter-server-mathjax`` (its ``static`` folder)."""
    try:
        import jupyter_server_mathjax  # lazy: only the handout needs it
    except ImportError as error:
        raise RuntimeError(
            "an offline handout needs MathJax from the jupyter-server-mathjax package: "
            ".venv/bin/python -m pip install jupyter-server-mathjax==0.2.6"
        ) from error
    folder = Path(jupyter_server_mathjax.__file__).parent / "static"
    if not (folder / "MathJax.js").exists():
        raise RuntimeError(f"no MathJax.js in {folder}: reinstall jupyter-server-mathjax")
    return folder


def copy_mathjax(output_dir: Path) -> Path:
    """Copy MathJax into ``output_dir/mathjax`` (once; an existing copy is kept)."""
    target = Path(output_dir) / MATHJAX_FOLDER
    if not (target / "MathJax.js").exists():
        shutil.copytree(
            mathjax_source(),
            target,
            ignore=shutil.ignore_patterns(*MATHJAX_UNUSED),
            dirs_exist_ok=True,
        )
    return target


def handout_html(notebook: Path, *, keep_solutions: bool = False, no_input: bool = False) -> str:
    """The HTML of ``notebook`` as a handout, loading MathJax from ``mathjax/`` beside it.

    Parameters
    ----------
    notebook : Path
        A course notebook (``.ipynb``), with its saved outputs.
    keep_solutions : bool
        Keep the cells tagged ``solution`` (default: removed).
    no_input : bool
        Leave out the code of every cell (default: only of the cells tagged ``hide-input``).

    Returns
    -------
    str
        A complete HTML page.

    Examples
    --------
    >>> from pathlib import Path
    >>> page = handout_html(Path("notebooks/01-rotations-and-transforms.ipynb"))
    >>> 'src="mathjax/MathJax.js' in page, "cdnjs.cloudflare.com/ajax/libs/mathjax" in page
    (True, False)
    >>> "require.min.js" in page  # nor require.js: nothing comes from a network
    False
    """
    import nbformat
    from nbconvert import HTMLExporter
    from traitlets.config import Config

    notebook = Path(notebook)
    if notebook.suffix != ".ipynb" or not notebook.is_file():
        raise ValueError(f"notebook must be an existing .ipynb file, got {str(notebook)!r}")
    config = Config()
    config.TagRemovePreprocessor.enabled = True
    config.TagRemovePreprocessor.remove_cell_tags = set() if keep_solutions else {SOLUTION_TAG}
    config.TagRemovePreprocessor.remove_input_tags = {HIDE_INPUT_TAG}
    config.HTMLExporter.mathjax_url = MATHJAX_URL
    config.HTMLExporter.exclude_input = no_input
    config.HTMLExporter.exclude_input_prompt = no_input
    exporter = HTMLExporter(config=config)
    body, _ = exporter.from_notebook_node(nbformat.read(notebook, as_version=4))
    loader = f'<script src="{MATHJAX_URL}">'
    if loader not in body:
        raise RuntimeError("nbconvert's template no longer loads MathJax where expected")
    # The lab template also loads require.js from a CDN, for JavaScript outputs; the course
    # saves none (its widgets have still pictures), so the handout loads nothing from a network.
    body = body.replace(f'<script src="{exporter.require_js_url}"></script>', "", 1)
    return body.replace(loader, MATHJAX_FONTS + loader, 1)


def print_pdf(html: Path, pdf: Path) -> Path:
    """Print ``html`` to ``pdf`` with Chromium once MathJax has typeset it (no network)."""
    from playwright.sync_api import sync_playwright

    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        raise RuntimeError("a PDF handout needs Chromium at /usr/bin/chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(chromium), headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page()
            page.route("**/*", block_the_network)
            page.goto(Path(html).resolve().as_uri())
            wait_for_typesetting(page)
            page.pdf(path=str(pdf), format="A4", print_background=True)
        finally:
            browser.close()
    return pdf


def block_the_network(route) -> None:
    """Playwright route handler: files load, anything from a network is refused."""
    if route.request.url.startswith("file://"):
        route.continue_()
    else:
        route.abort()


def wait_for_typesetting(page, timeout: float = TYPESET_TIMEOUT) -> None:
    """Wait until MathJax 2 has typeset the page (its queue has run to the end)."""
    page.wait_for_function("() => window.MathJax && MathJax.Hub", timeout=timeout * 1e3)
    page.evaluate(
        "() => new Promise((done) => MathJax.Hub.Queue(() => done(true)))",
    )


def make_handouts(
    notebooks: Sequence[Path],
    output_dir: Path,
    *,
    keep_solutions: bool = False,
    no_input: bool = False,
    pdf: bool = False,
) -> list[Path]:
    """Write one handout per notebook into ``output_dir`` (and MathJax); return the files."""
    output_dir = Path(output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    copy_mathjax(output_dir)
    written = []
    for notebook in notebooks:
        html = output_dir / (Path(notebook).stem + ".html")
        html.write_text(
            handout_html(notebook, keep_solutions=keep_solutions, no_input=no_input),
            encoding="utf-8",
        )
        written.append(html)
        if pdf:
            written.append(print_pdf(html, html.with_suffix(".pdf")))
    return written


def main(argv: list[str] | None = None) -> int:
    """The command line: ``tools/handout.py NOTEBOOK... [--output-dir DIR] [--no-input] [--pdf]``.

    Prints the files written, one per line, and returns 0.
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--output-dir", type=Path, default=Path("handout"))
    parser.add_argument("--keep-solutions", action="store_true", help="keep the solution cells")
    parser.add_argument("--no-input", action="store_true", help="outputs and text only")
    parser.add_argument("--pdf", action="store_true", help="also print a PDF with Chromium")
    args = parser.parse_args(argv)
    for path in make_handouts(
        args.notebooks,
        args.output_dir,
        keep_solutions=args.keep_solutions,
        no_input=args.no_input,
        pdf=args.pdf,
    ):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
