"""Robot files: the bundled robot library (JSON, schema, plausibility checks), URDF
reading and the URDF → JSON converter (``python -m robolab.models.convert``).

Imports the layers below it (support, spatial, screw, dh); urdf and convert are not
imported here, only on demand, to keep ``import robolab`` fast.
"""

from .library import (
    RobotModelData,
    check_plausibility,
    list_robots,
    load_robot,
    read_robot_model,
    save_robot,
)

__all__ = [
    "RobotModelData",
    "check_plausibility",
    "list_robots",
    "load_robot",
    "read_robot_model",
    "save_robot",
]
