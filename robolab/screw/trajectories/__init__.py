"""Trajectories (Modern Robotics ch. 9): time scalings, cubic, quintic and trapezoidal (LSPB)
(``time_scaling``), joint, screw and Cartesian paths (``point_to_point``) and cubic
segments through via points (``via_points``)."""

from ..._api import exports

__all__, __getattr__, __dir__ = exports(__name__)
