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

A notebook may come from a student, so nothing it brings runs in a handout: the HTML of its
Markdown cells, raw cells and outputs (HTML, Markdown, SVG) is cleaned by ``nh3`` (the ammonia
sanitizer) down to text, formulas, tables, links, pictures (PNG, JPEG or GIF ``data:`` URIs) and
plain SVG drawings; outputs of any other kind (JavaScript, widgets, Mermaid, PDF, ...) are left
out. The only scripts in a handout are its own MathJax, and a page that has any other script,
an event handler or a ``javascript:`` link is not written (:func:`unsafe_parts`).

What a handout hides and what it cannot: ``docs/teaching.md``, "What a handout without solutions
hides, and what it cannot".
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import re
import shutil
import sys
from collections.abc import Mapping, Sequence
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

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
#: The largest notebook a handout is made of (the course's chapters are under 1 MB).
MAX_NOTEBOOK_BYTES = 32 * 2**20
#: nbconvert's lab page without what it would load from a network (require.js, the widget
#: manager, Mermaid) and with the handout's MathJax fonts before the MathJax loader.
HANDOUT_TEMPLATE = (
    "{%- extends 'index.html.j2' -%}\n"
    "{%- block html_head_js -%}{%- endblock html_head_js -%}\n"
    "{%- block jupyter_widgets -%}{%- endblock jupyter_widgets -%}\n"
    "{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}\n"
    "{%- block html_head_js_mathjax -%}{% raw %}" + MATHJAX_FONTS + "{% endraw %}"
    "{{ super() }}{%- endblock html_head_js_mathjax -%}\n"
)

# What a handout keeps of a notebook, which may come from a student.
#: Output kinds shown (the others, JavaScript, widget views, Mermaid, PDF..., are left out).
OUTPUT_TYPES = frozenset(
    {"text/plain", "text/latex", "text/markdown", "text/html", "image/png", "image/jpeg"}
    | {"image/svg+xml"}
)
#: Kinds of a Markdown cell's attachments kept (the pictures that ``<img>`` may show).
ATTACHMENT_TYPES = frozenset({"image/png", "image/jpeg", "image/gif"})
#: The only pictures an ``<img>`` may show: PNG, JPEG or GIF inside the page.
IMAGE_DATA = re.compile(r"data:image/(?:png|jpeg|gif);base64,[A-Za-z0-9+/=\s]*", re.IGNORECASE)
#: SVG elements kept (what plots are drawn with; never ``script``, ``foreignObject``,
#: ``animate``/``set``, ``image`` or filters, which can run or load something).
SVG_TAGS = frozenset(
    {"svg", "g", "defs", "symbol", "use", "path", "rect", "circle", "ellipse", "line"}
    | {"polyline", "polygon", "text", "tspan", "clipPath", "marker", "pattern", "stop"}
    | {"linearGradient", "radialGradient"}
)
#: Their attributes (geometry and presentation; ``href`` of ``use`` only within the drawing).
SVG_ATTRIBUTES = frozenset(
    {"viewBox", "preserveAspectRatio", "version", "width", "height", "x", "y", "x1", "y1"}
    | {"x2", "y2", "cx", "cy", "r", "rx", "ry", "fx", "fy", "dx", "dy", "d", "points"}
    | {"transform", "opacity", "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width"}
    | {"stroke-linecap", "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray"}
    | {"stroke-dashoffset", "stroke-opacity", "clip-path", "clip-rule", "clipPathUnits"}
    | {"font-family", "font-size", "font-style", "font-weight", "text-anchor"}
    | {"dominant-baseline", "offset", "stop-color", "stop-opacity", "gradientUnits"}
    | {"gradientTransform", "markerWidth", "markerHeight", "markerUnits", "refX", "refY"}
    | {"orient", "patternUnits", "patternTransform", "href", "xlink:href"}
)
#: Elements removed with everything in them (the others not allowed keep their text).
REMOVED_WITH_CONTENT = frozenset(
    {"script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "noscript"}
    | {"noembed", "noframes", "template", "textarea", "select", "foreignObject", "title"}
)
#: CSS properties kept in ``style`` attributes (layout, colours, borders, SVG painting).
STYLE_PROPERTIES = frozenset(
    {"color", "background", "background-color", "opacity", "display", "visibility"}
    | {"padding", "padding-top", "padding-right", "padding-bottom", "padding-left"}
    | {"margin", "margin-top", "margin-right", "margin-bottom", "margin-left"}
    | {"border", "border-top", "border-right", "border-bottom", "border-left"}
    | {"border-color", "border-style", "border-width", "border-radius", "border-collapse"}
    | {"border-spacing", "width", "height", "max-width", "max-height", "min-width"}
    | {"min-height", "overflow", "flex", "flex-direction", "flex-wrap", "flex-grow", "gap"}
    | {"row-gap", "column-gap", "align-items", "justify-content", "text-align"}
    | {"vertical-align", "white-space", "line-height", "text-decoration", "font-family"}
    | {"font-size", "font-style", "font-weight"}
    | {"fill", "fill-opacity", "stroke", "stroke-width", "stroke-opacity", "stroke-linecap"}
    | {"stroke-linejoin", "stroke-dasharray", "text-anchor", "dominant-baseline", "clip-path"}
)
#: A CSS value kept: words, numbers, colours, ``rgb()``/``hsl()``, references ``url(#id)`` within
#: the page; never another ``url()``, ``expression()``, quotes or escapes.
CSS_VALUE = re.compile(r"(?:[-\w\s#.,%+/!]|(?:rgba?|hsla?)\([\d\s.,%/]*\)|url\(#[-\w.:]*\))*")
#: A ``url(`` that does not point within the page (in an SVG attribute such as ``fill``).
OUTSIDE_URL = re.compile(r"url\s*\(\s*(?!#)", re.IGNORECASE)


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


def clean_html(html: str | bytes) -> str:
    """The HTML a notebook brings, as a handout shows it: nothing in it can run or load.

    nh3 (the ammonia sanitizer) keeps its safe HTML elements (text, tables, lists, pictures,
    links), plain SVG drawings (:data:`SVG_TAGS`), classes, ids and filtered ``style``
    attributes (:func:`keep_attribute`); it removes everything else: ``<script>``, ``<style>``,
    ``<iframe>``, ``<object>``, ``<embed>``, ``<meta>``, event handlers, ``javascript:`` URLs.
    Text, and so the ``$...$`` formulas MathJax typesets, is kept as it is.

    Parameters
    ----------
    html : str or bytes
        A fragment of HTML from a notebook (a rendered Markdown cell, an output, a raw cell);
        bytes are UTF-8 (nbconvert's template passes SVG outputs so).

    Returns
    -------
    str
        The fragment without what could run.

    Examples
    --------
    >>> clean_html('<p onclick="steal()">$x^2$ <script>steal()</script><b>bold</b></p>')
    '<p>$x^2$ <b>bold</b></p>'
    >>> clean_html('<a href="javascript:steal()">a</a> <img src="x" onerror="steal()">')
    '<a rel="noopener noreferrer">a</a> <img>'
    """
    return html_cleaner().clean(html.decode() if isinstance(html, bytes) else str(html))


@functools.cache
def html_cleaner() -> Any:
    """The ``nh3.Cleaner`` of :func:`clean_html` (made once, when a handout first needs it)."""
    try:
        import nh3  # lazy, as the other libraries only a handout needs
    except ImportError as error:
        raise RuntimeError(
            "a handout sanitizes the notebook's HTML with the nh3 package: "
            ".venv/bin/python -m pip install -c binder/requirements.txt nh3"
        ) from error
    return nh3.Cleaner(
        tags=(nh3.ALLOWED_TAGS - {"area", "map"}) | SVG_TAGS,
        clean_content_tags=REMOVED_WITH_CONTENT,
        attributes={
            **nh3.ALLOWED_ATTRIBUTES,
            "*": {"class", "id", "style", "title"},
            **dict.fromkeys(SVG_TAGS, SVG_ATTRIBUTES),
        },
        attribute_filter=keep_attribute,
        url_schemes={"http", "https", "mailto", "data"},
    )


def keep_attribute(element: str, attribute: str, value: str) -> str | None:
    """The value of an attribute that :func:`clean_html` keeps, or None to remove it.

    ``<img src>`` must be a PNG, JPEG or GIF ``data:`` URI (nothing from a network, nothing
    that runs, as an SVG may); a link must not be a ``data:`` URI (nh3 removes the
    ``javascript:`` ones); an SVG ``href`` and ``url()`` point only within the page; ``style``
    keeps its declarations of :data:`STYLE_PROPERTIES` with plain values (:data:`CSS_VALUE`).

    Examples
    --------
    >>> keep_attribute("img", "src", "data:image/svg+xml;base64,PHN2Zz4=") is None
    True
    >>> keep_attribute("div", "style", "color: red; background: url(https://x.org/t.png)")
    'color: red'
    """
    if attribute == "style":
        return clean_style(value)
    if element == "img" and attribute == "src":
        return value if IMAGE_DATA.fullmatch(value.strip()) else None
    if attribute in ("href", "xlink:href"):
        if element in SVG_TAGS:
            return value if value.strip().startswith("#") else None
        return None if value.strip().lower().startswith("data:") else value
    return None if OUTSIDE_URL.search(value) else value


def clean_style(style: str) -> str | None:
    """The declarations of a ``style`` attribute that a handout keeps (None: none of them)."""
    kept = []
    for declaration in style.split(";"):
        name, colon, value = declaration.partition(":")
        name, value = name.strip().lower(), value.strip()
        if colon and name in STYLE_PROPERTIES and CSS_VALUE.fullmatch(value):
            kept.append(f"{name}: {value}")
    return "; ".join(kept) or None


def keep_what_a_handout_shows(nb: Any) -> Any:
    """Leave out of ``nb`` (in place) the outputs and data a handout does not show as they are.

    Outputs keep only the kinds of :data:`OUTPUT_TYPES` (no JavaScript, widget views, Mermaid);
    their metadata only numeric ``width``/``height``, ``unconfined`` and ``needs_background``
    (which nbconvert writes into ``<img>`` tags); attachments only PNG, JPEG and GIF; a raw
    cell's ``raw_mimetype`` must be a string; the notebook's metadata loses its widget state
    (which would load the widget manager).
    Whatever HTML stays is cleaned when the page is written (:func:`clean_html`).
    """
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if not isinstance(cell.metadata.get("raw_mimetype", ""), str):  # read as a string
            del cell.metadata["raw_mimetype"]
        for name, bundle in cell.get("attachments", {}).items():
            pictures = {kind: data for kind, data in bundle.items() if kind in ATTACHMENT_TYPES}
            # nbconvert would show an SVG before a PNG; with no picture left, the bundle stays
            # for nbconvert to name in the <img>, whose source clean_html then removes
            cell.attachments[name] = pictures or bundle
        for output in cell.get("outputs", []):
            if "data" in output:
                output.data = {
                    kind: data for kind, data in output.data.items() if shown(kind, data)
                }
                output.metadata = picture_metadata(output.get("metadata", {}))
    return nb


def shown(kind: str, data: Any) -> bool:
    """Whether a handout shows an output's ``data`` of this ``kind`` (a picture: if base64)."""
    if kind in ("image/png", "image/jpeg"):
        return isinstance(data, str) and bool(IMAGE_DATA.fullmatch(f"data:{kind};base64,{data}"))
    return kind in OUTPUT_TYPES


def picture_metadata(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """The entries of an output's metadata that nbconvert's template reads, when well formed."""

    def well_formed(entries: Mapping[str, Any]) -> dict[str, Any]:
        kept = {}
        for key, value in entries.items():
            if key in ("width", "height"):
                ok = type(value) in (int, float) and math.isfinite(value) and value > 0
            elif key == "unconfined":
                ok = isinstance(value, bool)
            else:
                ok = key == "needs_background" and value in ("light", "dark")
            if ok:
                kept[key] = value
        return kept

    kept: dict[str, Any] = well_formed(metadata)
    for kind in ("image/png", "image/jpeg"):
        if isinstance(metadata.get(kind), Mapping):
            kept[kind] = well_formed(metadata[kind])
    return kept


class ScriptFinder(HTMLParser):
    """Collects what could run or load in a page (see :func:`unsafe_parts`)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.script: dict[str, str | None] | None = None
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = self.found
        found += [f"<{tag} {name}=...>" for name, _ in attrs if name.startswith("on")]
        values = dict(attrs)
        if tag in ("iframe", "frame", "object", "embed", "applet", "base", "form", "link"):
            found.append(f"<{tag}>")
        if tag == "meta" and "http-equiv" in values:
            found.append("<meta http-equiv>")
        for name in ("href", "src", "xlink:href", "action", "formaction"):
            url = re.sub(r"[\x00-\x20]", "", values.get(name) or "").lower()
            if url.startswith(("javascript:", "vbscript:")) or (
                url.startswith("data:") and not IMAGE_DATA.match(url)
            ):
                found.append(f"<{tag} {name}={url[:30]}...>")
        if tag == "script":
            self.script, self.text = values, ""

    def handle_data(self, data: str) -> None:
        if self.script is not None:
            self.text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self.script is not None:
            trusted = (
                self.script == {"src": MATHJAX_URL}
                or self.script == {"type": "text/x-mathjax-config"}
                or (not self.script and f"<script>{self.text}</script>\n" == MATHJAX_FONTS)
            )
            if not trusted:
                attributes = "".join(f' {name}="{value}"' for name, value in self.script.items())
                self.found.append(f"<script{attributes}>{self.text.strip()[:40]}")
            self.script = None


def unsafe_parts(page: str) -> list[str]:
    """What in ``page`` could run or load, besides the handout's MathJax: should be nothing.

    A check of the whole page after :func:`clean_html` has cleaned its parts: any
    ``<script>`` but MathJax's, an event handler (``on...=``), an ``<iframe>``, ``<object>``,
    ``<embed>``, ``<base>``, ``<form>``, ``<link>`` or ``<meta http-equiv>``, a
    ``javascript:`` URL or a ``data:`` URI that is not a picture.

    Examples
    --------
    >>> unsafe_parts('<p><img src="data:image/png;base64,AA=="></p>')
    []
    >>> unsafe_parts('<p onclick="steal()"><script>steal()</script></p>')
    ['<p onclick=...>', '<script>steal()']
    """
    finder = ScriptFinder()
    finder.feed(page)
    finder.close()
    return finder.found


def read_notebook(notebook: Path) -> Any:
    """The notebook at ``notebook``, read and validated (ValueError naming what is wrong)."""
    import nbformat
    from nbformat.validator import get_validator

    notebook = Path(notebook)
    if notebook.suffix != ".ipynb" or not notebook.is_file():
        raise ValueError(f"notebook must be an existing .ipynb file, got {str(notebook)!r}")
    size = notebook.stat().st_size
    if size > MAX_NOTEBOOK_BYTES:
        raise ValueError(
            f"notebook {str(notebook)!r} has {size} bytes, more than the "
            f"{MAX_NOTEBOOK_BYTES} a handout reads"
        )
    try:
        text = notebook.read_text(encoding="utf-8")
        data = json.loads(text)
    except ValueError as error:  # not UTF-8, not JSON
        raise ValueError(f"notebook {str(notebook)!r} is not JSON: {error}") from None
    minor = data.get("nbformat_minor") if isinstance(data, dict) else None
    if not isinstance(data, dict) or data.get("nbformat") != 4 or type(minor) is not int:
        raise ValueError(
            f"notebook {str(notebook)!r} is not a Jupyter notebook of format 4 (its JSON has no "
            '"nbformat": 4 and "nbformat_minor")'
        )
    # nbformat's schema, checked before nbformat reads it (it fails on some bad structures)
    schema = get_validator(version=4, version_minor=min(max(minor, 0), nbformat.v4.nbformat_minor))
    for problem in schema.iter_errors(data):
        raise ValueError(
            f"notebook {str(notebook)!r} is not a valid Jupyter notebook: {problem.message[:200]}"
        )
    return nbformat.reads(text, as_version=4)


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
    from jinja2 import DictLoader
    from nbconvert import HTMLExporter
    from nbconvert.filters.markdown_mistune import InvalidNotebook
    from traitlets.config import Config

    nb = keep_what_a_handout_shows(read_notebook(notebook))
    config = Config()
    config.TagRemovePreprocessor.enabled = True
    config.TagRemovePreprocessor.remove_cell_tags = set() if keep_solutions else {SOLUTION_TAG}
    config.TagRemovePreprocessor.remove_input_tags = {HIDE_INPUT_TAG}
    config.HTMLExporter.mathjax_url = MATHJAX_URL
    config.HTMLExporter.exclude_input = no_input
    config.HTMLExporter.exclude_input_prompt = no_input
    # Every piece of HTML the notebook brings goes through the template's clean_html filter:
    # ours. SVG outputs too, inline (as images they would be left as the notebook wrote them).
    config.HTMLExporter.sanitize_html = True
    config.HTMLExporter.skip_svg_encoding = True
    config.HTMLExporter.filters = {"clean_html": clean_html}
    exporter = HTMLExporter(
        config=config,
        extra_loaders=[DictLoader({"handout.html.j2": HANDOUT_TEMPLATE})],
        template_file="handout.html.j2",
    )
    try:
        page, _ = exporter.from_notebook_node(nb)
    except InvalidNotebook as error:  # a Markdown cell shows an attachment it does not have
        raise ValueError(f"notebook {str(notebook)!r}: {error}") from None
    fonts, loader = page.find(MATHJAX_FONTS), page.find(f'<script src="{MATHJAX_URL}">')
    if not 0 <= fonts < loader:
        raise RuntimeError("nbconvert's template no longer loads MathJax where expected")
    unsafe = unsafe_parts(page)
    if unsafe:
        raise RuntimeError(
            f"the handout of {str(notebook)!r} still has {len(unsafe)} part(s) that could run "
            f"or load, such as {unsafe[0]}: nbconvert's template changed? Nothing written"
        )
    return page


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
    written = []
    pages = [  # every notebook read and cleaned before anything is written
        handout_html(notebook, keep_solutions=keep_solutions, no_input=no_input)
        for notebook in notebooks
    ]
    output_dir.mkdir(parents=True, exist_ok=True)
    copy_mathjax(output_dir)
    for notebook, page in zip(notebooks, pages, strict=True):
        html = output_dir / (Path(notebook).stem + ".html")
        html.write_text(page, encoding="utf-8")
        written.append(html)
        if pdf:
            written.append(print_pdf(html, html.with_suffix(".pdf")))
    return written


def main(argv: list[str] | None = None) -> int:
    """The command line: ``tools/handout.py NOTEBOOK... [--output-dir DIR] [--no-input] [--pdf]``.

    Prints the files written, one per line, and returns 0; on a bad notebook, one line that
    says what is wrong (on standard error) and 2; when the environment lacks something, 1.
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--output-dir", type=Path, default=Path("handout"))
    parser.add_argument("--keep-solutions", action="store_true", help="keep the solution cells")
    parser.add_argument("--no-input", action="store_true", help="outputs and text only")
    parser.add_argument("--pdf", action="store_true", help="also print a PDF with Chromium")
    args = parser.parse_args(argv)
    try:
        written = make_handouts(
            args.notebooks,
            args.output_dir,
            keep_solutions=args.keep_solutions,
            no_input=args.no_input,
            pdf=args.pdf,
        )
    except ValueError as error:
        print(f"handout: {error}", file=sys.stderr)
        return 2
    except (RuntimeError, OSError) as error:
        print(f"handout: {error}", file=sys.stderr)
        return 1
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
