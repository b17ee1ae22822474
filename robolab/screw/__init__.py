"""The numeric back end: a :class:`ScrewRobot` (product of exponentials) and the book's
algorithms, a folder per chapter of Modern Robotics and a file per algorithm:
``kinematics/`` (ch. 4-6: forward, jacobian, manipulability, inverse, inverse_analytic),
``dynamics/`` (ch. 8: rnea, mass_matrix, forward), ``simulation/`` (MR §8.5 and the course's
chapter 10: integrators, dynamics_trajectory, free_motion), ``trajectories/`` (ch. 9:
time_scaling, point_to_point, via_points) and ``control/`` (ch. 11: laws, tracking,
independent_joint, resolved_rate). Each algorithm takes a robot or the book's arrays first
(``book_form``). Code that exists only for speed is in ``_fast/``, called only by the
readable function it reproduces (``_fast.REPRODUCES``).

Imports only robolab.support and robolab.spatial.
"""

from .._api import exports

__all__, __getattr__, __dir__ = exports(__name__)
