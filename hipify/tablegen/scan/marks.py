"""What a declaration's words and doc comment say about it: deprecated (and in favour of what), experimental,
documented as beta."""

from __future__ import annotations

import re

DEPRECATED_WORD = re.compile(r"deprecated", re.IGNORECASE)
# Identifiers that mark a declaration deprecated: DEPRECATED-style macros and the GNU/C++ attribute.
_DEPRECATION_MARK = re.compile(r"^(_*[A-Z0-9_]*DEPRECATED[A-Z0-9_]*|deprecated|__deprecated__)$")
_DOC_DEPRECATED = re.compile(r"[\\@]deprecated\b")
# "use hipHostMalloc instead" / "use hipHostMalloc() instead" in a deprecation message or its doc comment
_SUCCESSOR = re.compile(r"\buse\s+([A-Za-z_]\w*)\s*(?:\(\s*\))?\s+instead\b", re.IGNORECASE)
_DOC_EXPERIMENTAL = re.compile(r"\bexperimental\b", re.IGNORECASE)
# HIP documents many graph/memory-pool APIs as "marked as Beta": a caution, not an experimental marker.
_DOC_BETA = re.compile(r"marked as beta", re.IGNORECASE)


def has_deprecation_mark(words: list[str]) -> bool:
    return any(_DEPRECATION_MARK.match(w) for w in words)


def documented_deprecated(doc: str) -> bool:
    return bool(_DOC_DEPRECATED.search(doc))


def documented_experimental(doc: str) -> bool:
    return bool(_DOC_EXPERIMENTAL.search(doc))


def documented_beta(doc: str) -> bool:
    return bool(_DOC_BETA.search(doc))


def named_successor(words: list[str], doc: str) -> str:
    """The name a deprecation message (a string among ``words``) or the doc comment says to use instead."""
    m = _SUCCESSOR.search(" ".join(w for w in words if w.startswith('"')) + " " + doc)
    return m.group(1) if m else ""
