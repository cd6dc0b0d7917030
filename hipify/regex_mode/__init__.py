"""The regex engine: the text facts of ``hipify.lexing``, planned by the shared planner."""

from __future__ import annotations
