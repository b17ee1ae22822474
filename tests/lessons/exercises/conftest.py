"""The IPython shell an exercise runs in, for the tests of this folder."""

import pytest


@pytest.fixture
def shell():
    """A fresh IPython shell, as a notebook's kernel has."""
    from IPython.core.interactiveshell import InteractiveShell

    instance = InteractiveShell.instance()
    yield instance
    InteractiveShell.clear_instance()
