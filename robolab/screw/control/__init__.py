"""Control (Modern Robotics ch. 11; Spong et al. ch. 6-9): the control laws, each written
once, and their one gain validator (``laws``), the closed-loop simulation, in the book's
form and for several controllers at once (``tracking``), one geared joint under PD/PID
(``independent_joint``) and resolved-rate motion (``resolved_rate``)."""

from ..._api import exports

__all__, __getattr__, __dir__ = exports(__name__)
