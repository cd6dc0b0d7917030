"""The project model: a fast scan of every input file before translation (``scan``), and the
include graph built from the scans (``graph``), from which each file's translation receives
the project facts it needs as a value (:class:`hipify.model.ProjectFacts`)."""

from __future__ import annotations
