"""Whether a run passed: its exit status, the program's own verdict where it prints one, and, where a reference
output exists, its output against it, numbers within the tolerance the program states."""

from __future__ import annotations

import math
import re

_VERDICT = re.compile(r"\b(PASS(?:ED)?|FAIL(?:ED|URE)?)\b")
_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:inf|nan)\b", re.IGNORECASE)


def own_verdict(output: str) -> str | None:
    """The program's own verdict, "PASS" or "FAIL", where it prints one (its last such word; HeCBench prints PASS
    or FAIL), else None."""
    words = _VERDICT.findall(output)
    if not words:
        return None
    return "PASS" if words[-1].startswith("PASS") else "FAIL"


def _split(text: str) -> list[str]:
    """Text and numbers in turn (numbers at odd positions)."""
    parts: list[str] = []
    at = 0
    for match in _NUMBER.finditer(text):
        parts += [text[at : match.start()], match.group(0)]
        at = match.end()
    return [*parts, text[at:]]


def _close(a: str, b: str, tolerance: float) -> bool:
    if a == b:
        return True
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return math.isclose(x, y, rel_tol=tolerance, abs_tol=tolerance)


def output_matches(output: str, expected: str, tolerance: float = 0.0) -> bool:
    """``output`` equals ``expected`` line by line (blanks at the ends aside); with ``tolerance`` > 0, numbers may
    differ by that much (relative, or absolute near zero) and the text between them must be equal."""
    got, want = output.strip().splitlines(), expected.strip().splitlines()
    if len(got) != len(want):
        return False
    for line, ref in zip(got, want, strict=True):
        if line.rstrip() == ref.rstrip():
            continue
        if tolerance <= 0:
            return False
        a, b = _split(line.rstrip()), _split(ref.rstrip())
        if len(a) != len(b):
            return False
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            if (k % 2 == 0 and x != y) or (k % 2 == 1 and not _close(x, y, tolerance)):
                return False
    return True


def judge(exit_status: int, output: str, expected: str | None, tolerance: float = 0.0) -> tuple[bool, str]:
    """(passed, why not): the exit status, then the program's verdict, then the output against ``expected``."""
    if exit_status != 0:
        return False, f"exit status {exit_status}"
    if own_verdict(output) == "FAIL":
        return False, "the program says FAIL"
    if expected is not None and not output_matches(output, expected, tolerance):
        return False, "output differs from the reference" + (f" (tolerance {tolerance:g})" if tolerance else "")
    return True, ""
