"""Drawing robots and frames in matplotlib: the drawable protocol (``drawable``), the view's
options (``options``), 3D robot views (``robot_view``, fitted by ``fitting``), frame
pictures (``frame_pictures``) and labels that never overlap (``text3d``)."""

from ..._api import exports

__all__, __getattr__, __dir__ = exports(__name__)
