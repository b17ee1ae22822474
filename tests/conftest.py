"""Shared test configuration: headless plotting and reproducible property tests."""

import os

import matplotlib
from hypothesis import settings

os.environ.setdefault("MPLBACKEND", "Agg")
matplotlib.use("Agg")

# Property tests are reproducible in CI (derandomize) and never time out on a slow machine.
settings.register_profile("robolab", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("robolab")
