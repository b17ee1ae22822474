"""tools/handout.py: a chapter's handout shows its formulas with no network.

The HTML must load MathJax from the copy beside it (never from a CDN), leave out the
solution cells and the code of the set-up cells; opened in Chromium with every network
request refused, MathJax must typeset its formulas (no raw ``$$`` or ``\\begin{`` left in
the text, no MathJax error), and ``--pdf`` must print it.
"""

from __future__ import annotations

import base64
import html
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


# A notebook may come from a student: nothing it brings may run or load in its handout.
# Each attack is planted alone, beside text that must stay (so the cell was rendered), and
# must reach nbconvert's own HTML (so the attack is real); the handout must have none of it.

KEEP = "Kept in the handout"
PNG = (  # a 1×1 picture
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="planted()">'
    '<script>planted()</script><circle cx="5" cy="5" r="4" fill="red"/>'
    f'<text x="1" y="9">{KEEP}</text></svg>'
)


def base64_of(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def markdown(source: str, **fields) -> nbformat.NotebookNode:
    return nbformat.v4.new_markdown_cell(source, **fields)


def shown(data: dict, metadata: dict | None = None) -> nbformat.NotebookNode:
    """A code cell that displayed ``data``."""
    output = nbformat.v4.new_output("display_data", data=data, metadata=metadata or {})
    return nbformat.v4.new_code_cell("show()", outputs=[output])


# name: (cells, the notebook's metadata, what must be gone, what must stay)
ATTACKS: dict[str, tuple[list, dict, list[str], list[str]]] = {
    "script in Markdown": (
        [markdown(f"{KEEP}\n\n<script>planted()</script>")],
        {},
        ["<script>planted"],
        [KEEP],
    ),
    "event handler in Markdown": (
        [markdown(f'<img src="data:image/png;base64,{PNG}" onerror="planted()"> {KEEP}')],
        {},
        ["onerror"],
        [KEEP, f'src="data:image/png;base64,{PNG}"'],
    ),
    "javascript: link in Markdown": (
        [markdown(f"[{KEEP}](javascript:planted())")],
        {},
        ["javascript:"],
        [KEEP],
    ),
    "javascript: link as HTML": (
        [markdown(f'<a href=" JaVaScRiPt:planted()">{KEEP}</a>')],
        {},
        ["JaVaScRiPt:"],
        [KEEP],
    ),
    "data: link": (
        [
            markdown(
                f'<a href="data:text/html;base64,{base64_of("<script>x()</script>")}">{KEEP}</a>'
            )
        ],
        {},
        ["data:text/html"],
        [KEEP],
    ),
    "SVG picture in Markdown": (
        [markdown(f'<img src="data:image/svg+xml;base64,{base64_of(SVG)}" alt="{KEEP}">')],
        {},
        [base64_of(SVG)],  # (the page's own style sheets have SVG pictures)
        [KEEP],
    ),
    "iframe": (
        [markdown(f'{KEEP} <iframe src="https://evil.example/"></iframe>')],
        {},
        ["<iframe", "evil.example"],
        [KEEP],
    ),
    "object": (
        [markdown(f'{KEEP} <object data="https://evil.example/x"></object>')],
        {},
        ["<object", "evil.example"],
        [KEEP],
    ),
    "embed": (
        [markdown(f'{KEEP} <embed src="https://evil.example/x">')],
        {},
        ["<embed", "evil.example"],
        [KEEP],
    ),
    "style element": (
        [markdown(f"{KEEP}\n\n<style>body {{ background: url(https://evil.example/t) }}</style>")],
        {},
        ["evil.example"],
        [KEEP],
    ),
    "style attribute with a remote url and an expression": (
        [
            markdown(
                '<div style="color: red; background: url(https://evil.example/t);'
                f' width: expression(planted())">{KEEP}</div>'
            )
        ],
        {},
        ["evil.example", "expression("],
        [KEEP, 'style="color: red"'],
    ),
    "meta refresh": (
        [markdown(f'{KEEP} <meta http-equiv="refresh" content="0; url=https://evil.example/">')],
        {},
        ["http-equiv", "evil.example"],
        [KEEP],
    ),
    "base href": (
        [markdown(f'{KEEP} <base href="https://evil.example/">')],
        {},
        ["evil.example"],
        [KEEP],
    ),
    "Mermaid block in Markdown": (
        [markdown(f"{KEEP}\n\n```mermaid\n<img src=x onerror=planted()>\n```")],
        {},
        ["onerror"],
        [KEEP],
    ),
    "noscript mutation": (
        [markdown(f'{KEEP} <noscript><p title="</noscript><img src=x onerror=planted()>">')],
        {},
        ["onerror"],
        [KEEP],
    ),
    "SVG attachment": (
        [
            markdown(
                f"![{KEEP}](attachment:plot.svg)",
                attachments={"plot.svg": {"image/svg+xml": base64_of(SVG)}},
            )
        ],
        {},
        [base64_of(SVG)],  # (the page's own style sheets have SVG pictures)
        [KEEP],
    ),
    "script in an HTML output": (
        [shown({"text/html": f"<b>{KEEP}</b><script>planted()</script>"})],
        {},
        ["<script>planted"],
        [f"<b>{KEEP}</b>"],
    ),
    "event handler in an HTML output": (
        [shown({"text/html": f'<div onmouseover="planted()">{KEEP}</div>'})],
        {},
        ["onmouseover"],
        [KEEP],
    ),
    "script in a Markdown output": (
        [shown({"text/markdown": f"{KEEP}<script>planted()</script>"})],
        {},
        ["<script>planted"],
        [KEEP],
    ),
    "SVG output with onload and a script": (
        [shown({"image/svg+xml": SVG})],
        {},
        ["onload", "<script>planted"],
        [KEEP, "<circle ", 'fill="red"', 'viewbox="0 0 10 10"'],  # (any case works in HTML)
    ),
    "SVG output with a javascript: link, foreignObject, animate and a remote use": (
        [
            shown(
                {
                    "image/svg+xml": '<svg xmlns="http://www.w3.org/2000/svg" '
                    'xmlns:xlink="http://www.w3.org/1999/xlink">'
                    f'<a xlink:href="javascript:planted()"><text>{KEEP}</text></a>'
                    '<foreignObject><iframe src="https://evil.example/"/></foreignObject>'
                    '<animate attributeName="href" to="javascript:planted()"/>'
                    '<use href="https://evil.example/s.svg#x"/></svg>'
                }
            )
        ],
        {},
        ["javascript:", "evil.example", "<animate", "foreignObject"],
        [KEEP],
    ),
    "JavaScript output": (
        [shown({"application/javascript": "planted()", "text/plain": KEEP})],
        {},
        ["planted()"],
        [KEEP],
    ),
    "Mermaid output": (
        [shown({"text/vnd.mermaid": "<img src=x onerror=planted()>", "text/plain": KEEP})],
        {},
        ["onerror"],
        [KEEP],
    ),
    "size of a picture": (
        [
            shown(
                {"image/png": PNG, "text/plain": "<Figure>"},
                {"image/png": {"width": "1 onerror=planted()", "height": 20}},
            ),
            markdown(KEEP),
        ],
        {},
        ["onerror"],
        [f"data:image/png;base64,{PNG}", 'height="20"'],
    ),
    "widget state": (
        [markdown(KEEP)],
        {"widgets": {"application/vnd.jupyter.widget-state+json": {"state": {}}}},
        ["unpkg.com", "widget-state"],
        [KEEP],
    ),
}


def write_notebook(folder: Path, cells: list, metadata: dict | None = None) -> Path:
    notebook = nbformat.v4.new_notebook(cells=cells, metadata=metadata or {})
    path = folder / "hostile.ipynb"
    nbformat.write(notebook, path)
    return path


def nbconvert_html(path: Path) -> str:
    """nbconvert's own HTML of ``path``, with its SVG pictures decoded."""
    from nbconvert import HTMLExporter

    page, _ = HTMLExporter().from_filename(str(path))
    svgs = re.findall(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)", page)
    return page + "".join(base64.b64decode(svg).decode() for svg in svgs)


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_nothing_a_notebook_brings_runs_in_its_handout(tmp_path, attack):
    cells, metadata, planted, kept = ATTACKS[attack]
    path = write_notebook(tmp_path, cells, metadata)
    plain = nbconvert_html(path)
    assert [text for text in planted if text not in plain] == [], "not an attack"
    page = handout.handout_html(path)
    assert [text for text in planted if text in page] == []
    assert [text for text in kept if text not in page] == []
    assert handout.unsafe_parts(page) == []
    assert page.count("<script") == 3  # the handout's own: MathJax's fonts, loader and settings


def test_cell_metadata_stays_inside_its_attributes(tmp_path):
    tag = '" onmouseover="planted()'
    cells = [markdown(KEEP, metadata={"tags": [tag]})]
    path = write_notebook(tmp_path, cells, {"title": "</title><script>planted()</script>"})
    page = handout.handout_html(path)
    assert KEEP in page and f"celltag_{tag}" in page  # the tag is there, as a class
    assert handout.unsafe_parts(page) == []  # not as an attribute
    assert "&lt;script&gt;planted()" in page and "<script>planted" not in page


def test_what_nbconvert_would_misread_is_left_out(tmp_path):
    cells = [
        nbformat.v4.new_raw_cell("x", metadata={"raw_mimetype": 5}),  # not a string
        nbformat.v4.new_raw_cell(
            f"<b>{KEEP}</b><script>planted()</script>", metadata={"raw_mimetype": "text/html"}
        ),
        shown({"image/png": '" onerror="planted()', "text/plain": "not a picture"}),
    ]
    page = handout.handout_html(write_notebook(tmp_path, cells))
    assert f"<b>{KEEP}</b>" in page and "not a picture" in page
    assert "planted()" not in page


def test_the_page_is_checked_after_cleaning(tmp_path, monkeypatch):
    # Were a piece of HTML to escape the cleaning, the page would not be written.
    path = write_notebook(tmp_path, [markdown(f"{KEEP}<script>planted()</script>")])
    monkeypatch.setattr(handout, "clean_html", lambda html: html)
    with pytest.raises(RuntimeError, match=r"still has 1 part\(s\) that could run or load"):
        handout.handout_html(path)


def test_the_page_check_finds_each_kind_of_part():
    found = handout.unsafe_parts(
        '<div onclick="x()"><script src="https://cdn.example/x.js"></script>'
        '<iframe></iframe><meta http-equiv="refresh"><a href=" java\tscript:x()">a</a>'
        '<img src="data:image/svg+xml;base64,AA=="><script>x()</script></div>'
    )
    assert len(found) == 7, found
    mathjax = f'<script src="{handout.MATHJAX_URL}"></script>{handout.MATHJAX_FONTS}'
    assert handout.unsafe_parts(mathjax + '<img src="data:image/png;base64,AA==">') == []


@pytest.mark.parametrize("chapter", ["01-rotations-and-transforms", "02-dh-conventions"])
def test_the_chapters_keep_their_formulas_tables_and_figures(chapter):
    path = ROOT / "notebooks" / f"{chapter}.ipynb"
    page = html.unescape(handout.handout_html(path, keep_solutions=True))
    formulas, pictures, tables = [], [], 0
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "markdown":
            text = re.sub(r"`[^`]*`", "", cell.source)  # (code spans have no formulas)
            formulas += re.findall(r"\$\$.+?\$\$", text, re.DOTALL)
            text = re.sub(r"\$\$.+?\$\$", "", text, flags=re.DOTALL)
            formulas += re.findall(r"(?<!\\)\$[^$\n]+?(?<!\\)\$", text)
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            shown_html = data.get("text/html", "")
            pictures += re.findall(r"data:image/png;base64,[A-Za-z0-9+/]{200}", shown_html)
            if not shown_html and "image/png" in data:
                pictures.append(data["image/png"][:200])
            formulas += re.findall(r"\$[^$<>]+\$", shown_html)
            tables += shown_html.count("<table")
    assert len(formulas) > 20 and pictures and tables
    assert [formula for formula in formulas if formula not in page] == []
    assert [picture[:60] for picture in pictures if picture not in page] == []
    assert page.count("<table") >= tables


def test_bad_notebook_files_are_named(tmp_path, monkeypatch, capsys):
    not_json = tmp_path / "not-json.ipynb"
    not_json.write_text("{'cells': [", encoding="utf-8")
    with pytest.raises(ValueError, match=r"not-json\.ipynb' is not JSON: Expecting property"):
        handout.handout_html(not_json)
    for text in ("[]", '{"nbformat": 3, "nbformat_minor": 0}', '{"nbformat": 4}'):
        (tmp_path / "other.ipynb").write_text(text, encoding="utf-8")
        with pytest.raises(
            ValueError, match=r"other\.ipynb' is not a Jupyter notebook of format 4"
        ):
            handout.handout_html(tmp_path / "other.ipynb")
    wrong = tmp_path / "wrong.ipynb"
    wrong.write_text('{"cells": 3, "nbformat": 4, "nbformat_minor": 5, "metadata": {}}')
    with pytest.raises(ValueError, match=r"wrong\.ipynb' is not a valid Jupyter notebook: .*cells"):
        handout.handout_html(wrong)
    missing = write_notebook(tmp_path, [markdown("![a picture](attachment:gone.png)")])
    with pytest.raises(ValueError, match=r"hostile\.ipynb': missing attachment: gone\.png"):
        handout.handout_html(missing)
    monkeypatch.setattr(handout, "MAX_NOTEBOOK_BYTES", 100)
    with pytest.raises(ValueError, match=r"bytes, more than the 100 a handout reads"):
        handout.handout_html(CHAPTER)
    # the command line: one line, exit 2, nothing written
    output = tmp_path / "out"
    assert handout.main([str(not_json), "--output-dir", str(output)]) == 2
    printed = capsys.readouterr()
    assert printed.out == "" and len(printed.err.splitlines()) == 1
    assert printed.err.startswith("handout: notebook ") and not output.exists()
