"""Conversion switches: `case A: return B;` and `case A: out = B; break;` pairs (HIP's NVIDIA backend converts
enum values this way), and migration switches `case A: case B: *out = c ? X : Y;` (CUDA's C++ wrappers that accept
an older enum's values convert them this way: cuBLAS's cudaDataType compute types)."""

from __future__ import annotations

from .tokens import Token


def case_pairs(toks: list[Token]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for k in range(len(toks) - 5):
        if toks[k].text != "case" or toks[k + 1].kind != "ident":
            continue
        j = k + 2
        if toks[j].text != ":":
            continue
        j += 1
        if toks[j].text == "return" and toks[j + 1].kind == "ident" and toks[j + 2].text == ";":
            out.append((toks[k + 1].text, toks[j + 1].text))
        elif (
            j + 4 < len(toks)
            and toks[j].kind == "ident"
            and toks[j + 1].text == "="
            and toks[j + 2].kind == "ident"
            and toks[j + 3].text == ";"
        ):
            out.append((toks[k + 1].text, toks[j + 2].text))
    return out


def migration_pairs(toks: list[Token]) -> list[tuple[str, str]]:
    """(old value, new value) for each `case A: [case B: ...] *out = [cond ? X :] Y;` of a switch: the value stored
    through the output pointer, the conditional's last branch where there is one (its default: cuBLAS stores the
    pedantic compute type only under a math mode the handle must have been given)."""
    out: list[tuple[str, str]] = []
    labels: list[str] = []
    k = 0
    n = len(toks)
    while k < n:
        if toks[k].text == "case" and k + 2 < n and toks[k + 1].kind == "ident" and toks[k + 2].text == ":":
            labels.append(toks[k + 1].text)
            k += 3
            continue
        if labels:
            value = _stored_value(toks, k)
            if value:
                out.extend((label, value) for label in labels)
        labels = []
        k += 1
    return out


def _stored_value(toks: list[Token], k: int) -> str:
    """The value of `*out = Y;` or `*out = c ? X : Y;` starting at ``toks[k]``; '' for any other statement."""
    if not (k + 4 < len(toks) and toks[k].text == "*" and toks[k + 1].kind == "ident" and toks[k + 2].text == "="):
        return ""
    rest = toks[k + 3 : k + 9]
    texts = [t.text for t in rest]
    if len(rest) >= 2 and rest[0].kind == "ident" and texts[1] == ";":
        return rest[0].text
    if len(rest) == 6 and texts[1] == "?" and texts[3] == ":" and texts[5] == ";" and rest[4].kind == "ident":
        return rest[4].text
    return ""
