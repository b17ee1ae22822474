"""Drive a real Notebook 7 (``jupyter notebook``, the ``notebook`` package) in Debian's Chromium.

The classic interface's successor is a Lumino application like JupyterLab,
with one difference that matters to widgets: it matches its keyboard
shortcuts in the capture phase of ``keydown`` (JupyterLab in the bubble phase,
after the focused widget), so a key pressed on a slider reaches the notebook's
command-mode shortcuts first. ``tests/browser/test_notebook7.py`` checks that
robolab's sliders keep their keys there.

* :class:`NotebookServer` starts ``jupyter notebook`` on a free loopback port
  with a random token, its folders in a temporary directory (as
  :class:`~tests.browser.jupyterlab_harness.JupyterLabServer` does, whose
  environment, API calls and shutdown it reuses), news and update checks off
  and the application exposed to the page (``window.jupyterapp``).
* :func:`open_notebook7` launches Chromium headless and opens one notebook in
  the notebook view (``/notebooks/<path>``).
* :class:`NotebookPage` is a :class:`~tests.browser.jupyterlab_harness.LabPage`
  (run all cells, errors, pixel fingerprints, key-to-pixels timing: the same
  application API) that opens notebooks by Notebook 7's URL and counts the
  cells a student sees.
"""

from __future__ import annotations

import contextlib
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

from .jupyterlab_harness import CHROMIUM, CHROMIUM_ARGS, JupyterLabServer, LabPage


class NotebookServer(JupyterLabServer):
    """A Notebook 7 server on 127.0.0.1 serving ``root`` (start with ``with``)."""

    def __init__(self, root: Path, workdir: Path) -> None:
        super().__init__(root, workdir)
        self.log_path = self.workdir / "notebook7.log"

    name = "Notebook 7"

    def command(self) -> list[str]:
        """``jupyter notebook`` with the server options of JupyterLab's command."""
        return [
            *(sys.executable, "-m", "jupyter", "notebook"),
            *self.server_options(),
            # JupyterNotebookApp has no news_url or check_for_updates_class (JupyterLab's
            # LabApp has): the user settings written by _settings() turn both off
            "--JupyterNotebookApp.expose_app_in_browser=True",
        ]

    def __enter__(self) -> NotebookServer:
        self.start()
        return self


#: Cells a student sees: rendered and not hidden by a collapsed heading.
_VISIBLE_CELLS_JS = """
() => Array.from(document.querySelectorAll('.jp-Notebook .jp-Cell'))
  .filter((cell) => cell.checkVisibility ? cell.checkVisibility() : cell.offsetParent !== null)
  .length
"""


#: What a fold would show: headings collapsed, cells hidden, "N cells hidden" buttons.
_FOLDED_JS = """
() => {
  const notebook = window.jupyterapp.shell.currentWidget.content;
  return {
    collapsed_headings: notebook.widgets.filter((cell) => cell.headingCollapsed === true).length,
    hidden_cells: notebook.widgets.filter((cell) => cell.isHidden).length,
    hidden_cells_buttons: notebook.node.querySelectorAll('.jp-showHiddenCellsButton').length,
  };
}
"""


class NotebookPage(LabPage):
    """A Notebook 7 page with one notebook open."""

    def open_notebook(self, path: str, timeout: float = 120.0) -> None:
        self.page.goto(f"{self.server.url}/notebooks/{path}?token={self.server.token}")
        self.page.wait_for_function("() => window.jupyterapp !== undefined", timeout=timeout * 1e3)
        self.page.wait_for_function(
            "() => { const p = window.jupyterapp.shell.currentWidget; "
            "return p !== null && p !== undefined && p.sessionContext !== undefined; }",
            timeout=timeout * 1e3,
        )
        self.page.evaluate(
            """async () => {
                 const panel = window.jupyterapp.shell.currentWidget;
                 await panel.context.ready;
                 await panel.sessionContext.ready;
               }"""
        )

    def visible_cells(self) -> int:
        """How many cells the page shows (a collapsed heading hides the cells below it)."""
        return int(self.page.evaluate(_VISIBLE_CELLS_JS))

    def folded(self) -> dict[str, int]:
        """Collapsed headings, hidden cells and "N cells hidden" buttons (all 0: nothing folded)."""
        return dict(self.page.evaluate(_FOLDED_JS))

    def active_cell_index(self) -> int:
        return int(
            self.page.evaluate(
                "() => window.jupyterapp.shell.currentWidget.content.activeCellIndex"
            )
        )


@contextlib.contextmanager
def open_notebook7(
    notebook: Path, workdir: Path, viewport: tuple[int, int] = (1300, 1000)
) -> Iterator[NotebookPage]:
    """Copy ``notebook`` into a fresh root, start Notebook 7 and Chromium, open the notebook."""
    from playwright.sync_api import sync_playwright

    root = workdir / "root"
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(notebook, root / notebook.name)
    with NotebookServer(root, workdir) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
            notebook_page = NotebookPage(page, server)
            notebook_page.open_notebook(notebook.name)
            yield notebook_page
            page.close()
        finally:
            browser.close()
