"""Bundled robot models (JSON files), installed as the package data ``robolab.robots``.

Load them with :func:`robolab.load_robot`; the format is described in
``robots/README.md``.
"""
