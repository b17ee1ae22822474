"""Everything that draws: ``drawing/`` (3D robot views, frame pictures, labels, the drawable
protocol for DH and screw robots), ``widgets/`` (controls, live figures, the teach pendant,
animations) and ``chapters/`` (one file per chapter widget, named after its class); what
exists only for speed is in ``_fast/``.

Imports support, spatial, the kinematic modules of screw, dh and models: never screw's
dynamics, simulation or control (views of dynamics get data or a function from the
notebook).
"""

from .._api import exports

__all__, __getattr__, __dir__ = exports(__name__)
