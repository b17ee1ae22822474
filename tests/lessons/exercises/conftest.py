"""The IPython shell an exercise runs in, for the tests of this folder."""

import pytest

from robolab.lessons.exercises import worked_solutions


@pytest.fixture
def shell():
    """A fresh IPython shell that tells robolab each cell's source (as a notebook's kernel does)."""
    from IPython.core.interactiveshell import InteractiveShell

    instance = InteractiveShell.instance()
    worked_solutions.watch_cells()
    yield instance
    InteractiveShell.clear_instance()
