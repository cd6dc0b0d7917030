"""When a parameter of the target takes what the translated call passes although the canonical types differ: a
qualification conversion (``T*`` to ``const T*``, ``T**`` to ``const T* const*``), or an arithmetic value the
parameter holds whole: an integer of the same width or wider, either signedness (``long long`` to ``int64_t``,
which is ``long`` on LP64 Linux; ``int`` flags to ``uint64_t``), ``float`` to ``double``. C++ converts these
implicitly in a call; a narrower parameter would compile too, but could change the value, so it differs."""

from __future__ import annotations

import re

# LP64 (Linux) widths of the integer spellings clang's canonical types use
_INTEGERS = {
    "char": (8, True),
    "signed char": (8, True),
    "unsigned char": (8, False),
    "short": (16, True),
    "unsigned short": (16, False),
    "int": (32, True),
    "unsigned int": (32, False),
    "long": (64, True),
    "unsigned long": (64, False),
    "long long": (64, True),
    "unsigned long long": (64, False),
}
_FLOATS = {"float": 32, "double": 64, "long double": 128}
_LEVEL = re.compile(r"\s*\*\s*")


def _levels(spelling: str) -> list[tuple[str, bool]]:
    """``const char *const *`` -> [('char', True), ('', True), ('', False)]: each level's text without const
    and whether it is const, innermost (the pointee base) first; one level per '*'."""
    if "(" in spelling or "[" in spelling:
        return [(spelling, False)]
    out = []
    for part in _LEVEL.split(spelling):
        words = part.split()
        out.append((" ".join(w for w in words if w != "const"), "const" in words))
    return out


def accepts(takes: str, passes: str) -> bool:
    """Does a parameter of canonical type ``takes`` accept an argument of canonical type ``passes``?"""
    if takes == passes:
        return True
    if takes in _INTEGERS and passes in _INTEGERS:
        return _INTEGERS[takes][0] >= _INTEGERS[passes][0]
    if takes in _FLOATS and passes in _FLOATS:
        return _FLOATS[takes] >= _FLOATS[passes]
    have, want = _levels(takes), _levels(passes)
    if len(have) != len(want) or len(have) < 2 or [t for t, _ in have] != [t for t, _ in want]:
        return False
    # [conv.qual]: const may be added at a level only if every level between it and the outermost pointer is
    # const in the target too; the outermost level (the parameter itself) does not matter
    inner = len(have) - 1
    for k in range(inner):
        if want[k][1] and not have[k][1]:
            return False  # drops a const
        if have[k][1] and not want[k][1] and not all(have[j][1] for j in range(k + 1, inner)):
            return False
    return True
