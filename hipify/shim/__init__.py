"""The single-source header: for projects that keep one CUDA source and compile it for AMD GPUs through a header,
the CUDA names they use defined in terms of HIP, generated from the project's own translation (``plan``), written
as one header or as a folder of headers named like CUDA's (``render``), and checked for drift (``check``)."""

from __future__ import annotations

from .plan import ShimPlan, StandIn, plan_shim
from .render import PRE_INCLUDED, SHIM_HEADER, render_header, render_include_dir

__all__ = ["PRE_INCLUDED", "SHIM_HEADER", "ShimPlan", "StandIn", "plan_shim", "render_header", "render_include_dir"]
