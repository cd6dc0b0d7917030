"""Validation: translate CUDA programs, compile the result with hipcc for AMD GPUs, and (on an NVIDIA GPU
machine) run original and translation and compare. Entry point: :func:`validate_main`."""

from __future__ import annotations

from .cli import validate_main

__all__ = ["validate_main"]
