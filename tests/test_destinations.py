"""How a run shows each file's path in its messages: relative to the working directory, as ``os.path.relpath``
gives it, inside that directory or outside it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hipify.run.destinations import _display
from hipify.sources.discover import Found


@pytest.mark.parametrize("where", ["tree", "tree/src", "elsewhere", "."])
def test_a_shown_path_is_the_path_relative_to_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    for directory in ("tree/src/deep", "elsewhere"):
        (tmp_path / directory).mkdir(parents=True)
    monkeypatch.chdir(tmp_path / where)
    paths = [
        tmp_path / "tree" / "a.cu",
        tmp_path / "tree" / "src" / "b.cu",
        tmp_path / "tree" / "src" / "deep" / "c.cuh",
        tmp_path / "tree" / "src" / "deep" / ".." / "d.cu",  # as a user may have typed it
        Path("relative.cu"),
        Path("..") / "up.cu",
    ]
    for path in paths:
        found = Found(path, path.parent, Path(path.name), False)
        assert _display(found) == os.path.relpath(path)
        assert _display(found) == os.path.relpath(path)  # and again, from what was worked out for its directory
