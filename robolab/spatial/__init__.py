"""Single rigid bodies (Modern Robotics ch. 3): rotations and their angle sets and
quaternions (``orientations``), homogeneous transforms and the elementary DH transforms for
numbers and SymPy (``transforms``), twists, adjoints and exponential coordinates
(``rigid_body_motions``), projections onto SO(3) and SE(3) (``projections``), pose rates
(``pose_rates``), wrenches (``wrenches``) and the physical checks of a link's inertia with
their accepted exceptions (``inertia``).

Imports only robolab.support. The kernels without argument checks (``*_unchecked``) are
public names of :mod:`robolab.spatial.rigid_body_motions` for the layers above, not part
of the package face.
"""

from .._api import exports

__all__, __getattr__, __dir__ = exports(__name__)
