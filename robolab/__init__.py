"""robolab: learn and teach robot-arm kinematics and dynamics in Jupyter.

The package face only re-exports. The code lives in subpackages, one layer each, imports
going one way (see docs/architecture.md):

    conventions → support → spatial → screw → dh → models → views, lessons → robolab

and ``robolab.exercises`` and ``robolab.symbols`` are the two module paths the notebooks use.
Which module defines each public name is written once, in :mod:`robolab._api`.

``import robolab`` loads none of them (PEP 562): a name is imported from its module the
first time it is used, so a numeric script does not pay for SymPy, matplotlib and
ipywidgets, and ``robolab.__all__``, ``dir(robolab)`` and tab completion list every name
all the same.

Examples
--------
>>> import robolab
>>> "load_robot" in robolab.__all__ and "load_robot" in dir(robolab)
True
>>> robolab.rotz(0.0).shape
(3, 3)
"""

from __future__ import annotations

from ._api import exports

__version__ = "0.1.0"

__all__, __getattr__, __dir__ = exports(__name__)
