"""The include graph's shortcuts give the answers of the slow ways they replace: a file key from its directory's real
path, and the files including a changed one found by following the include edges backwards."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hipify.knowledge.table import load_table
from hipify.options import Options
from hipify.project.graph import ModelBuilder, ProjectModel, _Resolver, file_key
from hipify.project.scan import scan_text


def _tree(tmp_path: Path) -> Path:
    real = tmp_path / "real"
    (real / "inc").mkdir(parents=True)
    (real / "inc" / "a.h").write_text("int a;\n")
    (real / "inc" / "target.h").write_text("int t;\n")
    (tmp_path / "linked").symlink_to(real, target_is_directory=True)  # a directory reached through a link
    (real / "inc" / "alias.h").symlink_to(real / "inc" / "target.h")  # a file that is a link
    return tmp_path


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links need privileges on Windows")
def test_resolver_keys_are_real_paths(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    resolver = _Resolver([], frozenset())
    paths = [
        root / "real" / "inc" / "a.h",
        root / "linked" / "inc" / "a.h",  # the directory is a link
        root / "linked" / "inc" / "alias.h",  # the file is a link
        root / "real" / "inc" / ".." / "inc" / "a.h",  # '..' is resolved after the links, never lexically
        root / "linked" / "inc" / "missing.h",  # no such file: realpath joins what it cannot resolve
    ]
    for path in paths:
        assert resolver._key(str(path)) == file_key(str(path)) == os.path.realpath(path)
    # asked again, from the directory's remembered real path
    assert resolver._key(str(paths[1])) == os.path.realpath(paths[1])


def _model(edges: dict[str, tuple[str, ...]]) -> ProjectModel:
    return ProjectModel({}, frozenset(edges), edges=edges)


def test_including_is_every_file_whose_closure_holds_a_key() -> None:
    edges = {
        "/t/main.cu": ("/t/a.h", "/t/b.h"),
        "/t/other.cu": ("/t/b.h",),
        "/t/a.h": ("/t/c.h",),
        "/t/b.h": (),
        "/t/c.h": ("/t/a.h",),  # a cycle
        "/t/alone.cu": (),
    }
    model = _model(edges)
    for changed in ({"/t/c.h"}, {"/t/b.h"}, {"/t/alone.cu"}, {"/t/nowhere.h"}, {"/t/a.h", "/t/b.h"}, set()):
        keys = frozenset(changed)
        by_closure = {k for k in edges if not keys.isdisjoint(model.closure(k))} | keys
        assert model.including(keys) == by_closure


def test_staged_run_translates_the_changed_header_and_its_includers(tmp_path: Path) -> None:
    """--staged selects through :meth:`ProjectModel.including`: the staged header, the files that include it
    (directly or not), and nothing else."""
    git = subprocess.run(["git", "--version"], capture_output=True, check=False) if os.name == "posix" else None
    if git is None or git.returncode != 0:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "util.h").write_text("#pragma once\ninline void f() { cudaDeviceSynchronize(); }\n")
    (repo / "mid.h").write_text('#pragma once\n#include "util.h"\n')
    (repo / "a.cu").write_text('#include "mid.h"\nint main() { f(); }\n')
    (repo / "b.cu").write_text("int main() { cudaDeviceSynchronize(); }\n")
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid")  # fmt: skip

    def run(*cmd: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True, check=False)

    run("git", "init", "-q")
    run("git", "add", "-A")
    run("git", "commit", "-qm", "init")
    (repo / "util.h").write_text("#pragma once\ninline void f() { cudaDeviceSynchronize(); cudaFree(0); }\n")
    run("git", "add", "util.h")
    proc = run(sys.executable, "-m", "hipify", "--staged", "--diff", "--no-cache", "--engine", "regex", ".")
    changed = {line[6:] for line in proc.stdout.splitlines() if line.startswith("+++ b/")}
    assert changed == {"util.h", "a.cu"}, proc.stdout + proc.stderr
    # the model the selection came from: b.cu includes nothing, a.cu reaches util.h through mid.h
    table, options = load_table(), Options(engine="regex")
    paths = [str(repo / n) for n in ("a.cu", "b.cu", "mid.h", "util.h")]
    builder = ModelBuilder(paths)
    for path in paths:
        builder.add(scan_text(path, Path(path).read_text(), table, options))
    model = builder.finish(lambda vague: [])
    util = file_key(str(repo / "util.h"))
    assert model.including(frozenset({util})) == {file_key(str(repo / n)) for n in ("a.cu", "mid.h", "util.h")}


def test_staged_runs_keep_the_scans_and_read_a_changed_file_again(tmp_path: Path) -> None:
    """A run selecting by git keeps the model's scans (run/manifest.SelectionScans); the next takes back those
    whose file is unchanged, scans the others again, and selects and translates as a run without a cache does."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo, cache = tmp_path / "repo", tmp_path / "cache"
    repo.mkdir()
    (repo / "util.h").write_text("#pragma once\ninline void f() { cudaDeviceSynchronize(); }\n")
    (repo / "a.cu").write_text('#include "util.h"\nint main() { f(); }\n')
    (repo / "b.cu").write_text("int main() { cudaDeviceSynchronize(); }\n")
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid")  # fmt: skip

    def run(*cmd: str, cached: bool = True) -> subprocess.CompletedProcess[str]:
        extra = {"HIPIFY_PY_CACHE_DIR": str(cache)} if cached else {}
        return subprocess.run(cmd, cwd=repo, env={**env, **extra}, capture_output=True, text=True, check=False)

    def staged(cached: bool = True) -> str:
        hipify = [sys.executable, "-m", "hipify", "--staged", "--diff", "--engine", "regex", "."]
        proc = run(*hipify, *([] if cached else ["--no-cache"]), cached=cached)
        assert proc.returncode in (0, 1), proc.stderr
        return proc.stdout

    run("git", "init", "-q")
    run("git", "add", "-A")
    run("git", "commit", "-qm", "init")
    (repo / "util.h").write_text("#pragma once\ninline void f() { cudaDeviceSynchronize(); cudaFree(0); }\n")
    run("git", "add", "util.h")
    first = staged()
    assert "+++ b/a.cu" in first and "+++ b/b.cu" not in first
    kept = list((cache / "runs").glob("*.selection.pickle"))
    assert len(kept) == 1
    assert staged() == first  # every scan taken back
    # b.cu now includes the staged header (not staged itself: the model reads the working tree)
    (repo / "b.cu").write_text('#include "util.h"\nint main() { f(); }\n')
    again = staged()
    assert "+++ b/b.cu" in again
    assert again == staged(cached=False)
    kept[0].write_bytes(b"not a pickle")  # unreadable: as if nothing were kept
    assert staged() == again
