"""Conversion switches: `case A: return B;` and `case A: out = B; break;` pairs (HIP's NVIDIA backend converts
enum values this way)."""

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
