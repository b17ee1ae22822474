"""Widgets over figures: named controls (``controls``), figures driven by sliders
(``live_figure``), the teach pendant (``teach_pendant``, with ``singularity_readout``) and
animations (``animation``)."""

from ..._api import exports

__all__, __getattr__, __dir__ = exports(__name__)
