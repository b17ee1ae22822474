"""One widget per chapter, each file named after its class: TwistView (ch. 5),
ManipulabilityMap (6), InverseKinematicsExplorer (7), RneaStepper (9), DropTheArm (10),
TrajectoryView (11), JointTuner (12), ControllerComparison (13)."""

from ..._api import exports

__all__, __getattr__, __dir__ = exports(__name__)
