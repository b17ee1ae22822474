"""Test configuration shared by ``tests/`` and the doctests collected from ``robolab/``."""

import numpy as np
import pytest

#: NumPy's print options as the session starts (the doctests are written for them).
_DEFAULT_PRINT_OPTIONS = np.get_printoptions()


@pytest.fixture(autouse=True)
def _numpy_print_options_reset():
    """Start every test and doctest with NumPy's default print options.

    The tests that run a chapter's cells in this process also run its
    ``np.set_printoptions(precision=4, suppress=True)``; without this reset,
    whatever runs after them (a doctest, in any order) would print four decimals.
    """
    np.set_printoptions(**_DEFAULT_PRINT_OPTIONS)
    yield
