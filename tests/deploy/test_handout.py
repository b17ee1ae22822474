"""tools/handout.py: a chapter's handout shows its formulas with no network.

The HTML must load MathJax from the copy beside it (never from a CDN), leave out the
solution cells and the code of the set-up cells; opened in Chromium with every network
request refused, MathJax must typeset its formulas (no raw ``$$`` or ``\\begin{`` left in
the text, no MathJax error), and ``--pdf`` must print it.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import handout  # noqa: E402

CHAPTER = ROOT / "notebooks" / "08-lagrangian-dynamics.ipynb"


def tagged_ids(tag: str) -> list[str]:
    cells = nbformat.read(CHAPTER, as_version=4).cells
    return [c.id for c in cells if tag in c.metadata.get("tags", [])]


def cell_html(page: str, cell_id: str) -> str | None:
    """The HTML of the cell with this id (up to the next cell), None when it is not there."""
    start = page.find(f'id="cell-id={cell_id}"')
    if start < 0:
        return None
    end = page.find('id="cell-id=', start + 1)
    return page[start : end if end > 0 else len(page)]


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> Path:
    """The recipe of docs/teaching.md, run as its command line."""
    folder = tmp_path_factory.mktemp("handout")
    assert handout.main([str(CHAPTER), "--output-dir", str(folder)]) == 0
    html = folder / "08-lagrangian-dynamics.html"
    assert sorted(path.name for path in folder.iterdir()) == [html.name, "mathjax"]
    return html


def test_the_command_line_prints_what_it_wrote(tmp_path, capsys):
    assert handout.main([str(CHAPTER), "--output-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.split() == [str(tmp_path / "08-lagrangian-dynamics.html")]


def test_nothing_is_loaded_from_a_network(written):
    page = written.read_text(encoding="utf-8")
    assert re.findall(r"""(?:src|href)=["'](?:https?:)?//[^"']*""", page) == []


def test_the_html_loads_mathjax_from_beside_it(written):
    page = written.read_text(encoding="utf-8")
    assert '<script src="mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full,Safe">' in page
    assert not re.search(r"https?://[^\"']*mathjax", page, re.IGNORECASE)
    assert (written.parent / "mathjax" / "MathJax.js").is_file()
    # the fonts MathJax is told to use are there
    assert list((written.parent / "mathjax" / "fonts" / "HTML-CSS" / "STIX-Web").rglob("*.woff"))


def test_solutions_and_set_up_code_are_left_out(written):
    page = written.read_text(encoding="utf-8")
    solutions, set_up = tagged_ids("solution"), tagged_ids("hide-input")
    assert solutions and set_up, "the chapter has solution and set-up cells"
    assert [cell_id for cell_id in solutions if cell_html(page, cell_id) is not None] == []
    for cell_id in set_up:  # the cell stays, with what it shows, without its code
        html = cell_html(page, cell_id)
        assert html is not None and "jp-InputArea-editor" not in html, cell_id
    assert "jp-InputArea-editor" in page, "the other cells keep their code"


def test_no_input_leaves_out_all_code(tmp_path):
    assert handout.main([str(CHAPTER), "--output-dir", str(tmp_path), "--no-input"]) == 0
    page = (tmp_path / "08-lagrangian-dynamics.html").read_text(encoding="utf-8")
    assert 'class="jp-CodeMirrorEditor' not in page
    assert 'class="jp-CodeMirrorEditor' in handout.handout_html(CHAPTER)
    assert "jp-RenderedHTMLCommon" in page and "jp-OutputArea-output" in page  # text, outputs


def test_solutions_can_be_kept(tmp_path):
    page = handout.handout_html(CHAPTER, keep_solutions=True)
    assert "celltag_solution" in page
    assert "celltag_solution" not in handout.handout_html(CHAPTER)


def test_bad_input_is_named(tmp_path):
    with pytest.raises(ValueError, match=r"notebook must be an existing \.ipynb file, got"):
        handout.handout_html(tmp_path / "missing.ipynb")


@pytest.mark.browser
@pytest.mark.slow
def test_offline_the_formulas_are_typeset_and_the_pdf_prints(written):
    if not Path("/usr/bin/chromium").exists():
        if os.environ.get("ROBOLAB_REQUIRE_BROWSER") == "1":
            pytest.fail("Chromium is not installed at /usr/bin/chromium (apt-get install chromium)")
        pytest.skip("Chromium is not installed at /usr/bin/chromium")
    try:
        from playwright import sync_api
    except ImportError:
        if os.environ.get("ROBOLAB_REQUIRE_BROWSER") == "1":
            pytest.fail("Playwright is not installed (make .venv/.installed-test)")
        pytest.skip("Playwright is not installed")

    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"]
        )
        try:
            page = browser.new_page()
            refused: list[str] = []
            page.on("requestfailed", lambda request: refused.append(request.url))
            page.route("**/*", handout.block_the_network)
            page.goto(written.as_uri())
            handout.wait_for_typesetting(page)
            state = page.evaluate(
                """() => ({
                  formulas: document.querySelectorAll('span.MathJax').length,
                  displayed: document.querySelectorAll('.MathJax_Display').length,
                  errors: document.querySelectorAll('.MathJax_Error').length,
                  raw: [...document.querySelectorAll('.jp-MarkdownCell, .jp-OutputArea-output')]
                    .map((e) => e.innerText)
                    .filter((t) => /\\$\\$|\\\\begin\\{|\\\\frac|\\\\dot/.test(t))
                    .map((t) => t.slice(0, 80)),
                  failed: document.body.innerText.includes('Math Processing Error'),
                })"""
            )
        finally:
            browser.close()
    assert state["raw"] == [], "raw LaTeX left in the handout"
    assert state["errors"] == 0 and not state["failed"]
    assert state["formulas"] > 100 and state["displayed"] > 20, state
    network = [url for url in refused if not url.startswith("about:")]
    assert network == [], "the handout asked a network for these"
    # --pdf, as the recipe runs it (the HTML and MathJax are written again beside it)
    assert handout.main([str(CHAPTER), "--output-dir", str(written.parent), "--pdf"]) == 0
    pdf = written.with_suffix(".pdf")
    assert pdf.read_bytes()[:5] == b"%PDF-" and pdf.stat().st_size > 100_000
