"""Which files git says changed (``--changed-since REV``, ``--staged``), for runs that translate
only what changed: a pre-commit hook, a mirror kept up to date, a CI job on a pull request."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence


class VcsError(Exception):
    """git cannot answer (not a repository, an unknown revision, no git); the message says which."""


def _git(directory: str, *args: str) -> str:
    try:
        proc = subprocess.run(["git", "-C", directory, *args], capture_output=True, text=True, timeout=120)
    except FileNotFoundError:
        raise VcsError("git is not installed; --changed-since and --staged need it") from None
    except subprocess.TimeoutExpired:
        raise VcsError(f"git {' '.join(args)} did not answer within 120 s") from None
    if proc.returncode != 0:
        raise VcsError(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"git {args[0]} failed")
    return proc.stdout


def _top_level(path: str) -> str:
    directory = path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path)) or "."
    return _git(directory, "rev-parse", "--show-toplevel").strip()


def changed_files(paths: Sequence[str], since: str = "", staged: bool = False) -> frozenset[str]:
    """Real paths of the files that changed: staged ones (``staged``), or those whose content differs
    from revision ``since`` in the working tree, untracked ones included. Deleted files are not listed."""
    found: set[str] = set()
    for top in sorted({_top_level(p) for p in paths}):
        if staged:
            names = _git(top, "diff", "--cached", "--name-only", "--diff-filter=ACMR", "-z").split("\0")
        else:
            _git(top, "rev-parse", "--verify", "--quiet", f"{since}^{{commit}}")
            names = _git(top, "diff", "--name-only", "--diff-filter=ACMR", "-z", since, "--").split("\0")
            names += _git(top, "ls-files", "--others", "--exclude-standard", "-z").split("\0")
        found.update(os.path.realpath(os.path.join(top, n)) for n in names if n)
    return frozenset(found)
