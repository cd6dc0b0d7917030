"""The regex engine: a C/C++ lexer finds the facts, the shared planner decides the edits."""

from __future__ import annotations
