"""Shared test configuration: headless plotting, reproducible property tests, widget fixtures."""

import os
import warnings

import matplotlib
import pytest
from hypothesis import settings

os.environ.setdefault("MPLBACKEND", "Agg")
matplotlib.use("Agg")

# Property tests are reproducible in CI (derandomize) and never time out on a slow machine.
settings.register_profile("robolab", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("robolab")


@pytest.fixture(scope="module")
def ipympl_imported_once():
    """Import ipympl's backend once for a module, then go back to Agg.

    Importing ipympl the first time switches pyplot to its backend (its
    ``__init__`` calls ``matplotlib.use``), as a notebook's ``%matplotlib
    widget`` would; the tests draw with Agg.
    """
    import matplotlib.pyplot as plt

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import ipympl.backend_nbagg  # noqa: F401
    plt.switch_backend("Agg")
    yield
    plt.switch_backend("Agg")


@pytest.fixture
def widget_backend(monkeypatch):
    """Pretend %matplotlib widget is active (robolab only asks matplotlib.get_backend)."""
    monkeypatch.setattr(matplotlib, "get_backend", lambda: "module://ipympl.backend_nbagg")


@pytest.fixture
def kernel_bundle(monkeypatch):
    """A function giving an object's display bundle as a kernel with a widget front end gets it."""
    from robolab.support import widgets as _widgets

    def bundle(shown):
        monkeypatch.setattr(_widgets, "in_kernel", lambda: True)
        _widgets.set_test_mode(False)
        try:
            return shown._repr_mimebundle_()
        finally:
            _widgets.set_test_mode(None)

    return bundle
