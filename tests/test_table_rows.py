"""One generated check over every table row, per family (regex engine, default options): a row whose target may be
emitted is renamed (transform rows take their documented form); any other row is left as written with exactly one
diagnostic, the one the planner's decision names."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import replace

import pytest

from hipify import translate
from hipify.knowledge.codes import ROCM_DEPENDENT, UNCONVERTED_CODES
from hipify.knowledge.table import Row, load_table
from hipify.options import Options
from hipify.rewrite.availability import compat_provided
from hipify.rewrite.build_target import ASSUMED
from hipify.rewrite.index import index_of
from hipify.rewrite.status import decide

OPTIONS = Options(engine="regex", use_cache=False, warn_unknown=False)
_MARK = re.compile(r"/\*R(\d+)\*/")


def _uses(row: Row) -> list[tuple[str, str]]:
    """(code line, what the translated line must contain) for the row's uses; '' = left as written."""
    t = row.transform
    name = row.cuda
    if t is not None and t.kind == "wrap_arg":
        args = ", ".join(f"a{k}" for k in range(t.arg + 1))
        return [(f"{name}({args});", f"{t.wrapper}(a{t.arg})")]
    if t is not None and t.kind == "defined_only":  # renamed where its definition is tested (#ifdef NAME)
        return [(f"#if defined({name})", "")]
    if t is not None and t.kind == "by_arity":
        return [(f"{name}({', '.join(f'a{k}' for k in range(n))});", f"{target}(") for n, target in t.arity]
    return [(f"(void){name};", "")]


def _signature_finding(row: Row) -> str:
    """The code a use of a function row whose HIP target does not take CUDA 13's call gets ('' for none)."""
    if row.transform is not None and row.transform.kind == "by_arity":
        return ""
    if row.hip_signature == "differs":
        return "HPY112"
    return "HPY113" if row.hip_signature in ("older", "newer") else ""


def _rows_by_api() -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = defaultdict(list)
    for row in load_table():
        if row.kind in ("header", "namespace"):
            continue  # include lines and namespace prefixes: their own tests
        out[row.api].append(row)
    return out


BY_API = _rows_by_api()


@pytest.mark.parametrize("rocm", [(6, 4), (7, 2)], ids=["rocm6.4", "rocm7.2"])
@pytest.mark.parametrize("api", sorted(BY_API))
def test_every_row(api: str, rocm: tuple[int, int]) -> None:
    options = replace(OPTIONS, rocm_version=rocm)
    table = load_table().at_rocm(rocm)  # as a run for the release reads it
    releases = index_of(table).releases
    compat = compat_provided(options)
    lines, expected = ["void hipify_rows() {"], []
    line_of: dict[int, int] = {}  # source line (1-based) -> use
    for row in (table.by_name[r.cuda] for r in BY_API[api]):
        for code, form in _uses(row):
            expected.append((row, form))
            mark = f"/*R{len(expected) - 1}*/"
            lines.append(f"{code} {mark}" if code.startswith("#") else f"{mark} {code}")
            line_of[len(lines)] = len(expected) - 1
            if code.startswith("#"):
                lines.append("#endif")
    source = "\n".join(lines) + "\n}\n"
    result = translate(source, path=f"rows_{api}.cu", options=options, table=table)
    out = {int(m.group(1)): line for line in result.text.splitlines() if (m := _MARK.search(line))}
    diagnostics = defaultdict(list)
    for d in result.diagnostics:
        if d.line in line_of:
            diagnostics[line_of[d.line]].append(d)
    problems = []
    for k, (row, form) in enumerate(expected):
        decision = decide(row, options, releases)
        line = out.get(k, "")
        name = re.escape(row.cuda.rsplit("::", 1)[-1])
        still = re.search(rf"(?<![\w:]){re.escape(row.cuda)}(?!\w)", line) is not None
        codes = [
            d.code
            for d in diagnostics[k]
            if (d.subject in ("", row.cuda) or re.search(name, d.message)) and d.code != ROCM_DEPENDENT
        ]  # a note that another release translates it otherwise (HPY022) says nothing of this release's
        assumed = ASSUMED.get(row.cuda)
        if assumed is not None and assumed.device is not None and row.transform is None:
            # a version macro HIP leaves undefined, used for its value: the build's number (HPY019)
            if still or str(assumed.device) not in line or codes != ["HPY019"]:
                problems.append(f"{row.cuda}: expected {assumed.device} with one HPY019, got {line!r} {codes}")
        elif row.cuda in compat:  # the compatibility header provides it: kept as written, not reported as unconverted
            if not still or set(codes) & UNCONVERTED_CODES:
                problems.append(f"{row.cuda}: expected it kept for the compatibility header, got {line!r} {codes}")
        elif decision.target or (row.transform is not None and row.transform.kind == "remove"):
            target = form or decision.target
            if (target and target not in line) or (decision.target != row.cuda and still and not form):
                problems.append(f"{row.cuda}: expected {target!r}, got {line!r}")
            finding = _signature_finding(row)
            if finding and codes.count(finding) != 1:
                problems.append(f"{row.cuda}: expected one {finding} (signature {row.hip_signature}), got {codes}")
        else:
            if not still or codes != [decision.code]:
                problems.append(f"{row.cuda}: expected it kept with one {decision.code}, got {line!r} {codes}")
    assert not problems, f"{len(problems)} of {len(expected)} {api} rows:\n" + "\n".join(problems[:30])
