from __future__ import annotations

import os
from pathlib import Path

from hipify.sources.discover import discover


def names(found: list) -> list[str]:
    return sorted(f.relative.as_posix() for f in found)


def make(tmp: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = tmp / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_walk_picks_sources_by_extension(tmp_path: Path) -> None:
    make(tmp_path, {"a.cu": "", "b/c.cuh": "", "b/d.cpp": "", "notes.txt": "", "Makefile": ""})
    found, problems = discover([tmp_path])
    assert names(found) == ["a.cu", "b/c.cuh", "b/d.cpp"] and not problems


def test_gitignore_and_exclude_are_honoured(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            ".gitignore": "build/\n*.gen.cu\n",
            "a.cu": "",
            "build/x.cu": "",
            "y.gen.cu": "",
            "sub/.gitignore": "skip.cu\n",
            "sub/skip.cu": "",
            "sub/keep.cu": "",
            "third_party/t.cu": "",
        },
    )
    found, _ = discover([tmp_path], exclude=("third_party/",))
    assert names(found) == ["a.cu", "sub/keep.cu"]
    found, _ = discover([tmp_path], use_gitignore=False)
    assert "build/x.cu" in names(found)


def test_explicit_file_is_taken_whatever_its_extension(tmp_path: Path) -> None:
    make(tmp_path, {"kernel.txt": ""})
    found, _ = discover([tmp_path / "kernel.txt"])
    assert [f.explicit for f in found] == [True]


def test_symlink_loop_is_reported_not_followed_forever(tmp_path: Path) -> None:
    make(tmp_path, {"a/k.cu": ""})
    os.symlink(tmp_path / "a", tmp_path / "a" / "loop")
    found, problems = discover([tmp_path])
    assert names(found) == ["a/k.cu"]
    assert any("loop" in p.message for p in problems)


def test_missing_path_and_broken_link_are_problems(tmp_path: Path) -> None:
    os.symlink(tmp_path / "nowhere.cu", tmp_path / "dangling.cu")
    found, problems = discover([tmp_path / "absent.cu", tmp_path])
    assert not found
    messages = sorted((p.message, p.fatal) for p in problems)
    # A dangling link met by a walk is a note; a path the user named that is absent is an error.
    assert messages == [("broken symbolic link; skipped", False), ("no such file or directory", True)]


def test_empty_extension_list_means_every_file(tmp_path: Path) -> None:
    make(tmp_path, {"CMakeLists.txt": "", "Makefile": "", "a.cu": ""})
    found, _ = discover([tmp_path], extensions=())
    assert names(found) == ["CMakeLists.txt", "Makefile", "a.cu"]
