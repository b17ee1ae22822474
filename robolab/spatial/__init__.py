"""Single rigid-body frames: rotations and their angle sets and quaternions, homogeneous
transforms, twists (also from Ṫ), wrenches, adjoints, exponential coordinates (Modern
Robotics ch. 3) and the elementary DH transforms.

Imports only robolab.support. The kernels without argument checks (``*_unchecked``) are
public names of :mod:`robolab.spatial.rigid_body_motions` for the layers above, not part
of the package face.
"""

from .orientations import (
    quaternion_multiply,
    quaternion_to_rotation,
    rotation_to_quaternion,
    rotation_to_zyz,
    zyz_to_rotation,
)
from .pose_rates import rpy_rate_matrix, twist_from_pose_rate
from .projections import (
    distance_to_se3,
    distance_to_so3,
    is_se3,
    is_so3,
    project_to_se3,
    project_to_so3,
)
from .rigid_body_motions import (
    ad,
    adjoint_representation,
    axis_angle3,
    axis_angle6,
    matrix_exp3,
    matrix_exp6,
    matrix_log3,
    matrix_log6,
    near_zero,
    normalize,
    rotation_position_to_transform,
    screw_to_axis,
    se3_to_vec,
    so3_to_vec,
    transform_inv,
    transform_to_rotation_position,
    vec_to_se3,
    vec_to_so3,
)
from .transforms import (
    dh_modified,
    dh_standard,
    rotation_to_rpy,
    rotx,
    roty,
    rotz,
    rpy_to_rotation,
    transl,
    trotx,
    troty,
    trotz,
)
from .wrenches import adjoint_transpose, wrench_transform

__all__ = [
    "ad",
    "adjoint_representation",
    "adjoint_transpose",
    "axis_angle3",
    "axis_angle6",
    "dh_modified",
    "dh_standard",
    "distance_to_se3",
    "distance_to_so3",
    "is_se3",
    "is_so3",
    "matrix_exp3",
    "matrix_exp6",
    "matrix_log3",
    "matrix_log6",
    "near_zero",
    "normalize",
    "project_to_se3",
    "project_to_so3",
    "quaternion_multiply",
    "quaternion_to_rotation",
    "rotation_position_to_transform",
    "rotation_to_quaternion",
    "rotation_to_rpy",
    "rotation_to_zyz",
    "rotx",
    "roty",
    "rotz",
    "rpy_rate_matrix",
    "rpy_to_rotation",
    "screw_to_axis",
    "se3_to_vec",
    "so3_to_vec",
    "transform_inv",
    "transform_to_rotation_position",
    "transl",
    "trotx",
    "troty",
    "trotz",
    "twist_from_pose_rate",
    "vec_to_se3",
    "vec_to_so3",
    "wrench_transform",
    "zyz_to_rotation",
]
