"""What a translation is respelled with before HIP-CPU builds it, in forms HIP gives the same meaning.

``extern __shared__ T name[];`` (dynamic shared memory sized at launch) becomes ``HIP_DYNAMIC_SHARED(T, name)``:
HIP defines that macro as the extern array on AMD, and HIP-CPU, whose ``__shared__`` is ``thread_local``, can
only give the launch's dynamic shared memory through it (an extern thread_local array is never defined).
"""

from __future__ import annotations

import re

_DYNAMIC_SHARED = re.compile(
    r"^(?P<indent>[ \t]*)extern\s+__shared__\s+(?:__align__\s*\(\s*\w+\s*\)\s+|alignas\s*\(\s*\w+\s*\)\s+)?"
    r"(?P<type>[A-Za-z_][\w:\s<>*]*?)\s*(?P<stars>\**)\s*(?P<name>[A-Za-z_]\w*)\s*\[\s*\]\s*;",
    re.MULTILINE,
)


def respell_dynamic_shared(text: str) -> str:
    """``text`` with each ``extern __shared__`` array declared through HIP_DYNAMIC_SHARED."""

    def one(match: re.Match[str]) -> str:
        type_ = " ".join((match.group("type") + match.group("stars")).split())
        if "," in type_:  # a macro argument cannot hold a comma: left for the compiler to name
            return match.group(0)
        return f"{match.group('indent')}HIP_DYNAMIC_SHARED({type_}, {match.group('name')})"

    return _DYNAMIC_SHARED.sub(one, text)
