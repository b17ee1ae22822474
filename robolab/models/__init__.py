"""Robot files: the bundled robot library (``library``: JSON, schema, plausibility checks),
the file format (``file_format``, ``reading``, ``writing``, ``plausibility``), URDF reading
(``urdf_tree``, ``urdf``) and the URDF → JSON converter (``python -m robolab.models.convert``).

Imports the layers below it (support, spatial, screw, dh).
"""

from .._api import exports

__all__, __getattr__, __dir__ = exports(__name__)
