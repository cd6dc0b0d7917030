"""Which includes of a CUDA header HIP lacks nothing uses (``#include <cuda_pipeline.h>`` in a file that names
nothing it declares): the includes rule comments them out (HPY027), and the build-conditions rule, deciding
whether a branch holds what HIP lacks, counts them as the comments they become. Both must read them alike, and
as the next translation reads its own output: a condition left as written because its branch held such an
include would be decided by the second translation, which sees a comment there.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Sequence

from ..compat import HEADER_NAME
from ..knowledge.table import Row
from ..lexing.facts import Include
from ..lexing.text_facts import next_token, prev_token
from ..model import Span
from .context import Context
from .neighbours import JOINS_A_WORD, directive_of
from .rules.launches import rewritten_as_calls


def unused_header(ctx: Context, inc: Include, row: Row) -> bool:
    """Is ``inc`` an include of a CUDA header HIP lacks (``row``) that the translation comments out: where the
    translation may edit, nothing of the file uses what it declares, and, as a comment, it joins no code?"""
    if row.kind != "header" or not ctx.allowed(inc.start, inc.region) or ctx.decide(row).target:
        return False
    return _unused(ctx, row) and not _joins_across(ctx, inc)


_QUALIFIER_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")
_HEADER_SUFFIXES = (".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc", ".tcc")
_WORD = re.compile(r"[A-Za-z_]\w*", re.ASCII)
_SPACE = re.compile(r"\s+")


def _unused(ctx: Context, row: Row) -> bool:
    """Does this compiled file use none of the names a CUDA header HIP lacks declares (``Row.declares``)? A
    header's include stays: the files including it may use them."""
    if not row.declares or ctx.source.path.lower().endswith(_HEADER_SUFFIXES):
        return False
    return ctx.memo(_words_used).isdisjoint(row.declares.split())


def _words_used(ctx: Context) -> frozenset[str]:
    """Every word of the file outside comments and literals, directives included (``#ifdef __CUDA_IMMA__``), as
    the translation leaves them: a CUDA namespace it renames counts as its target (``cuda::std::x`` is ``std::x``
    then: ``cuda`` is used by no one the next translation reads, which must decide as this one does)."""
    masked = ctx.masked
    pattern = _renamed_namespaces(tuple(sorted(ctx.index.namespaces.items())), ctx.options.roc)
    if pattern is not None and "::" in masked:
        targets = {path: pair[1] if ctx.options.roc else pair[0] for path, pair in ctx.index.namespaces.items()}
        removed = ctx.index.removed

        directives = ctx.code_directives

        def renamed(m: re.Match[str]) -> str:
            before, at = prev_token(ctx.masked, m.start())
            if before == "::":  # global (``::cuda::std``, also after a deleted ``CUBLASAPI``), or another's member
                owner, owner_at = prev_token(ctx.masked, at)
                # (a qualifier as the identifier facts read one, which the namespaces rule goes by: not one across
                # the border of a directive line)
                if (
                    (owner[:1] in _QUALIFIER_START or owner == ">")
                    and owner not in removed
                    and owner_at >= _floor(directives, m.start())
                ):
                    return m.group()
            return targets.get(_SPACE.sub("", m.group()), m.group())

        masked = pattern.sub(renamed, masked)
    return frozenset(_WORD.findall(masked))


# Headers the translation adds includes of (rules/runtime_include.py, rules/compat.py).
_INSERTED = frozenset(("hip/hip_runtime.h", "cstring", HEADER_NAME))


def _inserted_includes(ctx: Context) -> frozenset[int]:
    """Where the file's includes of headers the translation may add start."""
    return frozenset(inc.start for inc in ctx.facts.includes if inc.header in _INSERTED)


def _floor(directives: Sequence[Span], pos: int) -> int:
    """Where the tokens that may qualify a name at ``pos`` begin: its directive line's start, or the end of the
    directive line before it."""
    i = bisect.bisect_right(directives, (pos, pos)) - 1
    if i < 0:
        return 0
    start, end = directives[i]
    return start if start <= pos < end else end


@functools.lru_cache(maxsize=4)
def _renamed_namespaces(namespaces: tuple[tuple[str, tuple[str, str]], ...], roc: bool) -> re.Pattern[str] | None:
    """The CUDA namespace paths the translation writes otherwise, used as qualifiers (``cuda :: std ::``)."""
    paths = [path for path, pair in namespaces if (pair[1] if roc else pair[0]) not in ("", path)]
    if not paths:
        return None
    spelled = [r"\s*::\s*".join(map(re.escape, path.split("::"))) for path in sorted(paths, key=len, reverse=True)]
    return re.compile(r"(?<![\w$])(?:" + "|".join(spelled) + r")(?=\s*::)")


def _joins_across(ctx: Context, inc: Include) -> bool:
    """Would the include, as a comment, join the tokens around it as the translation leaves them (``cub`` before its
    line, ``::`` after): a line that is no directive any more separates nothing, and the next translation would read
    ``cub ::`` anew."""
    masked, removed = ctx.masked, ctx.index.removed
    before, at = prev_token(masked, inc.start)
    while before in removed:  # (deleted macros around it join nothing: CUBLASAPI ::)
        before, at = prev_token(masked, at)
    # A directive line before it separates what is before from what follows (#if X>0, then the include): the
    # comment's line joins nothing to it. Not one of an include the translation may itself add there (the HIP
    # runtime, <cstring>, the compatibility header): the next translation sees that one, where this one sees code.
    inserted = _inserted_includes(ctx)
    directives = ctx.code_directives
    while (line := directive_of(directives, at)) >= 0 and directives[line][0] in inserted:
        before, at = prev_token(masked, directives[line][0])
        while before in removed:
            before, at = prev_token(masked, at)
    if directive_of(directives, at) >= 0:
        return False
    calls = rewritten_as_calls(ctx)
    after, at = next_token(masked, inc.end)
    while after in removed and at not in calls:
        after, at = next_token(masked, at + len(after))
    if at in calls:
        return False  # a launch rewritten as a call begins there: the launcher's name, a word, follows the line
    return (before[:1] in _QUALIFIER_START or before in (">", "::")) and after in JOINS_A_WORD
